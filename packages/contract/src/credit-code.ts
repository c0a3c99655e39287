/**
 * 统一社会信用代码 (GB 32100-2015): 18 characters from 0–9 and the upper-case letters but I, O, Z, S
 * and V; the last is a check character computed from the first 17 (weights 3^i mod 31). And the
 * taxpayer number (税号) of invoices and companies. Free of zod, so the console's forms run the same
 * checks (the zod schemas are in resources/company.ts and resources/invoice.ts).
 */
import type { Check } from './checks.ts';

const CHARSET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
export const CREDIT_CODE_LENGTH = 18;
const SHAPE = /^[0-9A-HJ-NPQRTUWXY]{18}$/;

export const creditCodeMessages = {
  required: '请填写统一社会信用代码',
  shape: '须为 18 位数字或大写字母（不含 I、O、Z、S、V），请按营业执照核对后重试',
  checkDigit: '校验位不正确，请按营业执照逐位核对后重试',
} as const;

/** A taxpayer number: 15–20 upper-case letters or digits (the unified social credit code has 18). */
export const TAX_NO_PATTERN = /^[0-9A-Z]{15,20}$/;
export const taxNoMessages = {
  required: '企业抬头须填写税号',
  invalid: '税号须为 15–20 位大写字母或数字（统一社会信用代码为 18 位），请核对后重试',
  specialNeedsCompany: '增值税专用发票只能开给企业抬头，请将抬头类型改为企业或改开普通发票',
};

/** The check character the first 17 characters call for. */
export function creditCodeCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += CHARSET.indexOf(first17[i]) * WEIGHTS[i];
  return CHARSET[(31 - (sum % 31)) % 31];
}

/** What is wrong with a credit code (its message), or undefined when it is valid. */
export function creditCodeProblem(code: string): string | undefined {
  if (!SHAPE.test(code)) return creditCodeMessages.shape;
  return creditCodeCheckChar(code) === code[17] ? undefined : creditCodeMessages.checkDigit;
}

export const isCreditCode = (code: string) => creditCodeProblem(code) === undefined;

/** The optional form rule: checked only when a value is given (lower case is taken as upper). */
export const checkOptionalCreditCode: Check = (v) => {
  if (v === undefined || v === null || String(v).trim() === '') return undefined;
  return creditCodeProblem(String(v).trim().toUpperCase());
};
