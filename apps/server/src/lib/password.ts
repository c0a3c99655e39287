/** Password hashing: argon2id at (at least) the OWASP minimum of 19 MiB memory and 2 passes. */
import { randomBytes } from 'node:crypto';
import { hash, verify, type Options } from '@node-rs/argon2';

// The algorithm is the library's default, Argon2id (its Algorithm is an ambient const enum, which
// isolatedModules cannot name; the password tests check the hashes read `$argon2id$`).
const options: Options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, options);

// Made once at load so the first unknown-user sign-in is not slower than the rest.
const dummyHash = hashPassword(randomBytes(16).toString('hex'));

/**
 * Checks a password. With no stored hash (unknown user) it verifies against a throw-away hash so
 * an unknown username costs the same time as a wrong password.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
