/**
 * The session cache's liveness, on its own: its link to the database goes silent (a probe is
 * never answered, as on a dropped connection no error ever reports) while an account is disabled
 * behind its back. The cache stops believing what it holds within its bound, reads the database
 * on every look-up meanwhile, and caches again once it listens again. Short probe times keep the
 * test quick; the loops are bounded far above the bound and assert no time.
 */
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DbHandle } from '../src/db/client.ts';
import { ssoUsers } from '../src/db/schema.ts';
import { createSessionCache, type OpenLink } from '../src/plugins/session-cache.ts';
import { issueTokenPair } from '../src/modules/auth/tokens.ts';
import { createUser, openTestDatabase } from './helper.ts';

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle?.close());

/** Waits until `probe` holds, checking every 10 ms at most `tries` times; false if it never did. */
async function eventually(probe: () => boolean | Promise<boolean>, tries = 300) {
  for (let i = 0; i < tries; i++) {
    if (await probe()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

test('a silent link stops the cache believing itself; it caches again once it listens again', async () => {
  const userId = await createUser(handle.db, { username: 'liveness', password: 'Liveness@123' });
  const { accessToken } = await issueTokenPair(handle.db, { userId, accessTtl: 3600, refreshTtl: 3600 });

  // Links whose notifications never come (none is sent here); once cut, a link never answers again,
  // like a dropped connection; the next one opened answers.
  const links: { cut: boolean }[] = [];
  const openLink: OpenLink = async () => {
    const state = { cut: false };
    links.push(state);
    return {
      probe: () => (state.cut ? new Promise<void>(() => undefined) : Promise.resolve()),
      close: async () => undefined,
    };
  };
  const cache = createSessionCache(handle.db, Fastify().log, {
    openLink,
    probeIntervalMs: 50,
    probeTimeoutMs: 500,
    relistenMs: 50,
  });
  try {
    await cache.start();
    expect(
      await eventually(async () => !!(await cache.find(accessToken)) && !!cache.cached(accessToken)),
    ).toBe(true);
    expect(cache.cached(accessToken)?.user.status).toBe('enabled');

    links[0].cut = true;
    await handle.db.update(ssoUsers).set({ status: 'disabled' }).where(eq(ssoUsers.id, userId));
    // Without liveness the cached session would be believed for its whole 30 s.
    expect(await eventually(() => cache.cached(accessToken) === undefined)).toBe(true);
    // Meanwhile every look-up reads the database, and what it reads is not kept.
    expect((await cache.find(accessToken))?.user.status).toBe('disabled');

    // The cache opens a new link, starts empty and caches again.
    expect(
      await eventually(async () => {
        await cache.find(accessToken);
        return cache.cached(accessToken) !== undefined;
      }),
    ).toBe(true);
    expect(links.length).toBeGreaterThan(1);
    expect(cache.cached(accessToken)?.user.status).toBe('disabled');
  } finally {
    await cache.stop();
  }
});

test('a probe that fails (the connection reports an error) stops the trust too', async () => {
  const userId = await createUser(handle.db, { username: 'liveness2', password: 'Liveness@123' });
  const { accessToken } = await issueTokenPair(handle.db, { userId, accessTtl: 3600, refreshTtl: 3600 });
  let failing = false;
  const cache = createSessionCache(handle.db, Fastify().log, {
    openLink: async () => ({
      probe: () => (failing ? Promise.reject(new Error('Connection terminated')) : Promise.resolve()),
      close: async () => undefined,
    }),
    probeIntervalMs: 20,
    probeTimeoutMs: 5_000,
    relistenMs: 60_000,
  });
  try {
    await cache.start();
    expect(
      await eventually(async () => !!(await cache.find(accessToken)) && !!cache.cached(accessToken)),
    ).toBe(true);
    failing = true;
    expect(await eventually(() => cache.cached(accessToken) === undefined)).toBe(true);
  } finally {
    await cache.stop();
  }
});
