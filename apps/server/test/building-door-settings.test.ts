/**
 * A building's door settings: 门禁离线授权时长 (hours, 1–168, 24 by default) and 离线告警阈值 (minutes,
 * 1–1440, 5 by default). Out of bounds is a 400 naming the field and changes nothing; a changed
 * lease reaches the building's connected v1.1 doors at once, and their device rows show it.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths } from '@cowork/contract';
import { building } from '@cowork/contract/resources/building';
import { buildings } from '../src/db/schema.ts';
import { doorFixture } from './device-fixture.ts';
import { callApi, type TestApp, until } from './helper.ts';

describe('楼宇 door settings', () => {
  const paths = resourcePaths(building);
  const doors = doorFixture({
    enrolKey: 'test-enrol-key-building-lease',
    device: { protocol: '1.1', heartbeatMs: 60_000 },
    inRoom: true,
    idempotent: true,
  });
  let t: TestApp;
  let room: { id: number; buildingId: number };

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    callApi<Record<string, unknown>>(t, doors.headers, method, url, payload);
  const stored = async (id: number) =>
    (
      await t.db
        .select({ lease: buildings.deviceLeaseHours, alert: buildings.offlineAlertMinutes })
        .from(buildings)
        .where(eq(buildings.id, id))
    )[0];

  beforeAll(async () => {
    t = await doors.start();
    room = doors.room;
  });

  afterAll(() => doors.close());

  test('a new building starts with 24 hours and 5 minutes; the detail answers both', async () => {
    const detail = await call('GET', `${paths.detail}/${room.buildingId}`);
    // The stored building's writable fields but the two settings, under a new name.
    const left = [
      'id',
      'createdAt',
      'updatedAt',
      'areaName',
      'openingHours',
      'deviceLeaseHours',
      'offlineAlertMinutes',
    ];
    const body = Object.fromEntries(
      Object.entries({ ...detail.body.data, name: '门禁设置测试楼宇' }).filter(([k]) => !left.includes(k)),
    );
    const saved = await call('POST', paths.save, body);
    expect(saved.status, saved.body.msg).toBe(200);
    expect(saved.body.data).toMatchObject({ deviceLeaseHours: 24, offlineAlertMinutes: 5 });
    expect(await stored(Number(saved.body.data.id))).toEqual({ lease: 24, alert: 5 });
  });

  test('out of bounds is a 400 naming the field and changes nothing', async () => {
    const before = await stored(room.buildingId);
    for (const [body, label] of [
      [{ deviceLeaseHours: 0 }, '门禁离线授权时长（小时）'],
      [{ deviceLeaseHours: 169 }, '门禁离线授权时长（小时）'],
      [{ deviceLeaseHours: 1.5 }, '门禁离线授权时长（小时）'],
      [{ offlineAlertMinutes: 0 }, '离线告警阈值（分钟）'],
      [{ offlineAlertMinutes: 1441 }, '离线告警阈值（分钟）'],
    ] as const) {
      const res = await call('PUT', paths.edit, { id: room.buildingId, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toContain(label);
    }
    expect(await stored(room.buildingId)).toEqual(before);
    const alert = await call('PUT', paths.edit, { id: room.buildingId, offlineAlertMinutes: 30 });
    expect(alert.status, alert.body.msg).toBe(200);
    expect((await stored(room.buildingId)).alert).toBe(30);
  });

  test("a shorter lease reaches the building's connected v1.1 doors at once; their rows show it", async () => {
    const sn = 'BL-A';
    const { d } = await doors.registered(sn);
    const rowOf = () => doors.pageOf(sn);
    const first = Number(d.commands.findLast((c) => c.type === 'sync')!.params.validUntil);
    expect(first).toBeGreaterThan(Date.now() + 20 * 3_600_000);
    expect((await rowOf()).leaseHours).toBe(24);

    const syncs = d.commands.filter((c) => c.type === 'sync').length;
    const edited = await call('PUT', paths.edit, { id: room.buildingId, deviceLeaseHours: 2 });
    expect(edited.status, edited.body.msg).toBe(200);
    await until(() => d.commands.filter((c) => c.type === 'sync').length > syncs, 'the lease re-sent');
    const sent = Number(d.commands.findLast((c) => c.type === 'sync')!.params.validUntil);
    expect(sent).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000);
    expect(sent).toBeGreaterThan(Date.now() + 3_600_000);
    await until(
      async () => new Date((await rowOf()).leaseUntil ?? 0).getTime() === sent,
      'the lease recorded',
    );
    expect((await rowOf()).leaseHours).toBe(2);

    // Saving the building without changing the lease sends nothing more.
    const count = d.commands.filter((c) => c.type === 'sync').length;
    await call('PUT', paths.edit, { id: room.buildingId, offlineAlertMinutes: 10 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(d.commands.filter((c) => c.type === 'sync')).toHaveLength(count);
  });
});
