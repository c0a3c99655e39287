/**
 * 告警通知's rules, read from the database so that every instance comes to the same answer: each
 * round works out which alerts should be open now (one per cause), opens those not open yet,
 * updates those whose count or wording changed, and closes the open ones whose cause has ended.
 * The round runs in one transaction under an advisory lock, and an open alert's cause is unique
 * in the table: however many instances evaluate, each cause is raised once.
 */
import {
  and,
  count,
  eq,
  getTableColumns,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  notInArray,
  or,
  sql,
} from 'drizzle-orm';
import {
  alarmKindLabels,
  REFUSAL_ALERT_COUNT,
  REFUSAL_WINDOW_MS,
  SYNC_STUCK_ALERT_MS,
  type AlertKind,
} from '@cowork/contract';
import type { Database, Executor } from '../../db/client.ts';
import {
  alerts,
  buildings,
  deviceAlarms,
  deviceOpenLogs,
  devices,
  firmwareFiles,
  firmwareRolloutDevices,
  firmwareRollouts,
  spaces,
} from '../../db/schema.ts';
import { alertEvents, recordEvents } from '../../lib/outbox.ts';

/** An alert as a rule wants it open now. */
export interface WantedAlert {
  kind: AlertKind;
  causeKey: string;
  buildingId: number | null;
  deviceId: number | null;
  title: string;
  detail: string;
  link: string;
  count: number;
}

/** Devices named in a building alert's detail; the rest are counted. */
const NAMED_DEVICES = 5;

const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/** 「大堂闸机、3F 东门 等 7 台」 */
function deviceNames(names: readonly string[] | null, count: number): string {
  const shown = (names ?? []).slice(0, NAMED_DEVICES).join('、');
  return count > NAMED_DEVICES ? `${shown} 等 ${count} 台` : shown;
}

/** Where devices of a building (or of none) are listed on 设备管理. */
const deviceLink = (buildingId: number | null, status?: 'online' | 'offline') => {
  const params = new URLSearchParams();
  if (buildingId !== null) params.set('buildingId', String(buildingId));
  if (status) params.set('status', status);
  const query = params.toString();
  return query ? `/hardware/device?${query}` : '/hardware/device';
};

/** The building part of a title: its name, or the devices placed in none. */
const whereOf = (name: string | null) => (name === null ? '未分配空间的 ' : `${name} `);

/** Devices counted per building (null: placed in no space), with the first names. */
const perBuilding = {
  buildingId: spaces.buildingId,
  buildingName: buildings.name,
  count: sql<number>`count(*)::int`.mapWith(Number),
  names: sql<
    string[]
  >`(array_agg(${devices.name} order by ${devices.name}))[1:${sql.raw(String(NAMED_DEVICES))}]`,
};

/**
 * 设备离线: devices offline longer than their building's offline_alert_minutes, one alert per
 * building (300 doors dropping together are one alert counting 300).
 */
async function offlineDevices(tx: Executor, now: Date): Promise<WantedAlert[]> {
  const minutes = sql`coalesce(${buildings.offlineAlertMinutes}, 5)`;
  const rows = await tx
    .select({ ...perBuilding, minutes: sql<number>`${minutes}::int`.mapWith(Number) })
    .from(devices)
    .leftJoin(spaces, eq(spaces.id, devices.spaceId))
    .leftJoin(buildings, eq(buildings.id, spaces.buildingId))
    .where(
      and(
        eq(devices.status, 'offline'),
        sql`(${devices.lastSeenAt} is null or ${devices.lastSeenAt} < ${at(now)} - ${minutes} * interval '1 minute')`,
      ),
    )
    .groupBy(spaces.buildingId, buildings.name, buildings.offlineAlertMinutes);
  return rows.map((r) => ({
    kind: 'device-offline',
    causeKey: `device-offline:building:${r.buildingId ?? 'none'}`,
    buildingId: r.buildingId,
    deviceId: null,
    title: `${whereOf(r.buildingName)}${r.count} 台门禁设备离线超过 ${r.minutes} 分钟`,
    detail: `离线设备：${deviceNames(r.names, r.count)}。请检查设备的电源和网络；设备恢复在线后本通知自动关闭。`,
    link: deviceLink(r.buildingId, 'offline'),
    count: r.count,
  }));
}

/** 权限未同步: online devices that have not applied their current state for SYNC_STUCK_ALERT_MS, per building. */
async function stuckDevices(tx: Executor, now: Date): Promise<(WantedAlert & { deviceIds: number[] })[]> {
  const minutes = Math.round(SYNC_STUCK_ALERT_MS / 60_000);
  const rows = await tx
    .select({ ...perBuilding, deviceIds: sql<number[]>`array_agg(${devices.id})` })
    .from(devices)
    .leftJoin(spaces, eq(spaces.id, devices.spaceId))
    .leftJoin(buildings, eq(buildings.id, spaces.buildingId))
    .where(
      and(
        eq(devices.status, 'online'),
        sql`coalesce(${devices.heldVersion}, ${devices.ackedVersion}) < ${devices.accessVersion}`,
        sql`${devices.accessChangedAt} < ${at(now)} - ${SYNC_STUCK_ALERT_MS} * interval '1 millisecond'`,
      ),
    )
    .groupBy(spaces.buildingId, buildings.name);
  return rows.map((r) => ({
    kind: 'sync-stuck',
    causeKey: `sync-stuck:building:${r.buildingId ?? 'none'}`,
    buildingId: r.buildingId,
    deviceId: null,
    title: `${whereOf(r.buildingName)}${r.count} 台门禁设备超过 ${minutes} 分钟未同步开门权限`,
    detail: `未同步设备：${deviceNames(r.names, r.count)}。设备在线却没有应用最新的开门权限，请在设备管理中对其重新同步或重启设备；同步完成后本通知自动关闭。`,
    link: deviceLink(r.buildingId, 'online'),
    count: r.count,
    deviceIds: r.deviceIds.map(Number),
  }));
}

/** 设备告警: each open row of 告警记录; closed when the device clears it or staff acknowledge it. */
async function openAlarms(tx: Executor): Promise<WantedAlert[]> {
  const rows = await tx
    .select({
      id: deviceAlarms.id,
      kind: deviceAlarms.kind,
      deviceId: deviceAlarms.deviceId,
      deviceName: deviceAlarms.deviceName,
      sn: deviceAlarms.sn,
      buildingId: deviceAlarms.buildingId,
      buildingName: buildings.name,
      detail: deviceAlarms.detail,
    })
    .from(deviceAlarms)
    .leftJoin(buildings, eq(buildings.id, deviceAlarms.buildingId))
    .where(and(eq(deviceAlarms.state, 'open'), isNull(deviceAlarms.clearedAt)));
  return rows.map((r) => {
    const device = r.deviceName ?? r.sn;
    const place = r.buildingName ? `${r.buildingName} ` : '';
    return {
      kind: 'alarm',
      causeKey: `alarm:${r.id}`,
      buildingId: r.buildingId,
      deviceId: r.deviceId,
      title: `${place}${device}：${alarmKindLabels[r.kind]}`,
      detail: `${r.detail ? `设备报告：${r.detail}。` : ''}请到现场查看，并在告警记录中确认；告警恢复或确认后本通知自动关闭。`,
      link: '/hardware/alarm?state=open',
      count: 1,
    };
  });
}

/**
 * 频繁拒绝开门: REFUSAL_ALERT_COUNT refusals at one door within REFUSAL_WINDOW_MS, one alert per
 * device, open until a whole window passes without a refusal; it counts the refusals since it opened.
 */
async function refusals(tx: Executor, now: Date): Promise<WantedAlert[]> {
  const windowStart = new Date(now.getTime() - REFUSAL_WINDOW_MS);
  const denied = and(
    eq(deviceOpenLogs.result, 'denied'),
    isNotNull(deviceOpenLogs.deviceId),
    lte(deviceOpenLogs.at, now),
  );
  const deviceId = sql<number>`${deviceOpenLogs.deviceId}`.mapWith(Number);
  // Within the window only (the index on `at`): the log holds months of door events.
  const recent = await tx
    .select({ deviceId, n: count() })
    .from(deviceOpenLogs)
    .where(and(denied, gt(deviceOpenLogs.at, windowStart)))
    .groupBy(deviceOpenLogs.deviceId);
  const open = await tx
    .select({ deviceId: alerts.deviceId, raisedAt: alerts.raisedAt })
    .from(alerts)
    .where(and(eq(alerts.kind, 'refusals'), isNull(alerts.closedAt)));
  const openSince = new Map(
    open.flatMap((o) =>
      o.deviceId === null ? [] : [[o.deviceId, o.raisedAt.getTime() - REFUSAL_WINDOW_MS] as const],
    ),
  );
  const firing = recent.filter((r) => r.n >= REFUSAL_ALERT_COUNT || (openSince.has(r.deviceId) && r.n > 0));
  if (firing.length === 0) return [];
  // An open alert counts every refusal since the window that raised it.
  const since = firing.flatMap((r) => {
    const from = openSince.get(r.deviceId);
    return from === undefined
      ? []
      : [and(eq(deviceOpenLogs.deviceId, r.deviceId), gte(deviceOpenLogs.at, new Date(from)))];
  });
  const totals = new Map(
    since.length === 0
      ? []
      : (
          await tx
            .select({ deviceId, n: count() })
            .from(deviceOpenLogs)
            .where(and(denied, or(...since)))
            .groupBy(deviceOpenLogs.deviceId)
        ).map((r) => [r.deviceId, r.n] as const),
  );
  const places = await tx
    .select({
      id: devices.id,
      name: devices.name,
      buildingId: spaces.buildingId,
      buildingName: buildings.name,
    })
    .from(devices)
    .leftJoin(spaces, eq(spaces.id, devices.spaceId))
    .leftJoin(buildings, eq(buildings.id, spaces.buildingId))
    .where(
      inArray(
        devices.id,
        firing.map((r) => r.deviceId),
      ),
    );
  const placeOf = new Map(places.map((p) => [p.id, p]));
  const seconds = Math.round(REFUSAL_WINDOW_MS / 1000);
  return firing.flatMap((r) => {
    const place = placeOf.get(r.deviceId);
    if (!place) return [];
    const total = Math.max(totals.get(r.deviceId) ?? 0, r.n);
    return [
      {
        kind: 'refusals',
        causeKey: `refusals:device:${r.deviceId}`,
        buildingId: place.buildingId,
        deviceId: r.deviceId,
        title: `${place.buildingName ? `${place.buildingName} ` : ''}${place.name} 频繁拒绝开门，已拒绝 ${total} 次`,
        detail: `${seconds} 秒内被拒绝开门 ${REFUSAL_ALERT_COUNT} 次及以上，可能有人在试卡或试密码。请查看开门记录并到现场确认；连续 ${seconds} 秒没有拒绝后本通知自动关闭。`,
        link: `/hardware/log?deviceId=${r.deviceId}&result=denied`,
        count: total,
      },
    ];
  });
}

/** 固件升级中止: each rollout halted at its failure limit; closed when resumed or cancelled. */
async function haltedRollouts(tx: Executor): Promise<WantedAlert[]> {
  const rows = await tx
    .select({
      id: firmwareRollouts.id,
      model: firmwareFiles.model,
      version: firmwareFiles.version,
      failed:
        sql<number>`(select count(*)::int from ${firmwareRolloutDevices} where ${firmwareRolloutDevices.rolloutId} = ${firmwareRollouts.id} and ${firmwareRolloutDevices.state} = 'failed')`.mapWith(
          Number,
        ),
    })
    .from(firmwareRollouts)
    .innerJoin(firmwareFiles, eq(firmwareFiles.id, firmwareRollouts.firmwareId))
    .where(eq(firmwareRollouts.state, 'halted'));
  return rows.map((r) => ({
    kind: 'rollout-halted',
    causeKey: `rollout-halted:${r.id}`,
    buildingId: null,
    deviceId: null,
    title: `固件升级 #${r.id}（${r.model} ${r.version}）失败过多，已中止`,
    detail: `${r.failed} 台设备升级失败，达到失败上限后升级已自动中止。请到固件升级查看失败原因，处理后继续或取消这次升级；继续或取消后本通知自动关闭。`,
    link: '/hardware/firmware',
    count: r.failed,
  }));
}

/**
 * Opens the wanted alerts of one kind not open yet, updates those whose wording or count changed,
 * and closes the kind's other open alerts.
 */
async function reconcile(
  tx: Executor,
  kind: AlertKind,
  wanted: WantedAlert[],
  now: Date,
  /** Causes that keep their open alert without raising one (default: the wanted ones). */
  kept: string[] = wanted.map((w) => w.causeKey),
) {
  const raised: (Alert & { inserted: boolean })[] = [];
  if (wanted.length > 0) {
    const written = await tx
      .insert(alerts)
      .values(
        wanted.map(({ kind: k, causeKey, buildingId, deviceId, title, detail, link, count }) => ({
          kind: k,
          causeKey,
          buildingId,
          deviceId,
          title,
          detail,
          link,
          count,
          raisedAt: now,
          updatedAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: alerts.causeKey,
        targetWhere: isNull(alerts.closedAt),
        set: {
          title: sql`excluded.title`,
          detail: sql`excluded.detail`,
          link: sql`excluded.link`,
          count: sql`excluded.count`,
          updatedAt: now,
        },
        setWhere: sql`(${alerts.title}, ${alerts.detail}, ${alerts.link}, ${alerts.count}) is distinct from (excluded.title, excluded.detail, excluded.link, excluded.count)`,
      })
      // xmax is 0 on a row this statement inserted, not on one it updated: only those are raised.
      .returning({ ...getTableColumns(alerts), inserted: sql<boolean>`(xmax = 0)` });
    raised.push(...written.filter((w) => w.inserted));
  }
  const closed = await tx
    .update(alerts)
    .set({ closedAt: now, updatedAt: now })
    .where(and(eq(alerts.kind, kind), isNull(alerts.closedAt), notInArray(alerts.causeKey, kept)))
    .returning();
  await recordEvents(tx, alertEvents(raised, closed));
}

type Alert = typeof alerts.$inferSelect;

/**
 * A device that reconnects after its state changed is behind until its sync is acked, a second or
 * two: it raises 权限未同步 only once this instance has seen it behind for this long. An open alert
 * is kept (and closed) from the database alone, so instances that remember differently agree.
 */
export const SYNC_STUCK_GRACE_MS = 30_000;

/** What one instance remembers between rounds: since when it has seen each device behind its state. */
export interface RulesMemory {
  behindSince: Map<number, number>;
}
export const rulesMemory = (): RulesMemory => ({ behindSince: new Map() });

async function openCauses(tx: Executor, kind: AlertKind) {
  const rows = await tx
    .select({ causeKey: alerts.causeKey })
    .from(alerts)
    .where(and(eq(alerts.kind, kind), isNull(alerts.closedAt)));
  return new Set(rows.map((r) => r.causeKey));
}

async function stuckRule(tx: Executor, now: Date, memory: RulesMemory) {
  const stuck = await stuckDevices(tx, now);
  const open = await openCauses(tx, 'sync-stuck');
  const seen = new Map<number, number>();
  for (const id of stuck.flatMap((w) => w.deviceIds))
    seen.set(id, memory.behindSince.get(id) ?? now.getTime());
  memory.behindSince = seen;
  const raised = stuck.filter(
    (w) =>
      open.has(w.causeKey) ||
      w.deviceIds.some((id) => now.getTime() - (seen.get(id) ?? now.getTime()) >= SYNC_STUCK_GRACE_MS),
  );
  await reconcile(
    tx,
    'sync-stuck',
    raised,
    now,
    stuck.map((w) => w.causeKey),
  );
}

/**
 * One round of every rule at `now` (tests pass their own clock); `memory` is the instance's, kept
 * from round to round.
 */
export async function evaluateAlerts(
  db: Database,
  now: Date = new Date(),
  memory: RulesMemory = rulesMemory(),
): Promise<void> {
  await db.transaction(async (tx) => {
    // One instance evaluates at a time; the others wait and then find nothing left to do.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('cowork-alerts-evaluate'))`);
    await reconcile(tx, 'device-offline', await offlineDevices(tx, now), now);
    await stuckRule(tx, now, memory);
    await reconcile(tx, 'alarm', await openAlarms(tx), now);
    await reconcile(tx, 'refusals', await refusals(tx, now), now);
    await reconcile(tx, 'rollout-halted', await haltedRollouts(tx), now);
  });
}
