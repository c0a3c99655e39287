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
 * for retries that come due, and in case a notification was lost with its connection. This file
 * runs the rounds; the steps are attempts.ts (fan-out, claim, attempt) and results.ts (recording).
 */
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from '../../db/client.ts';
import { WEBHOOK_EVENTS_CHANNEL } from '../../lib/outbox.ts';
import { errorOf, propertyOf } from '../../lib/unknown.ts';
import { claimDue, DISPATCH_BATCH, fanOut, type WorkerContext, type WorkerSettings } from './attempts.ts';

/** The fallback poll: retries that came due, notifications lost with a connection. */
const POLL_MS = 500;
/** A stopping worker waits this long for attempts in flight; the rest are retried after their lease. */
const STOP_GRACE_MS = 2_000;
const RELISTEN_MS = 1_000;
/** The listening connection's application_name on PostgreSQL. */
export const WEBHOOK_LISTENER_NAME = 'cowork-webhooks';

export interface WebhookWorkerOptions extends WorkerSettings {
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
  const { pollMs = POLL_MS, ...settings } = options;
  const { db, log } = settings;
  const ctx: WorkerContext = {
    ...settings,
    stopped: true,
    inFlight: new Set(),
    perEndpoint: new Map(),
    results: [],
    flushing: undefined,
    kick,
  };
  let poll: NodeJS.Timeout | undefined;
  let relisten: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  /** The round running now, and whether something asked for another meanwhile. */
  let round: Promise<void> | undefined;
  let again = false;
  let wantDispatch = false;

  async function runRound() {
    do {
      again = false;
      try {
        if (wantDispatch) {
          wantDispatch = false;
          while (!ctx.stopped && (await fanOut(db)) === DISPATCH_BATCH);
        }
        if (!ctx.stopped) await claimDue(ctx);
      } catch (error) {
        log.warn({ err: error }, 'webhook worker round failed');
        return;
      }
    } while (again && !ctx.stopped);
  }

  /** Claims what there is room for (an attempt ended); a round running now goes once more. */
  function kick() {
    if (ctx.stopped) return;
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
    if (ctx.stopped) return;
    try {
      const close = await listen(db, wake, (error) => {
        if (unlisten !== close) return;
        unlisten = undefined;
        log.warn({ err: error }, 'webhook worker: listening connection lost; polling until it is back');
        void close();
        relisten = setTimeout(() => void startListening(), RELISTEN_MS).unref();
      });
      if (ctx.stopped) return void (await close());
      unlisten = close;
      // Whatever was committed while nobody listened.
      wake();
    } catch (error) {
      log.warn({ err: error }, 'webhook worker: cannot listen for events; polling');
      relisten = setTimeout(() => void startListening(), RELISTEN_MS).unref();
    }
  }

  async function idle() {
    while (round || ctx.flushing || ctx.inFlight.size > 0)
      await Promise.allSettled([round, ctx.flushing, ...ctx.inFlight]);
  }

  return {
    async start() {
      if (!ctx.stopped) return;
      ctx.stopped = false;
      poll = setInterval(wake, pollMs).unref();
      await startListening();
    },
    async stop() {
      if (ctx.stopped) return;
      ctx.stopped = true;
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
