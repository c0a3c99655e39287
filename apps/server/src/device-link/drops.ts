/**
 * Device messages the link drops or declines, counted per device: in memory as they happen, written
 * to `devices.dropped_count` / `last_drop_reason` in one statement a second, and logged as one line
 * per device per minute with the count of each reason. A flood of bad messages thus costs neither
 * a database write nor a log line per message.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { retryingDeadlocks, type Database } from '../db/client.ts';
import type { DeviceMetrics } from '../lib/metrics.ts';

const LOG_EVERY_MS = 60_000;

export function dropCounter({
  db,
  log,
  metrics,
}: {
  db: Database;
  log: FastifyBaseLogger;
  metrics?: DeviceMetrics;
}) {
  let unwritten = new Map<string, { count: number; reason: string }>();
  let unlogged = new Map<string, Map<string, number>>();
  let loggedAt = Date.now();

  function logSummary() {
    for (const [sn, reasons] of unlogged)
      log.warn(
        { sn, drops: Object.fromEntries(reasons) },
        'device messages dropped or declined since the last summary',
      );
    unlogged = new Map();
  }

  return {
    count(sn: string, reason: string) {
      metrics?.dropped(reason);
      const row = unwritten.get(sn) ?? { count: 0, reason };
      row.count += 1;
      row.reason = reason;
      unwritten.set(sn, row);
      const reasons = unlogged.get(sn) ?? new Map<string, number>();
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      unlogged.set(sn, reasons);
    },
    /** Writes the counts gathered since the last flush; logs the summary once a minute (or `final`). */
    async flush(final = false) {
      if (final || Date.now() - loggedAt >= LOG_EVERY_MS) {
        loggedAt = Date.now();
        logSummary();
      }
      if (unwritten.size === 0) return;
      const batch = unwritten;
      unwritten = new Map();
      const values = sql.join(
        [...batch].map(([sn, r]) => sql`(${sn}::text, ${r.count}::int, ${r.reason}::text)`),
        sql`, `,
      );
      try {
        await retryingDeadlocks(() =>
          db.execute(sql`update devices d set dropped_count = d.dropped_count + v.n, last_drop_reason = v.reason
          from (values ${values}) as v(sn, n, reason) where d.sn = v.sn`),
        );
      } catch (error) {
        // Counted again at the next flush rather than lost with a database that is away.
        for (const [sn, r] of batch) {
          const now = unwritten.get(sn);
          unwritten.set(sn, { count: r.count + (now?.count ?? 0), reason: now?.reason ?? r.reason });
        }
        throw error;
      }
    },
  };
}
