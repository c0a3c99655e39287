/**
 * The webhook worker, one per instance, started with the app: it fans recorded events out into
 * deliveries and makes each delivery's attempts. Every step is claimed in the database, so with
 * several instances each event is fanned out once and each attempt made by one instance:
 * - fan-out: a batch of undispatched events is locked `FOR UPDATE SKIP LOCKED`, a delivery inserted
 *   for each endpoint that wants its type, and the events marked dispatched, in one statement;
 * - delivery: due pending deliveries are claimed `FOR UPDATE SKIP LOCKED` with a lease
 *   (`claimed_until`): an instance that dies mid-attempt leaves a lease that runs out, and another
 *   takes the delivery up. The POST runs outside any transaction, a few at a time per endpoint and
 *   overall, so a slow receiver holds up neither the others nor the database.
 * It wakes on the outbox's NOTIFY (sent at commit, so at once after a change) and polls besides:
 * for retries that come due, and in case a notification was lost with its connection.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { toIso } from '@cowork/contract';
import {
  WEBHOOK_ANSWER_MAX_BYTES,
  WEBHOOK_GIVE_UP_MS,
  WEBHOOK_HEADERS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_RETRY_EVERY_MS,
  WEBHOOK_TIMEOUT_MS,
  type WebhookKind,
} from '@cowork/contract/resources/webhook';
import { rowsOf, type Database } from '../../db/client.ts';
import { postOutbound, type OutboundAnswer } from '../../lib/outbound.ts';
import { WEBHOOK_EVENTS_CHANNEL } from '../../lib/outbox.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { errorOf, propertyOf } from '../../lib/unknown.ts';
import { disableFailingEndpoint } from './disabled-alert.ts';
import { robotAccepted, robotRequest } from './robots.ts';
import { signatureHeader } from './signing.ts';

/** The fallback poll: retries that came due, notifications lost with a connection. */
const POLL_MS = 500;
/** Events fanned out per statement (a burst is taken in several, each short). */
const DISPATCH_BATCH = 200;
/** Attempts in flight on one instance, and for one endpoint. */
const MAX_IN_FLIGHT = 64;
export const WEBHOOK_MAX_PER_ENDPOINT = 16;
/** Results written per statement, and how long the first waits for others to join it. */
const RECORD_BATCH = 200;
const RECORD_GATHER_MS = 5;
/** A claim outlives the longest attempt (the timeout) with room for recording its result. */
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 20_000;
/** A stopping worker waits this long for attempts in flight; the rest are retried after their lease. */
const STOP_GRACE_MS = 2_000;
const RELISTEN_MS = 1_000;
/** The listening connection's application_name on PostgreSQL. */
export const WEBHOOK_LISTENER_NAME = 'cowork-webhooks';

/** The wait after the n-th failed attempt (1-based): the schedule, then every 12 h, ±10 % jitter. */
export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number {
  const base = WEBHOOK_RETRY_DELAYS_MS[failedAttempts - 1] ?? WEBHOOK_RETRY_EVERY_MS;
  return Math.round(base * (0.9 + 0.2 * random()));
}

export interface WebhookWorkerOptions {
  db: Database;
  /** Opens the sealed URLs and secrets (lib/secret-box.ts). */
  box: SecretBox;
  log: FastifyBaseLogger;
  /** WEBHOOK_ALLOW_PRIVATE: loopback and private receivers may be called. */
  allowPrivate: boolean;
  /** The console's address, for the links in robot messages. */
  consoleUrl: string;
  pollMs?: number;
}

export interface WebhookWorker {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Looks for work now (after this instance queued some, and as each attempt ends). */
  wake(): void;
  /** Resolves once no work is running nor in flight (tests). */
  idle(): Promise<void>;
}

interface Claimed {
  id: string | number;
  endpointId: number;
  kind: WebhookKind;
  attempts: number;
  claimedUntil: string;
  eventId: string;
  type: string;
  data: unknown;
  occurredAt: string | Date;
  urlSealed: string;
  secretSealed: string | null;
  previousSecretSealed: string | null;
  previousSigns: boolean;
  robotSecretSealed: string | null;
}

/** What an attempt came to. */
interface Outcome {
  delivered: boolean;
  statusCode: number | null;
  durationMs: number;
  answer: string;
  error: string | null;
}

/** An attempt's result waiting to be written; `done` lets the attempt end once it is. */
interface Result {
  row: Claimed;
  startedAt: Date;
  outcome: Outcome;
  done: () => void;
}

/** Why a non-2xx (or a robot's refusal) is not a delivery, in Chinese. */
function refusalOf(kind: WebhookKind, answer: OutboundAnswer): string {
  if (answer.error) return answer.error;
  const status = answer.statusCode ?? 0;
  if (kind !== 'webhook' && status >= 200 && status < 300)
    return '群机器人拒绝了这条消息（见应答内容），请检查机器人地址、关键词或签名密钥设置';
  return `接收方应答 HTTP ${status}，只有 2xx 算送达，稍后自动重试`;
}

/** Opens PGlite's in-process notifications, or a PostgreSQL connection of its own for them. */
async function listen(db: Database, onNotify: () => void, onLost: (error?: Error) => void) {
  const client = propertyOf(db, '$client');
  if (!(client instanceof pg.Pool)) {
    const listening = propertyOf(client, 'listen');
    if (typeof listening !== 'function') throw new Error('The database driver cannot listen.');
    const unlisten = await (client as Pick<PGlite, 'listen'>).listen(WEBHOOK_EVENTS_CHANNEL, onNotify);
    return () => unlisten();
  }
  const connection = new pg.Client({
    ...client.options,
    statement_timeout: undefined,
    query_timeout: undefined,
    application_name: WEBHOOK_LISTENER_NAME,
    keepAlive: true,
  });
  connection.on('notification', onNotify);
  connection.on('error', (error) => onLost(error));
  connection.on('end', () => onLost());
  const close = async () => {
    connection.removeAllListeners('end');
    connection.removeAllListeners('error');
    connection.on('error', () => undefined);
    await connection.end().catch(() => undefined);
  };
  try {
    await connection.connect();
    await connection.query(`listen ${WEBHOOK_EVENTS_CHANNEL}`);
  } catch (error) {
    await close();
    throw error;
  }
  return close;
}

export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db, box, log, allowPrivate, consoleUrl } = options;
  let stopped = true;
  let poll: NodeJS.Timeout | undefined;
  let relisten: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  /** The round running now, and whether something asked for another meanwhile. */
  let round: Promise<void> | undefined;
  let again = false;
  let wantDispatch = false;
  const inFlight = new Set<Promise<void>>();
  /** Results waiting to be written, and the write running now. */
  const results: Result[] = [];
  let flushing: Promise<void> | undefined;
  const perEndpoint = new Map<number, number>();

  /** Fans out one batch of undispatched events; answers how many events it took. */
  async function dispatch(): Promise<number> {
    const taken = await rowsOf<{ id: string }>(
      db,
      sql`
      with batch as (
        select id, type from webhook_events
        where dispatched_at is null
        order by id
        limit ${DISPATCH_BATCH}
        for update skip locked
      ),
      fanned as (
        insert into webhook_deliveries (endpoint_id, event_row_id, event_type)
        select e.id, b.id, b.type
        from batch b
        join webhook_endpoints e
          on b.type = any(e.events) and (e.enabled or e.disabled_reason is not null)
        on conflict (endpoint_id, event_row_id) do nothing
        returning 1
      )
      update webhook_events set dispatched_at = now()
      where id = any(array(select id from batch))
      returning id`,
    );
    return taken.length;
  }

  /**
   * Claims the due deliveries this instance has room for, and starts their attempts. The chosen ids
   * are gathered once (`= any(array(…))`): a burst fills the table faster than statistics follow,
   * and a planner that expects one row would run the choice again for every pending row.
   */
  async function claim(): Promise<void> {
    const free = MAX_IN_FLIGHT - inFlight.size;
    if (free <= 0) return;
    const busy = JSON.stringify(Object.fromEntries(perEndpoint));
    const claimed = await rowsOf<Claimed>(
      db,
      sql`
      with candidates as materialized (
        select x.id
        from webhook_endpoints e
        cross join lateral (
          select d.id from webhook_deliveries d
          where d.endpoint_id = e.id and d.status = 'pending' and d.next_attempt_at <= now()
            and (d.claimed_until is null or d.claimed_until < now())
          -- The due index's order alone: it stops after the few it needs, however long the queue.
          order by d.next_attempt_at
          limit greatest(0, ${WEBHOOK_MAX_PER_ENDPOINT} - coalesce((${busy}::jsonb ->> e.id::text)::int, 0))
        ) x
        where e.enabled
        limit ${free}
      ),
      locked as (
        select d.id from webhook_deliveries d
        where d.id = any(array(select id from candidates)) and d.status = 'pending'
          and (d.claimed_until is null or d.claimed_until < now())
        for update of d skip locked
      )
      update webhook_deliveries d
      set claimed_until = now() + ${LEASE_MS} * interval '1 millisecond'
      from webhook_events ev, webhook_endpoints e
      where d.id = any(array(select id from locked)) and ev.id = d.event_row_id and e.id = d.endpoint_id
      returning d.id, d.endpoint_id as "endpointId", e.kind, d.attempts,
        d.claimed_until::text as "claimedUntil", ev.event_id as "eventId", ev.type, ev.data,
        ev.occurred_at as "occurredAt", e.url_sealed as "urlSealed", e.secret_sealed as "secretSealed",
        e.previous_secret_sealed as "previousSecretSealed",
        coalesce(e.previous_secret_until > now(), false) as "previousSigns",
        e.robot_secret_sealed as "robotSecretSealed"`,
    );
    for (const row of claimed) {
      perEndpoint.set(row.endpointId, (perEndpoint.get(row.endpointId) ?? 0) + 1);
      const work = attempt(row)
        .catch((error: unknown) => log.warn({ err: error, deliveryId: row.id }, 'webhook delivery failed'))
        .finally(() => {
          inFlight.delete(work);
          const left = (perEndpoint.get(row.endpointId) ?? 1) - 1;
          if (left > 0) perEndpoint.set(row.endpointId, left);
          else perEndpoint.delete(row.endpointId);
          kick();
        });
      inFlight.add(work);
    }
  }

  /** The request of a delivery: signed JSON for a webhook, the robot's own message otherwise. */
  function requestOf(row: Claimed) {
    const url = box.open(row.urlSealed);
    const event = {
      id: row.eventId,
      type: row.type,
      createdAt: toIso(new Date(row.occurredAt)),
      data: row.data,
    };
    if (row.kind === 'webhook') {
      const body = JSON.stringify(event);
      const secrets = [row.secretSealed, row.previousSigns ? row.previousSecretSealed : null]
        .filter((s): s is string => s !== null)
        .map((s) => box.open(s));
      return {
        url,
        body,
        headers: {
          'Content-Type': 'application/json',
          [WEBHOOK_HEADERS.signature]: signatureHeader(secrets, body),
          [WEBHOOK_HEADERS.eventId]: row.eventId,
          [WEBHOOK_HEADERS.eventType]: row.type,
        },
      };
    }
    const robotSecret = row.robotSecretSealed === null ? null : box.open(row.robotSecretSealed);
    return robotRequest(row.kind, url, robotSecret, event, consoleUrl);
  }

  async function attempt(row: Claimed) {
    const startedAt = new Date();
    let outcome: Outcome;
    try {
      const request = requestOf(row);
      const answer = await postOutbound(request.url, {
        body: request.body,
        headers: request.headers,
        timeoutMs: WEBHOOK_TIMEOUT_MS,
        maxAnswerBytes: WEBHOOK_ANSWER_MAX_BYTES,
        allowPrivate,
      });
      const status = answer.statusCode;
      // A webhook's 2xx is a delivery even if the rest of its answer is slow; a robot says in its answer.
      const delivered =
        status !== undefined &&
        (row.kind === 'webhook'
          ? status >= 200 && status < 300
          : !answer.error && robotAccepted(row.kind, status, answer.answer));
      outcome = {
        delivered,
        statusCode: status ?? null,
        durationMs: answer.durationMs,
        // PostgreSQL text cannot hold NUL: a receiver's answer with one would never be recorded.
        answer: answer.answer.replaceAll('\u0000', ''),
        error: delivered ? null : refusalOf(row.kind, answer),
      };
    } catch (error) {
      // A sealed URL or secret that no longer opens: SECRET_KEY changed since it was saved.
      log.warn({ err: error, deliveryId: row.id }, 'webhook delivery could not be prepared');
      outcome = {
        delivered: false,
        statusCode: null,
        durationMs: 0,
        answer: '',
        error: '推送地址或密钥无法解密（服务器的 SECRET_KEY 可能已更换），请重新编辑保存该推送地址',
      };
    }
    // Stopping: the lease runs out and the attempt is made again, by this instance's successor or another.
    if (stopped) return;
    await new Promise<void>((done) => {
      results.push({ row, startedAt, outcome, done });
      flushSoon();
    });
  }

  /**
   * Writes the results that came in, many in one statement (a burst ends a few hundred attempts at
   * once), each only if its claim is still ours: a lease that ran out may have been taken since.
   */
  async function flush() {
    while (results.length > 0) {
      const batch = results.splice(0, RECORD_BATCH);
      try {
        await recordDelivered(batch.filter((r) => r.outcome.delivered));
        await recordFailed(batch.filter((r) => !r.outcome.delivered));
      } catch (error) {
        // Not written: the leases run out and the attempts are made again.
        log.warn({ err: error }, 'webhook worker: results not recorded');
      } finally {
        for (const r of batch) r.done();
      }
    }
  }

  /** Writes the results a few milliseconds from now, with those that end meanwhile. */
  function flushSoon() {
    if (flushing) return;
    flushing = new Promise((wait) => setTimeout(wait, RECORD_GATHER_MS)).then(flush).finally(() => {
      flushing = undefined;
      if (results.length > 0) flushSoon();
    });
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

  async function recordDelivered(batch: Result[]) {
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

  async function recordFailed(batch: Result[]) {
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
        if (turnedOff)
          log.warn({ endpointId: endpoint.id }, 'webhook endpoint failing for 3 days: turned off');
      }
    });
  }

  async function runRound() {
    do {
      again = false;
      try {
        if (wantDispatch) {
          wantDispatch = false;
          while (!stopped && (await dispatch()) === DISPATCH_BATCH);
        }
        if (!stopped) await claim();
      } catch (error) {
        log.warn({ err: error }, 'webhook worker round failed');
        return;
      }
    } while (again && !stopped);
  }

  /** Claims what there is room for (an attempt ended); a round running now goes once more. */
  function kick() {
    if (stopped) return;
    if (round) {
      again = true;
      return;
    }
    round = runRound().finally(() => {
      round = undefined;
    });
  }

  /** Events were recorded (a notification, the poll, this instance's own change): fan out, then claim. */
  function wake() {
    wantDispatch = true;
    kick();
  }

  async function startListening() {
    if (stopped) return;
    try {
      const close = await listen(db, wake, (error) => {
        if (unlisten !== close) return;
        unlisten = undefined;
        log.warn({ err: error }, 'webhook worker: listening connection lost; polling until it is back');
        void close();
        relisten = setTimeout(() => void startListening(), RELISTEN_MS).unref();
      });
      if (stopped) return void (await close());
      unlisten = close;
      // Whatever was committed while nobody listened.
      wake();
    } catch (error) {
      log.warn({ err: error }, 'webhook worker: cannot listen for events; polling');
      relisten = setTimeout(() => void startListening(), RELISTEN_MS).unref();
    }
  }

  async function idle() {
    while (round || flushing || inFlight.size > 0) await Promise.allSettled([round, flushing, ...inFlight]);
  }

  return {
    async start() {
      if (!stopped) return;
      stopped = false;
      poll = setInterval(wake, options.pollMs ?? POLL_MS).unref();
      await startListening();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(poll);
      clearTimeout(relisten);
      const close = unlisten;
      unlisten = undefined;
      await close?.().catch((error: unknown) =>
        log.warn({ err: errorOf(error) }, 'webhook worker: unlisten'),
      );
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        idle(),
        new Promise((resolve) => (grace = setTimeout(resolve, STOP_GRACE_MS).unref())),
      ]);
      clearTimeout(grace);
    },
    wake,
    idle,
  };
}
