/**
 * Secrets at rest (device secrets): AES-256-GCM under a key derived from SECRET_KEY, or from a key
 * generated once into DATA_DIR/secret.key when SECRET_KEY is unset. Stored as
 * `v1.{iv}.{ciphertext}.{tag}` (base64url), so a wrong key or a changed byte fails loudly instead of
 * answering garbage.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { textOf } from './unknown.ts';

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function secretBox(keyText: string): SecretBox {
  const key = createHash('sha256').update(keyText, 'utf8').digest();
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, body, cipher.getAuthTag()]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== 'v1' || !iv || body === undefined || !tag) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

export const SECRET_KEY_FILE = 'secret.key';

/**
 * SECRET_KEY, or the key in DATA_DIR/secret.key, created (mode 0600) when missing. `generated` says
 * whether this call created it, so the start can say so once.
 */
export function loadSecretKey(
  secretKey: string | undefined,
  dataDir: string,
): { key: string; generated: boolean; file?: string } {
  if (secretKey) return { key: secretKey, generated: false };
  const file = path.join(dataDir, SECRET_KEY_FILE);
  try {
    return { key: fs.readFileSync(file, 'utf8').trim(), generated: false, file };
  } catch (error) {
    if (textOf(error, 'code') !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, `${key}\n`, { flag: 'wx', mode: 0o600 });
    return { key, generated: true, file };
  } catch (error) {
    // Another instance on the same DATA_DIR wrote it first: use theirs.
    if (textOf(error, 'code') !== 'EEXIST') throw error;
    return { key: fs.readFileSync(file, 'utf8').trim(), generated: false, file };
  }
}
