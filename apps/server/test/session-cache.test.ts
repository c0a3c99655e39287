/**
 * Sessions are kept in memory (plugins/session-cache.ts), yet a change made anywhere reaches
 * every instance: two apps on one database (PostgreSQL, or one PGlite in process), a logout, a
 * disabled account or a role losing a code on one is refused by the other within a second, and a
 * change written straight into the database is heard too. On PostgreSQL, a change made while the
 * listening connection is killed or silently dropped is refused within the cache's bound.
 */
import net from 'node:net';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { endpoints } from '@cowork/contract';
import { buildApp } from '../src/app.ts';
import { rowsOf } from '../src/db/client.ts';
import { postgresHandle } from '../src/db/postgres.ts';
import { ssoRoles, ssoUsers } from '../src/db/schema.ts';
import { LISTENER_NAME, SESSION_TRUST_BOUND_MS } from '../src/plugins/session-cache.ts';
import { buildTestApp, createRole, createUser, engine, type TestApp } from './helper.ts';

let t: TestApp;
let other: Awaited<ReturnType<typeof buildApp>>;

const status = async (
  app: TestApp['app'],
  headers: Record<string, string>,
  url: string = endpoints.userInfo,
) => (await app.inject({ method: 'GET', url, headers })).statusCode;

/** Milliseconds until `probe` holds, failing when it did not by `limit` (from `started`). */
async function msUntil(probe: () => Promise<boolean>, limit = 2_000, started = Date.now()) {
  while (!(await probe())) {
    if (Date.now() - started > limit) throw new Error(`not within ${limit} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
}

let user = 0;
/** A fresh account with one role granting the audit log, signed in: its bearer header. */
async function account() {
  user++;
  const code = `cache_role_${user}`;
  await createRole(t.db, { code, name: `缓存测试${user}`, permissions: ['system:log:view'] });
  await createUser(t.db, { username: `cache${user}`, password: 'Cache@1234', roleCodes: [code] });
  return { headers: await t.auth(`cache${user}`, 'Cache@1234'), code, username: `cache${user}` };
}

beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
  await t.app.ready();
  other = await buildApp({ config: t.config, db: t.db, logger: false });
  await other.ready();
});

afterAll(async () => {
  await other?.close();
  await t?.close();
});

test('a logout on one instance is refused by the other within a second', async () => {
  const { headers } = await account();
  // Both have read (and kept) the session.
  expect(await status(t.app, headers)).toBe(200);
  expect(await status(other, headers)).toBe(200);
  expect(await status(other, headers)).toBe(200);
  const out = await t.app.inject({ method: 'DELETE', url: endpoints.logout, headers });
  expect(out.statusCode, out.body).toBe(200);
  // The instance that logged out refuses at once; the other within a second.
  expect(await status(t.app, headers)).toBe(401);
  expect(await msUntil(async () => (await status(other, headers)) === 401)).toBeLessThan(1_000);
});

test('disabling an account, or a role losing a code, reaches the other instance within a second', async () => {
  const disabled = await account();
  const demoted = await account();
  const log = endpoints.auditLogPage;
  for (const app of [t.app, other]) {
    expect(await status(app, disabled.headers)).toBe(200);
    expect(await status(app, demoted.headers, log)).toBe(200);
  }
  // Written straight into the database, as a tool or a third instance would.
  await t.db.update(ssoUsers).set({ status: 'disabled' }).where(eq(ssoUsers.username, disabled.username));
  await t.db.update(ssoRoles).set({ permissions: [] }).where(eq(ssoRoles.code, demoted.code));
  for (const app of [t.app, other]) {
    expect(await msUntil(async () => (await status(app, disabled.headers)) === 401)).toBeLessThan(1_000);
    expect(await msUntil(async () => (await status(app, demoted.headers, log)) === 403)).toBeLessThan(1_000);
  }
});

test('a session read while it was being revoked is not kept', async () => {
  const { headers } = await account();
  // Reads racing the logout: whichever finished before it, none may outlive it.
  const reads = Array.from({ length: 20 }, () => status(other, headers));
  const out = t.app.inject({ method: 'DELETE', url: endpoints.logout, headers });
  await Promise.all([...reads, out]);
  expect(await msUntil(async () => (await status(other, headers)) === 401)).toBeLessThan(1_000);
  // And it stays refused (nothing stale was stored after the change).
  for (let i = 0; i < 5; i++) expect(await status(other, headers)).toBe(401);
});

/** The bearer token of a header, as the session cache keys it. */
const tokenOf = (headers: { authorization: string }) => headers.authorization.replace(/^Bearer /, '');

describe.skipIf(engine !== 'postgres')('a lost listening connection (PostgreSQL)', () => {
  test('killed (pg_terminate_backend): a user disabled meanwhile is refused within the bound', async () => {
    const { headers, username } = await account();
    for (const app of [t.app, other]) {
      expect(await status(app, headers)).toBe(200);
      expect(app.sessions.cached(tokenOf(headers))).toBeDefined();
    }
    const listeners = await rowsOf<{ pid: number }>(
      t.db,
      sql`select pid from pg_stat_activity
          where application_name = ${LISTENER_NAME} and datname = current_database()`,
    );
    const pids = listeners.map((r) => r.pid);
    expect(pids.length).toBe(2);
    for (const pid of pids) await t.db.execute(sql`select pg_terminate_backend(${pid})`);
    // Gone before the change, so no notification of it can reach either instance.
    await msUntil(async () => {
      const alive = await rowsOf(t.db, sql`select 1 from pg_stat_activity where pid in ${pids}`);
      return alive.length === 0;
    });
    const changedAt = Date.now();
    await t.db.update(ssoUsers).set({ status: 'disabled' }).where(eq(ssoUsers.username, username));
    for (const app of [t.app, other]) {
      await msUntil(async () => (await status(app, headers)) === 401, SESSION_TRUST_BOUND_MS, changedAt);
    }
  });

  test('silently dropped: refused within the bound, then the cache listens and caches again', async () => {
    const pool = (t.db as unknown as { $client: pg.Pool }).$client;
    const target = new URL(String(pool.options.connectionString));
    // A proxy in front of PostgreSQL that can black-hole the listening connection: nothing passes
    // either way and nobody is told, as when a NAT or firewall forgets an idle connection.
    const links: { listener: boolean; dropped: boolean }[] = [];
    const proxy = net.createServer((client) => {
      const link = { listener: false, dropped: false, seen: false };
      links.push(link);
      const server = net.connect(Number(target.port || 5432), target.hostname);
      client.on('data', (chunk) => {
        // The startup message names the application: the cache's connection says who it is.
        if (!link.seen) link.listener = chunk.includes(LISTENER_NAME);
        link.seen = true;
        if (!link.dropped) server.write(chunk);
      });
      server.on('data', (chunk) => {
        if (!link.dropped) client.write(chunk);
      });
      for (const [a, b] of [
        [client, server],
        [server, client],
      ]) {
        a.on('error', () => undefined);
        a.on('close', () => b.destroy());
      }
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const through = new URL(target);
    through.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
    const handle = postgresHandle(new pg.Pool({ connectionString: through.toString(), max: 3 }));
    const third = await buildApp({ config: t.config, db: handle.db, logger: false });
    try {
      await third.ready();
      const { headers, username } = await account();
      await msUntil(async () => {
        await status(third, headers);
        return third.sessions.cached(tokenOf(headers)) !== undefined;
      });
      const listeners = links.filter((l) => l.listener);
      expect(listeners.length).toBe(1);
      listeners[0].dropped = true;
      // Half a second of silence first: the change comes while the link already is dead.
      await new Promise((r) => setTimeout(r, 500));
      const changedAt = Date.now();
      await t.db.update(ssoUsers).set({ status: 'disabled' }).where(eq(ssoUsers.username, username));
      await msUntil(async () => (await status(third, headers)) === 401, SESSION_TRUST_BOUND_MS, changedAt);

      // It listens again on a new connection, caches again and hears the next change at once.
      const next = await account();
      await msUntil(async () => {
        await status(third, next.headers);
        return third.sessions.cached(tokenOf(next.headers)) !== undefined;
      }, 10_000);
      expect(links.filter((l) => l.listener).length).toBe(2);
      const out = await t.app.inject({ method: 'DELETE', url: endpoints.logout, headers: next.headers });
      expect(out.statusCode, out.body).toBe(200);
      await msUntil(async () => (await status(third, next.headers)) === 401, SESSION_TRUST_BOUND_MS);
    } finally {
      await third.close();
      await handle.close();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});
