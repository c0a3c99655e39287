/**
 * Whether each device is there: online or offline and when it was last seen. A fresh signed message
 * says the device is there (last seen is written for many devices in one statement every few
 * seconds); its `status` topic says online or offline; a sweep marks offline a device silent for
 * DEVICE_OFFLINE_AFTER_MS, will or no will.
 */
import { eq, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { DEVICE_HEARTBEAT_MS, DEVICE_OFFLINE_AFTER_MS } from '@cowork/contract';
import { retryingDeadlocks, type Database } from '../db/client.ts';
import { devices } from '../db/schema.ts';
import { propertyOf } from '../lib/unknown.ts';
import type { Background } from './background.ts';
import { changePresence } from './webhook-events.ts';

/** How often last seen is written. */
export const SEEN_FLUSH_MS = 5_000;

export type Presence = ReturnType<typeof createPresence>;

/**
 * Who published a status payload, where the broker knows: the device's connection, or one the
 * device has replaced by connecting again since (its will, published late).
 */
export type StatusOrigin = 'current' | 'replaced';

export function createPresence({
  db,
  log,
  background,
}: {
  db: Database;
  log: FastifyBaseLogger;
  background: Background;
}) {
  /** Last seen per sn, written in one statement every SEEN_FLUSH_MS (heartbeats of many devices). */
  const seen = new Map<string, Date>();
  /**
   * When each device last sent a message signed with its secret, and the gap between its last two:
   * its heartbeat interval as it keeps it (the protocol's 30 s until two were seen).
   */
  const signedAt = new Map<string, { at: number; every: number }>();
  const offlineChecks = new Map<string, NodeJS.Timeout>();

  /** A fresh message signed with the device's secret: last seen, and its heartbeat interval. */
  function heard(sn: string) {
    seen.set(sn, new Date());
    const now = Date.now();
    const last = signedAt.get(sn);
    const gap = last ? now - last.at : DEVICE_HEARTBEAT_MS;
    signedAt.set(sn, { at: now, every: Math.min(Math.max(gap, 1_000), DEVICE_HEARTBEAT_MS) });
  }

  async function markOnline(sn: string) {
    const now = new Date();
    seen.set(sn, now);
    // Only the change is written at once; last seen of devices already online is batched.
    await db.transaction((tx) => changePresence(tx, 'online', eq(devices.sn, sn), { lastSeenAt: now }));
  }

  /**
   * `status` carries no signature: anyone an external broker lets publish there (or a retained
   * payload left behind) could say `{"online":false}`. It is believed only when no signed message
   * came from the device within its last heartbeat interval (and a half, for the next one's travel);
   * otherwise it is checked again then, so a device really gone still shows offline within that time.
   */
  async function offlineUnlessHeard(sn: string) {
    const last = signedAt.get(sn);
    const wait = last ? last.at + last.every * 1.5 - Date.now() : 0;
    if (last && wait > 0) {
      // One check pending per device, however many payloads: the latest replaces it.
      clearTimeout(offlineChecks.get(sn));
      const timer = setTimeout(() => {
        offlineChecks.delete(sn);
        if (signedAt.get(sn)?.at === last.at) background(sn, offlineUnlessHeard(sn));
      }, wait);
      timer.unref();
      offlineChecks.set(sn, timer);
      return;
    }
    seen.delete(sn);
    await db.transaction((tx) => changePresence(tx, 'offline', eq(devices.sn, sn)));
  }

  return {
    heard,
    /**
     * A payload on the device's `status` topic: `{"online":true}` or `{"online":false}`, else
     * nothing. An offline is weighed against the signed messages heard, unless the embedded broker
     * says it came from a connection the device has replaced since (a will published after the
     * device reconnected): that one is not news.
     */
    async onStatus(sn: string, payload: Buffer, origin?: StatusOrigin) {
      let online: unknown;
      try {
        online = propertyOf(JSON.parse(payload.toString()), 'online');
      } catch {
        return;
      }
      if (typeof online !== 'boolean') return;
      if (online) return markOnline(sn);
      if (origin !== 'replaced') await offlineUnlessHeard(sn);
    },
    /**
     * A device gone without its will (the embedded broker restarted with this process) is offline
     * until heard. A database not answering yet must not stop the start (readiness says so); the
     * sweep catches up.
     */
    async markAllOffline() {
      await Promise.resolve()
        .then(() => db.transaction((tx) => changePresence(tx, 'offline', undefined)))
        .catch((error: unknown) => log.warn({ err: error }, 'could not mark devices offline at start'));
    },
    /** Writes last seen (and online) of the devices heard since the last flush. */
    async flushSeen() {
      if (seen.size === 0) return;
      const batch = [...seen];
      seen.clear();
      const values = sql.join(
        batch.map(([sn, at]) => sql`(${sn}, ${at.toISOString()}::timestamptz)`),
        sql`, `,
      );
      await retryingDeadlocks(() =>
        db.transaction(async (tx) => {
          // Those offline until now come online (and are told to webhooks) first.
          await changePresence(
            tx,
            'online',
            inArray(
              devices.sn,
              batch.map(([sn]) => sn),
            ),
          );
          await tx.execute(
            sql`update devices set last_seen_at = v.at, status = 'online' from (values ${values}) as v(sn, at) where devices.sn = v.sn`,
          );
        }),
      );
    },
    /** No signed message for DEVICE_OFFLINE_AFTER_MS (three heartbeats) is offline, even without a last will. */
    async sweepOffline() {
      await db.transaction((tx) =>
        changePresence(tx, 'offline', lt(devices.lastSeenAt, new Date(Date.now() - DEVICE_OFFLINE_AFTER_MS))),
      );
    },
    /** Drops the pending status checks (the link stops). */
    stop() {
      offlineChecks.forEach(clearTimeout);
    },
  };
}
