/**
 * device-link/alarms.ts on its own: the params the protocol fixes, and what one batch of events
 * writes (a raise, its clear before it, the same ids again) with no broker in between.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DbHandle } from '../../src/db/client.ts';
import { deviceAlarmClears, deviceAlarms, devices } from '../../src/db/schema.ts';
import { alarmOf, createAlarmEvents } from '../../src/device-link/alarms.ts';
import { seal } from '../../src/device-link/protocol.ts';
import { openTestDatabase } from '../helper.ts';

let handle: DbHandle;
let device: { id: number; name: string };
const sn = 'UNIT-ALARM';

beforeAll(async () => {
  handle = await openTestDatabase();
  const [row] = await handle.db
    .insert(devices)
    .values({ sn, name: '单元门', secret: 'unused' })
    .returning({ id: devices.id, name: devices.name });
  device = row;
});
afterAll(() => handle?.close());

const event = (params: Record<string, unknown>, id = randomUUID()) =>
  seal('alarm', params, 'k', Date.now(), id);

test('params: each kind and state of the protocol, `at` a number, detail an optional text of at most 200', () => {
  expect(alarmOf({ kind: 'held-open', state: 'raised', at: 1 })).toEqual({
    kind: 'held-open',
    state: 'raised',
    at: 1,
    detail: null,
  });
  expect(alarmOf({ kind: 'fault', state: 'cleared', at: 1, detail: 'x'.repeat(200) })?.detail).toHaveLength(
    200,
  );
  for (const wrong of [
    { kind: 'fire', state: 'raised', at: 1 },
    { kind: 'fault', state: 'open', at: 1 },
    { kind: 'fault', state: 'raised' },
    { kind: 'fault', state: 'raised', at: Number.NaN },
    { kind: 'fault', state: 'raised', at: 1, detail: 'x'.repeat(201) },
    { kind: 'fault', state: 'raised', at: 1, detail: null },
  ])
    expect(alarmOf(wrong)).toBeUndefined();
});

test('one batch: a clear before its raise, the raise, and both again; out-of-range and wrong events refused', async () => {
  const alarms = createAlarmEvents({ db: handle.db });
  const now = Date.now();
  const clear = event({ kind: 'power', state: 'cleared', at: now - 1_000 });
  const raise = event({ kind: 'power', state: 'raised', at: now - 5_000 });
  expect(await alarms.record(device, sn, clear)).toBeUndefined();
  expect(await handle.db.select().from(deviceAlarmClears)).toHaveLength(1);
  const [a, b, c] = await Promise.all([
    alarms.record(device, sn, raise),
    alarms.record(device, sn, raise),
    alarms.record(device, sn, clear),
  ]);
  expect([a, b, c]).toEqual([undefined, 'replayed', 'replayed']);
  const rows = await handle.db.select().from(deviceAlarms).where(eq(deviceAlarms.sn, sn));
  expect(rows.map((r) => [r.messageId, r.state, r.clearedMessageId])).toEqual([
    [raise.id, 'cleared', clear.id],
  ]);
  expect(await handle.db.select().from(deviceAlarmClears)).toEqual([]);
  expect(
    await alarms.record(device, sn, event({ kind: 'power', state: 'raised', at: now - 40 * 86_400_000 })),
  ).toBe('at-out-of-range');
  expect(await alarms.record(device, sn, event({ kind: 'smoke', state: 'raised', at: now }))).toBe(
    'malformed',
  );
  expect(await handle.db.select().from(deviceAlarms)).toHaveLength(1);
});
