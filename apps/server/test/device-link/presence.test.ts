/**
 * Presence alone: online and offline from `status` payloads, last seen from signed messages, the
 * sweep, with a fake background in place of the link's.
 */
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { DEVICE_OFFLINE_AFTER_MS } from '@cowork/contract';
import { devices } from '../../src/db/schema.ts';
import { createPresence } from '../../src/device-link/presence.ts';
import { addDevice, capturedLog, useDatabase } from './fixture.ts';

const db = useDatabase();

function setUp() {
  const background: Promise<unknown>[] = [];
  const presence = createPresence({
    db: db(),
    log: capturedLog().log,
    background: (_sn, work) => void background.push(work),
  });
  return { presence, background };
}

const stateOf = async (sn: string) =>
  (
    await db()
      .select({ status: devices.status, lastSeenAt: devices.lastSeenAt })
      .from(devices)
      .where(eq(devices.sn, sn))
  )[0];
const online = (value: boolean) => Buffer.from(JSON.stringify({ online: value }));

test('status online marks a device online at once; what is not a status changes nothing', async () => {
  const device = await addDevice(db(), { status: 'offline' });
  const { presence } = setUp();
  await presence.onStatus(device.sn, Buffer.from('nonsense'));
  await presence.onStatus(device.sn, Buffer.from('{"online":"yes"}'));
  expect((await stateOf(device.sn)).status).toBe('offline');
  await presence.onStatus(device.sn, online(true));
  expect(await stateOf(device.sn)).toMatchObject({ status: 'online', lastSeenAt: expect.any(Date) });
});

test('status offline is believed at once from a device not heard, later from one that was', async () => {
  const [quiet, talking] = [await addDevice(db()), await addDevice(db())];
  const t = setUp();
  await t.presence.onStatus(quiet.sn, online(false));
  expect((await stateOf(quiet.sn)).status).toBe('offline');

  // Two signed messages close together: its heartbeat interval is taken as 1 s (the floor).
  t.presence.heard(talking.sn);
  t.presence.heard(talking.sn);
  await t.presence.onStatus(talking.sn, online(false));
  expect((await stateOf(talking.sn)).status).toBe('online');
  // Checked again 1.5 intervals after the last signed message: silent since, so offline.
  const deadline = Date.now() + 5_000;
  while (t.background.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await Promise.all(t.background);
  expect((await stateOf(talking.sn)).status).toBe('offline');
  t.presence.stop();
});

test('an offline from a connection the device has replaced since (a late will) is not news', async () => {
  const device = await addDevice(db());
  const t = setUp();
  await t.presence.onStatus(device.sn, online(false), 'replaced');
  await Promise.all(t.background);
  expect((await stateOf(device.sn)).status).toBe('online');
  // The same from its connection, nothing signed heard: believed at once.
  await t.presence.onStatus(device.sn, online(false), 'current');
  expect((await stateOf(device.sn)).status).toBe('offline');
});

test('last seen of the devices heard is written in one flush; the sweep marks long-silent ones offline', async () => {
  const [heard, silent] = [await addDevice(db(), { status: 'offline' }), await addDevice(db())];
  await db()
    .update(devices)
    .set({ lastSeenAt: new Date(Date.now() - DEVICE_OFFLINE_AFTER_MS - 1_000) })
    .where(eq(devices.id, silent.id));
  const { presence } = setUp();
  presence.heard(heard.sn);
  await presence.flushSeen();
  expect(await stateOf(heard.sn)).toMatchObject({ status: 'online', lastSeenAt: expect.any(Date) });
  await presence.sweepOffline();
  expect((await stateOf(silent.sn)).status).toBe('offline');
  expect((await stateOf(heard.sn)).status).toBe('online');
});

test('markAllOffline: every device offline until heard (the embedded broker started afresh)', async () => {
  const device = await addDevice(db());
  await setUp().presence.markAllOffline();
  expect((await stateOf(device.sn)).status).toBe('offline');
});
