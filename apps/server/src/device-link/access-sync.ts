/**
 * Keeping every device's access state (who may open it, admin passwords, card rules, its space's
 * mode) as the database says: a device is sent its whole state in a `sync` when that state changed
 * (its hash differs from the one last sent), after its hello, when an entry of it expires, and again
 * while a sync it was sent was never acked or its heartbeat names an older version. Each sync carries
 * the state's version and the lease (`validUntil`) of the device's building.
 *
 * Several instances may react to one change: claiming the new state is one UPDATE per batch guarded
 * by the hash, so only one of them sends it.
 */
import { inArray, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { retryingDeadlocks, rowsOf, type Database } from '../db/client.ts';
import { devices } from '../db/schema.ts';
import { batchWriter } from '../lib/batch.ts';
import {
  accessLists,
  devicesAffected,
  doorOrderKinds,
  hashOfAccess,
  nextExpiryOf,
  type AccessState,
} from './access.ts';
import { automaticActor } from './actors.ts';
import type { CommandActor, Commands } from './commands.ts';
import { leaseHoursOf } from './leases.ts';
import { deviceModesOf } from './modes.ts';
import { adminPasswordsFor } from './secrets-v11.ts';

/** The expiry timer looks again at least this often (a state claimed by another instance). */
const EXPIRY_RECHECK_MS = 60_000;

/** The access state of each of these devices as of `now` (a device that does not exist has none). */
export async function accessStatesOf(
  db: Database,
  ids: readonly number[],
  now: number,
): Promise<Map<number, AccessState>> {
  const rows = await db
    .select({
      id: devices.id,
      adminPasswords: devices.adminPasswords,
      cardRules: devices.cardRules,
      protocol: devices.protocol,
    })
    .from(devices)
    .where(inArray(devices.id, ids));
  const lists = await accessLists(db, ids, new Date(now));
  const modes = await deviceModesOf(db, ids);
  return new Map(
    rows.map((r) => {
      const state: AccessState = {
        access: lists.get(r.id) ?? [],
        // v1.1 devices get salted PBKDF2, v1 devices SHA-256 (secrets-v11.ts).
        adminPasswords: adminPasswordsFor(r.adminPasswords, r.protocol),
        cardRules: r.cardRules,
        mode: modes.get(r.id) ?? 'normal',
      };
      return [r.id, state];
    }),
  );
}

/** A device whose new state this instance claimed: it sends it. */
interface Claimed {
  id: number;
  sn: string;
  name: string;
  secret: string;
  status: 'online' | 'offline';
  access_version: number;
  next_expiry_at: string | null;
  /** The offline lease of its building, hours (the default where it is in no building). */
  lease_hours: number;
}

/**
 * Records each state as the one to send (its hash, its next expiry, and a new version when the state
 * changed), only where the hash differs from the one last sent unless `force` (a hello, a device
 * found holding an old state): then the same version goes again. Answers the devices claimed.
 */
async function claimStates(db: Database, states: Map<number, AccessState>, now: number, force: boolean) {
  const values = sql.join(
    [...states].map(([id, state]) => {
      const next = nextExpiryOf(state, now);
      return sql`(${id}::int, ${hashOfAccess(state)}::text, ${next ? next.toISOString() : null}::timestamptz)`;
    }),
    sql`, `,
  );
  return rowsOf<Claimed>(
    db,
    sql`
    update devices d
    set access_version = d.access_version + (case when d.access_hash is distinct from v.hash then 1 else 0 end),
      access_changed_at = case when d.access_hash is distinct from v.hash then now() else d.access_changed_at end,
      access_hash = v.hash, next_expiry_at = v.next
    from (values ${values}) as v(id, hash, next)
    where d.id = v.id ${force ? sql`` : sql`and d.access_hash is distinct from v.hash`}
    returning d.id, d.sn, d.name, d.secret, d.status, d.access_version, d.next_expiry_at,
      ${leaseHoursOf(sql`d.space_id`)} as lease_hours`,
  );
}

/**
 * Wakes up at the next expiry of any device's state (cards expiring, bookings over; checked again
 * at least every EXPIRY_RECHECK_MS) and hands the devices due to `onDue`, which re-syncs them.
 */
export function expiryTimer({ db, log }: { db: Database; log: FastifyBaseLogger }) {
  let timer: NodeJS.Timeout | undefined;
  let onDue: ((deviceIds: number[]) => Promise<unknown>) | undefined;

  async function syncDue(resync: (deviceIds: number[]) => Promise<unknown>) {
    const due = await db
      .update(devices)
      .set({ nextExpiryAt: null })
      .where(lte(devices.nextExpiryAt, new Date()))
      .returning({ id: devices.id });
    await resync(due.map((d) => d.id));
    arm();
  }

  /** Sets the timer to the earliest next expiry (a state just claimed may end sooner). */
  function arm() {
    const resync = onDue;
    if (!resync) return;
    // Started from a promise: a database that is not there yet fails here, not in the caller.
    void Promise.resolve()
      .then(() => db.select({ at: sql<string | null>`min(${devices.nextExpiryAt})` }).from(devices))
      .then(([row]) => {
        const at = row?.at ? new Date(row.at).getTime() : Infinity;
        const wait = Math.max(0, Math.min(at - Date.now(), EXPIRY_RECHECK_MS));
        clearTimeout(timer);
        timer = setTimeout(
          () =>
            void syncDue(resync).catch((error: unknown) => log.warn({ err: error }, 'expiry re-sync failed')),
          wait,
        ).unref();
      })
      .catch((error: unknown) => log.warn({ err: error }, 'could not schedule access expiry'));
  }

  return {
    arm,
    start(resync: (deviceIds: number[]) => Promise<unknown>) {
      onDue = resync;
      arm();
    },
    stop() {
      onDue = undefined;
      clearTimeout(timer);
    },
  };
}

export interface AccessSyncDeps {
  db: Database;
  log: FastifyBaseLogger;
  /** Sends a command and resolves once the device acked it (commands.ts). */
  command: Commands['command'];
}

export type AccessSync = ReturnType<typeof createAccessSync>;

export function createAccessSync({ db, log, command }: AccessSyncDeps) {
  const pending = new Set<Promise<unknown>>();
  const expiry = expiryTimer({ db, log });

  /**
   * The state each device acked: its version (a later one acked first is kept), the mode it holds
   * and, for a v1.1 device, the lease it took. It holds the current state since now if it did not.
   */
  const recordAcked = batchWriter(
    async (acks: { id: number; version: number; mode: string; validUntil: number }[]) => {
      const values = sql.join(
        acks.map(
          (a) =>
            sql`(${a.id}::int, ${a.version}::int, ${a.mode}::text, ${new Date(a.validUntil).toISOString()}::timestamptz)`,
        ),
        sql`, `,
      );
      await retryingDeadlocks(() =>
        db.execute(sql`update devices d set acked_version = greatest(d.acked_version, v.version),
        held_version = greatest(coalesce(d.held_version, 0), v.version),
        synced_at = case when v.version >= d.access_version and d.held_version is distinct from v.version
          then now() else d.synced_at end,
        sent_mode = v.mode,
        lease_until = case when d.protocol = '1.1' then v.valid_until else d.lease_until end
        from (values ${values}) as v(id, version, mode, valid_until) where d.id = v.id`),
      );
    },
  );

  /**
   * The version a v1.1 device's heartbeat says it holds: lower than the current one (it lost its
   * state, or a sync never reached it), the sweep sends the current state again.
   */
  const recordHeld = batchWriter(async (beats: { id: number; version: number }[]) => {
    const latest = [...new Map(beats.map((b) => [b.id, b])).values()];
    const values = sql.join(
      latest.map((b) => sql`(${b.id}::int, ${b.version}::int)`),
      sql`, `,
    );
    await retryingDeadlocks(() =>
      db.execute(sql`update devices d set held_version = v.version,
      synced_at = case when v.version >= d.access_version and d.held_version is distinct from v.version
        then now() else d.synced_at end
      from (values ${values}) as v(id, version)
      where d.id = v.id and d.held_version is distinct from v.version`),
    );
  });

  /**
   * Sends each device its whole access state (replacing what it holds) when that state differs from
   * the one last sent, or always (`force`, after a hello). Offline devices get it at their next
   * hello; the sync state shows 未同步 meanwhile. Answers the ids of the devices that acked the
   * state sent now.
   */
  async function syncDevices(
    deviceIds: readonly number[],
    actor: CommandActor,
    force = false,
  ): Promise<number[]> {
    const ids = [...new Set(deviceIds)];
    if (ids.length === 0) return [];
    const now = Date.now();
    const states = await accessStatesOf(db, ids, now);
    if (states.size === 0) return [];
    const claimed = await retryingDeadlocks(() => claimStates(db, states, now, force));
    // A state ending sooner than the timer waits re-arms it.
    if (claimed.some((row) => row.next_expiry_at)) expiry.arm();
    const sent = await Promise.allSettled(
      claimed
        .filter((row) => row.status === 'online')
        .map(async (row) => {
          const id = Number(row.id);
          const state = states.get(id);
          // Claims are made from these states, so one is always there.
          if (!state) throw new Error(`device ${id} was claimed without an access state`);
          const version = Number(row.access_version);
          const sentAt = Date.now();
          const validUntil = sentAt + Number(row.lease_hours) * 3_600_000;
          await command(
            { ...row, id },
            { type: 'sync', params: { now: sentAt, ...state, version, validUntil } },
            actor,
          );
          await recordAcked({ id, version, mode: state.mode ?? 'normal', validUntil });
          return id;
        }),
    );
    // One device's failure is the caller's to report; in a batch each is logged and shows as 未同步.
    const failed = sent.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (ids.length === 1 && failed.length) throw failed[0].reason;
    for (const f of failed) log.warn({ err: f.reason }, 'sync failed');
    return sent.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  }

  /**
   * Something changed access (an order paid, cancelled or refunded; a set or a space edited): the
   * devices it may touch are re-synced now, in the background, so the caller's answer does not wait
   * for acks. Failures show as 未同步 on the device list and in the log.
   */
  function accessChanged(scope: Parameters<typeof devicesAffected>[1], actor = automaticActor) {
    const done = devicesAffected(db, scope)
      .then((ids) => syncDevices(ids, actor))
      .catch((error: unknown) => log.warn({ err: error, scope }, 'access re-sync failed'));
    pending.add(done);
    void done.finally(() => pending.delete(done));
    return done;
  }

  return {
    syncDevices,
    syncDevice: (deviceId: number, actor: CommandActor, force = false) =>
      syncDevices([deviceId], actor, force),
    /** A heartbeat's `version` (v1.1): what the device holds, written in one statement per turn. */
    held: (deviceId: number, version: number) => recordHeld({ id: deviceId, version }),
    accessChanged,
    /** An order was created, paid, cancelled or refunded: the doors of its building may change. */
    orderChanged(order: { kind: string; buildingId: number | null; status: string }, actor = automaticActor) {
      if (!order.buildingId || !doorOrderKinds.some((kind) => kind === order.kind)) return;
      void accessChanged({ buildingIds: [order.buildingId] }, actor);
    },
    /**
     * Online devices whose last sync never arrived (the device did not ack, or the database failed
     * under load before it was sent) are sent their state again, a batch at a time, instead of
     * waiting for their next hello. Runs with the offline sweep.
     */
    async resyncStale() {
      const result = await rowsOf<{ id: number | string }>(
        db,
        sql`
        select d.id from devices d
        where d.status = 'online'
          and (d.acked_version < d.access_version or d.access_hash is null or d.held_version < d.access_version)
          and not exists (select 1 from device_commands c where c.device_id = d.id and c.type = 'sync'
            and c.state = 'sent' and c.sent_at > now() - interval '10 seconds')
        order by d.id limit 1000`,
      );
      await syncDevices(
        result.map((r) => Number(r.id)),
        automaticActor,
        true,
      );
    },
    /** Settles once every re-sync started so far is done (tests, a clean stop). */
    settled: () => Promise.allSettled([...pending]).then(() => undefined),
    /** Starts the expiry timer: a device whose state has an entry ending is re-synced then. */
    start() {
      expiry.start((ids) => syncDevices(ids, automaticActor));
    },
    /** Stops the expiry timer and waits for the re-syncs under way. */
    async stop() {
      expiry.stop();
      await Promise.allSettled([...pending]);
    },
  };
}
