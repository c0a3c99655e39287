/**
 * Idempotent creates. A signed-in POST carrying `Idempotency-Key` claims the key (per user) in the
 * database before its handler runs; its answer, when a success, is kept 24 hours. A repeat of the
 * same request (method, address, body) with that key answers the kept result without running the
 * handler; a repeat arriving while the first still runs waits for it (friendlier for a double click
 * than a refusal), then answers the same. The table is the coordinator, so this holds across
 * instances on one database.
 *
 * - The same key on a different request: 422. A malformed key: 400. Both change nothing.
 * - A failure (4xx, 5xx) is not kept: the key is released so the corrected or retried request runs.
 * - A claim whose request never finished (a crashed process) is taken over after STALE_SECONDS.
 * - Multipart uploads are not covered: their body is read inside the handler, after this check.
 * - Kept answers are stored encrypted under SECRET_KEY (the device link's box, lib/secret-box.ts):
 *   some carry a secret shown once (device/register, device/reset-config answer the device
 *   secret), and sealing every answer, rather than those of routes that say so, leaves no route to
 *   forget it. Not keeping them instead would turn a repeated register into a 409 and a repeated
 *   reset-config into a second rotation. Rows kept before (plain JSON) still answer.
 */
import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, messages } from '@cowork/contract';
import { idempotencyKeys } from '../db/schema.ts';
import { AppError, badRequest } from '../lib/http.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this request claimed: its answer is stored (or the claim released) on send. */
    idempotencyClaim: { userId: number; key: string } | null;
  }
}

const HEADER = IDEMPOTENCY_KEY_HEADER.toLowerCase();
const KEEP_HOURS = 24;
/** A claim older than this with no answer belongs to a request that died with its process. */
const STALE_SECONDS = 120;
/** How long a repeat waits for the first request before answering 409, and how often it looks. */
const WAIT_MS = 10_000;
const POLL_MS = 50;
/** Expired rows are deleted at most this often per instance. */
const SWEEP_INTERVAL_MS = 60_000;

/** A repeat whose first answer was kept under another SECRET_KEY: it ran once, and is not run again. */
const ANSWER_UNREADABLE =
  '该请求已处理过，但服务器密钥已更换，无法再次给出当时的结果；请刷新页面查看结果，不要重复提交';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What makes two requests "the same": method, address with its query, and the parsed body. */
function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

export function registerIdempotency(app: FastifyInstance) {
  app.decorateRequest('idempotencyClaim', null);
  const rowOf = (userId: number, key: string) =>
    and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

  let lastSweep = 0;
  async function sweepExpired() {
    if (Date.now() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = Date.now();
    await app.db
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${KEEP_HOURS})`));
  }

  /** A kept answer: sealed (`v1.…`), or plain JSON kept before; undefined when the key cannot open it. */
  function openAnswer(kept: string): string | undefined {
    if (kept.startsWith('{') || kept.startsWith('[')) return kept;
    try {
      return app.devices.box.open(kept);
    } catch {
      return undefined;
    }
  }

  /** Claims the key: a new row, or one expired or abandoned. True when this request now owns it. */
  async function claim(userId: number, key: string, fingerprint: string): Promise<boolean> {
    const claimed = await app.db
      .insert(idempotencyKeys)
      .values({ userId, key, fingerprint })
      .onConflictDoUpdate({
        target: [idempotencyKeys.userId, idempotencyKeys.key],
        set: { fingerprint, statusCode: null, response: null, createdAt: sql`now()` },
        setWhere: sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${KEEP_HOURS})
          or (${idempotencyKeys.statusCode} is null
            and ${idempotencyKeys.createdAt} < now() - make_interval(secs => ${STALE_SECONDS}))`,
      })
      .returning({ userId: idempotencyKeys.userId });
    return claimed.length > 0;
  }

  /** Claims the key of a POST that carries one, or answers a repeat. True when it answered. */
  async function guard(request: FastifyRequest, reply: FastifyReply, key: string | string[]) {
    if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key))
      throw badRequest(messages.idempotencyKeyInvalid);
    if (request.headers['content-type']?.startsWith('multipart/') || !request.user) return false;

    const userId = request.user.id;
    const fingerprint = fingerprintOf(request);
    await sweepExpired();
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      if (await claim(userId, key, fingerprint)) {
        request.idempotencyClaim = { userId, key };
        return false;
      }
      const [row] = await app.db
        .select({
          fingerprint: idempotencyKeys.fingerprint,
          statusCode: idempotencyKeys.statusCode,
          response: idempotencyKeys.response,
        })
        .from(idempotencyKeys)
        .where(rowOf(userId, key));
      // Gone: the first request failed and released the key, so this one runs.
      if (!row) continue;
      if (row.fingerprint !== fingerprint) throw new AppError(422, messages.idempotencyKeyReused);
      if (row.statusCode !== null && row.response !== null) {
        const answer = openAnswer(row.response);
        if (answer === undefined) throw new AppError(409, ANSWER_UNREADABLE);
        void reply
          .code(row.statusCode)
          .header('content-type', 'application/json; charset=utf-8')
          .header('idempotent-replayed', 'true')
          .send(answer);
        return true;
      }
      if (Date.now() >= deadline) throw new AppError(409, messages.requestInProgress);
      await sleep(POLL_MS);
    }
  }

  // Callback style, so the requests without a key (nearly all) pass without a promise; a hook
  // that answered must not call done.
  app.addHook('preHandler', (request, reply, done) => {
    const key = request.headers[HEADER];
    if (request.method !== 'POST' || key === undefined || !request.user) return done();
    guard(request, reply, key).then((answered) => answered || done(), done);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const owned = request.idempotencyClaim;
    if (!owned) return done(null, payload);
    request.idempotencyClaim = null;
    void settle(request, reply, owned, payload).then(() => done(null, payload));
  });

  /** Keeps the answer for repeats, or releases the key of a request that failed. Never throws. */
  async function settle(
    request: FastifyRequest,
    reply: FastifyReply,
    owned: { userId: number; key: string },
    payload: unknown,
  ) {
    const kept = reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string';
    try {
      if (kept) {
        await app.db
          .update(idempotencyKeys)
          .set({ statusCode: reply.statusCode, response: app.devices.box.seal(payload) })
          .where(rowOf(owned.userId, owned.key));
      } else {
        await app.db
          .delete(idempotencyKeys)
          .where(and(rowOf(owned.userId, owned.key), isNull(idempotencyKeys.statusCode)));
      }
    } catch (err) {
      // The answer still goes out; a repeat waits, then is told to check, until the claim is stale.
      request.log.error({ err }, 'idempotency key not updated');
    }
  }
}
