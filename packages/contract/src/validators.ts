/**
 * Validation rules of spec point 5, defined once. The web wraps them as antd form rules
 * (apps/web/src/lib/rules.ts); the server uses the zod schemas in request bodies.
 */
import { z } from 'zod';
import {
  EMAIL_PATTERN,
  ID_CARD_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PHONE_PATTERN,
} from './constants.ts';
import { messages } from './messages.ts';

/** A check returns the Chinese message of the first rule the value breaks, or undefined. */
export type Check = (value: unknown) => string | undefined;

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

export const checkUsername: Check = (v) => (isBlank(v) ? messages.usernameRequired : undefined);

/** Required password; the length bounds apply to new passwords (8 to 64 characters, taken as typed). */
export const checkNewPassword: Check = (v) => {
  if (isBlank(v)) return messages.passwordRequired;
  const length = [...String(v)].length;
  if (length < PASSWORD_MIN_LENGTH) return messages.passwordTooShort;
  if (length > PASSWORD_MAX_LENGTH) return messages.passwordTooLong;
  return undefined;
};

export const checkPhone: Check = (v) => {
  if (isBlank(v)) return messages.phoneRequired;
  return PHONE_PATTERN.test(String(v)) ? undefined : messages.phoneInvalid;
};

/** The optional variant: the format is checked only when a value is given. */
export const checkOptionalPhone: Check = (v) => (isBlank(v) ? undefined : checkPhone(v));

export const checkEmail: Check = (v) => {
  if (isBlank(v)) return messages.emailRequired;
  return EMAIL_PATTERN.test(String(v)) ? undefined : messages.emailInvalid;
};

export const checkOptionalEmail: Check = (v) => (isBlank(v) ? undefined : checkEmail(v));

export const checkIdCard: Check = (v) => {
  if (isBlank(v)) return messages.idCardRequired;
  return String(v).length === ID_CARD_LENGTH ? undefined : messages.idCardInvalid;
};

/** A date range needs two non-empty values. */
export const checkDateRange: Check = (v) =>
  Array.isArray(v) && v.length === 2 && !isBlank(v[0]) && !isBlank(v[1])
    ? undefined
    : messages.dateRangeRequired;

/** Removes fields that are null, undefined or an empty string before a payload is sent. */
export function cleanPayload<T extends Record<string, unknown>>(payload: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(payload).filter(([, v]) => v !== null && v !== undefined && v !== ''),
  ) as Partial<T>;
}

/** Options of an upload control: allowed extensions (without dot), maximum size in KB, multiple. */
export const uploadOptions = z.object({
  accept: z.array(z.string()).optional(),
  maxSizeKb: z.number().positive().optional(),
  multiple: z.boolean().default(false),
});
export type UploadOptions = z.input<typeof uploadOptions>;

/** Checks one chosen file against the upload options; returns the message to show, or undefined. */
export function checkUpload(
  file: { name: string; size: number },
  options: UploadOptions,
): string | undefined {
  const extension = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  const accept = options.accept?.map((a) => a.replace(/^\./, '').toLowerCase());
  if (accept?.length && !accept.includes(extension)) {
    return messages.uploadBadType + accept.join('、');
  }
  if (options.maxSizeKb !== undefined && file.size > options.maxSizeKb * 1024) {
    return messages.uploadTooLarge.replace('{max}', String(options.maxSizeKb));
  }
  return undefined;
}

/** Turns a check into a zod refinement so the server answers with the same sentence. */
export const fromCheck = (check: Check) =>
  z.unknown().superRefine((value, ctx) => {
    const message = check(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

export const phoneSchema = z.string().regex(PHONE_PATTERN, messages.phoneInvalid);
export const emailSchema = z.string().regex(EMAIL_PATTERN, messages.emailInvalid);
export const idCardSchema = z.string().length(ID_CARD_LENGTH, messages.idCardInvalid);
export const newPasswordSchema = z
  .string({ error: messages.passwordRequired })
  .min(1, messages.passwordRequired)
  .refine((v) => [...v].length >= PASSWORD_MIN_LENGTH, messages.passwordTooShort)
  .refine((v) => [...v].length <= PASSWORD_MAX_LENGTH, messages.passwordTooLong);
