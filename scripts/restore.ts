/**
 * `npm run restore FILE`: puts back a backup that `npm run backup` wrote, into an empty database
 * (DATABASE_URL: a database without tables; else DATA_DIR/pglite missing or empty) and, when the
 * backup holds uploaded files, an empty DATA_DIR/uploads. Anything else is refused before a byte is
 * written; a restore that fails halfway removes what it wrote (PostgreSQL: one transaction).
 *
 * A backup of an older version is fine (the next start applies the newer migrations); one holding
 * migrations this code does not know is refused: deploy that version first. The restored device
 * secrets open only with the SECRET_KEY of the servers that wrote them: the summary says whether
 * the key of this shell (SECRET_KEY, else DATA_DIR/secret.key) does.
 */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { extract } from 'tar';
import type { Config } from '../apps/server/src/config.ts';
import { lastMigrationAt, migrationJournal, rowsOf, type Executor } from '../apps/server/src/db/client.ts';
import { pgliteHandle } from '../apps/server/src/db/pglite.ts';
import { claimDataDir, DataDirBusyError, type DataDirClaim } from '../apps/server/src/db/pglite-control.ts';
import { secretBox, SECRET_KEY_FILE } from '../apps/server/src/lib/secret-box.ts';
import {
  BackupError,
  backupSettings,
  DATABASE_ENTRIES,
  fromWhereTyped,
  isEmptyFolder,
  MANIFEST_ENTRY,
  parseManifest,
  PGLITE_FOLDER,
  runCommand,
  runPgTool,
  UPLOADS_ENTRY,
  type Manifest,
} from './backup-archive.ts';

const usage = `Usage: npm run restore -- FILE

Restores a backup written by npm run backup into the database of this environment (DATABASE_URL,
else the embedded one under DATA_DIR), which must be empty, and its uploaded files into DATA_DIR/uploads,
which must be empty too. Stop the servers first.`;

/** Relations (tables, sequences, views) outside PostgreSQL's own schemas. */
async function relationsIn(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
        where s.nspname not in ('pg_catalog', 'information_schema') and s.nspname not like 'pg\\_%'
          and c.relkind in ('r', 'p', 'S', 'v', 'm', 'f')`,
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

/** Refuses a target that is not empty; on PGlite holds DATA_DIR meanwhile (no server may start). */
async function claimEmptyTarget(config: Config): Promise<DataDirClaim | undefined> {
  if (config.databaseUrl) {
    const found = await relationsIn(config.databaseUrl);
    if (found > 0) {
      const name = new URL(config.databaseUrl).pathname.slice(1);
      throw new BackupError(
        `数据库 ${name} 不是空的（已有 ${found} 个表、序列或视图）：恢复只写入空数据库，不会覆盖。请新建一个空数据库（createdb）并把 DATABASE_URL 指向它，再恢复。`,
        `The database ${name} is not empty (${found} tables, sequences or views): a restore writes only into an empty database and never over one. Create an empty database (createdb), point DATABASE_URL at it and restore again.`,
      );
    }
    return undefined;
  }
  const claim = await claimDataDir(config.dataDir, 'restore').catch((error: unknown) => {
    throw error instanceof DataDirBusyError
      ? new BackupError('数据库正被另一个进程使用（服务器在运行？）：请先停止它，再恢复。', error.message)
      : error;
  });
  const folder = path.join(config.dataDir, PGLITE_FOLDER);
  const refusal = claim.problem
    ? new BackupError(
        `无法确认没有服务器在使用 ${folder}（${claim.problem}）：请把 DATA_DIR 移到更短的本地路径后再恢复。`,
        `Nothing can tell whether a server uses ${folder} (${claim.problem}): move DATA_DIR to a shorter local path and restore again.`,
      )
    : !(await isEmptyFolder(folder))
      ? new BackupError(
          `${folder} 里已有数据库：恢复只写入空的数据目录，不会覆盖。请把 DATA_DIR 指向一个新的空目录（或先移走现有的），再恢复。`,
          `${folder} holds a database: a restore writes only into an empty data directory and never over one. Point DATA_DIR at a new empty folder (or move the existing one away) and restore again.`,
        )
      : undefined;
  if (refusal) {
    await claim.release();
    throw refusal;
  }
  return claim;
}

/** Refuses a backup this environment cannot take: another engine, or migrations this code lacks. */
async function checkManifest(manifest: Manifest, config: Config, file: string) {
  const engine = config.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.engine !== engine)
    throw new BackupError(
      manifest.engine === 'pglite'
        ? `${file} 是嵌入式数据库（PGlite）的备份：请不设 DATABASE_URL，恢复到 DATA_DIR。`
        : `${file} 是 PostgreSQL 的备份：请把 DATABASE_URL 设为一个空数据库再恢复。`,
      manifest.engine === 'pglite'
        ? `${file} is a backup of the embedded database (PGlite): unset DATABASE_URL to restore it into DATA_DIR.`
        : `${file} is a backup of PostgreSQL: set DATABASE_URL to an empty database to restore it.`,
    );
  const known = Math.max(...(await migrationJournal()).map((e) => e.when));
  if (manifest.migratedAt !== null && manifest.migratedAt > known)
    throw new BackupError(
      `${file} 的数据库来自更新的版本 ${manifest.version.version}（有本版本没有的迁移）：请先部署那个版本，再恢复。`,
      `${file} holds a database of a newer version, ${manifest.version.version} (migrations this version lacks): deploy that version first, then restore.`,
    );
  const uploads = path.join(config.dataDir, UPLOADS_ENTRY);
  if (manifest.uploads && !(await isEmptyFolder(uploads)))
    throw new BackupError(
      `${uploads} 里已有文件：恢复只写入空目录，不会覆盖。请把 DATA_DIR 指向一个新的空目录，再恢复。`,
      `${uploads} holds files: a restore writes only into an empty folder and never over one. Point DATA_DIR at a new empty folder and restore again.`,
    );
}

/** Whether the restored database is the backup's, and what the key of this shell makes of it. */
async function checkRestored(db: Pick<Executor, 'execute'>, manifest: Manifest, config: Config) {
  const migratedAt = await lastMigrationAt(db);
  if (migratedAt !== manifest.migratedAt)
    throw new Error(
      `the restored database's last migration (${migratedAt}) is not the backup's (${manifest.migratedAt})`,
    );
  const [device] = await rowsOf<{ secret: string }>(
    db,
    sql`select secret from devices order by id desc limit 1`,
  );
  if (!device) return 'no door device in the backup: no key to check';
  const keyFile = path.join(config.dataDir, SECRET_KEY_FILE);
  let key = config.secretKey;
  try {
    key ??= readFileSync(keyFile, 'utf8').trim();
  } catch {
    // No key in this shell: said below.
  }
  if (!key)
    return `start the server with the SECRET_KEY of the servers that wrote this backup: the device secrets open only with it / 请用写出备份的服务器所用的 SECRET_KEY 启动服务器`;
  try {
    secretBox(key).open(device.secret);
    return 'the SECRET_KEY of this shell opens the restored device secrets / 当前的 SECRET_KEY 能解开恢复的设备密钥';
  } catch {
    return `WARNING: the SECRET_KEY of this shell does not open the restored device secrets: the server will refuse to start until it gets the key of the servers that wrote the backup / 警告：当前的 SECRET_KEY 解不开恢复的设备密钥，请换成写出备份的服务器所用的密钥`;
  }
}

/** The database out of `dump`, into the empty target; answers the key check's sentence. */
async function restoreDatabase(dump: string, manifest: Manifest, config: Config): Promise<string> {
  if (config.databaseUrl) {
    // One transaction: a failure leaves the database empty. Owners and grants are the backup's
    // server's; here everything belongs to the user of DATABASE_URL.
    await runPgTool(
      'pg_restore',
      ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', dump],
      config.databaseUrl,
    );
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      return await checkRestored(drizzle({ client }), manifest, config);
    } finally {
      await client.end();
    }
  }
  const folder = path.join(config.dataDir, PGLITE_FOLDER);
  try {
    const tar = gunzipSync(await fs.readFile(dump));
    const handle = pgliteHandle(await PGlite.create(folder, { loadDataDir: new Blob([tar]) }));
    try {
      return await checkRestored(handle.db, manifest, config);
    } finally {
      await handle.close();
    }
  } catch (error) {
    await fs.rm(folder, { recursive: true, force: true });
    throw error;
  }
}

/** Only regular files and folders below the named entries come out of a backup. */
const plainEntry = (entry: unknown) =>
  typeof entry === 'object' &&
  entry !== null &&
  'type' in entry &&
  ['File', 'Directory'].includes(String(entry.type));

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length !== 1) {
    console.log(usage);
    if (!values.help) process.exitCode = 2;
    return;
  }
  const file = fromWhereTyped(positionals[0]);
  if (!(await fs.stat(file).catch(() => undefined))?.isFile())
    throw new BackupError(`找不到备份文件 ${file}。`, `There is no backup file ${file}.`);
  const { config } = backupSettings();
  const claim = await claimEmptyTarget(config);
  await fs.mkdir(config.dataDir, { recursive: true });
  const staging = await fs.mkdtemp(path.join(config.dataDir, '.cowork-restore-'));
  try {
    // One pass over the file; the uploads are moved into place once the database is in.
    let files = 0;
    await extract({
      file,
      cwd: staging,
      strict: true,
      filter: (name, entry) =>
        plainEntry(entry) &&
        (name === MANIFEST_ENTRY || name.startsWith('database/') || name.startsWith(`${UPLOADS_ENTRY}/`)),
      onReadEntry: (entry) =>
        void (entry.type === 'File' && entry.path.startsWith(`${UPLOADS_ENTRY}/`) && files++),
    });
    const manifestText = await fs.readFile(path.join(staging, MANIFEST_ENTRY), 'utf8').catch(() => '');
    const manifest = parseManifest(manifestText, file);
    await checkManifest(manifest, config, file);
    const keyNote = await restoreDatabase(
      path.join(staging, DATABASE_ENTRIES[manifest.engine]),
      manifest,
      config,
    );
    if (manifest.uploads && files > 0)
      await fs.rename(path.join(staging, UPLOADS_ENTRY), path.join(config.dataDir, UPLOADS_ENTRY));
    console.log(
      [
        `恢复完成 / Restored: ${file}`,
        `  written ${manifest.createdAt} by version ${manifest.version.version}${manifest.version.commit ? ` (commit ${manifest.version.commit})` : ''}`,
        `  database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${path.join(config.dataDir, PGLITE_FOLDER)}`}`,
        manifest.uploads
          ? `  uploaded files: ${files} into ${path.join(config.dataDir, UPLOADS_ENTRY)}${config.storage.kind === 's3' ? ' (STORAGE=s3: copy them into the bucket, docs/deploy.md)' : ''}`
          : '  uploaded files: not in this backup (they were in an S3 bucket)',
        `  ${keyNote}`,
        '  Start the server: it applies the migrations newer than the backup. / 启动服务器即可，它会应用备份之后的迁移。',
      ].join('\n'),
    );
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
    await claim?.release();
  }
}

runCommand('npm run restore', main);
