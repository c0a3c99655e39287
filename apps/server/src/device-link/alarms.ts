/**
 * A device's `alarm` events (v1.1) written to 告警记录, each change once: a `raised` event is one
 * row (its id unique there), its `cleared` event closes the latest open row of the same device and
 * kind. A clear may come before its raise (a kept raise whose PUBACK was lost is sent again after
 * it): it is kept in device_alarm_clears and closes the row when the raise arrives. An event sent
 * again, or heard by every instance on an external broker, changes nothing.
 *
 * The events of one turn are written in one transaction that first takes an advisory lock per
 * device and kind, so two instances (or two turns) never both miss a raise and its clear.
 */
import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { ALARM_DETAIL_MAX, alarmEventStates, alarmKinds, type AlarmKind } from '@cowork/contract';
import type { Database, Executor } from '../db/client.ts';
import { deviceAlarmClears, deviceAlarms } from '../db/schema.ts';
import { batchLoader } from '../lib/batch.ts';
import { eventAtAccepted, type DropReason, type Envelope } from './protocol.ts';
import { recordAlarmEvents } from './webhook-events.ts';

export type AlarmEvents = ReturnType<typeof createAlarmEvents>;

/** What others are told of an alarm change (the bell's alerts, tests). */
export interface AlarmChange {
  /** The row in 告警记录. */
  id: number;
  deviceId: number | null;
  sn: string;
  buildingId: number | null;
  kind: AlarmKind;
  state: 'raised' | 'cleared';
}

interface AlarmEvent {
  messageId: string;
  device: { id: number; name: string };
  sn: string;
  kind: AlarmKind;
  state: (typeof alarmEventStates)[number];
  at: Date;
  detail: string | null;
}

/** What became of one event: written (told as a change), kept for its raise, or already logged. */
type Outcome = { change: AlarmChange } | 'kept' | 'replayed';

/** The event's params as the protocol fixes them, or undefined when any is wrong. */
export function alarmOf(params: Record<string, unknown>) {
  const kind = alarmKinds.find((k) => k === params.kind);
  const state = alarmEventStates.find((s) => s === params.state);
  const at = params.at;
  const detail = params.detail;
  if (!kind || !state || typeof at !== 'number' || !Number.isFinite(at)) return undefined;
  if (detail !== undefined && (typeof detail !== 'string' || detail.length > ALARM_DETAIL_MAX))
    return undefined;
  return { kind, state, at, detail: detail ?? null };
}

// An sn holds no space (DEVICE_SN_PATTERN), so the pair is unambiguous.
const lockKey = (sn: string, kind: string) => `${sn} ${kind}`;

/** Locks each device and kind for the transaction, in one order, so two writers cannot deadlock. */
async function lockAll(tx: Executor, events: AlarmEvent[]) {
  const keys = [...new Set(events.map((e) => lockKey(e.sn, e.kind)))];
  const values = sql.join(
    keys.map((k) => sql`(${k}::text)`),
    sql`, `,
  );
  await tx.execute(sql`select pg_advisory_xact_lock(h)
    from (select distinct hashtext(v.k)::bigint as h from (values ${values}) as v(k) order by h) as l`);
}

/** Closes row `id` with a `cleared` event (its state becomes cleared whether acknowledged or not). */
async function close(tx: Executor, id: number, clear: { messageId: string; at: Date }) {
  const [row] = await tx
    .update(deviceAlarms)
    .set({ state: 'cleared', clearedAt: clear.at, clearedMessageId: clear.messageId })
    .where(and(eq(deviceAlarms.id, id), isNull(deviceAlarms.clearedAt)))
    .returning();
  return row;
}

const changeOf = (row: typeof deviceAlarms.$inferSelect, state: AlarmChange['state']): AlarmChange => ({
  id: row.id,
  deviceId: row.deviceId,
  sn: row.sn,
  buildingId: row.buildingId,
  kind: row.kind,
  state,
});

/** The raises of a batch in one INSERT; a message id already logged is a replay. */
async function writeRaises(tx: Executor, raises: AlarmEvent[], outcomes: Map<AlarmEvent, Outcome>) {
  if (raises.length === 0) return [];
  const rows = await tx
    .insert(deviceAlarms)
    .values(
      raises.map((e) => ({
        messageId: e.messageId,
        deviceId: e.device.id,
        sn: e.sn,
        deviceName: e.device.name,
        buildingId: sql`(select s.building_id from devices d join spaces s on s.id = d.space_id
          where d.id = ${e.device.id})`,
        kind: e.kind,
        detail: e.detail,
        raisedAt: e.at,
      })),
    )
    .onConflictDoNothing({ target: deviceAlarms.messageId })
    .returning();
  const written = new Map(rows.map((r) => [r.messageId, r]));
  for (const e of raises) {
    const row = written.get(e.messageId);
    outcomes.set(e, row ? { change: changeOf(row, 'raised') } : 'replayed');
    // The same id twice in one batch: the first is the write, the rest replays.
    written.delete(e.messageId);
  }
  return rows;
}

/**
 * A clear closes the latest open row of its device and kind raised at or before it; with none, it
 * is kept until its raise arrives. One whose id is known already (closed a row, or kept) is a replay.
 */
async function writeClears(tx: Executor, clears: AlarmEvent[], outcomes: Map<AlarmEvent, Outcome>) {
  if (clears.length === 0) return;
  const ids = clears.map((e) => e.messageId);
  const known = new Set([
    ...(
      await tx
        .select({ id: deviceAlarms.clearedMessageId })
        .from(deviceAlarms)
        .where(inArray(deviceAlarms.clearedMessageId, ids))
    ).map((r) => r.id),
    ...(
      await tx
        .select({ id: deviceAlarmClears.messageId })
        .from(deviceAlarmClears)
        .where(inArray(deviceAlarmClears.messageId, ids))
    ).map((r) => r.id),
  ]);
  for (const e of clears) {
    if (known.has(e.messageId)) {
      outcomes.set(e, 'replayed');
      continue;
    }
    known.add(e.messageId);
    const [open] = await tx
      .select({ id: deviceAlarms.id })
      .from(deviceAlarms)
      .where(
        and(
          eq(deviceAlarms.sn, e.sn),
          eq(deviceAlarms.kind, e.kind),
          isNull(deviceAlarms.clearedAt),
          lte(deviceAlarms.raisedAt, e.at),
        ),
      )
      .orderBy(sql`${deviceAlarms.raisedAt} desc`, sql`${deviceAlarms.id} desc`)
      .limit(1);
    const row = open && (await close(tx, open.id, e));
    if (row) {
      outcomes.set(e, { change: changeOf(row, 'cleared') });
      continue;
    }
    await tx
      .insert(deviceAlarmClears)
      .values({ messageId: e.messageId, sn: e.sn, kind: e.kind, at: e.at })
      .onConflictDoNothing();
    outcomes.set(e, 'kept');
  }
}

/**
 * Raises just written that a kept clear ends: the earliest clear at or after the raise, unless
 * another raise of the same device and kind came between them (that one is the clear's).
 */
async function applyKeptClears(tx: Executor, raised: (typeof deviceAlarms.$inferSelect)[]) {
  const changes: AlarmChange[] = [];
  if (raised.length === 0) return changes;
  const pairs = raised.map((r) => and(eq(deviceAlarmClears.sn, r.sn), eq(deviceAlarmClears.kind, r.kind)));
  const kept = await tx
    .select()
    .from(deviceAlarmClears)
    .where(or(...pairs))
    .orderBy(asc(deviceAlarmClears.at));
  if (kept.length === 0) return changes;
  const used = new Set<string>();
  for (const row of [...raised].sort((a, b) => a.raisedAt.getTime() - b.raisedAt.getTime())) {
    const clear = kept.find(
      (c) => !used.has(c.messageId) && c.sn === row.sn && c.kind === row.kind && c.at >= row.raisedAt,
    );
    if (!clear) continue;
    const [between] = await tx
      .select({ id: deviceAlarms.id })
      .from(deviceAlarms)
      .where(
        and(
          eq(deviceAlarms.sn, row.sn),
          eq(deviceAlarms.kind, row.kind),
          gt(deviceAlarms.raisedAt, row.raisedAt),
          lte(deviceAlarms.raisedAt, clear.at),
        ),
      )
      .limit(1);
    if (between) continue;
    used.add(clear.messageId);
    await tx.delete(deviceAlarmClears).where(eq(deviceAlarmClears.messageId, clear.messageId));
    const closed = await close(tx, row.id, { messageId: clear.messageId, at: clear.at });
    if (closed) changes.push(changeOf(closed, 'cleared'));
  }
  return changes;
}

export function createAlarmEvents({ db }: { db: Database }) {
  const listeners = new Set<(change: AlarmChange) => void>();
  const tell = (change: AlarmChange) => listeners.forEach((listener) => listener(change));

  /** The events of one turn in one transaction; each caller gets its own event's outcome. */
  const write = batchLoader(async (events: AlarmEvent[]) => {
    const outcomes = new Map<AlarmEvent, Outcome>();
    const later: AlarmChange[] = [];
    await db.transaction(async (tx) => {
      await lockAll(tx, events);
      const byTime = [...events].sort((a, b) => a.at.getTime() - b.at.getTime());
      const raised = await writeRaises(
        tx,
        byTime.filter((e) => e.state === 'raised'),
        outcomes,
      );
      await writeClears(
        tx,
        byTime.filter((e) => e.state === 'cleared'),
        outcomes,
      );
      later.push(...(await applyKeptClears(tx, raised)));
      const changes = [...outcomes.values()].flatMap((o) => (typeof o === 'object' ? [o.change] : []));
      await recordAlarmEvents(tx, [...changes, ...later]);
    });
    for (const outcome of outcomes.values()) if (typeof outcome === 'object') tell(outcome.change);
    later.forEach(tell);
    return outcomes;
  });

  return {
    /**
     * Writes one signed alarm event of this device: resolves once it is in the database (or was
     * already), answers why it was refused when it cannot be (bad params, `at` out of range) or
     * `replayed` when its id was logged before; those are acknowledged anyway.
     */
    async record(
      device: { id: number; name: string },
      sn: string,
      message: Envelope,
    ): Promise<DropReason | undefined> {
      const alarm = alarmOf(message.params);
      if (!alarm) return 'malformed';
      if (!eventAtAccepted(alarm.at)) return 'at-out-of-range';
      const outcome = await write({ ...alarm, messageId: message.id, device, sn, at: new Date(alarm.at) });
      return outcome === 'replayed' ? 'replayed' : undefined;
    },
    /** Called after each alarm raised or cleared is written (the bell's alerts, tests). */
    listen(listener: (change: AlarmChange) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
