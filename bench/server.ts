/**
 * The server a benchmark measures: a migrated, demo-seeded database (embedded PGlite, or a
 * throw-away database made on BENCH_DATABASE_URL's server and dropped at close, so benchmarks never
 * seed into one another's data), our app listening on loopback, and a signed-in admin.
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { ADMIN_CLIENT_ID, ADMIN_CLIENT_SECRET, endpoints, type TokenResponse } from '@cowork/contract';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { DbHandle } from '../apps/server/src/db/client.ts';
import { pgliteHandle } from '../apps/server/src/db/pglite.ts';
import { postgresHandle } from '../apps/server/src/db/postgres.ts';
import { seedDemo } from '../apps/server/src/seed/demo.ts';

/** How many times (100 ms apart) a drop waits for the database's connections to close. */
const LET_GO_TRIES = 50;

/** A new empty database on the server of `baseUrl`: its URL and how to drop it. */
export async function throwAwayDatabase(baseUrl: string) {
  const name = `cowork_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      try {
        // A pool's end() resolves before its connections have closed: let them go first, so that
        // `force` ends only those left open (each says so on its pool's error handler).
        for (let tries = 0; tries < LET_GO_TRIES; tries++) {
          const { rows } = await dropper.query<{ open: number }>(
            'select count(*)::int as open from pg_stat_activity where datname = $1',
            [name],
          );
          if (rows[0].open === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await dropper.query(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/**
 * The headers of an answer that are the same on every answer (security headers, content type),
 * for a bare reference server to send too: not those of the connection, the length, or an
 * encoding fetch asked for.
 */
export function fixedHeadersOf(answer: Response): Record<string, string> {
  const varying = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-encoding', 'vary']);
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!varying.has(name)) headers[name] = value;
  });
  return headers;
}

/** Signs the demo administrator in: the bearer header. */
export async function signInAdmin(url: string) {
  const signIn = await fetch(`${url}${endpoints.token}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${ADMIN_CLIENT_ID}:${ADMIN_CLIENT_SECRET}`).toString('base64')}`,
    },
    body: 'grant_type=password&username=admin&password=Admin@123',
  });
  const token = (await signIn.json()) as TokenResponse;
  return { authorization: `Bearer ${token.access_token}` };
}

/** `env`: settings beside the defaults (e.g. WEBHOOK_ALLOW_PRIVATE for a receiver on loopback). */
export async function startServer(env: Record<string, string> = {}) {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const database = databaseUrl ? await throwAwayDatabase(databaseUrl) : undefined;
  const handle: DbHandle = database
    ? postgresHandle(new pg.Pool({ connectionString: database.url, max: 10 }))
    : pgliteHandle(await PGlite.create());
  await handle.migrate();
  await seedDemo(handle.db);
  const config = {
    ...loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/cowork-bench', ...env }),
    webDist: '/nonexistent',
    mqttPort: 0,
  };
  // As production runs it: answers are not re-checked against zod (the test suite does that).
  const app = await buildApp({ config, db: handle.db, logger: false, checkResponses: false });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    handle,
    url,
    headers: await signInAdmin(url),
    async close() {
      await app.close();
      await handle.close();
      await database?.drop();
    },
  };
}
