/**
 * The worker's last step: attempts' results written back, many in one statement (a burst ends a
 * few hundred attempts at once), each only if its claim is still ours: a lease that ran out may
 * have been taken since. A failure is retried on the schedule until 3 days after it was queued;
 * an endpoint failing for 3 days is turned off with an alert (disabled-alert.ts).
 */
import { sql } from 'drizzle-orm';
import {
  WEBHOOK_GIVE_UP_MS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_RETRY_EVERY_MS,
} from '@cowork/contract/resources/webhook';
import { rowsOf } from '../../db/client.ts';
import type { Claimed, Outcome, WorkerContext } from './attempts.ts';
import { disableFailingEndpoint } from './disabled-alert.ts';

/** Results written per statement, and how long the first waits for others to join it. */
const RECORD_BATCH = 200;
const RECORD_GATHER_MS = 5;

/** An attempt's result waiting to be written; `done` lets the attempt end once it is. */
export interface Result {
  row: Claimed;
  startedAt: Date;
  outcome: Outcome;
  done: () => void;
}

/** The wait after the n-th failed attempt (1-based): the schedule, then every 12 h, ±10 % jitter. */
export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number {
  const base = WEBHOOK_RETRY_DELAYS_MS[failedAttempts - 1] ?? WEBHOOK_RETRY_EVERY_MS;
  return Math.round(base * (0.9 + 0.2 * random()));
}

/** Queues a result to be written a few milliseconds from now, with those that end meanwhile. */
export function recordSoon(ctx: WorkerContext, result: Result) {
  ctx.results.push(result);
  flushSoon(ctx);
}

function flushSoon(ctx: WorkerContext) {
  if (ctx.flushing) return;
  ctx.flushing = new Promise((wait) => setTimeout(wait, RECORD_GATHER_MS))
    .then(() => flush(ctx))
    .finally(() => {
      ctx.flushing = undefined;
      if (ctx.results.length > 0) flushSoon(ctx);
    });
}

async function flush(ctx: WorkerContext) {
  while (ctx.results.length > 0) {
    const batch = ctx.results.splice(0, RECORD_BATCH);
    try {
      await recordDelivered(
        ctx,
        batch.filter((r) => r.outcome.delivered),
      );
      await recordFailed(
        ctx,
        batch.filter((r) => !r.outcome.delivered),
      );
    } catch (error) {
      // Not written: the leases run out and the attempts are made again.
      ctx.log.warn({ err: error }, 'webhook worker: results not recorded');
    } finally {
      for (const r of batch) r.done();
    }
  }
}

/** The results as rows of a VALUES list: id, claim, status, duration, time, error, answer, wait. */
const valuesOf = (batch: Result[]) =>
  sql.join(
    batch.map(
      ({ row, startedAt, outcome: o }) =>
        sql`(${row.id}::bigint, ${row.claimedUntil}::timestamptz, ${o.statusCode}::int, ${o.durationMs}::int,
          ${startedAt.toISOString()}::timestamptz, ${o.error}::text, ${o.answer}::text,
          ${o.delivered ? 0 : retryDelayMs(row.attempts + 1)}::int)`,
    ),
    sql`, `,
  );
const resultColumns = sql.raw(
  'v(id, claimed_until, status_code, duration_ms, attempted_at, error, answer, wait_ms)',
);
const setResult = sql`attempts = d.attempts + 1, last_status_code = v.status_code,
  last_duration_ms = v.duration_ms, last_attempt_at = v.attempted_at, last_error = v.error,
  answer = v.answer, claimed_until = null`;
const ours = sql`d.id = v.id and d.status = 'pending' and d.claimed_until = v.claimed_until`;
const giveUpMs = sql`${WEBHOOK_GIVE_UP_MS} * interval '1 millisecond'`;

async function recordDelivered({ db }: WorkerContext, batch: Result[]) {
  if (batch.length === 0) return;
  // The endpoint's row is written only when it changes, not once per delivery of a burst.
  await db.execute(sql`
    with ${resultColumns} as (values ${valuesOf(batch)}),
    delivered as (
      update webhook_deliveries d set status = 'delivered', ${setResult}
      from v where ${ours}
      returning d.endpoint_id
    )
    update webhook_endpoints e set failing_since = null, last_delivery_at = now()
    where e.id in (select endpoint_id from delivered)
      and (e.failing_since is not null or e.last_delivery_at is null
        or e.last_delivery_at < now() - interval '1 second')`);
}

async function recordFailed({ db, log }: WorkerContext, batch: Result[]) {
  if (batch.length === 0) return;
  await db.transaction(async (tx) => {
    // Retried on the schedule until 3 days after it was queued, then given up; the endpoint's
    // first failure of a run starts the run, and an endpoint failing for 3 days is turned off.
    const expired = await rowsOf<{ id: number; name: string; failingSince: string | Date }>(
      tx,
      sql`
      with ${resultColumns} as (values ${valuesOf(batch)}),
      failed as (
        update webhook_deliveries d set ${setResult},
          status = case when now() >= d.created_at + ${giveUpMs} then 'failed' else 'pending' end,
          next_attempt_at = least(now() + v.wait_ms * interval '1 millisecond', d.created_at + ${giveUpMs})
        from v where ${ours}
        returning d.endpoint_id, v.attempted_at
      ),
      runs as (
        update webhook_endpoints e set failing_since = coalesce(e.failing_since, f.first)
        from (select endpoint_id, min(attempted_at) as first from failed group by endpoint_id) f
        where e.id = f.endpoint_id
          and (e.failing_since is null or (e.enabled and e.failing_since <= now() - ${giveUpMs}))
        returning e.id, e.name, e.failing_since, e.failing_since <= now() - ${giveUpMs} as expired
      )
      select id, name, failing_since as "failingSince" from runs where expired`,
    );
    for (const endpoint of expired) {
      const turnedOff = await disableFailingEndpoint(tx, {
        id: endpoint.id,
        name: endpoint.name,
        failingSince: new Date(endpoint.failingSince),
      });
      if (turnedOff) log.warn({ endpointId: endpoint.id }, 'webhook endpoint failing for 3 days: turned off');
    }
  });
}
