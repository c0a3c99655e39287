/**
 * antd form rules built from the contract's checks, so the console and the server
 * answer with the same sentences. Use as `<Form.Item name="phone" rules={rules.phone}>`.
 */
import type { FormRule } from 'antd';
import {
  checkDateRange,
  checkEmail,
  checkIdCard,
  checkNewPassword,
  checkOptionalEmail,
  checkOptionalPhone,
  checkPhone,
  checkUsername,
  messages,
  type Check,
} from '@cowork/contract';

/** One antd rule running a contract check; `required` only draws the asterisk. */
export function ruleFrom(
  check: Check,
  options: { required?: boolean; validateTrigger?: string | string[] } = {},
): FormRule {
  return {
    required: options.required,
    validateTrigger: options.validateTrigger,
    validator: (_rule, value: unknown) => {
      const problem = check(value);
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  };
}

/** The length bounds of a new password, for a value that is not blank. */
const checkNewPasswordLength: Check = (value) =>
  value === undefined || value === null || value === '' ? undefined : checkNewPassword(value);

export const rules = {
  username: [ruleFrom(checkUsername, { required: true })],
  /** Required on blur with 请输入密码, plus the contract's length check. */
  newPassword: [
    { required: true, message: messages.passwordRequired, validateTrigger: 'onBlur' },
    ruleFrom(checkNewPasswordLength),
  ] satisfies FormRule[],
  phone: [ruleFrom(checkPhone, { required: true })],
  optionalPhone: [ruleFrom(checkOptionalPhone)],
  email: [ruleFrom(checkEmail, { required: true })],
  optionalEmail: [ruleFrom(checkOptionalEmail)],
  idCard: [ruleFrom(checkIdCard, { required: true })],
  dateRange: [ruleFrom(checkDateRange, { required: true })],
  /** A range filter: empty is fine, a range must have both ends, as for a required range. */
  dateRangeOptional: [ruleFrom((v) => (v === null || v === undefined ? undefined : checkDateRange(v)))],
} satisfies Record<string, FormRule[]>;
