/**
 * The demo's door devices: `npm start` on demo data (never in production) runs DEMO_DEVICES
 * simulated devices in process (DEMO-001…), connected to the console's own broker, so every
 * hardware screen shows live devices and 远程开门 works out of the box. The first start registers
 * them (random secrets, sealed like any device's), places them at the demo spaces' gates, gathers
 * them in a 门禁联动 holding those floors, and writes a month of door history; later starts only
 * reconnect them with the secrets kept in the database. DEMO_DEVICES=0 turns them off.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { asc, eq, inArray, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { maskPhone } from '@cowork/contract';
import {
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
        model: 'SIM-100',
        vendor: 'cowork',
        firmware: '1.0.0',
        secret: app.devices.box.seal(randomBytes(32).toString('base64url')),
      })),
    )
    .returning({ id: devices.id, sn: devices.sn, name: devices.name, spaceId: devices.spaceId });

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
  const gateBuildings = new Map(
    (
      await app.db
        .select({ id: spaces.id, buildingId: spaces.buildingId })
        .from(spaces)
        .where(eq(spaces.kind, 'gate'))
    ).map((g) => [g.id, g.buildingId]),
  );
  const links = groups.flatMap((group) =>
    rows
      .filter((r) => r.spaceId !== null && gateBuildings.get(r.spaceId) === group.buildingId)
      .map((r) => ({ groupId: group.id, deviceId: r.id })),
  );
  if (links.length) await app.db.insert(kreatorDevices).values(links).onConflictDoNothing();
  await writeHistory(app, rows);
  return rows.map((r) => r.id);
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
    .select({ sn: devices.sn, secret: devices.secret })
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
