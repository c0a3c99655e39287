/**
 * What the device link's unit tests share: a migrated database of their own (no demo data), a
 * logger whose lines they can read, a secret box, and registered devices.
 */
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { DbHandle } from '../../src/db/client.ts';
import { devices } from '../../src/db/schema.ts';
import { secretBox } from '../../src/lib/secret-box.ts';
import { openTestDatabase } from '../helper.ts';

export const box = secretBox('device-link-unit-test-secret-key');

/** A logger that keeps what it writes at warn and above, as parsed JSON lines. */
export function capturedLog() {
  const lines: { msg?: string; sn?: string }[] = [];
  const log = Fastify({
    logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
  }).log;
  return { log, lines };
}

/** A database for this test file, opened before its tests and closed after them. */
export function useDatabase() {
  const ref: { handle?: DbHandle } = {};
  beforeAll(async () => {
    ref.handle = await openTestDatabase();
  });
  afterAll(async () => {
    await ref.handle?.close();
  });
  return () => {
    if (!ref.handle) throw new Error('the database opens before the tests');
    return ref.handle.db;
  };
}

/** A unique sn for one test. */
export const snOf = (label: string) => `UNIT-${label}-${randomBytes(3).toString('hex')}`;

/** Registers a device; answers its row as the link's commands take it, with its secret in clear. */
export async function addDevice(
  db: DbHandle['db'],
  options: {
    sn?: string;
    status?: 'online' | 'offline';
    cardRules?: { cardNo: string; validFrom: number; validTo: number }[];
  } = {},
) {
  const secret = randomBytes(24).toString('base64url');
  const sn = options.sn ?? snOf('D');
  const [row] = await db
    .insert(devices)
    .values({
      sn,
      name: `门 ${sn}`,
      secret: box.seal(secret),
      status: options.status ?? 'online',
      cardRules: options.cardRules ?? [],
    })
    .returning({
      id: devices.id,
      sn: devices.sn,
      name: devices.name,
      secret: devices.secret,
      status: devices.status,
    });
  return { ...row, plain: secret };
}
