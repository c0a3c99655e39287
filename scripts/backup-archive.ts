/**
 * The backup file that `npm run backup` writes and `npm run restore` reads, and what both commands
 * share. One uncompressed tar (what it holds is compressed already):
 *
 *   manifest.json            format, time, engine, the version that wrote it, its last migration
 *   database/pglite.tar.gz   the embedded database's data directory (PGlite), or
 *   database/postgres.dump   pg_dump's custom format (PostgreSQL)
 *   uploads/…                the uploaded files, when they are stored on this disk (STORAGE=local)
 *
 * Tar through `tar` (node-tar, npm's own): the tree already holds tar-stream, but only as a
 * dependency of exceljs's zip writer, two majors old, and it leaves the paths of an extracted
 * archive to the caller; node-tar writes from and extracts to folders and never writes outside the
 * target (no absolute paths, no `..`, no links followed), which a restore of a file that may have
 * been tampered with needs.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { loadConfig, type Config } from '../apps/server/src/config.ts';
import type { RunningVersion } from '../apps/server/src/lib/version.ts';

export const MANIFEST_ENTRY = 'manifest.json';
export const DATABASE_ENTRIES = {
  pglite: 'database/pglite.tar.gz',
  postgres: 'database/postgres.dump',
} as const;
export const UPLOADS_ENTRY = 'uploads';
/** The embedded database's folder under DATA_DIR (db/client.ts opens it there). */
export const PGLITE_FOLDER = 'pglite';

const manifestSchema = z.object({
  format: z.literal(1),
  createdAt: z.string(),
  engine: z.enum(['pglite', 'postgres']),
  version: z.object({ version: z.string(), commit: z.string().optional() }),
  /** drizzle's time of the last migration the database held; null: never migrated. */
  migratedAt: z.number().nullable(),
  /** Whether uploads/ holds the uploaded files (false with STORAGE=s3: they are in the bucket). */
  uploads: z.boolean(),
});
export type Manifest = z.infer<typeof manifestSchema>;

export function manifestOf(
  fields: Omit<Manifest, 'format' | 'createdAt' | 'version'> & { version: RunningVersion },
): Manifest {
  return { format: 1, createdAt: new Date().toISOString(), ...fields };
}

/** The manifest of a backup file, or a BackupError saying the file is not one. */
export function parseManifest(text: string, file: string): Manifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success)
    throw new BackupError(
      `${file} 的 manifest.json 无法识别：它不是本系统 npm run backup 写出的备份，或来自更新的版本。`,
      `${file} has a manifest.json this version cannot read: it is not a backup written by npm run backup, or a newer version wrote it.`,
    );
  return result.data;
}

/** A refusal or failure, said in Chinese and in English; the commands print it and exit 1. */
export class BackupError extends Error {
  override name = 'BackupError';
  constructor(chinese: string, english: string) {
    super(`${chinese}\n${english}`);
  }
}

/** Relative paths are taken from where the command was typed, as the server's DATA_DIR is. */
export const fromWhereTyped = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

/**
 * The server's settings (DATA_DIR, DATABASE_URL, STORAGE), checked as the server checks them, and
 * BACKUP_DIR. Production's demand for the keys is left out: a backup and a restore need none, and
 * the shell they run in may not hold them.
 */
export function backupSettings(env: NodeJS.ProcessEnv = process.env): {
  config: Config;
  backupDir: string;
} {
  const withoutNodeEnv = Object.fromEntries(Object.entries(env).filter(([name]) => name !== 'NODE_ENV'));
  return { config: loadConfig(withoutNodeEnv), backupDir: fromWhereTyped(env.BACKUP_DIR || './backups') };
}

/** Whether a folder is missing or holds nothing. */
export async function isEmptyFolder(folder: string): Promise<boolean> {
  try {
    return (await fs.readdir(folder)).length === 0;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return true;
    throw error;
  }
}

/**
 * How PostgreSQL's own programs reach DATABASE_URL: the URL without its password, which goes in
 * PGPASSWORD instead, so it never shows in the list of processes.
 */
export function libpqConnection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** What a program may print before the rest is dropped (an error's lines, not a flood). */
const STDERR_MAX = 16 * 1024;

/**
 * Runs pg_dump or pg_restore on DATABASE_URL; a missing client, or one older than the server, is
 * said as such.
 */
export async function runPgTool(tool: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string) {
  const { url, env } = libpqConnection(databaseUrl);
  const child = spawn(tool, [...args, `--dbname=${url}`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < STDERR_MAX) stderr += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  }).catch((error: unknown) => {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT')
      throw new BackupError(
        `找不到 ${tool}：请先安装 PostgreSQL 客户端（Debian/Ubuntu：sudo apt-get install postgresql-client，主版本不低于数据库服务器），再运行一次。`,
        `${tool} was not found: install the PostgreSQL client (Debian/Ubuntu: sudo apt-get install postgresql-client, of the database server's major version or newer) and run this again.`,
      );
    throw error;
  });
  if (code === 0) return;
  const said = stderr.trim();
  if (/server version mismatch|unsupported version/i.test(said))
    throw new BackupError(
      `${tool} 的版本低于数据库服务器：请安装与服务器主版本相同或更新的 postgresql-client。${tool} 的输出：${said}`,
      `${tool} is older than the database server: install postgresql-client of the server's major version or newer. ${tool} said: ${said}`,
    );
  throw new BackupError(`${tool} 失败（退出码 ${code}）：${said}`, `${tool} failed (exit ${code}): ${said}`);
}

/** Runs a command's main, printing a BackupError (or any error) as one message and exiting 1. */
export function runCommand(name: string, main: () => Promise<void>) {
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (error: unknown) => {
      const text =
        error instanceof BackupError
          ? error.message
          : `${name} 失败 / ${name} failed: ${error instanceof Error ? error.message : String(error)}`;
      console.error(text);
      process.exit(1);
    },
  );
}
