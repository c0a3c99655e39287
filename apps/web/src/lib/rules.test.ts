import { describe, expect, it } from 'vitest';
import type { RuleObject } from 'antd/es/form';
import { messages } from '@cowork/contract';
import { rules } from './rules.ts';

/** Runs a field's rules the way antd does and returns the first message, if any. */
async function firstProblem(fieldRules: readonly unknown[], value: unknown): Promise<string | undefined> {
  for (const rule of fieldRules as RuleObject[]) {
    if (rule.validator) {
      try {
        await rule.validator(rule, value, () => {});
      } catch (error) {
        return (error as Error).message;
      }
    } else if (rule.required && (value === undefined || value === '')) {
      return String(rule.message);
    }
  }
  return undefined;
}

describe('rules', () => {
  it('wrap the contract checks', async () => {
    expect(await firstProblem(rules.username, '')).toBe(messages.usernameRequired);
    expect(await firstProblem(rules.newPassword, '')).toBe('请输入密码');
    expect(await firstProblem(rules.newPassword, 'short')).toBe(messages.passwordTooShort);
    expect(await firstProblem(rules.newPassword, 'long-enough-1')).toBeUndefined();
    expect(await firstProblem(rules.phone, '12345678901')).toBe(messages.phoneInvalid);
    expect(await firstProblem(rules.phone, '13812345678')).toBeUndefined();
    expect(await firstProblem(rules.optionalPhone, '')).toBeUndefined();
    expect(await firstProblem(rules.optionalPhone, '123')).toBe(messages.phoneInvalid);
    expect(await firstProblem(rules.email, 'a@b')).toBe(messages.emailInvalid);
    expect(await firstProblem(rules.idCard, '1234')).toBe(messages.idCardInvalid);
    expect(await firstProblem(rules.dateRange, [1, null])).toBe(messages.dateRangeRequired);
    expect(await firstProblem(rules.dateRange, ['2025-01-01', '2025-01-31'])).toBeUndefined();
  });

  it('asks for the password on blur', () => {
    expect(rules.newPassword[0]).toMatchObject({
      required: true,
      message: '请输入密码',
      validateTrigger: 'onBlur',
    });
  });
});
