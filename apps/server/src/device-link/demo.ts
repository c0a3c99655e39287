/**
 * The demo's door devices: `npm start` on demo data (never in production) runs DEMO_DEVICES
 * simulated devices in process (DEMO-001…), connected to the console's own broker, so every
 * hardware screen shows live devices and 远程开门 works out of the box. The first start registers
 * them (random secrets, sealed like any device's), places them at the demo spaces' gates, gathers
 * them in a 门禁联动 holding those floors, and writes a month of door history and of alarms (告警记录:
 * most ended, some acknowledged with a note, a few still open); later starts only reconnect them
 * with the secrets kept in the database. They speak protocol v1.1; the last one runs an older
 * firmware than the others, so 固件升级 has a door to bring up to date. DEMO_DEVICES=0 turns them off.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { asc, eq, inArray, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { alarmKinds, maskPhone, type AlarmKind } from '@cowork/contract';
import {
  deviceAlarms,
  deviceOpenLogs,
  deviceSetDevices,
  deviceSetSpaces,
  deviceSets,
  devices,
  kreatorDevices,
  kreatorUserGroups,
  members,
  spaces,
  ssoUsers,
} from '../db/schema.ts';
import { SimulatedDevice } from './simulator.ts';

export const DEMO_SN_PREFIX = 'DEMO-';
const HISTORY_DAYS = 30;
/** The demo doors' firmware, and the older one the last door still runs. */
export const DEMO_FIRMWARE = '1.2.0';
export const DEMO_OLD_FIRMWARE = '1.1.0';
const DEMO_MODEL = 'SIM-100';

/** Whether this database holds the demo (its sign-ins), so demo devices belong in it. */
async function holdsDemo(app: FastifyInstance) {
  const [row] = await app.db
    .select({ id: ssoUsers.id })
    .from(ssoUsers)
    .where(eq(ssoUsers.username, 'yunying'));
  return Boolean(row);
}

/** Registers the demo devices missing from the database; answers the ids of those it created. */
async function registerDemoDevices(app: FastifyInstance, count: number): Promise<number[]> {
  const sns = Array.from({ length: count }, (_, i) => `${DEMO_SN_PREFIX}${String(i + 1).padStart(3, '0')}`);
  const existing = new Set(
    (await app.db.select({ sn: devices.sn }).from(devices).where(inArray(devices.sn, sns))).map((d) => d.sn),
  );
  const missing = sns.filter((sn) => !existing.has(sn));
  if (missing.length === 0) return [];
  const gates = await app.db
    .select({ id: spaces.id, name: spaces.name })
    .from(spaces)
    .where(eq(spaces.kind, 'gate'))
    .orderBy(asc(spaces.id));
  const rows = await app.db
    .insert(devices)
    .values(
      missing.map((sn, i) => ({
        sn,
        name: gates[i] ? `${gates[i].name}` : `演示门禁 ${sn}`,
        spaceId: gates[i]?.id ?? null,
        model: DEMO_MODEL,
        vendor: 'cowork',
        // The last door has not been updated yet: 固件升级 has one to bring up to date.
        firmware: sn === sns.at(-1) && count > 1 ? DEMO_OLD_FIRMWARE : DEMO_FIRMWARE,
        secret: app.devices.box.seal(randomBytes(32).toString('base64url')),
      })),
    )
    .returning({ id: devices.id, sn: devices.sn, name: devices.name, spaceId: devices.spaceId });
  const buildingOf = new Map(
    (
      await app.db
        .select({ id: spaces.id, buildingId: spaces.buildingId })
        .from(spaces)
        .where(eq(spaces.kind, 'gate'))
    ).map((g) => [g.id, g.buildingId]),
  );

  // One 门禁联动 for the demo: the floors above these gates (and so their rooms).
  const parentIds = (
    await app.db
      .select({ parentId: spaces.parentId, buildingId: spaces.buildingId })
      .from(spaces)
      .where(
        inArray(
          spaces.id,
          rows.map((r) => r.spaceId).filter((id): id is number => id !== null),
        ),
      )
  ).map((s) => s.parentId);
  const floorIds = [...new Set(parentIds.filter((id): id is number => id !== null))];
  const [set] = await app.db
    .insert(deviceSets)
    .values({ name: '演示门禁联动', remark: '演示数据：楼层门禁对会议室预订和会员卡开放' })
    .onConflictDoNothing()
    .returning({ id: deviceSets.id });
  if (set) {
    await app.db.insert(deviceSetDevices).values(rows.map((r) => ({ setId: set.id, deviceId: r.id })));
    if (floorIds.length)
      await app.db.insert(deviceSetSpaces).values(floorIds.map((spaceId) => ({ setId: set.id, spaceId })));
  }
  // Each demo 企业门禁组 opens the demo doors of its building.
  const groups = await app.db
    .select({ id: kreatorUserGroups.id, buildingId: kreatorUserGroups.buildingId })
    .from(kreatorUserGroups);
  const links = groups.flatMap((group) =>
    rows
      .filter((r) => r.spaceId !== null && buildingOf.get(r.spaceId) === group.buildingId)
      .map((r) => ({ groupId: group.id, deviceId: r.id })),
  );
  if (links.length) await app.db.insert(kreatorDevices).values(links).onConflictDoNothing();
  await writeHistory(app, rows);
  await writeAlarms(
    app,
    rows.map((r) => ({ ...r, buildingId: r.spaceId === null ? null : (buildingOf.get(r.spaceId) ?? null) })),
  );
  return rows.map((r) => r.id);
}

/** Why each kind of demo alarm came, and what staff noted when they saw it. */
const alarmStories: Record<AlarmKind, { detail: string; note: string }> = {
  'held-open': { detail: '门开启超过 60 秒', note: '搬运物资，已提醒随手关门' },
  forced: { detail: '未经验证开门', note: '保洁误推门，已核实监控' },
  tamper: { detail: '设备外壳被打开', note: '供应商例行检修' },
  power: { detail: '市电中断，电池供电', note: '物业停电检修，已恢复' },
  fault: { detail: '读卡器无响应', note: '已重启读卡模块' },
};

/**
 * A month of alarms on these devices (a few each, a few dozen in all): most ended within minutes,
 * some acknowledged by 运营专员 with a note, and the latest ones on the first doors still open.
 */
async function writeAlarms(
  app: FastifyInstance,
  rows: { id: number; sn: string; name: string; buildingId: number | null }[],
) {
  const [staff] = await app.db
    .select({ id: ssoUsers.id, nickname: ssoUsers.nickname })
    .from(ssoUsers)
    .where(eq(ssoUsers.username, 'yunying'));
  const now = Date.now();
  const alarms: (typeof deviceAlarms.$inferInsert)[] = [];
  rows.forEach((device, d) => {
    const perDevice = 7;
    for (let k = 0; k < perDevice; k++) {
      const kind = alarmKinds[(d * 2 + k) % alarmKinds.length];
      const story = alarmStories[kind];
      // Spread over the month, oldest first, each door a day apart and at its own time of day.
      const daysAgo = HISTORY_DAYS - k * 4 - (d % 4);
      const raisedAt = new Date(now - daysAgo * 86_400_000 - ((k * 37 + d * 11) % 600) * 60_000);
      const open = k === perDevice - 1 && d < 3;
      const acknowledged = !open && k % 3 === 1;
      alarms.push({
        messageId: randomUUID(),
        deviceId: device.id,
        sn: device.sn,
        deviceName: device.name,
        buildingId: device.buildingId,
        kind,
        state: open ? 'open' : 'cleared',
        detail: story.detail,
        raisedAt,
        clearedAt: open ? null : new Date(raisedAt.getTime() + (3 + ((k * 7) % 40)) * 60_000),
        clearedMessageId: open ? null : randomUUID(),
        ...(acknowledged && staff
          ? {
              acknowledgedAt: new Date(raisedAt.getTime() + 2 * 60_000),
              acknowledgedById: staff.id,
              acknowledgedBy: staff.nickname,
              note: story.note,
            }
          : {}),
        receivedAt: raisedAt,
      });
    }
  });
  if (alarms.length) await app.db.insert(deviceAlarms).values(alarms);
}

/** A month of door events on these devices: members' codes and cards, a few refusals, staff openings. */
async function writeHistory(app: FastifyInstance, rows: { id: number; sn: string; name: string }[]) {
  const people = await app.db
    .select({ phone: members.phone })
    .from(members)
    .orderBy(asc(members.id))
    .limit(40);
  let seed = 20261125;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const now = Date.now();
  const events: (typeof deviceOpenLogs.$inferInsert)[] = [];
  for (const device of rows) {
    for (let day = HISTORY_DAYS; day >= 0; day--) {
      const perDay = 4 + Math.floor(random() * 8);
      for (let k = 0; k < perDay; k++) {
        const at = new Date(now - day * 86_400_000 - Math.floor(random() * 10 * 3_600_000));
        if (at.getTime() > now) continue;
        const roll = random();
        const method = roll < 0.5 ? 'totp' : roll < 0.8 ? 'card' : roll < 0.93 ? 'remote' : 'password';
        const denied = method !== 'remote' && random() < 0.08;
        const phone = people.length ? people[Math.floor(random() * people.length)].phone : null;
        events.push({
          messageId: randomUUID(),
          deviceId: device.id,
          sn: device.sn,
          deviceName: device.name,
          method,
          credential: String(Math.floor(random() * 10_000)).padStart(4, '0'),
          result: denied ? 'denied' : 'success',
          reason: denied ? (method === 'card' ? '卡未授权' : '动态码无效或已过期') : null,
          who:
            method === 'remote' ? '运营专员' : method === 'password' ? null : phone ? maskPhone(phone) : null,
          at,
          receivedAt: at,
        });
      }
    }
  }
  for (let i = 0; i < events.length; i += 500)
    await app.db.insert(deviceOpenLogs).values(events.slice(i, i + 500));
}

/**
 * Starts the demo devices when this is the demo (not production, DEMO_DEVICES > 0, the device link
 * up); answers how many run and how to stop them (before the app closes).
 */
export async function startDemoDevices(
  app: FastifyInstance,
): Promise<{ count: number; stop: () => Promise<void> }> {
  const { config } = app;
  const none = { count: 0, stop: async () => undefined };
  if (config.nodeEnv === 'production' || config.demoDevices === 0) return none;
  const link = app.devices.status();
  if (!link.up || !link.url || !(await holdsDemo(app))) return none;
  await registerDemoDevices(app, config.demoDevices);
  const rows = await app.db
    .select({ sn: devices.sn, secret: devices.secret, firmware: devices.firmware })
    .from(devices)
    .where(like(devices.sn, `${DEMO_SN_PREFIX}%`))
    .orderBy(asc(devices.sn))
    .limit(config.demoDevices);
  const running: SimulatedDevice[] = [];
  for (const row of rows) {
    const device = new SimulatedDevice({
      url: link.url,
      sn: row.sn,
      secret: app.devices.box.open(row.secret),
      protocol: '1.1',
      model: DEMO_MODEL,
      // What it last said in hello (a rollout may have updated it since).
      firmware: row.firmware ?? DEMO_FIRMWARE,
      // As a real door: back by itself after the connection is lost, its kept events sent then.
      reconnectMs: 2_000,
    });
    try {
      await device.connect();
      running.push(device);
    } catch (error) {
      app.log.warn({ err: error, sn: row.sn }, 'demo device could not connect');
    }
  }
  return {
    count: running.length,
    stop: async () => {
      await Promise.all(running.map((d) => d.close().catch(() => undefined)));
    },
  };
}
