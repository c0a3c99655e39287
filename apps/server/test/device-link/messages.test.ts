/**
 * Hellos and door events alone, on a database: the waiting list, the claim of a hello by one
 * instance (with a fake sync in place of access-sync.ts), and the open log written once per event.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { deviceCommands, deviceEnrolments, deviceOpenLogs, devices } from '../../src/db/schema.ts';
import { createDoorEvents } from '../../src/device-link/door-events.ts';
import { createHellos } from '../../src/device-link/hellos.ts';
import { seal } from '../../src/device-link/protocol.ts';
import { addDevice, capturedLog, snOf, useDatabase } from './fixture.ts';

const db = useDatabase();

function hellosOf(mqttUrl?: string) {
  const synced: number[][] = [];
  const hellos = createHellos({
    config: { mqttUrl },
    db: db(),
    log: capturedLog().log,
    syncDevices: async (ids) => {
      synced.push([...ids]);
      return [...ids];
    },
  });
  return { hellos, synced };
}

describe('hellos', () => {
  test("an enrolling hello puts the sn on the waiting list; the console's own username never", async () => {
    const sn = snOf('NEW');
    const { hellos } = hellosOf('mqtt://cowork-console:pw@127.0.0.1:1883');
    await hellos.enrol(sn, seal('hello', { model: 'M-1', vendor: 'V', firmware: 'x'.repeat(300) }, 'k'));
    await hellos.enrol('cowork-console', seal('hello', {}, 'k'));
    const rows = await db().select().from(deviceEnrolments);
    expect(rows.filter((r) => r.sn === sn)).toEqual([
      expect.objectContaining({ model: 'M-1', vendor: 'V', firmware: 'x'.repeat(100) }),
    ]);
    expect(rows.some((r) => r.sn === 'cowork-console')).toBe(false);
  });

  test('a hello heard by two instances is claimed and answered with a sync by one', async () => {
    const device = await addDevice(db(), { status: 'offline' });
    const [a, b] = [hellosOf(), hellosOf()];
    const hello = seal('hello', { model: 'M-2', protocol: '1.1' }, device.plain);
    await Promise.all([
      a.hellos.hello(device.id, device.sn, hello),
      b.hellos.hello(device.id, device.sn, hello),
    ]);
    expect([...a.synced, ...b.synced]).toEqual([[device.id]]);
    const [row] = await db().select().from(devices).where(eq(devices.id, device.id));
    expect(row).toMatchObject({ model: 'M-2', protocol: '1.1', status: 'online', lastHelloId: hello.id });
  });
});

describe('door events', () => {
  test('each is logged once, a remote one credited to the last opener; listeners hear it', async () => {
    const device = await addDevice(db());
    await db().insert(deviceCommands).values({
      id: crypto.randomUUID(),
      deviceId: device.id,
      type: 'open-door',
      byName: '前台小王',
      state: 'acked',
    });
    const doors = createDoorEvents({ db: db() });
    const heard: string[] = [];
    doors.listen((sn) => heard.push(sn));
    const event = seal(
      'door',
      { method: 'remote', result: 'success', credential: '**cdef', at: Date.now() },
      device.plain,
    );
    expect(await doors.record(device, device.sn, event)).toBeUndefined();
    expect(await doors.record(device, device.sn, event)).toBeUndefined();
    const rows = await db().select().from(deviceOpenLogs).where(eq(deviceOpenLogs.messageId, event.id));
    expect(rows).toEqual([
      expect.objectContaining({ who: '前台小王', credential: 'cdef', method: 'remote' }),
    ]);
    expect(heard).toEqual([device.sn, device.sn]);
  });

  test('a malformed one, or one whose `at` is out of range, is refused with the reason', async () => {
    const device = await addDevice(db());
    const doors = createDoorEvents({ db: db() });
    expect(
      await doors.record(device, device.sn, seal('door', { method: 'fly', result: 'success' }, 'k')),
    ).toBe('malformed');
    expect(
      await doors.record(device, device.sn, seal('door', { method: 'card', result: 'denied', at: 1 }, 'k')),
    ).toBe('at-out-of-range');
  });
});
