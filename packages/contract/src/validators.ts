/**
 * The zod schemas of the shared validation rules (phone, email, ID card, new password, ids and
 * numbers from a query string), which the server uses in request bodies and the console's forms run
 * through the resource fields. The plain checks behind the same sentences are in checks.ts, which
 * the console imports without zod.
 */
import { z } from 'zod';
import {
  EMAIL_PATTERN,
  ID_CARD_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PHONE_PATTERN,
} from './constants.ts';
import { isGuessablePassword } from './checks.ts';
import { messages } from './messages.ts';

// Messages zod writes itself (a wrong type on a field without its own message) are in Chinese on both
// ends: the server and the console's forms import the contract, so this runs in each.
z.config(z.locales.zhCN());

/** PostgreSQL `integer`: the type of every id and whole-number column. */
export const INT32_MAX = 2_147_483_647;

export { keysOf } from './objects.ts';

/**
 * The values of an enumeration declared as options (value + Chinese label), as the non-empty tuple
 * `z.enum` takes: each enumeration is declared once, as its options, and its schema comes from them.
 */
export const valuesOf = <const V extends string>(
  options: readonly [{ value: V }, ...{ value: V }[]],
): [V, ...V[]] => {
  const [first, ...rest] = options;
  return [first.value, ...rest.map((o) => o.value)];
};

/**
 * A number from JSON or a query string: a number as it is, a string of digits (with an optional
 * sign and decimals) as its number; anything else — `true`, `''`, `[5]`, `' 5'`, `1e3` — goes to
 * the schema as it came and is refused there with the field's own message. (z.coerce took `true`
 * as 1 and `''` as 0.)
 */
export const numeric = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v), schema);

/**
 * An optional value: empty ('' from a cleared input, null, absent) is null; anything else must pass
 * `base`, whose own message then names the field (a union with '' answered zod's "Invalid input").
 */
export const blankAsNull = <T extends z.ZodType>(base: T) =>
  z.preprocess((value) => (value === '' ? null : value), base.nullish());

/** A positive id within the integer range, from JSON or a query string. */
export const idOf = (message = '编号必须是正整数') =>
  numeric(z.number({ error: message }).int(message).positive(message).max(INT32_MAX, message));

export const phoneSchema = z.string().regex(PHONE_PATTERN, messages.phoneInvalid);
export const emailSchema = z.string().regex(EMAIL_PATTERN, messages.emailInvalid);
export const idCardSchema = z.string().length(ID_CARD_LENGTH, messages.idCardInvalid);
export const newPasswordSchema = z
  .string({ error: messages.passwordRequired })
  .min(1, messages.passwordRequired)
  .refine((v) => [...v].length >= PASSWORD_MIN_LENGTH, messages.passwordTooShort)
  .refine((v) => [...v].length <= PASSWORD_MAX_LENGTH, messages.passwordTooLong)
  .refine((v) => !isGuessablePassword(v), messages.passwordGuessable);
