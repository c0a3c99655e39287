/**
 * Opens the database: embedded PGlite when DATABASE_URL is unset, PostgreSQL through node-postgres
 * when it is set. Both are handed out as drizzle's PgDatabase so the rest of the server does not
 * know which engine runs.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.ts';
import { propertyOf, textOf } from '../lib/unknown.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: what a query helper may run on. */
export type Executor = Pick<
  Database,
  'select' | 'selectDistinct' | 'insert' | 'update' | 'delete' | 'execute'
>;

export interface DbHandle {
  db: Database;
  engine: 'pglite' | 'postgres';
  /** Applies pending migrations from apps/server/drizzle; answers the names of those applied, in order. */
  migrate(): Promise<string[]>;
  /**
   * What a server does at start: applies pending migrations, then runs `prepare` (its data
   * preparation), both before any other instance may. On PostgreSQL they run under one advisory
   * lock, so instances starting together on one database migrate once and create the first
   * administrator (or the demo) once, one after another.
   */
  startUp<T>(prepare: () => Promise<T>): Promise<{ migrations: string[]; prepared: T }>;
  /**
   * PGlite only: a consistent copy of the data directory (a tar), taken while no transaction is open
   * and none may start, after a checkpoint (`npm run backup` asks the running server for it).
   */
  snapshot?(): Promise<Blob>;
  close(): Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * Runs drizzle's migrator (`run`) on `db` and answers the names (journal tags, `0027_business_calendar`)
 * of the migrations it applied, so the start can log each. Drizzle applies, in order, those whose
 * journal time is after the last one recorded in drizzle.__drizzle_migrations.
 */
export async function migrateNamed(
  db: Pick<Executor, 'execute'>,
  run: () => Promise<void>,
): Promise<string[]> {
  const lastAt = (await lastMigrationAt(db)) ?? -1;
  const pending = (await migrationJournal()).filter((e) => e.when > lastAt).map((e) => e.tag);
  await run();
  return pending;
}

/**
 * The journal time of the last migration the database holds (drizzle.__drizzle_migrations), or
 * null for a database never migrated. A backup records it, so a restore can refuse a database
 * newer than its code.
 */
export async function lastMigrationAt(db: Pick<Executor, 'execute'>): Promise<number | null> {
  const [{ found }] = await rowsOf<{ found: string | null }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations')::text as found`,
  );
  if (!found) return null;
  const [last] = await rowsOf<{ at: string | number | null }>(
    db,
    sql`select max(created_at) as at from drizzle.__drizzle_migrations`,
  );
  return last?.at === null || last?.at === undefined ? null : Number(last.at);
}

/** This code's migrations, in order: each one's tag (`0027_business_calendar`) and journal time. */
export async function migrationJournal(): Promise<{ tag: string; when: number }[]> {
  const journal: unknown = JSON.parse(
    await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  );
  const entries = propertyOf(journal, 'entries');
  return (Array.isArray(entries) ? entries : []).map((e) => ({
    tag: String(propertyOf(e, 'tag')),
    when: Number(propertyOf(e, 'when')),
  }));
}

/**
 * The name to give drizzle's `.prepare()`: none of our own, so on PostgreSQL the statement is named
 * after its text (db/postgres.ts, bounded), as every other statement is.
 */
export const BY_TEXT = '';

/**
 * The rows of a raw statement (`db.execute`): both drivers answer `{ rows }`, which drizzle's
 * driver-generic result type does not say. The caller names the row its select list gives.
 */
export async function rowsOf<Row>(db: Pick<Executor, 'execute'>, query: SQL): Promise<Row[]> {
  const result: unknown = await db.execute(query);
  const rows = propertyOf(result, 'rows');
  if (!Array.isArray(rows)) throw new Error('The database answered a statement without rows.');
  return rows;
}

/** An error and the errors it wraps (drizzle wraps the driver's error in `cause`). */
export function* errorChain(error: unknown): Generator<object> {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; e = propertyOf(e, 'cause'), depth++)
    yield e;
}

/** PostgreSQL's SQLSTATE of a failed query, looking through drizzle's wrapper. */
export function sqlState(error: unknown): string | undefined {
  for (const e of errorChain(error)) {
    const code = textOf(e, 'code');
    if (code && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** PostgreSQL's code for a statement it aborted to break a deadlock. */
const DEADLOCK = '40P01';
const DEADLOCK_ATTEMPTS = 5;

/**
 * Runs a statement (outside any transaction) again when PostgreSQL aborted it to break a deadlock:
 * the batched updates of many device rows (hellos, acks, heartbeats, last seen) lock rows in the
 * order of their lists, so two of them may deadlock; the aborted one changed nothing, and losing it
 * would lose what it wrote (a hello's claim: the device never synced).
 */
export async function retryingDeadlocks<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (sqlState(error) !== DEADLOCK || attempt >= DEADLOCK_ATTEMPTS) throw error;
    }
  }
}

/** The constraint a PostgreSQL error names (a CHECK, unique or foreign key), if any. */
export function constraintOf(error: unknown): string | undefined {
  for (const e of errorChain(error)) {
    const constraint = textOf(e, 'constraint');
    if (constraint) return constraint;
  }
  return undefined;
}

/** Socket errors of an unreachable server, and PostgreSQL's shutting down / too many connections. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
/** node-postgres and its pool raise these without a code. */
const UNREACHABLE_MESSAGES =
  /^(Query read timeout|timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|Client was closed and is not queryable)/;

/**
 * Whether a failure is a database outage rather than a bug: `unreachable` when the database cannot
 * be reached or stopped answering, `timeout` when PostgreSQL cancelled a statement at
 * statement_timeout; undefined for anything else.
 */
export function databaseOutage(error: unknown): 'unreachable' | 'timeout' | undefined {
  for (const e of errorChain(error)) {
    const code = textOf(e, 'code');
    if (code === '57014') return 'timeout';
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)))
      return 'unreachable';
    const message = textOf(e, 'message');
    if (message && UNREACHABLE_MESSAGES.test(message)) return 'unreachable';
  }
  return undefined;
}

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  databaseConnectTimeoutMs: number;
  databaseQueryTimeoutMs: number;
}): Promise<DbHandle> {
  // Only the engine in use is loaded: node-postgres stays out of a PGlite process and PGlite out
  // of a PostgreSQL one (a few MB of heap each).
  if (options.databaseUrl) {
    const { createPool, postgresHandle } = await import('./postgres.ts');
    const pool = createPool(options.databaseUrl, {
      connectTimeoutMs: options.databaseConnectTimeoutMs,
      queryTimeoutMs: options.databaseQueryTimeoutMs,
    });
    return postgresHandle(pool);
  }
  const { openPglite } = await import('./pglite.ts');
  return openPglite(path.join(options.dataDir, 'pglite'));
}
