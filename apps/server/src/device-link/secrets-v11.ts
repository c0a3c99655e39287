/**
 * Protocol v1.1's secrets that never travel in clear (docs/device-protocol.md), for both ends: the server
 * seals a reset-config's new secret (`secretBox`) and sends admin passwords as salted PBKDF2; the
 * simulator opens the box and checks a typed password against either form.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  pbkdf2,
  pbkdf2Sync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { promisify } from 'node:util';
import type { StoredAdminPassword } from '../db/schema.ts';

export type DeviceProtocol = '1' | '1.1';

/** A hello's `params.protocol`: "1.1", or absent (or anything else) for 1. */
export const protocolOf = (value: unknown): DeviceProtocol => (value === '1.1' ? '1.1' : '1');

/** The secretBox key: HMAC-SHA256(old device secret, "reset-config"), 32 bytes. */
const boxKey = (oldSecret: string) =>
  createHmac('sha256', Buffer.from(oldSecret, 'utf8')).update('reset-config').digest();

/** base64url of a 12-byte IV, the AES-256-GCM ciphertext of the new secret, its 16-byte tag. */
export function sealSecretBox(newSecret: string, oldSecret: string, iv = randomBytes(12)): string {
  const cipher = createCipheriv('aes-256-gcm', boxKey(oldSecret), iv);
  const body = Buffer.concat([cipher.update(newSecret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The new secret in a secretBox; throws when it was not sealed under this old secret. */
export function openSecretBox(box: string, oldSecret: string): string {
  const bytes = Buffer.from(box, 'base64url');
  if (bytes.length < 12 + 16 + 1) throw new Error('secretBox too short');
  const decipher = createDecipheriv('aes-256-gcm', boxKey(oldSecret), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}

/**
 * PBKDF2 rounds for admin passwords: twice the protocol's floor of 10 000. A keypad reader computes
 * it at every entry on a small processor, so this stays well under a second there; the salt makes
 * each device's table useless for the next.
 */
export const ADMIN_PASSWORD_ITERATIONS = 20_000;

const derive = (password: string, salt: string, iterations: number) =>
  pbkdf2Sync(Buffer.from(password, 'utf8'), Buffer.from(salt, 'base64url'), iterations, 32, 'sha256');

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const deriveAsync = promisify(pbkdf2);

/**
 * A password as staff enter it, kept both ways: SHA-256 for v1 devices, salted PBKDF2 for v1.1
 * (derived off the event loop: the rounds take milliseconds).
 */
export async function adminPasswordEntry(
  id: string,
  password: string,
): Promise<Required<StoredAdminPassword>> {
  const salt = randomBytes(16).toString('base64url');
  const key = await deriveAsync(
    Buffer.from(password, 'utf8'),
    Buffer.from(salt, 'base64url'),
    ADMIN_PASSWORD_ITERATIONS,
    32,
    'sha256',
  );
  return {
    id,
    sha256: sha256Hex(password),
    salt,
    iterations: ADMIN_PASSWORD_ITERATIONS,
    pbkdf2: key.toString('base64url'),
  };
}

/** Whether this stored entry was made from the same password (a duplicate is refused). */
export const samePassword = (entry: StoredAdminPassword, password: string) =>
  entry.sha256 === sha256Hex(password);

/** A v1.1 device's admin password entry on the wire. */
export interface Pbkdf2AdminPassword {
  id: string;
  salt: string;
  iterations: number;
  pbkdf2: string;
}

/**
 * The `sync.adminPasswords` a device of this protocol gets: `{id, sha256}` for v1; for v1.1
 * `{id, salt, iterations, pbkdf2}` and never a SHA-256, so entries kept before PBKDF2 (no salt) are
 * left out for v1.1 devices until staff enter them again (admin-pwd-list marks them).
 */
export function adminPasswordsFor(
  stored: readonly StoredAdminPassword[],
  protocol: DeviceProtocol,
): { id: string; sha256: string }[] | Pbkdf2AdminPassword[] {
  if (protocol === '1') return stored.map(({ id, sha256 }) => ({ id, sha256 }));
  return stored.flatMap(({ id, salt, iterations, pbkdf2: hash }) =>
    salt && iterations && hash ? [{ id, salt, iterations, pbkdf2: hash }] : [],
  );
}

/** A device's check of a typed password against one synced entry, of either form. */
export function adminPasswordAccepts(
  entry: { sha256: string } | Pbkdf2AdminPassword,
  password: string,
): boolean {
  const [expected, given] =
    'pbkdf2' in entry
      ? [Buffer.from(entry.pbkdf2, 'base64url'), derive(password, entry.salt, entry.iterations)]
      : [Buffer.from(entry.sha256, 'hex'), Buffer.from(sha256Hex(password), 'hex')];
  return expected.length === given.length && timingSafeEqual(expected, given);
}
