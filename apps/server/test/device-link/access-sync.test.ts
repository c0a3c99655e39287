/**
 * Access sync alone: which devices are sent their state and when (a change, force, expiry, a sync
 * never acked), with a fake command in place of commands.ts that acks or fails at will.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { devices } from '../../src/db/schema.ts';
import { createAccessSync } from '../../src/device-link/access-sync.ts';
import type { CommandActor, DeviceRow } from '../../src/device-link/commands.ts';
import { addDevice, capturedLog, useDatabase } from './fixture.ts';

const db = useDatabase();
const staff: CommandActor = { userId: 1, name: '运营' };

function setUp(failing: Set<number> = new Set()) {
  const sent: { device: DeviceRow; type: string; params: Record<string, unknown>; actor: CommandActor }[] =
    [];
  const { log, lines } = capturedLog();
  const sync = createAccessSync({
    db: db(),
    log,
    command: async (device, { type, params }, actor) => {
      sent.push({ device, type, params, actor });
      if (failing.has(device.id)) throw new Error(`${device.sn} refused`);
    },
  });
  return { sync, sent, lines };
}

const versionsOf = async (id: number) =>
  (
    await db()
      .select({ access: devices.accessVersion, acked: devices.ackedVersion, hash: devices.accessHash })
      .from(devices)
      .where(eq(devices.id, id))
  )[0];

describe('syncDevices', () => {
  test('sends a changed state once with its version, mode and lease, records the version acked; force sends the same version again', async () => {
    const device = await addDevice(db(), {
      cardRules: [{ cardNo: 'C-1', validFrom: 0, validTo: Date.now() + 86_400_000 }],
    });
    const t = setUp();
    expect(await t.sync.syncDevices([device.id, device.id], staff)).toEqual([device.id]);
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]).toMatchObject({ type: 'sync', actor: staff, device: { id: device.id, sn: device.sn } });
    expect(t.sent[0].params).toMatchObject({
      access: [],
      adminPasswords: [],
      cardRules: [{ cardNo: 'C-1' }],
      version: 1,
      mode: 'normal',
      // A device in no building: the default lease, 24 h.
      validUntil: expect.closeTo(Date.now() + 24 * 3_600_000, -5),
    });
    expect(await versionsOf(device.id)).toMatchObject({ access: 1, acked: 1 });

    expect(await t.sync.syncDevices([device.id], staff)).toEqual([]);
    expect(t.sent).toHaveLength(1);
    // Nothing changed: the same state goes again under the same version.
    expect(await t.sync.syncDevice(device.id, staff, true)).toEqual([device.id]);
    expect(t.sent[1].params).toMatchObject({ version: 1 });
    expect(await versionsOf(device.id)).toMatchObject({ access: 1, acked: 1 });
  });

  test('two instances reacting to one change: only one sends it', async () => {
    const device = await addDevice(db());
    const [a, b] = [setUp(), setUp()];
    await Promise.all([a.sync.syncDevices([device.id], staff), b.sync.syncDevices([device.id], staff)]);
    expect(a.sent.length + b.sent.length).toBe(1);
  });

  test('an offline device is not sent its state, which stays unacked (未同步)', async () => {
    const device = await addDevice(db(), { status: 'offline' });
    const t = setUp();
    expect(await t.sync.syncDevices([device.id], staff)).toEqual([]);
    expect(t.sent).toEqual([]);
    expect(await versionsOf(device.id)).toMatchObject({ access: 1, acked: 0 });
  });

  test("one device's failure is thrown; in a batch each is logged and the rest go on", async () => {
    const [bad, good] = [await addDevice(db()), await addDevice(db())];
    const t = setUp(new Set([bad.id]));
    await expect(t.sync.syncDevices([bad.id], staff)).rejects.toThrow('refused');
    expect(await t.sync.syncDevices([bad.id, good.id], staff, true)).toEqual([good.id]);
    expect(t.lines.filter((l) => l.msg === 'sync failed')).toHaveLength(1);
    expect(await versionsOf(bad.id)).toMatchObject({ access: 1, acked: 0 });
  });
});

describe('changes and sweeps', () => {
  test('accessChanged re-syncs in the background; settled waits for it', async () => {
    const device = await addDevice(db());
    const t = setUp();
    void t.sync.accessChanged({ deviceIds: [device.id] });
    await t.sync.settled();
    expect(t.sent.map((s) => [s.device.id, s.actor.name])).toEqual([[device.id, '系统自动']]);
  });

  test('orderChanged acts on orders that open doors only', async () => {
    const t = setUp();
    t.sync.orderChanged({ kind: 'meeting-room', buildingId: 1, status: 'paid' });
    t.sync.orderChanged({ kind: 'user-card', buildingId: null, status: 'paid' });
    await t.sync.settled();
    expect(t.sent).toEqual([]);
  });

  test('resyncStale sends again a state an online device never acked', async () => {
    const device = await addDevice(db());
    const failing = new Set([device.id]);
    const t = setUp(failing);
    await expect(t.sync.syncDevices([device.id], staff)).rejects.toThrow();
    failing.delete(device.id);
    await t.sync.resyncStale();
    expect(t.sent.filter((s) => s.device.id === device.id)).toHaveLength(2);
    const state = await versionsOf(device.id);
    expect(state.acked).toBe(state.access);
  });

  test('when an entry of a state ends, the timer re-syncs the device (sent if its state differs)', async () => {
    const device = await addDevice(db(), {
      cardRules: [{ cardNo: 'C-2', validFrom: 0, validTo: Date.now() + 400 }],
    });
    const t = setUp();
    t.sync.start();
    await t.sync.syncDevices([device.id], staff);
    const expiryOf = async () =>
      (await db().select({ at: devices.nextExpiryAt }).from(devices).where(eq(devices.id, device.id)))[0].at;
    expect(await expiryOf()).not.toBeNull();
    // As if the state last sent were another: the re-sync at expiry sends it.
    await db().update(devices).set({ accessHash: 'another' }).where(eq(devices.id, device.id));
    const deadline = Date.now() + 5_000;
    while (t.sent.length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await t.sync.stop();
    expect(t.sent.map((s) => s.actor.name)).toEqual(['运营', '系统自动']);
  });
});
