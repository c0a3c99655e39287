/**
 * buildTestApp(): a fresh app on a fresh database with the demo data. PGlite in memory by default;
 * with TEST_ENGINE=postgres a uniquely named database made from TEST_DATABASE_URL, dropped on close.
 * Both start from a migrated and seeded template of the run (see openTestDatabase).
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
import { companies, ssoRoles, ssoUserRoles, ssoUsers } from '../src/db/schema.ts';
import { hashPassword } from '../src/lib/password.ts';
import { issueTokenPair } from '../src/modules/auth/tokens.ts';
import { demoOrderCount } from '../src/modules/order/demo.ts';
import { seedDemo } from '../src/seed/demo.ts';
import { TEMPLATE_DB_PREFIX, TEMPLATE_FILE_PREFIX } from './global-setup.ts';

export const engine = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'pglite';

// Every test file seeds the demo: a few hundred orders (npm start loads 3000) keep that quick.
process.env.DEMO_ORDERS ??= '600';

export const basicAuth = `Basic ${Buffer.from(`${ADMIN_CLIENT_ID}:${ADMIN_CLIENT_SECRET}`).toString('base64')}`;

/** A PGlite started from a dump file, or undefined when there is none (or it is broken). */
async function loadPglite(file: string): Promise<PGlite | undefined> {
  try {
    return await PGlite.create({ loadDataDir: new Blob([await fs.readFile(file)]) });
  } catch {
    return undefined;
  }
}

/** Saves the database as a dump file; written aside and renamed, so readers never see half a file. */
async function savePglite(client: PGlite, file: string) {
  const dump = await client.dumpDataDir('none');
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await fs.writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await fs.rename(partial, file);
}

/**
 * A fresh in-memory PGlite, migrated. initdb costs seconds per instance, so the first file to run
 * saves a migrated data directory in the temp folder (keyed by the migrations and the PGlite
 * version) and later instances start from it.
 */
async function migratedPglite(): Promise<PGlite> {
  // The PGlite build is part of the key: its files change when the package does.
  const hash = createHash('sha256').update(
    String((await fs.stat(fileURLToPath(import.meta.resolve('@electric-sql/pglite')))).mtimeMs),
  );
  for (const file of (await fs.readdir(migrationsFolder, { recursive: true })).sort()) {
    const full = path.join(migrationsFolder, file);
    if ((await fs.stat(full)).isFile()) hash.update(file).update(await fs.readFile(full));
  }
  const template = path.join(os.tmpdir(), `cowork-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
  const loaded = await loadPglite(template);
  if (loaded) return loaded;
  // No template yet (or a broken one): build the database and save it for the next files.
  const client = await PGlite.create();
  await pgliteHandle(client).migrate();
  await savePglite(client, template);
  return client;
}

/**
 * A seeded PGlite from this run's dump of the variant `key`, the first file of the variant
 * seeding and saving it. Files of one run never run their builds at once in the same worker;
 * two workers building the same key both save a complete file, the last rename winning.
 */
async function seededPglite(key: string, seed: SeedOptions): Promise<DbHandle> {
  const name = `${TEMPLATE_FILE_PREFIX}${key}.tar`;
  const loaded = await loadPglite(path.join(os.tmpdir(), name));
  if (loaded) return pgliteHandle(loaded);
  const client = await migratedPglite();
  const handle = pgliteHandle(client);
  await seedDemo(handle.db, seed);
  await savePglite(client, path.join(os.tmpdir(), name));
  // The variant's dumps of earlier slots (some 45 MB each) are not read again: free the space now
  // (a file that finds its dump gone builds it again).
  const variant = name.slice(0, name.lastIndexOf('_') + 1);
  for (const file of await fs.readdir(os.tmpdir()))
    if (file.startsWith(variant) && file.endsWith('.tar') && file !== name)
      await fs.rm(path.join(os.tmpdir(), file), { force: true });
  return handle;
}

/** A new PostgreSQL database (a copy of `template`, or migrated), with a close that drops it. */
async function createPostgres(template?: string): Promise<DbHandle & { name: string; pool: pg.Pool }> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_ENGINE=postgres needs TEST_DATABASE_URL');
  const name = `cowork_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 5 });
  const handle = postgresHandle(pool);
  if (!template) await handle.migrate();
  return {
    ...handle,
    name,
    pool,
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/**
 * This run's template database of the variant `key`, built once: concurrent workers wait on an
 * advisory lock named after it, the first builds it under another name and renames it when it is
 * complete. Its connections are closed then, as CREATE DATABASE … TEMPLATE needs.
 */
async function postgresTemplate(key: string, seed: SeedOptions): Promise<string> {
  const template = `${TEMPLATE_DB_PREFIX}${key}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(hashtext($1))', [template]);
    const found = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (!found.rowCount) {
      const built = await createPostgres();
      try {
        await seedDemo(built.db, seed);
        await built.pool.end();
        await admin.query(`alter database ${built.name} rename to ${template}`);
      } catch (error) {
        await built.close().catch(() => undefined);
        throw error;
      }
    }
  } finally {
    await admin.end(); // also releases the lock
  }
  return template;
}

type SeedOptions = { withRows?: boolean };

/**
 * Seeding the demo costs a second or two, and each test file needs it: a run seeds each variant
 * into a template once and files copy it. The demo has rows dated relative to now (bookings,
 * orders, cards), so a template serves TEMPLATE_MAX_AGE_MS at most, then a new one is made. Its
 * key holds the 5-minute slot of the clock: slots never straddle a midnight (every time zone's
 * offset is a multiple of 5 minutes), so a file sees the demo of its own day, as when it seeded.
 */
const TEMPLATE_MAX_AGE_MS = 5 * 60_000;

/**
 * A database for one test file, migrated (and seeded with the demo when `seed` is given), with a
 * close that removes it.
 */
export async function openTestDatabase(options: { seed?: SeedOptions } = {}): Promise<DbHandle> {
  const { seed } = options;
  // Outside a vitest run of this config (no run id to name and drop templates by), seed directly.
  const run = process.env.COWORK_TEST_RUN;
  if (seed && run) {
    const rows = seed.withRows === false ? 'users' : `rows${demoOrderCount()}`;
    const key = `${run}_${rows}_${Math.floor(Date.now() / TEMPLATE_MAX_AGE_MS)}`;
    if (engine === 'pglite') return seededPglite(key, seed);
    return createPostgres(await postgresTemplate(key, seed));
  }
  const handle = engine === 'pglite' ? pgliteHandle(await migratedPglite()) : await createPostgres();
  if (seed) await seedDemo(handle.db, seed);
  return handle;
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
  const handle = await openTestDatabase(
    options.seed === false ? {} : { seed: { withRows: options.demoRows } },
  );
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

/** A company (企业) for the access groups and company cards a test makes, inserted directly; its id. */
export async function createCompany(db: Database, name: string): Promise<number> {
  const [row] = await db.insert(companies).values({ name }).returning({ id: companies.id });
  return row.id;
}

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
