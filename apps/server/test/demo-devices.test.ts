/**
 * The demo's door devices (`npm start` on demo data): they register once, speak protocol v1.1, the
 * last one runs an older firmware than the others, and 告警记录 holds a month of their alarms (most
 * ended, some acknowledged with a note, a few open), a few dozen rows so the demo stays quick.
 */
import { asc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { deviceAlarms, devices } from '../src/db/schema.ts';
import { DEMO_FIRMWARE, DEMO_OLD_FIRMWARE, startDemoDevices } from '../src/device-link/demo.ts';
import { buildTestApp, type TestApp, until } from './helper.ts';

let t: TestApp;
let stop: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  t = await buildTestApp({ config: { demoDevices: 3 } });
  await t.app.ready();
});
afterAll(async () => {
  await stop();
  await t?.close();
});

test('three v1.1 demo doors come online, the last on an older firmware, with a month of alarms', async () => {
  const started = await startDemoDevices(t.app);
  stop = started.stop;
  expect(started.count).toBe(3);
  const rows = () =>
    t.db
      .select({
        id: devices.id,
        sn: devices.sn,
        status: devices.status,
        protocol: devices.protocol,
        firmware: devices.firmware,
      })
      .from(devices)
      .where(like(devices.sn, 'DEMO-%'))
      .orderBy(asc(devices.sn));
  await until(
    async () => (await rows()).every((d) => d.status === 'online' && d.protocol === '1.1'),
    'online as v1.1',
  );
  expect((await rows()).map((d) => d.firmware)).toEqual([DEMO_FIRMWARE, DEMO_FIRMWARE, DEMO_OLD_FIRMWARE]);

  const alarms = await t.db.select().from(deviceAlarms);
  expect(alarms.length).toBeGreaterThanOrEqual(15);
  expect(alarms.length).toBeLessThanOrEqual(40);
  expect(new Set(alarms.map((a) => a.kind)).size).toBe(5);
  const open = alarms.filter((a) => a.state === 'open');
  expect(open.length).toBeGreaterThanOrEqual(2);
  expect(open.length).toBeLessThanOrEqual(3);
  expect(open.every((a) => a.clearedAt === null)).toBe(true);
  const cleared = alarms.filter((a) => a.state === 'cleared');
  expect(cleared.length).toBeGreaterThan(alarms.length / 2);
  expect(cleared.every((a) => a.clearedAt! > a.raisedAt && a.clearedMessageId)).toBe(true);
  const acknowledged = alarms.filter((a) => a.acknowledgedAt);
  expect(acknowledged.length).toBeGreaterThan(0);
  expect(acknowledged.every((a) => a.note && a.acknowledgedBy === '运营专员')).toBe(true);
  const monthAgo = Date.now() - 31 * 86_400_000;
  expect(alarms.every((a) => a.raisedAt.getTime() > monthAgo && a.raisedAt.getTime() < Date.now())).toBe(
    true,
  );
  // Each door's alarms are its own, in its building.
  const ids = new Set((await rows()).map((d) => d.id));
  expect(alarms.every((a) => a.deviceId !== null && ids.has(a.deviceId) && a.buildingId !== null)).toBe(true);

  // A second start registers nothing again and writes no more alarms.
  await stop();
  const again = await startDemoDevices(t.app);
  stop = again.stop;
  expect(again.count).toBe(3);
  expect(await t.db.select({ id: deviceAlarms.id }).from(deviceAlarms)).toHaveLength(alarms.length);
  const [last] = await t.db
    .select({ firmware: devices.firmware })
    .from(devices)
    .where(eq(devices.sn, 'DEMO-003'));
  expect(last.firmware).toBe(DEMO_OLD_FIRMWARE);
});
