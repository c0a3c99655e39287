/**
 * 告警通知: each rule raises its alert once per cause and closes it by itself when the cause ends;
 * 300 doors of one building dropping together are one alert counting 300; two instances on one
 * database raise it once; staff see the kinds their permissions cover, each with their own read
 * flags. Conditions are written into the database dated in the past, and a round of the rules is
 * run directly (the background rounds, at the real time, agree with it).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { alertEndpoints, REFUSAL_ALERT_COUNT, SYNC_STUCK_ALERT_MS, type AlertList } from '@cowork/contract';
import { buildApp } from '../src/app.ts';
import {
  alerts,
  buildings,
  deviceAlarms,
  deviceOpenLogs,
  devices,
  firmwareFiles,
  firmwareRollouts,
  merchants,
  spaces,
} from '../src/db/schema.ts';
import { evaluateAlerts, rulesMemory, SYNC_STUCK_GRACE_MS } from '../src/modules/alert/rules.ts';
import { buildTestApp, callApi, createRole, createUser, demo, type TestApp } from './helper.ts';

let t: TestApp;
let admin: Record<string, string>;
let buildingId: number;
let spaceId: number;
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
  admin = await t.auth(...demo.admin);
  const [merchant] = await t.db.insert(merchants).values({ name: '告警测试商户' }).returning();
  const [building] = await t.db
    .insert(buildings)
    .values({
      name: '告警A座',
      merchantId: merchant.id,
      provinceCode: '110000',
      cityCode: '110100',
      address: '测试路 1 号',
    })
    .returning();
  buildingId = building.id;
  const [space] = await t.db
    .insert(spaces)
    .values({ buildingId, name: 'A 座大堂', kind: 'gate' })
    .returning();
  spaceId = space.id;
});
afterAll(() => t.close());

/** Devices placed in the test building, as their row says. */
async function addDevices(n: number, values: Partial<typeof devices.$inferInsert> = {}) {
  const prefix = randomUUID().slice(0, 8).toUpperCase();
  return t.db
    .insert(devices)
    .values(
      Array.from({ length: n }, (_, i) => ({
        sn: `AL${prefix}${String(i).padStart(4, '0')}`,
        name: `告警门 ${prefix}-${i + 1}`,
        secret: 'unused',
        spaceId,
        ...values,
      })),
    )
    .returning({ id: devices.id, sn: devices.sn, name: devices.name });
}

type Device = Awaited<ReturnType<typeof addDevices>>[number];

async function removeDevices(list: Pick<Device, 'id'>[]) {
  await t.db.delete(devices).where(
    inArray(
      devices.id,
      list.map((d) => d.id),
    ),
  );
}

/** An alarm the device raised just now. */
async function raiseAlarm(
  device: Device,
  values: Pick<typeof deviceAlarms.$inferInsert, 'kind'> & Partial<typeof deviceAlarms.$inferInsert>,
) {
  const [alarm] = await t.db
    .insert(deviceAlarms)
    .values({ messageId: randomUUID(), deviceId: device.id, sn: device.sn, raisedAt: new Date(), ...values })
    .returning();
  return alarm;
}

async function insertAlert(values: typeof alerts.$inferInsert) {
  const [alert] = await t.db.insert(alerts).values(values).returning();
  return alert;
}

const openOf = (causeKey: string) =>
  t.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.causeKey, causeKey), isNull(alerts.closedAt)));
const allOf = (causeKey: string) => t.db.select().from(alerts).where(eq(alerts.causeKey, causeKey));

describe('rules', () => {
  test('300 doors of a building offline: one alert counting 300, closed when they are back', async () => {
    const cause = `device-offline:building:${buildingId}`;
    const fresh = await addDevices(300, { status: 'offline', lastSeenAt: minutesAgo(2) });
    await evaluateAlerts(t.db);
    // Two minutes is under the building's five.
    expect(await openOf(cause)).toHaveLength(0);

    await t.db.update(buildings).set({ offlineAlertMinutes: 1 }).where(eq(buildings.id, buildingId));
    await evaluateAlerts(t.db);
    await evaluateAlerts(t.db);
    const [alert] = await openOf(cause);
    expect(alert.kind).toBe('device-offline');
    expect(alert.count).toBe(300);
    expect(alert.title).toBe('告警A座 300 台门禁设备离线超过 1 分钟');
    expect(alert.detail).toContain('等 300 台');
    expect(alert.link).toBe(`/hardware/device?buildingId=${buildingId}&status=offline`);
    expect(await allOf(cause)).toHaveLength(1);

    // 299 come back: the same alert counts one.
    const back = fresh.slice(1).map((d) => d.id);
    await t.db
      .update(devices)
      .set({ status: 'online', lastSeenAt: new Date() })
      .where(inArray(devices.id, back));
    await evaluateAlerts(t.db);
    const [one] = await openOf(cause);
    expect(one.id).toBe(alert.id);
    expect(one.count).toBe(1);
    expect(one.title).toBe('告警A座 1 台门禁设备离线超过 1 分钟');

    await t.db
      .update(devices)
      .set({ status: 'online', lastSeenAt: new Date() })
      .where(eq(devices.id, fresh[0].id));
    await evaluateAlerts(t.db);
    expect(await openOf(cause)).toHaveLength(0);
    const [closed] = await allOf(cause);
    expect(closed.closedAt).not.toBeNull();
    await removeDevices(fresh);
    await t.db.update(buildings).set({ offlineAlertMinutes: 5 }).where(eq(buildings.id, buildingId));
  });

  test('devices placed in no space: one alert of their own', async () => {
    const fresh = await addDevices(2, { spaceId: null, status: 'offline', lastSeenAt: minutesAgo(30) });
    await evaluateAlerts(t.db);
    const [alert] = await openOf('device-offline:building:none');
    expect(alert.title).toBe('未分配空间的 2 台门禁设备离线超过 5 分钟');
    expect(alert.buildingId).toBeNull();
    await removeDevices(fresh);
    await evaluateAlerts(t.db);
    expect(await openOf('device-offline:building:none')).toHaveLength(0);
  });

  test('an open alarm raises an alert; clearing it closes the alert', async () => {
    const [device] = await addDevices(1, { status: 'online', lastSeenAt: new Date() });
    const alarm = await raiseAlarm(device, {
      kind: 'forced',
      deviceName: device.name,
      buildingId,
      detail: '门磁异常打开',
    });
    await evaluateAlerts(t.db);
    await evaluateAlerts(t.db);
    const cause = `alarm:${alarm.id}`;
    const [alert] = await openOf(cause);
    expect(alert.title).toBe(`告警A座 ${device.name}：强行开门`);
    expect(alert.detail).toContain('设备报告：门磁异常打开');
    expect(alert.link).toBe('/hardware/alarm?state=open');
    expect(await allOf(cause)).toHaveLength(1);

    await t.db
      .update(deviceAlarms)
      .set({ state: 'cleared', clearedAt: new Date() })
      .where(eq(deviceAlarms.id, alarm.id));
    await evaluateAlerts(t.db);
    expect(await openOf(cause)).toHaveLength(0);
  });

  test('an acknowledged alarm closes its alert', async () => {
    const [device] = await addDevices(1, { status: 'online', lastSeenAt: new Date() });
    const alarm = await raiseAlarm(device, { kind: 'tamper' });
    await evaluateAlerts(t.db);
    expect(await openOf(`alarm:${alarm.id}`)).toHaveLength(1);
    await t.db
      .update(deviceAlarms)
      .set({ state: 'acknowledged', acknowledgedAt: new Date(), note: '已到场' })
      .where(eq(deviceAlarms.id, alarm.id));
    await evaluateAlerts(t.db);
    expect(await openOf(`alarm:${alarm.id}`)).toHaveLength(0);
  });

  test('an online device behind its state for 5 minutes: one alert per building, closed when it catches up', async () => {
    const cause = `sync-stuck:building:${buildingId}`;
    const stale = new Date(Date.now() - SYNC_STUCK_ALERT_MS - 60_000);
    const [held, acked, recent] = await addDevices(3, {
      status: 'online',
      lastSeenAt: new Date(),
      accessVersion: 7,
      ackedVersion: 6,
      accessChangedAt: stale,
    });
    await t.db.update(devices).set({ heldVersion: 5 }).where(eq(devices.id, held.id));
    // Changed a minute ago: still within its five minutes.
    await t.db
      .update(devices)
      .set({ accessChangedAt: minutesAgo(1) })
      .where(eq(devices.id, recent.id));
    const memory = rulesMemory();
    const start = Date.now();
    // Just seen behind (a device reconnecting is, until its sync is acked): no alert yet.
    await evaluateAlerts(t.db, new Date(start), memory);
    expect(await openOf(cause)).toHaveLength(0);
    const later = new Date(start + SYNC_STUCK_GRACE_MS);
    await evaluateAlerts(t.db, later, memory);
    const [alert] = await openOf(cause);
    expect(alert.count).toBe(2);
    expect(alert.title).toBe('告警A座 2 台门禁设备超过 5 分钟未同步开门权限');
    expect(alert.link).toBe(`/hardware/device?buildingId=${buildingId}&status=online`);

    // An instance that has just started keeps it open, and counts, from the database alone.
    await t.db.update(devices).set({ heldVersion: 7 }).where(eq(devices.id, held.id));
    await evaluateAlerts(t.db, later, rulesMemory());
    expect((await openOf(cause))[0].count).toBe(1);
    await t.db.update(devices).set({ ackedVersion: 7 }).where(eq(devices.id, acked.id));
    await evaluateAlerts(t.db, later, memory);
    expect(await openOf(cause)).toHaveLength(0);
    expect(await allOf(cause)).toHaveLength(1);
    await removeDevices([held, acked, recent]);
  });

  test('5 refusals at one door within a minute: one alert, closed after a quiet minute', async () => {
    const [device] = await addDevices(1, { status: 'online', lastSeenAt: new Date() });
    const cause = `refusals:device:${device.id}`;
    const refuse = (n: number, secondsAgo: number) =>
      t.db.insert(deviceOpenLogs).values(
        Array.from({ length: n }, () => ({
          messageId: randomUUID(),
          deviceId: device.id,
          sn: device.sn,
          method: 'card' as const,
          result: 'denied' as const,
          at: new Date(Date.now() - secondsAgo * 1000),
        })),
      );
    await refuse(REFUSAL_ALERT_COUNT - 1, 10);
    // An old refusal is outside the window.
    await refuse(1, 120);
    await evaluateAlerts(t.db);
    expect(await openOf(cause)).toHaveLength(0);

    await refuse(1, 5);
    await evaluateAlerts(t.db);
    await evaluateAlerts(t.db);
    const [alert] = await openOf(cause);
    expect(alert.count).toBe(REFUSAL_ALERT_COUNT);
    expect(alert.link).toBe(`/hardware/log?deviceId=${device.id}&result=denied`);
    expect(alert.title).toContain('频繁拒绝开门');
    // Two more: the same alert counts them.
    await refuse(2, 1);
    await evaluateAlerts(t.db);
    const [more] = await openOf(cause);
    expect(more.id).toBe(alert.id);
    expect(more.count).toBe(REFUSAL_ALERT_COUNT + 2);
    expect(more.title).toContain(`已拒绝 ${REFUSAL_ALERT_COUNT + 2} 次`);

    // The refusals age out of the window: quiet for a minute, it closes.
    await t.db
      .update(deviceOpenLogs)
      .set({ at: sql`${deviceOpenLogs.at} - interval '2 minutes'` })
      .where(eq(deviceOpenLogs.deviceId, device.id));
    await evaluateAlerts(t.db);
    expect(await openOf(cause)).toHaveLength(0);
    expect(await allOf(cause)).toHaveLength(1);
  });

  test('a halted rollout raises an alert; resuming it closes the alert', async () => {
    const [file] = await t.db
      .insert(firmwareFiles)
      .values({
        model: 'KR-100',
        version: '2.0.0',
        storageKey: 'fw/x',
        fileName: 'x.bin',
        sha256: 'a'.repeat(64),
        size: 10,
      })
      .returning();
    const [rollout] = await t.db
      .insert(firmwareRollouts)
      .values({ firmwareId: file.id, state: 'halted', batchSize: 2, stopAfterFailures: 1 })
      .returning();
    await evaluateAlerts(t.db);
    const cause = `rollout-halted:${rollout.id}`;
    const [alert] = await openOf(cause);
    expect(alert.title).toBe(`固件升级 #${rollout.id}（KR-100 2.0.0）失败过多，已中止`);
    expect(alert.link).toBe('/hardware/firmware');
    await t.db.update(firmwareRollouts).set({ state: 'running' }).where(eq(firmwareRollouts.id, rollout.id));
    await evaluateAlerts(t.db);
    expect(await openOf(cause)).toHaveLength(0);
  });
});

describe('two instances on one database', () => {
  test('the app runs the rules by itself every few seconds', async () => {
    const [device] = await addDevices(1, { spaceId: null, status: 'offline', lastSeenAt: minutesAgo(30) });
    const cause = 'device-offline:building:none';
    const deadline = Date.now() + 10_000;
    while ((await openOf(cause)).length === 0) {
      if (Date.now() > deadline) throw new Error('the background rules raised nothing');
      await new Promise((r) => setTimeout(r, 200));
    }
    await t.db.delete(devices).where(eq(devices.id, device.id));
    while ((await openOf(cause)).length > 0) {
      if (Date.now() > deadline + 10_000) throw new Error('the background rules closed nothing');
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  test('raise each cause once', async () => {
    const second = await buildApp({ config: t.config, db: t.db, logger: false });
    await second.ready();
    try {
      const fresh = await addDevices(20, { status: 'offline', lastSeenAt: minutesAgo(30) });
      const cause = `device-offline:building:${buildingId}`;
      await Promise.all([evaluateAlerts(t.db), evaluateAlerts(second.db), evaluateAlerts(t.db)]);
      expect(await allOf(cause).then((rows) => rows.filter((r) => r.closedAt === null))).toHaveLength(1);
      // The background rounds of both instances run too: still one.
      await new Promise((r) => setTimeout(r, 2_500));
      const open = await openOf(cause);
      expect(open).toHaveLength(1);
      expect(open[0].count).toBe(20);
      await removeDevices(fresh);
      await evaluateAlerts(second.db);
      expect(await openOf(cause)).toHaveLength(0);
    } finally {
      await second.close();
    }
  });
});

describe('the bell', () => {
  const staffWith = async (code: string, permissions: string[]) => {
    await createRole(t.db, { code, name: code, permissions });
    await createUser(t.db, { username: code, password: 'Staff@1234', roleCodes: [code] });
    return t.auth(code, 'Staff@1234');
  };
  let doorAlert: number;
  let rolloutAlert: number;

  beforeAll(async () => {
    const door = await insertAlert({
      kind: 'device-offline',
      causeKey: `test:door:${randomUUID()}`,
      title: '门禁离线测试',
      buildingId,
    });
    const rollout = await insertAlert({
      kind: 'rollout-halted',
      causeKey: `test:rollout:${randomUUID()}`,
      title: '固件中止测试',
    });
    [doorAlert, rolloutAlert] = [door.id, rollout.id];
  });

  const list = async (headers: Record<string, string>) => {
    const res = await callApi<AlertList>(t, headers, 'GET', alertEndpoints.list);
    expect(res.status, res.raw).toBe(200);
    return res.body.data;
  };

  test('staff see the kinds their permissions cover; others are refused', async () => {
    const doors = await staffWith('alert-doors', ['hardware:alarm:view']);
    const firmware = await staffWith('alert-firmware', ['hardware:firmware:view']);
    const none = await staffWith('alert-none', ['order:member:view']);
    const doorIds = (await list(doors)).records.map((r) => r.id);
    expect(doorIds).toContain(doorAlert);
    expect(doorIds).not.toContain(rolloutAlert);
    expect((await list(doors)).records.every((r) => r.kind !== 'rollout-halted')).toBe(true);
    const firmwareIds = (await list(firmware)).records.map((r) => r.id);
    expect(firmwareIds).toContain(rolloutAlert);
    expect(firmwareIds).not.toContain(doorAlert);
    expect((await callApi(t, none, 'GET', alertEndpoints.list)).status).toBe(403);
    // Marking read what one may not see answers 404 and marks nothing.
    const refused = await callApi(t, firmware, 'POST', alertEndpoints.read, { id: doorAlert });
    expect(refused.status).toBe(404);
    expect(refused.body.msg).toContain('不存在');
  });

  test('read and unread are per staff member; mark one, mark all', async () => {
    const first = await staffWith('alert-reader-1', ['hardware:device:view', 'hardware:firmware:view']);
    const second = await staffWith('alert-reader-2', ['hardware:device:view', 'hardware:firmware:view']);
    const before = await list(first);
    expect(before.unread).toBeGreaterThanOrEqual(2);
    expect(before.records.find((r) => r.id === doorAlert)?.read).toBe(false);

    const read = await callApi(t, first, 'POST', alertEndpoints.read, { id: doorAlert });
    expect(read.status, read.raw).toBe(200);
    expect(read.body.data.marked).toBe(1);
    // Twice is still once.
    expect((await callApi(t, first, 'POST', alertEndpoints.read, { id: doorAlert })).body.data.marked).toBe(
      0,
    );
    const after = await list(first);
    expect(after.unread).toBe(before.unread - 1);
    expect(after.records.find((r) => r.id === doorAlert)?.read).toBe(true);
    // The other staff member has not read it.
    expect((await list(second)).records.find((r) => r.id === doorAlert)?.read).toBe(false);
    expect((await list(second)).unread).toBe(before.unread);

    const all = await callApi(t, second, 'POST', alertEndpoints.readAll);
    expect(all.status, all.raw).toBe(200);
    expect(all.body.data.marked).toBe(before.unread);
    expect((await list(second)).unread).toBe(0);
    expect((await list(first)).unread).toBe(before.unread - 1);
  });

  test('a bad id is refused naming the field', async () => {
    const res = await callApi(t, admin, 'POST', alertEndpoints.read, { id: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('告警编号');
  });

  test('closed alerts stay listed for a day, newest first', async () => {
    const old = await insertAlert({
      kind: 'alarm',
      causeKey: `test:old:${randomUUID()}`,
      title: '两天前关闭的告警',
      raisedAt: minutesAgo(3 * 24 * 60),
      closedAt: minutesAgo(2 * 24 * 60),
    });
    const recent = await insertAlert({
      kind: 'alarm',
      causeKey: `test:recent:${randomUUID()}`,
      title: '刚关闭的告警',
      closedAt: new Date(),
    });
    const { records } = await list(admin);
    expect(records.map((r) => r.id)).not.toContain(old.id);
    const shown = records.find((r) => r.id === recent.id);
    expect(shown?.closedAt).not.toBeNull();
    const times = records.map((r) => Date.parse(r.raisedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});
