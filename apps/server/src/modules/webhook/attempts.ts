/**
 * The worker's steps before a result is written (worker.ts runs them): the fan-out of recorded events
 * into deliveries, the claim of due deliveries, and an attempt (the POST, signed for a webhook, in
 * the robot's own format otherwise). Each takes the worker's context: its options and this
 * instance's attempts in flight.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { toIso } from '@cowork/contract';
import {
  WEBHOOK_ANSWER_MAX_BYTES,
  WEBHOOK_HEADERS,
  WEBHOOK_TIMEOUT_MS,
  type WebhookKind,
} from '@cowork/contract/resources/webhook';
import { rowsOf, type Database } from '../../db/client.ts';
import { postOutbound, type OutboundAnswer } from '../../lib/outbound.ts';
import type { WebhookMetrics } from '../../lib/metrics.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { recordSoon, type Result } from './results.ts';
import { robotAccepted, robotRequest } from './robots.ts';
import { signatureHeader } from './signing.ts';

/** Events fanned out per statement (a burst is taken in several, each short). */
export const DISPATCH_BATCH = 200;
/** Attempts in flight on one instance, and for one endpoint. */
const MAX_IN_FLIGHT = 64;
export const WEBHOOK_MAX_PER_ENDPOINT = 16;
/** A claim outlives the longest attempt (the timeout) with room for recording its result. */
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 20_000;

/** What the worker is given (worker.ts adds its poll). */
export interface WorkerSettings {
  db: Database;
  /** Opens the sealed URLs and secrets (lib/secret-box.ts). */
  box: SecretBox;
  log: FastifyBaseLogger;
  /** WEBHOOK_ALLOW_PRIVATE: loopback and private receivers may be called. */
  allowPrivate: boolean;
  /** The console's address, for the links in robot messages. */
  consoleUrl: string;
  /** Each attempt's duration and outcome, for /metrics (lib/metrics.ts). */
  metrics?: WebhookMetrics;
}

/** What the worker's steps share: its settings, and the state of this instance's attempts. */
export interface WorkerContext extends WorkerSettings {
  /** Set by stop(): an attempt ending now leaves its lease to run out instead of writing its result. */
  stopped: boolean;
  /** The attempts running on this instance, and how many of them per endpoint. */
  inFlight: Set<Promise<void>>;
  perEndpoint: Map<number, number>;
  /** Results waiting to be written, and the write running now. */
  results: Result[];
  flushing: Promise<void> | undefined;
  /** Claims what there is room for (an attempt ended). */
  kick: () => void;
}

/** A claimed delivery with what its attempt needs: the event, the endpoint's URL and secrets (sealed). */
export interface Claimed {
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
export interface Outcome {
  delivered: boolean;
  statusCode: number | null;
  durationMs: number;
  answer: string;
  error: string | null;
}

/** Fans out one batch of undispatched events; answers how many events it took. */
export async function fanOut(db: Database): Promise<number> {
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
export async function claimDue(ctx: WorkerContext): Promise<void> {
  const free = MAX_IN_FLIGHT - ctx.inFlight.size;
  if (free <= 0) return;
  const busy = JSON.stringify(Object.fromEntries(ctx.perEndpoint));
  const claimed = await rowsOf<Claimed>(
    ctx.db,
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
  for (const row of claimed) startAttempt(ctx, row);
}

/** Runs a claimed delivery's attempt in flight, counted for its endpoint until it ends. */
function startAttempt(ctx: WorkerContext, row: Claimed) {
  const { inFlight, perEndpoint } = ctx;
  perEndpoint.set(row.endpointId, (perEndpoint.get(row.endpointId) ?? 0) + 1);
  const work = attempt(ctx, row)
    .catch((error: unknown) => ctx.log.warn({ err: error, deliveryId: row.id }, 'webhook delivery failed'))
    .finally(() => {
      inFlight.delete(work);
      const left = (perEndpoint.get(row.endpointId) ?? 1) - 1;
      if (left > 0) perEndpoint.set(row.endpointId, left);
      else perEndpoint.delete(row.endpointId);
      ctx.kick();
    });
  inFlight.add(work);
}

/** Why a non-2xx (or a robot's refusal) is not a delivery, in Chinese. */
function refusalOf(kind: WebhookKind, answer: OutboundAnswer): string {
  if (answer.error) return answer.error;
  const status = answer.statusCode ?? 0;
  if (kind !== 'webhook' && status >= 200 && status < 300)
    return '群机器人拒绝了这条消息（见应答内容），请检查机器人地址、关键词或签名密钥设置';
  return `接收方应答 HTTP ${status}，只有 2xx 算送达，稍后自动重试`;
}

/** The request of a delivery: signed JSON for a webhook, the robot's own message otherwise. */
function requestOf({ box, consoleUrl }: WorkerContext, row: Claimed) {
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

/** Makes the POST and what it came to (a call never throws: its failure is the outcome). */
async function outcomeOf(ctx: WorkerContext, row: Claimed): Promise<Outcome> {
  try {
    const request = requestOf(ctx, row);
    const answer = await postOutbound(request.url, {
      body: request.body,
      headers: request.headers,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      maxAnswerBytes: WEBHOOK_ANSWER_MAX_BYTES,
      allowPrivate: ctx.allowPrivate,
    });
    const status = answer.statusCode;
    // A webhook's 2xx is a delivery even if the rest of its answer is slow; a robot says in its answer.
    const delivered =
      status !== undefined &&
      (row.kind === 'webhook'
        ? status >= 200 && status < 300
        : !answer.error && robotAccepted(row.kind, status, answer.answer));
    return {
      delivered,
      statusCode: status ?? null,
      durationMs: answer.durationMs,
      // PostgreSQL text cannot hold NUL: a receiver's answer with one would never be recorded.
      answer: answer.answer.replaceAll('\u0000', ''),
      error: delivered ? null : refusalOf(row.kind, answer),
    };
  } catch (error) {
    // A sealed URL or secret that no longer opens: SECRET_KEY changed since it was saved.
    ctx.log.warn({ err: error, deliveryId: row.id }, 'webhook delivery could not be prepared');
    return {
      delivered: false,
      statusCode: null,
      durationMs: 0,
      answer: '',
      error: '推送地址或密钥无法解密（服务器的 SECRET_KEY 可能已更换），请重新编辑保存该推送地址',
    };
  }
}

/** One attempt of a claimed delivery; it ends once its result is written. */
async function attempt(ctx: WorkerContext, row: Claimed) {
  const startedAt = new Date();
  const outcome = await outcomeOf(ctx, row);
  ctx.metrics?.attempt(row.endpointId, outcome.delivered, outcome.durationMs / 1000);
  // Stopping: the lease runs out and the attempt is made again, by this instance's successor or another.
  if (ctx.stopped) return;
  await new Promise<void>((done) => recordSoon(ctx, { row, startedAt, outcome, done }));
}
