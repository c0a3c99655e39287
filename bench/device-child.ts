/**
 * A server in a process of its own that a test or benchmark can kill (SIGKILL) or flood: the app
 * with its embedded broker on a free port (or MQTT_PORT), on a PGlite directory
 * (CHILD_PGLITE_DIR; filled from the dump CHILD_PGLITE_TEMPLATE when given) or a PostgreSQL database (CHILD_DATABASE_URL) that outlives it, with the
 * devices named in CHILD_DEVICES (comma-separated sns, secrets from device-ids.ts) registered.
 * CHILD_SEED=1 loads the demo (orders for the order page) into an empty database. Prints one JSON
 * line `{url, mqttUrl}` when ready; stops on SIGTERM.
 */
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { DbHandle } from '../apps/server/src/db/client.ts';
import { openPglite, pgliteHandle } from '../apps/server/src/db/pglite.ts';
import { postgresHandle } from '../apps/server/src/db/postgres.ts';
import { devices, ssoUsers } from '../apps/server/src/db/schema.ts';
import { seedDemo } from '../apps/server/src/seed/demo.ts';
import { benchSecret, CHILD_ENROL_KEY } from './device-ids.ts';

const databaseUrl = process.env.CHILD_DATABASE_URL;
const handle: DbHandle = databaseUrl
  ? postgresHandle(new pg.Pool({ connectionString: databaseUrl, max: 10 }))
  : process.env.CHILD_PGLITE_TEMPLATE && process.env.CHILD_PGLITE_DIR
    ? // A migrated database's dump unpacked into the directory: initdb on disk takes many seconds.
      pgliteHandle(
        await PGlite.create(process.env.CHILD_PGLITE_DIR, {
          loadDataDir: new Blob([await readFile(process.env.CHILD_PGLITE_TEMPLATE)]),
        }),
      )
    : process.env.CHILD_PGLITE_DIR
      ? await openPglite(process.env.CHILD_PGLITE_DIR)
      : pgliteHandle(await PGlite.create());
await handle.migrate();
if (process.env.CHILD_SEED === '1' && (await handle.db.select().from(ssoUsers).limit(1)).length === 0)
  await seedDemo(handle.db);

const config = {
  ...loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: '/tmp/cowork-device-child',
    MQTT_PORT: process.env.MQTT_PORT ?? '0',
    SECRET_KEY: 'cowork-child-secret-key-0123456789abcdef',
    DEVICE_ENROL_KEY: CHILD_ENROL_KEY,
    DEMO_DEVICES: '0',
    LOG_LEVEL: 'silent',
  }),
  webDist: '/nonexistent',
};
const app = await buildApp({ config, db: handle.db, logger: false, checkResponses: false });
const sns = (process.env.CHILD_DEVICES ?? '').split(',').filter(Boolean);
if (sns.length)
  await handle.db
    .insert(devices)
    .values(sns.map((sn) => ({ sn, name: `门 ${sn}`, secret: app.devices.box.seal(benchSecret(sn)) })))
    .onConflictDoNothing();

const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url, mqttUrl: app.devices.status().url })}\n`);

process.once('SIGTERM', () => {
  void (async () => {
    await app.close();
    await handle.close();
    process.exit(0);
  })();
});
