/**
 * buildTestApp(): a fresh app on a fresh database with the demo data. PGlite in memory by default;
 * with TEST_ENGINE=postgres a uniquely named database made from TEST_DATABASE_URL, dropped on close.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyServerOptions } from 'fastify';
import pg from 'pg';
import { ADMIN_CLIENT_ID, ADMIN_CLIENT_SECRET, endpoints, type TokenResponse } from '@cowork/contract';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { migrationsFolder, type Database, type DbHandle } from '../src/db/client.ts';
import { pgliteHandle } from '../src/db/pglite.ts';
import { postgresHandle } from '../src/db/postgres.ts';
import { ssoRoles, ssoUserRoles, ssoUsers } from '../src/db/schema.ts';
import { hashPassword } from '../src/lib/password.ts';
import { issueTokenPair } from '../src/modules/auth/tokens.ts';
import { seedDemo } from '../src/seed/demo.ts';

export const engine = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'pglite';

// Every test file seeds the demo: a few hundred orders (npm start loads 3000) keep that quick.
process.env.DEMO_ORDERS ??= '600';

export const basicAuth = `Basic ${Buffer.from(`${ADMIN_CLIENT_ID}:${ADMIN_CLIENT_SECRET}`).toString('base64')}`;

/**
 * A fresh in-memory PGlite, migrated. initdb costs seconds per instance, so the first file to run
 * saves a migrated data directory in the temp folder (keyed by the migrations and the PGlite
 * version) and later instances start from it.
 */
async function openPglite(): Promise<DbHandle> {
  // The PGlite build is part of the key: its files change when the package does.
  const hash = createHash('sha256').update(
    String((await fs.stat(fileURLToPath(import.meta.resolve('@electric-sql/pglite')))).mtimeMs),
  );
  for (const file of (await fs.readdir(migrationsFolder, { recursive: true })).sort()) {
    const full = path.join(migrationsFolder, file);
    if ((await fs.stat(full)).isFile()) hash.update(file).update(await fs.readFile(full));
  }
  const template = path.join(os.tmpdir(), `cowork-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
  try {
    const client = await PGlite.create({ loadDataDir: new Blob([await fs.readFile(template)]) });
    return pgliteHandle(client);
  } catch {
    // No template yet (or a broken one): build the database and save it for the next files.
  }
  const client = await PGlite.create();
  const handle = pgliteHandle(client);
  await handle.migrate();
  const dump = await client.dumpDataDir('none');
  const partial = `${template}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await fs.writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await fs.rename(partial, template);
  return handle;
}

/** A database for one test file, migrated, with a close that removes it. */
export async function openTestDatabase(): Promise<DbHandle> {
  if (engine === 'pglite') return openPglite();
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_ENGINE=postgres needs TEST_DATABASE_URL');
  const name = `cowork_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = postgresHandle(new pg.Pool({ connectionString: url.toString(), max: 5 }));
  await handle.migrate();
  return {
    ...handle,
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/cowork-test-unused' }),
    webDist: '/nonexistent/web-dist',
    // Many sign-ins come from one inject address; the per-minute limit has its own test.
    tokenRateLimitPerMinute: 100_000,
    // A free port for each embedded broker (a local Mosquitto may hold 1883).
    mqttPort: 0,
    secretKey: 'test-secret-key-never-used-outside-tests',
    ...overrides,
  };
}

export interface TestApp {
  app: App;
  db: Database;
  config: Config;
  close(): Promise<void>;
  /** Signs in through the token endpoint; throws unless it answers 200. */
  signIn(username: string, password: string, remoteAddress?: string): Promise<TokenResponse>;
  /** A bearer header for a user, signing in once per username and password. */
  auth(username: string, password: string): Promise<{ authorization: string }>;
}

export async function buildTestApp(
  options: {
    config?: Partial<Config>;
    seed?: boolean;
    /** False: users, roles and menus only, no resource demo rows. */
    demoRows?: boolean;
    logger?: FastifyServerOptions['logger'];
  } = {},
): Promise<TestApp> {
  const handle = await openTestDatabase();
  if (options.seed !== false) await seedDemo(handle.db, { withRows: options.demoRows });
  const config = testConfig(options.config);
  const app = await buildApp({ config, db: handle.db, logger: options.logger ?? false });

  const signIn = async (username: string, password: string, remoteAddress?: string) => {
    const res = await app.inject({
      method: 'POST',
      url: endpoints.token,
      headers: { authorization: basicAuth },
      payload: { grant_type: 'password', username, password },
      ...(remoteAddress ? { remoteAddress } : {}),
    });
    if (res.statusCode !== 200)
      throw new Error(`sign-in of ${username} failed: ${res.statusCode} ${res.body}`);
    return res.json<TokenResponse>();
  };

  const cached = new Map<string, string>();
  return {
    app,
    db: handle.db,
    config,
    signIn,
    async auth(username, password) {
      const key = `${username}\n${password}`;
      let token = cached.get(key);
      if (!token) {
        token = (await signIn(username, password)).access_token;
        cached.set(key, token);
      }
      return { authorization: `Bearer ${token}` };
    },
    async close() {
      await app.close();
      await handle.close();
    },
  };
}

/** Inserts a staff user directly, with the roles of the given codes (none for a role-less user). */
export async function createUser(
  db: Database,
  user: { username: string; password: string; roleCodes?: string[]; status?: 'enabled' | 'disabled' },
): Promise<number> {
  const [row] = await db
    .insert(ssoUsers)
    .values({
      username: user.username,
      nickname: user.username,
      passwordHash: await hashPassword(user.password),
      status: user.status ?? 'enabled',
    })
    .returning({ id: ssoUsers.id });
  if (user.roleCodes?.length) {
    const roles = await db
      .select({ id: ssoRoles.id })
      .from(ssoRoles)
      .where(inArray(ssoRoles.code, user.roleCodes));
    await db.insert(ssoUserRoles).values(roles.map((r) => ({ userId: row.id, roleId: r.id })));
  }
  return row.id;
}

export async function userIdOf(db: Database, username: string): Promise<number> {
  const [row] = await db.select({ id: ssoUsers.id }).from(ssoUsers).where(eq(ssoUsers.username, username));
  if (!row) throw new Error(`no user ${username}`);
  return row.id;
}

/** A bearer header whose access token expired a minute ago (its refresh token still valid). */
export async function expiredAuth(db: Database, userId: number) {
  const pair = await issueTokenPair(db, { userId, accessTtl: -60, refreshTtl: 3600 });
  return { authorization: `Bearer ${pair.accessToken}`, refreshToken: pair.refreshToken };
}

export const demo = {
  admin: ['admin', 'Admin@123'],
  yunying: ['yunying', 'Yunying@123'],
  caiwu: ['caiwu', 'Caiwu@123'],
} as const;

/** A role granting exactly these codes, inserted directly; returns its id. */
export async function createRole(
  db: Database,
  role: { code: string; name: string; permissions: string[] },
): Promise<number> {
  const [row] = await db.insert(ssoRoles).values(role).returning({ id: ssoRoles.id });
  return row.id;
}

/** An API answer: HTTP status, the parsed envelope and the raw body. */
export interface Answer<T> {
  status: number;
  body: { code: number; msg: string; data: T };
  raw: string;
}

/**
 * One call through `app.inject` as the caller of `headers`, answered parsed.
 *
 * @example const page = await callApi<Page<Row>>(t, admin, 'GET', `${paths.page}?size=100`);
 */
// Tests read answers of many shapes; `any` by default keeps each check free of casts.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function callApi<T = any>(
  t: Pick<TestApp, 'app'>,
  headers: Record<string, string>,
  method: string,
  url: string,
  payload?: object,
): Promise<Answer<T>> {
  const res = await t.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json(), raw: res.body };
}

/** A multipart/form-data body with one file in field `file` (an Excel import's upload). */
export function multipartFile(filename: string, data: Buffer) {
  const boundary = `----cowork${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** One password sign-in attempt from `remoteAddress`, answered as it comes (any status). */
export const signInAttempt = (
  app: Pick<App, 'inject'>,
  username: string,
  password: string,
  remoteAddress: string,
  headers: Record<string, string> = {},
) =>
  app.inject({
    method: 'POST',
    url: endpoints.token,
    headers: { authorization: basicAuth, ...headers },
    payload: { grant_type: 'password', username, password },
    remoteAddress,
  });

/** Polls `probe` (every 20 ms) until it answers something truthy, failing after `ms` naming `what`. */
export async function until<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  ms = 8_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
