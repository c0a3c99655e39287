/**
 * `npm run backup [-- FILE.tar | FOLDER]`: one file holding a consistent copy of the database and
 * the uploaded files (scripts/backup-archive.ts), named with the time in BACKUP_DIR (./backups) or
 * the folder given, or the .tar file given. The server may be running:
 *
 * - PostgreSQL (DATABASE_URL): pg_dump, whose one transaction sees the database at one instant.
 * - PGlite: the running server holds its files (db/pglite-control.ts) and is asked for a snapshot,
 *   taken between two of its transactions after a checkpoint; a stopped one's files are copied by
 *   this process, holding them meanwhile so that no server starts on them.
 *
 * The database is copied first, the uploaded files after: a file is stored before the row naming
 * it is written, so every row of the copy finds its file (one removed in between aside).
 * SECRET_KEY is never in the backup: keep it apart (docs/deploy.md).
 */
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { create, replace } from 'tar';
import { lastMigrationAt } from '../apps/server/src/db/client.ts';
import { openPglite } from '../apps/server/src/db/pglite.ts';
import {
  blobChunks,
  claimDataDir,
  DataDirBusyError,
  requestSnapshot,
} from '../apps/server/src/db/pglite-control.ts';
import { SECRET_KEY_FILE } from '../apps/server/src/lib/secret-box.ts';
import { runningVersion, type RunningVersion } from '../apps/server/src/lib/version.ts';
import {
  BackupError,
  backupSettings,
  DATABASE_ENTRIES,
  fromWhereTyped,
  isEmptyFolder,
  MANIFEST_ENTRY,
  manifestOf,
  PGLITE_FOLDER,
  runCommand,
  runPgTool,
  UPLOADS_ENTRY,
} from './backup-archive.ts';

const usage = `Usage: npm run backup [-- FILE.tar | FOLDER]

Writes the database (DATABASE_URL, else the embedded one under DATA_DIR) and the uploaded files
(STORAGE=local) into one file named cowork-backup-<UTC time>.tar in BACKUP_DIR (./backups), in the
folder given, or into the .tar file given. The server may be running.`;

interface DatabaseCopy {
  /** Who the copy came from, for the summary. */
  from: string;
  version: RunningVersion;
  migratedAt: number | null;
}

/** `cowork-backup-20260501T120000Z.tar` in `folder`. */
const timedName = (folder: string) =>
  path.join(folder, `cowork-backup-${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}.tar`);

/** The file to write: the .tar given, or a timed name in the folder given or in BACKUP_DIR. */
function targetFile(given: string | undefined, backupDir: string): string {
  if (!given) return timedName(backupDir);
  const resolved = fromWhereTyped(given);
  return resolved.endsWith('.tar') ? resolved : timedName(resolved);
}

/** The running server's snapshot, or the stopped database's files copied by this process. */
async function copyPglite(dataDir: string, file: string): Promise<DatabaseCopy> {
  const served = await requestSnapshot(dataDir);
  if (served) {
    await pipeline(served.data, createGzip(), createWriteStream(file, { mode: 0o600 }));
    return { from: 'the running server', version: served.version, migratedAt: served.migratedAt };
  }
  const folder = path.join(dataDir, PGLITE_FOLDER);
  if (await isEmptyFolder(folder))
    throw new BackupError(
      `${folder} 里没有数据库：请检查 DATA_DIR（或设置 DATABASE_URL 备份 PostgreSQL）。`,
      `There is no database in ${folder}: check DATA_DIR (or set DATABASE_URL to back up PostgreSQL).`,
    );
  const claim = await claimDataDir(dataDir, 'backup').catch((error: unknown) => {
    throw error instanceof DataDirBusyError
      ? new BackupError(`数据库正被另一个进程使用，请等它结束后再备份。`, error.message)
      : error;
  });
  if (claim.problem)
    throw new BackupError(
      `无法确认没有服务器在使用 ${folder}（${claim.problem}）：请把 DATA_DIR 移到更短的本地路径后再备份。`,
      `Nothing can tell whether a server uses ${folder} (${claim.problem}): move DATA_DIR to a shorter local path and back up again.`,
    );
  try {
    const handle = await openPglite(folder);
    try {
      const migratedAt = await lastMigrationAt(handle.db);
      const tar = await handle.snapshot!();
      await pipeline(Readable.from(blobChunks(tar)), createGzip(), createWriteStream(file, { mode: 0o600 }));
      return { from: 'the stopped database', version: runningVersion, migratedAt };
    } finally {
      await handle.close();
    }
  } finally {
    await claim.release();
  }
}

/** pg_dump's custom format of DATABASE_URL. */
async function copyPostgres(databaseUrl: string, file: string): Promise<DatabaseCopy> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let migratedAt: number | null;
  try {
    migratedAt = await lastMigrationAt(drizzle({ client }));
  } finally {
    await client.end();
  }
  await runPgTool('pg_dump', ['--format=custom', `--file=${file}`], databaseUrl);
  return { from: 'PostgreSQL (pg_dump)', version: runningVersion, migratedAt };
}

/** Never a half-written file under the backup's name, nor one written over another backup. */
async function publish(partial: string, target: string) {
  try {
    // A link fails when the name was taken meanwhile, where a rename would replace the file.
    await fs.link(partial, target);
  } catch (error) {
    if (!(
      error instanceof Error &&
      'code' in error &&
      ['EPERM', 'ENOTSUP', 'EXDEV'].includes(String(error.code))
    ))
      throw error;
    // A file system without hard links.
    await fs.rename(partial, target);
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length > 1) {
    console.log(usage);
    return;
  }
  const { config, backupDir } = backupSettings();
  const target = targetFile(positionals[0], backupDir);
  await fs.mkdir(path.dirname(target), { recursive: true });
  if (await fs.stat(target).catch(() => undefined))
    throw new BackupError(
      `${target} 已存在：备份不会覆盖已有文件，请换一个文件名。`,
      `${target} exists: a backup never overwrites a file; give another name.`,
    );
  const engine = config.databaseUrl ? 'postgres' : 'pglite';
  const staging = await fs.mkdtemp(path.join(path.dirname(target), '.cowork-backup-'));
  const partial = `${target}.partial`;
  try {
    const databaseFile = path.join(staging, DATABASE_ENTRIES[engine]);
    await fs.mkdir(path.dirname(databaseFile), { recursive: true });
    const copy = config.databaseUrl
      ? await copyPostgres(config.databaseUrl, databaseFile)
      : await copyPglite(config.dataDir, databaseFile);
    const uploadsFolder = path.join(config.dataDir, UPLOADS_ENTRY);
    const withUploads = config.storage.kind === 'local';
    const manifest = manifestOf({
      engine,
      version: copy.version,
      migratedAt: copy.migratedAt,
      uploads: withUploads,
    });
    await fs.writeFile(path.join(staging, MANIFEST_ENTRY), `${JSON.stringify(manifest, null, 2)}\n`);
    // Readable by its owner only: it holds password hashes, and the sealed device secrets.
    await create({ file: partial, cwd: staging, portable: true, mode: 0o600 }, [MANIFEST_ENTRY, 'database']);
    let files = 0;
    if (withUploads && !(await isEmptyFolder(uploadsFolder))) {
      await replace(
        {
          file: partial,
          cwd: config.dataDir,
          portable: true,
          // A file still being written is skipped (localDiskStorage renames it into place when done).
          filter: (name) => !name.endsWith('.part'),
          onWriteEntry: (entry) => void (entry.type === 'File' && files++),
        },
        [UPLOADS_ENTRY],
      );
    }
    await publish(partial, target);
    // The key generated when SECRET_KEY is unset lives beside the database, and stays out of it too.
    const keyFile = path.join(config.dataDir, SECRET_KEY_FILE);
    const keyFileFound = !config.secretKey && (await fs.stat(keyFile).catch(() => undefined));
    const { size } = await fs.stat(target);
    console.log(
      [
        `备份完成 / Backup written: ${target} (${(size / 1024 / 1024).toFixed(1)} MB)`,
        `  database: ${engine === 'pglite' ? `embedded PGlite (${config.dataDir})` : 'PostgreSQL'}, from ${copy.from}, version ${copy.version.version}${copy.version.commit ? ` (commit ${copy.version.commit})` : ''}`,
        withUploads
          ? `  uploaded files: ${files} from ${uploadsFolder}`
          : '  uploaded files: not in this file (STORAGE=s3): back up the bucket with its own tools (versioning, replication)',
        `  SECRET_KEY is not in the backup${keyFileFound ? ` (nor ${keyFile})` : ''}: keep it apart; without it device secrets cannot be opened. / SECRET_KEY 不在备份中：请另行保管，没有它设备密钥无法解开。`,
      ].join('\n'),
    );
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
    await fs.rm(partial, { force: true });
  }
}

runCommand('npm run backup', main);
