/**
 * The server a benchmark measures: a migrated, demo-seeded database (embedded PGlite, or
 * PostgreSQL when BENCH_DATABASE_URL is set), our app listening on loopback, and a signed-in admin.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { ADMIN_CLIENT_ID, ADMIN_CLIENT_SECRET, endpoints, type TokenResponse } from '@cowork/contract';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { pgliteHandle, postgresHandle } from '../apps/server/src/db/client.ts';
import { seedDemo } from '../apps/server/src/seed/demo.ts';

export async function startServer() {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const handle = databaseUrl
    ? postgresHandle(new pg.Pool({ connectionString: databaseUrl, max: 10 }))
    : pgliteHandle(await PGlite.create());
  await handle.migrate();
  await seedDemo(handle.db);
  const config = {
    ...loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/cowork-bench' }),
    webDist: '/nonexistent',
  };
  const app = await buildApp({ config, db: handle.db, logger: false });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });

  const signIn = await fetch(`${url}${endpoints.token}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${ADMIN_CLIENT_ID}:${ADMIN_CLIENT_SECRET}`).toString('base64')}`,
    },
    body: 'grant_type=password&username=admin&password=Admin@123',
  });
  const token = (await signIn.json()) as TokenResponse;
  return {
    handle,
    url,
    headers: { authorization: `Bearer ${token.access_token}` },
    async close() {
      await app.close();
      await handle.close();
    },
  };
}
