/**
 * Sessions kept in memory, so a request does not join the token, its user and the user's roles
 * every time (user-info measured at 0.15 of a bare handler's throughput without it). Correctness comes first:
 * - every write to auth_tokens, sso_users, sso_user_roles or sso_roles fires a NOTIFY
 *   (`auth_changed`, migration 0021's statement triggers), and every instance listening empties its
 *   cache: logout, password change, role change and disabling take effect at once everywhere;
 * - this instance also empties it after each write request it answers, before the answer leaves, so
 *   its own next request never waits for the notification;
 * - a look-up that started before an emptying does not store what it read (a generation count);
 * - a notification lost with a silently dropped link must not be waited for: the listening
 *   connection answers a round trip every PROBE_INTERVAL_MS, and the cache is believed only until
 *   the next answer is due (SESSION_TRUST_BOUND_MS after the last answered probe was sent). An
 *   answer proves every notification sent before the probe has arrived (one connection, in order);
 * - while the listening connection is down or late nothing is cached (every request reads the
 *   database); once it listens again the cache starts empty. Entries live at most
 *   SESSION_CACHE_TTL_MS besides.
 * API keys (`ck_…`) are cached the same way: a revocation notifies on the same channel (api-key
 * routes), and a change to the key's role or creator is heard through those tables' triggers.
 * PGlite delivers the notification in process, where no link can be lost; PostgreSQL over a
 * dedicated connection (`cowork-session-cache` in pg_stat_activity).
 */
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from '../db/client.ts';
import { AUTH_CHANNEL, findBearerSession, type Session } from '../lib/sessions.ts';
import { errorOf, propertyOf } from '../lib/unknown.ts';

export { AUTH_CHANNEL };
/** The listening connection's application_name. */
export const LISTENER_NAME = 'cowork-session-cache';
const SESSION_CACHE_TTL_MS = 30_000;
const SESSION_CACHE_MAX = 10_000;
const RELISTEN_MS = 1_000;
/** How often the listening connection must answer a round trip, and how long the answer may take. */
const PROBE_INTERVAL_MS = 2_000;
const PROBE_TIMEOUT_MS = 1_000;
/**
 * The cache's bound: a change is refused at most this long after it was committed, even when its
 * notification was lost with the link (3 s; heard, it is at once).
 */
export const SESSION_TRUST_BOUND_MS = PROBE_INTERVAL_MS + PROBE_TIMEOUT_MS;
/** A closing link that does not answer its goodbye is cut after this. */
const CLOSE_GRACE_MS = 500;

export interface SessionCache {
  find(rawToken: string): Promise<Session | undefined>;
  /** The session when it is cached and fresh, without waiting: most requests end their look-up here. */
  cached(rawToken: string): Session | undefined;
  /** Forgets every cached session (a write this instance made). */
  clear(): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The connection the change notifications arrive on. */
export interface ChangeLink {
  /** A round trip: resolves once the database answered. Absent where the link cannot be lost. */
  probe?: () => Promise<void>;
  close(): Promise<void>;
}

/** Opens a link calling `onChange` for each notification and `onLost` when it breaks by itself. */
export type OpenLink = (onChange: () => void, onLost: (error?: Error) => void) => Promise<ChangeLink>;

export interface SessionCacheOptions {
  openLink?: OpenLink;
  probeIntervalMs?: number;
  probeTimeoutMs?: number;
  relistenMs?: number;
}

/** A driver that delivers notifications in process (PGlite). */
const listensInProcess = (client: unknown): client is Pick<PGlite, 'listen'> =>
  typeof propertyOf(client, 'listen') === 'function';

/** The driver under drizzle's database (its `$client`, which the engine-neutral type does not name). */
function driverOf(db: Database): Pick<PGlite, 'listen'> | pg.Pool {
  const client = propertyOf(db, '$client');
  if (client instanceof pg.Pool || listensInProcess(client)) return client;
  throw new Error('The session cache listens through PGlite or a node-postgres pool only.');
}

/** The link of the application's database: PGlite's in-process listen, or a PostgreSQL connection. */
function databaseLink(db: Database): OpenLink {
  return async (onChange, onLost) => {
    // Read when listening: a database without a driver fails that listen (logged, retried), not the start.
    const client = driverOf(db);
    if (!(client instanceof pg.Pool)) {
      const unlisten = await client.listen(AUTH_CHANNEL, onChange);
      return { close: () => unlisten() };
    }
    const connection = new pg.Client({
      ...client.options,
      statement_timeout: undefined,
      query_timeout: undefined,
      application_name: LISTENER_NAME,
      // The operating system notices a vanished peer too, if much later than the probe does.
      keepAlive: true,
      keepAliveInitialDelayMillis: PROBE_INTERVAL_MS,
    });
    // Graceful when the link answers; a silent one is cut instead of awaited.
    const close = async () => {
      const cut = setTimeout(() => connection.connection.stream.destroy(), CLOSE_GRACE_MS);
      await connection.end().catch(() => undefined);
      clearTimeout(cut);
    };
    connection.on('notification', onChange);
    connection.on('error', (error) => onLost(error));
    connection.on('end', () => onLost());
    try {
      await connection.connect();
      await connection.query(`listen ${AUTH_CHANNEL}`);
    } catch (error) {
      await close();
      throw error;
    }
    return { probe: async () => void (await connection.query('select 1')), close };
  };
}

export function createSessionCache(
  db: Database,
  log: FastifyBaseLogger,
  options: SessionCacheOptions = {},
): SessionCache {
  const openLink = options.openLink ?? databaseLink(db);
  const probeInterval = options.probeIntervalMs ?? PROBE_INTERVAL_MS;
  const probeTimeout = options.probeTimeoutMs ?? PROBE_TIMEOUT_MS;
  const trustBound = probeInterval + probeTimeout;
  const entries = new Map<string, { session: Session; at: number }>();
  let generation = 0;
  /** Cached sessions are believed until then: the link has answered recently enough. */
  let trustedUntil = 0;
  let stopped = false;
  let link: ChangeLink | undefined;
  let everLost = false;
  let probing: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;

  const clear = () => {
    generation++;
    entries.clear();
  };
  const trusted = () => Date.now() < trustedUntil;

  async function listen() {
    if (stopped) return;
    const sentAt = Date.now();
    let opened: ChangeLink | undefined;
    try {
      opened = await openLink(clear, (error) => lost(opened, error));
    } catch (error) {
      log.warn({ err: error }, 'session cache: cannot listen for changes; sessions are read every request');
      schedule();
      return;
    }
    if (stopped) return void (await opened.close());
    link = opened;
    // What changed while nobody listened is read afresh.
    clear();
    const roundTrip = opened.probe;
    if (roundTrip) {
      trustedUntil = sentAt + trustBound;
      const current = opened;
      // One probe at a time on a link: a late one is already being timed out.
      let inFlight = false;
      probing = setInterval(() => {
        if (inFlight) return;
        inFlight = true;
        void probe(current, roundTrip).finally(() => (inFlight = false));
      }, probeInterval).unref();
    } else trustedUntil = Infinity;
    if (everLost) log.info('session cache: listening again; sessions are cached again');
  }

  async function probe(probed: ChangeLink, roundTrip: () => Promise<void>) {
    if (link !== probed) return;
    const sentAt = Date.now();
    const late = setTimeout(
      () => lost(probed, new Error(`the listening connection did not answer within ${probeTimeout} ms`)),
      probeTimeout,
    ).unref();
    try {
      await roundTrip();
      if (link === probed) trustedUntil = Math.max(trustedUntil, sentAt + trustBound);
    } catch (error) {
      lost(probed, errorOf(error));
    } finally {
      clearTimeout(late);
    }
  }

  /** The link broke or went silent: nothing cached is believed until it listens again. */
  function lost(broken: ChangeLink | undefined, error?: Error) {
    if (!broken || link !== broken) return;
    link = undefined;
    trustedUntil = 0;
    everLost = true;
    clearInterval(probing);
    clear();
    log.warn({ err: error }, 'session cache: listening connection lost; sessions are read every request');
    void broken.close();
    schedule();
  }

  function schedule() {
    if (stopped) return;
    clearTimeout(retry);
    retry = setTimeout(() => void listen(), options.relistenMs ?? RELISTEN_MS).unref();
  }

  // Keyed by the token itself: it is in this process's memory with every request anyway, and
  // hashing it (as the database keeps it) on every hit cost more than the rest of the look-up.
  function cached(rawToken: string) {
    if (!trusted()) return undefined;
    const hit = entries.get(rawToken);
    return hit && Date.now() - hit.at < SESSION_CACHE_TTL_MS ? hit.session : undefined;
  }

  async function find(rawToken: string) {
    const hit = cached(rawToken);
    if (hit) return hit;
    if (!trusted()) return findBearerSession(db, rawToken);
    const key = rawToken;
    const now = Date.now();
    const seen = generation;
    const session = await findBearerSession(db, rawToken);
    // Something changed while reading: what was read may already be stale. Unknown tokens are
    // not kept (guessing them must not push real sessions out).
    if (session && seen === generation && trusted()) {
      if (entries.size >= SESSION_CACHE_MAX) entries.delete(entries.keys().next().value!);
      entries.delete(key);
      entries.set(key, { session, at: now });
    }
    return session;
  }

  return {
    find,
    cached,
    clear,
    start: listen,
    async stop() {
      stopped = true;
      trustedUntil = 0;
      clearTimeout(retry);
      clearInterval(probing);
      clear();
      const closing = link;
      link = undefined;
      await closing?.close().catch(() => undefined);
    },
  };
}
