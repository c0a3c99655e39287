/**
 * A store for @fastify/rate-limit that counts in the database, so every app instance on one
 * database shares each limit (its default store counts in each process's memory). One upsert per
 * request counts and reads under the row's lock; like the default store, a key's window starts at
 * its first hit. The same statement drops other keys' windows that ended a while ago.
 */
import { sql } from 'drizzle-orm';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { rowsOf, type Database } from '../db/client.ts';
import { rateLimitHits } from '../db/schema.ts';
import { propertyOf } from './unknown.ts';

type Incr = FastifyRateLimitStore['incr'];

/** Counts one hit on `key` in its window of `timeWindowMs`: hits so far and ms left. */
export async function countHit(db: Database, key: string, timeWindowMs: number) {
  const ended = sql`${rateLimitHits.expiresAt} <= now()`;
  const result = await rowsOf<{ hits: number | string; ttl: number | string }>(
    db,
    sql`
    with gone as (
      delete from ${rateLimitHits}
      where ${rateLimitHits.expiresAt} < now() - interval '1 minute' and ${rateLimitHits.key} <> ${key}
    )
    insert into ${rateLimitHits} (key, hits, expires_at)
    values (${key}, 1, now() + make_interval(secs => ${timeWindowMs / 1000}))
    on conflict (key) do update set
      hits = case when ${ended} then 1 else ${rateLimitHits.hits} + 1 end,
      expires_at = case when ${ended} then excluded.expires_at else ${rateLimitHits.expiresAt} end
    returning hits, ceil(extract(epoch from (expires_at - now())) * 1000)::int as ttl`,
  );
  const [row] = result;
  return { current: Number(row.hits), ttl: Math.max(0, Number(row.ttl)) };
}

/** The store class to hand to @fastify/rate-limit's `store` option. */
export function databaseRateLimitStore(db: Database): FastifyRateLimitStoreCtor {
  class DatabaseStore implements FastifyRateLimitStore {
    /** @fastify/rate-limit passes its options first; children pass their key prefix. */
    constructor(
      _options?: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: Parameters<Incr>[1], timeWindow: number) {
      countHit(db, this.prefix + key, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    /** Each route counts on its own keys. */
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]) {
      const route = propertyOf(routeOptions, 'routeInfo');
      return new DatabaseStore(
        undefined,
        `${this.prefix}${String(propertyOf(route, 'method') ?? '')}${String(propertyOf(route, 'url') ?? '')}-`,
      );
    }
  }
  return DatabaseStore;
}
