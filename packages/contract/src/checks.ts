/**
 * The shared validation rules (username, password, phone, email, ID card, date range, upload) as
 * plain checks answering the Chinese message to show, defined once. The module is free of zod so
 * the console can import it without the schema library: the web wraps the checks as antd form rules
 * (apps/web/src/lib/rules.ts); the server's zod schemas, with the same sentences, are in validators.ts.
 */
import {
  EMAIL_PATTERN,
  ID_CARD_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PHONE_PATTERN,
} from './constants.ts';
import { messages } from './messages.ts';
import { keysOf } from './objects.ts';

/** A check returns the Chinese message of the first rule the value breaks, or undefined. */
export type Check = (value: unknown) => string | undefined;

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

export const checkUsername: Check = (v) => (isBlank(v) ? messages.usernameRequired : undefined);

/**
 * The password to sign in with, taken as typed: only an empty one is refused (spaces may be part of
 * it, and an old password shorter than today's minimum still signs in).
 */
export const checkPassword: Check = (v) =>
  v === undefined || v === null || v === '' ? messages.passwordRequired : undefined;

/**
 * Whether a new password is too easy to guess: one kind of character only (all digits, all
 * letters) or `password` in it. The same rule for staff passwords and ADMIN_PASSWORD.
 */
export const isGuessablePassword = (value: string) =>
  [/\p{L}/u, /\p{N}/u, /[^\p{L}\p{N}]/u].filter((kind) => kind.test(value)).length < 2 ||
  /password/i.test(value);

/**
 * Required password: 8 to 64 characters (taken as typed), mixing at least two of letters, digits
 * and symbols, without `password` in it.
 */
export const checkNewPassword: Check = (v) => {
  if (isBlank(v)) return messages.passwordRequired;
  const length = [...String(v)].length;
  if (length < PASSWORD_MIN_LENGTH) return messages.passwordTooShort;
  if (length > PASSWORD_MAX_LENGTH) return messages.passwordTooLong;
  if (isGuessablePassword(String(v))) return messages.passwordGuessable;
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
  const clean: Partial<T> = {};
  for (const key of keysOf(payload)) {
    const value = payload[key];
    if (value !== null && value !== undefined && value !== '') clean[key] = value;
  }
  return clean;
}

/** Options of an upload control: allowed extensions (without dot), maximum size in KB, multiple. */
export interface UploadOptions {
  accept?: string[];
  maxSizeKb?: number;
  multiple?: boolean;
}

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
