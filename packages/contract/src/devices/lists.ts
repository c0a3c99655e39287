/**
 * A device's admin passwords and card rules: kept by the server, synced to the device at once, and
 * listed as last synced. Each change answers whether the device has it yet.
 */
import { z } from 'zod';
import { numeric } from '../validators.ts';
import { requiredReason } from './commands.ts';
import { deviceIdBody } from './device.ts';
import { deviceMessages } from './messages.ts';
import {
  ADMIN_PASSWORD_MAX_DIGITS,
  ADMIN_PASSWORD_MIN_DIGITS,
  CARD_NO_PATTERN,
  cardRule,
} from './protocol.ts';

const passwordDigits = new RegExp(`^\\d{${ADMIN_PASSWORD_MIN_DIGITS},${ADMIN_PASSWORD_MAX_DIGITS}}$`);

/** A moment as ms since the epoch (a card rule's bounds). */
const msTime = (label: string) =>
  numeric(
    z
      .number({ error: `请填写${label}` })
      .int(`${label}格式不正确`)
      .min(0)
      .max(8_640_000_000_000_000),
  );

/** A row of `device/admin-pwd-list`; `needsReentry`: saved before PBKDF2, so a v1.1 device lacks it. */
export const adminPasswordRow = z.object({ id: z.string(), sha256: z.string(), needsReentry: z.boolean() });
export type AdminPasswordRow = z.output<typeof adminPasswordRow>;
/** A row of `device/card-rule-list`. */
export const cardRuleRow = cardRule;
export type CardRuleRow = z.output<typeof cardRuleRow>;

export const adminPasswordSaveBody = deviceIdBody.extend({
  password: z
    .string({ error: deviceMessages.passwordInvalid })
    .regex(passwordDigits, deviceMessages.passwordInvalid),
  reason: requiredReason,
});
export const adminPasswordRemoveBody = deviceIdBody.extend({
  pwdId: z.string().min(1).max(32),
  reason: requiredReason,
});
export const cardRuleSaveBody = deviceIdBody
  .extend({
    cardNo: z
      .string({ error: deviceMessages.cardNoRequired })
      .min(1, deviceMessages.cardNoRequired)
      .regex(CARD_NO_PATTERN, deviceMessages.cardNoInvalid),
    validFrom: msTime('生效时间'),
    validTo: msTime('失效时间'),
  })
  .refine((b) => b.validTo > b.validFrom, { error: deviceMessages.cardRangeInvalid, path: ['validTo'] });
export const cardRuleRemoveBody = deviceIdBody.extend({ cardNo: z.string().min(1).max(32) });

/** The answer of a list change: whether the device has it, and if not why (its msg says so too). */
export const deviceListChanged = z.object({ synced: z.boolean(), pending: z.string().nullable() });
export type DeviceListChanged = z.output<typeof deviceListChanged>;
/** `admin-pwd/save`'s answer also names the new password's id. */
export const adminPasswordSaved = deviceListChanged.extend({ pwdId: z.string() });
