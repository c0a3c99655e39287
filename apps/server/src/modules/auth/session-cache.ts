/**
 * Sessions kept in memory, so a request does not join the token, its user and the user's roles
 * every time (issue 14: user-info at 0.15 of a bare handler). Correctness comes first:
 * - every write to auth_tokens, sso_users, sso_user_roles or sso_roles fires a NOTIFY
 *   (`auth_changed`, migration 0021's statement triggers), and every instance listening empties its
 *   cache: logout, password change, role change and disabling take effect at once everywhere;
 * - this instance also empties it after each write request it answers, before the answer leaves, so
 *   its own next request never waits for the notification;
 * - a look-up that started before an emptying does not store what it read (a generation count);
 * - while the listening connection is down nothing is cached (every request reads the database),
 *   and entries live at most SESSION_CACHE_TTL_MS besides.
 * PGlite delivers the notification in process; PostgreSQL over a dedicated connection.
 */
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from '../../db/client.ts';
import { findSession, type Session } from './tokens.ts';

export const AUTH_CHANNEL = 'auth_changed';
const SESSION_CACHE_TTL_MS = 30_000;
const SESSION_CACHE_MAX = 10_000;
const RELISTEN_MS = 1_000;

export interface SessionCache {
  find(rawToken: string): Promise<Session | undefined>;
  /** The session when it is cached and fresh, without waiting: most requests end their look-up here. */
  cached(rawToken: string): Session | undefined;
  /** Forgets every cached session (a write this instance made). */
  clear(): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createSessionCache(db: Database, log: FastifyBaseLogger): SessionCache {
  const entries = new Map<string, { session: Session; at: number }>();
  let generation = 0;
  let listening = false;
  let stopped = false;
  let listener: pg.Client | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let retry: NodeJS.Timeout | undefined;

  const clear = () => {
    generation++;
    entries.clear();
  };

  const client = (db as unknown as { $client: PGlite | pg.Pool }).$client;

  async function listen() {
    if (stopped) return;
    try {
      if ('listen' in client && typeof client.listen === 'function') {
        unlisten = await client.listen(AUTH_CHANNEL, clear);
      } else {
        const pool = client as pg.Pool;
        const connection = new pg.Client({
          ...pool.options,
          statement_timeout: undefined,
          query_timeout: undefined,
          keepAlive: true,
        });
        connection.on('notification', clear);
        // A lost listening connection stops caching until listening again.
        connection.on('error', (error) => lost(connection, error));
        connection.on('end', () => lost(connection));
        await connection.connect();
        await connection.query(`listen ${AUTH_CHANNEL}`);
        listener = connection;
      }
      clear();
      listening = true;
    } catch (error) {
      log.warn({ err: error }, 'session cache: cannot listen for changes; sessions are read every request');
      schedule();
    }
  }

  function lost(connection: pg.Client, error?: Error) {
    if (listener !== connection) return;
    listener = undefined;
    listening = false;
    clear();
    if (error) log.warn({ err: error }, 'session cache: listening connection lost');
    void connection.end().catch(() => undefined);
    schedule();
  }

  function schedule() {
    if (stopped) return;
    clearTimeout(retry);
    retry = setTimeout(() => void listen(), RELISTEN_MS).unref();
  }

  // Keyed by the token itself: it is in this process's memory with every request anyway, and
  // hashing it (as the database keeps it) on every hit cost more than the rest of the look-up.
  function cached(rawToken: string) {
    if (!listening) return undefined;
    const hit = entries.get(rawToken);
    return hit && Date.now() - hit.at < SESSION_CACHE_TTL_MS ? hit.session : undefined;
  }

  async function find(rawToken: string) {
    const hit = cached(rawToken);
    if (hit) return hit;
    if (!listening) return findSession(db, rawToken);
    const key = rawToken;
    const now = Date.now();
    const seen = generation;
    const session = await findSession(db, rawToken);
    // Something changed while reading: what was read may already be stale. Unknown tokens are
    // not kept (guessing them must not push real sessions out).
    if (session && seen === generation && listening) {
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
      listening = false;
      clearTimeout(retry);
      clear();
      await unlisten?.().catch(() => undefined);
      const connection = listener;
      listener = undefined;
      await connection?.end().catch(() => undefined);
    },
  };
}
