/**
 * Protocol v1.1 sync state, through the embedded broker with simulated devices: every sync carries
 * its version, the space's mode and the building's lease (`validUntil`); the device list shows the
 * version a device holds against the current one and since when; a heartbeat naming an old version
 * gets the current state again; leases are renewed before half has run, and a device that refuses
 * one (it holds another version) is sent its whole state.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildings, devices, spaces } from '../src/db/schema.ts';
import type { SimulatedDevice, SimulatorOptions } from '../src/device-link/simulator.ts';
import { doorFixture } from './device-fixture.ts';
import { type TestApp, until } from './helper.ts';

describe('v1.1 sync state through the embedded broker', () => {
  const doors = doorFixture({
    enrolKey: 'test-enrol-key-sync-v11',
    device: { protocol: '1.1', heartbeatMs: 60_000 },
    inRoom: true,
    idempotent: true,
    synced: true,
  });
  const { device, registered, pageOf } = doors;
  let t: TestApp;
  const lastSync = (d: SimulatedDevice) => d.commands.findLast((c) => c.type === 'sync')!;

  beforeAll(async () => {
    t = await doors.start();
    await t.db.update(buildings).set({ deviceLeaseHours: 2 }).where(eq(buildings.id, doors.room.buildingId));
  });

  afterAll(() => doors.close());

  test("a sync carries its version, the space's mode and the building's lease; the list shows what the device holds", async () => {
    const before = Date.now();
    const { d } = await registered('SV-A');
    const { params } = lastSync(d);
    expect(params.mode).toBe('normal');
    expect(Number(params.validUntil)).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
    expect(Number(params.validUntil)).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000);
    const row = await pageOf('SV-A');
    expect(row).toMatchObject({ syncState: 'synced', syncedVersion: params.version, mode: 'normal' });
    expect(row.currentVersion).toBe(params.version);
    expect(row.syncSince).not.toBeNull();
    expect(new Date(row.leaseUntil!).getTime()).toBe(Number(params.validUntil));

    // A hello resends the same state: the same version, since nothing changed.
    await d.close();
    const again = await device({ sn: 'SV-A', secret: d.secret! });
    await until(() => again.commands.some((c) => c.type === 'sync'), 'the sync after hello');
    expect(lastSync(again).params.version).toBe(params.version);
  });

  test('a mode set on a space above the device reaches it with a new version; 全部常开 wins over 封锁', async () => {
    const { d, id } = await registered('SV-B');
    const first = Number(lastSync(d).params.version);
    await t.db.update(spaces).set({ mode: 'lockdown' }).where(eq(spaces.id, doors.room.parentId!));
    await t.app.devices.syncDevice(id, { userId: null, name: '测试' });
    expect(lastSync(d).params).toMatchObject({ mode: 'lockdown', version: first + 1 });
    expect(await pageOf('SV-B')).toMatchObject({ mode: 'lockdown', syncedVersion: first + 1 });
    await t.db.update(spaces).set({ mode: 'release' }).where(eq(spaces.id, doors.room.id));
    await t.app.devices.syncDevice(id, { userId: null, name: '测试' });
    expect(lastSync(d).params).toMatchObject({ mode: 'release', version: first + 2 });
    await t.db.update(spaces).set({ mode: 'normal' }).where(eq(spaces.buildingId, doors.room.buildingId));
    await t.app.devices.syncDevice(id, { userId: null, name: '测试' });
    expect(lastSync(d).params.mode).toBe('normal');
  });

  test('a heartbeat naming an old version shows 未同步 and gets the current state again at the sweep', async () => {
    const { d, id } = await registered('SV-C');
    const current = Number(lastSync(d).params.version);
    const syncs = d.commands.filter((c) => c.type === 'sync').length;
    await d.send('heartbeat', { uptimeS: 5, version: current - 1 });
    await until(async () => (await pageOf('SV-C')).syncedVersion === current - 1, 'the old version held');
    expect((await pageOf('SV-C')).syncState).toBe('unsynced');
    await t.app.devices.resyncStale();
    expect(d.commands.filter((c) => c.type === 'sync')).toHaveLength(syncs + 1);
    expect(lastSync(d).params.version).toBe(current);
    expect(await pageOf('SV-C')).toMatchObject({ syncState: 'synced', syncedVersion: current });
    const [row] = await t.db.select().from(devices).where(eq(devices.id, id));
    expect(row.heldVersion).toBe(current);
  });

  test('leases past half are renewed in one sweep; one refused (another version held) brings the whole state', async () => {
    let refuseLease = false;
    const answer: SimulatorOptions['answer'] = (command) =>
      command.type === 'lease' && refuseLease ? { ok: false, error: 'version mismatch' } : { ok: true };
    const { d, id } = await registered('SV-D', { answer });
    const version = Number(lastSync(d).params.version);
    // Less than half of the 2 h lease left.
    const soon = new Date(Date.now() + 30 * 60_000);
    await t.db.update(devices).set({ leaseUntil: soon }).where(eq(devices.id, id));
    const before = Date.now();
    await t.app.devices.renewLeases();
    const lease = d.commands.findLast((c) => c.type === 'lease')!;
    expect(lease.params.version).toBe(version);
    expect(Number(lease.params.validUntil)).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
    const [renewed] = await t.db.select().from(devices).where(eq(devices.id, id));
    expect(renewed.leaseUntil!.getTime()).toBe(Number(lease.params.validUntil));

    // Far from half: nothing sent.
    const leases = d.commands.filter((c) => c.type === 'lease').length;
    await t.app.devices.renewLeases();
    expect(d.commands.filter((c) => c.type === 'lease')).toHaveLength(leases);

    refuseLease = true;
    await t.db.update(devices).set({ leaseUntil: soon }).where(eq(devices.id, id));
    const syncs = d.commands.filter((c) => c.type === 'sync').length;
    await t.app.devices.renewLeases();
    expect(d.commands.filter((c) => c.type === 'sync')).toHaveLength(syncs + 1);
    const [resynced] = await t.db.select().from(devices).where(eq(devices.id, id));
    expect(resynced.leaseUntil!.getTime()).toBeGreaterThan(soon.getTime());
  });

  test('a v1 device takes no lease: it gets the fields in its sync and ignores them, and is never sent one', async () => {
    const { d, id } = await registered('SV-E', { protocol: '1' });
    await t.db
      .update(devices)
      .set({ leaseUntil: new Date(Date.now() + 60_000) })
      .where(eq(devices.id, id));
    await t.app.devices.renewLeases();
    expect(d.commands.some((c) => c.type === 'lease')).toBe(false);
    expect((await pageOf('SV-E')).syncState).toBe('synced');
  });
});
