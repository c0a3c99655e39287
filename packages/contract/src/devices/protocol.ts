/**
 * The device protocol's limits, which both ends enforce, and what a `sync` command carries. The
 * wire format itself (envelope, signature, TOTP) lives in apps/server/src/device-link/protocol.ts,
 * which the server and the simulator share.
 */
import { z } from 'zod';
import { spaceModes } from './operations.ts';

/** A device's serial number: 1–64 of `A-Z a-z 0-9 _ -` (it is also its MQTT client id and username). */
export const DEVICE_SN_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Largest message payload either side accepts. */
export const DEVICE_MAX_PAYLOAD_BYTES = 256 * 1024;
/** A message whose `ts` is further than this from the receiver's clock is refused. */
export const DEVICE_CLOCK_WINDOW_MS = 60_000;
/** A message id seen within this long is a replay. */
export const DEVICE_REPLAY_WINDOW_MS = 10 * 60_000;
/** A command not acked within this long has failed. */
export const DEVICE_ACK_TIMEOUT_MS = 5_000;
/** Devices send a heartbeat this often; none for three periods means offline. */
export const DEVICE_HEARTBEAT_MS = 30_000;
export const DEVICE_OFFLINE_AFTER_MS = 90_000;
/** Device admin passwords: keypad digits, a few per device. */
export const ADMIN_PASSWORD_MIN_DIGITS = 6;
export const ADMIN_PASSWORD_MAX_DIGITS = 12;
export const MAX_ADMIN_PASSWORDS = 10;
export const MAX_CARD_RULES = 1000;
export const CARD_NO_PATTERN = /^[A-Za-z0-9]{4,32}$/;

/** `open-door` durations, seconds. */
export const OPEN_DOOR_MIN_S = 1;
export const OPEN_DOOR_MAX_S = 30;
export const OPEN_DOOR_DEFAULT_S = 5;

/** A booking opens its room's doors from this long before its start to this long after its end. */
export const ACCESS_BOOKING_MARGIN_MS = 15 * 60_000;

/** `13800000000` → `138****0000`, as the access list and the open log show a member. */
export function maskPhone(phone: string): string {
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone;
}

/** A card's rule: the card opens the door from `validFrom` to `validTo` (ms since the epoch). */
export const cardRule = z.object({ cardNo: z.string(), validFrom: z.number(), validTo: z.number() });
export type CardRule = z.output<typeof cardRule>;

/**
 * What a `sync` command carries besides `now`: who may open the door and until when (ms since the
 * epoch), the admin passwords' hashes and the card rules. The server builds it, a device (the
 * simulator too) reads it with this schema.
 */
export const deviceSyncParams = z.object({
  access: z.array(
    z.object({ memberId: z.number(), phone: z.string(), validFrom: z.number(), validTo: z.number() }),
  ),
  // v1 devices get SHA-256, v1.1 devices salted PBKDF2 (the v1.1 protocol keeps no plain hash).
  adminPasswords: z.array(
    z.union([
      z.object({ id: z.string(), sha256: z.string() }),
      z.object({ id: z.string(), salt: z.string(), iterations: z.number(), pbkdf2: z.string() }),
    ]),
  ),
  cardRules: z.array(cardRule),
  /**
   * v1.1: the state's version (one more at each change of access, passwords, card rules or mode),
   * the space's mode, and until when (ms) the device may admit `access` and `cardRules` offline.
   * A v1 device ignores them.
   */
  version: z.number().int().optional(),
  mode: z.enum(spaceModes).optional(),
  validUntil: z.number().optional(),
});
export type DeviceAccessState = z.output<typeof deviceSyncParams>;
