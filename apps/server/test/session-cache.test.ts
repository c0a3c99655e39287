/**
 * Sessions are kept in memory (modules/auth/session-cache.ts), yet a change made anywhere reaches
 * every instance: two apps on one database (PostgreSQL, or one PGlite in process), a logout, a
 * disabled account or a role losing a code on one is refused by the other within a second, and a
 * change written straight into the database is heard too.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { endpoints } from '@cowork/contract';
import { buildApp } from '../src/app.ts';
import { ssoRoles, ssoUsers } from '../src/db/schema.ts';
import { buildTestApp, createRole, createUser, type TestApp } from './helper.ts';

let t: TestApp;
let other: Awaited<ReturnType<typeof buildApp>>;

const status = async (
  app: TestApp['app'],
  headers: Record<string, string>,
  url: string = endpoints.userInfo,
) => (await app.inject({ method: 'GET', url, headers })).statusCode;

/** Milliseconds until `probe` holds, failing after two seconds. */
async function msUntil(probe: () => Promise<boolean>) {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > 2_000) throw new Error('not within 2 s');
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
