/**
 * `npm run backup` and `npm run restore` as an operator runs them (scripts/backup.ts, restore.ts),
 * on PGlite and, with TEST_DATABASE_URL, on a PostgreSQL database of the test's own: a real server
 * gets an uploaded file and a registered door device; the backup is taken while it runs; the data
 * is wiped and restored; a server on the restored data has the same rows, serves the same file, and
 * the device connects with the secret it was given before the backup. A restore into a database in
 * use or not empty is refused; on PGlite, a backup of the stopped database restores row for row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { deviceEndpoints, type DeviceRecord, uploadEndpoints } from '@cowork/contract';
import { rowsOf, type Executor } from '../src/db/client.ts';
import { pgliteHandle } from '../src/db/pglite.ts';
import { SimulatedDevice } from '../src/device-link/simulator.ts';
import { until } from './helper.ts';
import {
  emptyPostgres,
  runScript,
  type ServerProcess,
  signIn,
  startServer,
  stopAll,
} from './server-process.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const SN = 'BACKUP-DOOR-1';
const keys = {
  SECRET_KEY: 'backup-test-secret-key-0123456789abcdef',
  DEVICE_ENROL_KEY: 'backup-test-enrol-key',
};

/** Tables only a person's action changes (no background job writes them), whole rows. */
const STABLE_TABLES = ['orders', 'members', 'buildings', 'merchants', 'sso_roles', 'uploaded_files'];

type Db = Pick<Executor, 'execute'>;

/** Row count and a hash of the rows of each of `tables` (a subquery for devices' fixed columns). */
async function fingerprint(db: Db, tables: string[]): Promise<Record<string, string>> {
  const sources = [...tables.map((t) => [t, t]), ['devices', '(select id, sn, name, secret from devices)']];
  const result: Record<string, string> = {};
  for (const [name, source] of sources) {
    const [row] = await rowsOf<{ n: number; h: string }>(
      db,
      sql.raw(
        `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from ${source} t`,
      ),
    );
    result[name] = `${row.n}:${row.h}`;
  }
  return result;
}

/** Every table of the schema (for a copy nothing wrote to since). */
const allTables = async (db: Db) =>
  (
    await rowsOf<{ name: string }>(
      db,
      sql`select tablename as name from pg_tables where schemaname = 'public' order by 1`,
    )
  ).map((r) => r.name);

/** Runs `read` on the stopped database of `env` (PGlite under DATA_DIR, or DATABASE_URL). */
async function onDatabase<T>(env: Record<string, string>, read: (db: Db) => Promise<T>): Promise<T> {
  if (env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      return await read(drizzle({ client }));
    } finally {
      await client.end();
    }
  }
  const handle = pgliteHandle(await PGlite.create(path.join(env.DATA_DIR, 'pglite')));
  try {
    return await read(handle.db);
  } finally {
    await handle.close();
  }
}

/** Uploads the PNG as the admin; answers its storage key. */
async function uploadPng(server: ServerProcess, headers: Record<string, string>): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), '门店 logo.png');
  const res = await fetch(`${server.base}${uploadEndpoints.upload}`, { method: 'POST', headers, body: form });
  const body = (await res.json()) as { code: number; msg: string; data: { key: string } };
  expect(body.code, body.msg).toBe(200);
  return body.data.key;
}

/** The device's status in 设备管理 as the admin sees it. */
async function statusOf(server: ServerProcess, headers: Record<string, string>) {
  const res = await fetch(`${server.base}${deviceEndpoints.page}?sn=${SN}`, { headers });
  const { data } = (await res.json()) as { data: { records: DeviceRecord[] } };
  return data.records.find((r) => r.sn === SN)?.status;
}

/** Enrols the device, registers it as the console does, and connects it with its secret. */
async function registerDevice(server: ServerProcess, headers: Record<string, string>): Promise<string> {
  const url = `mqtt://127.0.0.1:${server.mqttPort}`;
  const enrolling = new SimulatedDevice({ url, sn: SN, enrolKey: keys.DEVICE_ENROL_KEY });
  await enrolling.connect();
  await until(async () => {
    const res = await fetch(`${server.base}${deviceEndpoints.unPulledList}`, { headers });
    return ((await res.json()) as { data: { sn: string }[] }).data.some((d) => d.sn === SN);
  }, `${SN} waiting to be registered`);
  const res = await fetch(`${server.base}${deviceEndpoints.register}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ sn: SN, name: '备份测试门', spaceId: null }),
  });
  const body = (await res.json()) as { code: number; msg: string; data: { secret: string } };
  expect(body.code, body.msg).toBe(200);
  await enrolling.close();
  await connectsWith(server, headers, body.data.secret);
  return body.data.secret;
}

/** The device connects with `secret` and shows online. */
async function connectsWith(server: ServerProcess, headers: Record<string, string>, secret: string) {
  const device = new SimulatedDevice({ url: `mqtt://127.0.0.1:${server.mqttPort}`, sn: SN, secret });
  await device.connect();
  try {
    await until(async () => (await statusOf(server, headers)) === 'online', `${SN} online`, 15_000);
  } finally {
    await device.close();
  }
}

const engines = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])] as const;

describe.each(engines)('backup and restore on %s', (engine) => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), `cowork-backup-${engine}-`));
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    stopAll();
    for (const drop of drops) await drop().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  });

  test('taken while the server runs, restored after a wipe: same rows, same file, the device connects', async () => {
    const dataDir = path.join(scratch, 'data');
    let database = engine === 'postgres' ? await emptyPostgres('backup') : undefined;
    if (database) drops.push(() => database!.drop());
    const env = { ...keys, DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) };

    const before = await startServer(env);
    let key: string;
    let secret: string;
    try {
      expect(await before.ready(), before.output()).toBe(true);
      const admin = await signIn(before.base, 'admin', 'Admin@123');
      key = await uploadPng(before, admin);
      secret = await registerDevice(before, admin);
      const backup = await runScript('backup', [path.join(scratch, 'backups')], env);
      expect(backup.code, backup.output).toBe(0);
      expect(backup.output).toContain(engine === 'pglite' ? 'from the running server' : 'pg_dump');
      expect(backup.output).toContain('uploaded files: 1 from');
    } finally {
      await before.stop();
    }
    const [archive] = await fs.readdir(path.join(scratch, 'backups'));
    expect(archive).toMatch(/^cowork-backup-\d{8}T\d{6}Z\.tar$/);
    const file = path.join(scratch, 'backups', archive);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    const rows = await onDatabase(env, (db) => fingerprint(db, STABLE_TABLES));
    expect(rows.devices).toMatch(/^1:/);
    expect(rows.uploaded_files).toMatch(/^1:/);

    // Wipe: the data folder (database and uploads) and, on PostgreSQL, the database itself.
    await fs.rm(dataDir, { recursive: true, force: true });
    if (database) {
      await database.drop();
      database = await emptyPostgres('restored');
      drops.push(() => database!.drop());
      env.DATABASE_URL = database.url;
    }
    const restore = await runScript('restore', [file], env);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain('the SECRET_KEY of this shell opens the restored device secrets');
    expect(await onDatabase(env, (db) => fingerprint(db, STABLE_TABLES))).toEqual(rows);

    const after = await startServer(env);
    try {
      expect(await after.ready(), after.output()).toBe(true);
      const served = await fetch(`${after.base}/file/uploads/${key}`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
      const admin = await signIn(after.base, 'admin', 'Admin@123');
      await connectsWith(after, admin, secret);

      // Never over data in use or present: refused with a sentence, nothing changed.
      const again = await runScript('restore', [file], env);
      expect(again.code).toBe(1);
      expect(again.output).toContain(
        engine === 'pglite' ? '数据库正被另一个进程使用（服务器在运行？）：请先停止它，再恢复。' : '不是空的',
      );
      expect(again.output).toContain(engine === 'pglite' ? 'in use by a running server' : 'is not empty');
    } finally {
      await after.stop();
    }
  }, 300_000);

  test.runIf(engine === 'postgres')('without pg_dump, it says to install postgresql-client', async () => {
    const database = await emptyPostgres('nodump');
    drops.push(() => database.drop());
    const env = { DATABASE_URL: database.url, DATA_DIR: path.join(scratch, 'nodump'), PATH: '/nonexistent' };
    const backup = await runScript('backup', [path.join(scratch, 'nodump-backups')], env);
    expect(backup.code).toBe(1);
    expect(backup.output).toContain(
      '找不到 pg_dump：请先安装 PostgreSQL 客户端（Debian/Ubuntu：sudo apt-get install postgresql-client',
    );
    expect(backup.output).toContain('pg_dump was not found: install the PostgreSQL client');
    expect(await fs.readdir(path.join(scratch, 'nodump-backups'))).toEqual([]);
  });

  test.runIf(engine === 'pglite')(
    'a backup of the stopped database restores row for row',
    async () => {
      const env = { ...keys, DATA_DIR: path.join(scratch, 'data') };
      const backup = await runScript('backup', [path.join(scratch, 'stopped.tar')], env);
      expect(backup.code, backup.output).toBe(0);
      expect(backup.output).toContain('from the stopped database');
      const copy = { ...keys, DATA_DIR: path.join(scratch, 'copy') };
      const restore = await runScript('restore', [path.join(scratch, 'stopped.tar')], copy);
      expect(restore.code, restore.output).toBe(0);
      const every = (db: Db) => allTables(db).then((tables) => fingerprint(db, tables));
      const original = await onDatabase(env, every);
      expect(Object.keys(original).length).toBeGreaterThan(40);
      expect(await onDatabase(copy, every)).toEqual(original);
    },
    120_000,
  );
});
