/**
 * Opens the database: embedded PGlite when DATABASE_URL is unset, PostgreSQL through node-postgres
 * when it is set. Both are handed out as drizzle's PgDatabase so the rest of the server does not
 * know which engine runs.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
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
  /** Applies pending migrations from apps/server/drizzle. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Arbitrary constant: one migrating instance at a time when several start on one PostgreSQL. */
const MIGRATION_LOCK_KEY = 827_314_001;

export function pgliteHandle(client: PGlite): DbHandle {
  const db = drizzlePglite({ client, schema });
  return {
    db,
    engine: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
  };
}

export function postgresHandle(pool: pg.Pool): DbHandle {
  // An idle connection the server closes (a restart, a failover, a dropped test database) is
  // dropped by the pool and replaced on the next query; unhandled, it would end the process.
  pool.on('error', (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
  pool.on('connect', prepareRepeatedStatements);
  const db = drizzlePg({ client: pool, schema });
  return {
    db,
    engine: 'postgres',
    async migrate() {
      // Migrations, and waiting for another instance's, may take long: their own connection
      // without the statement timeouts that keep requests short.
      const client = new pg.Client({
        ...pool.options,
        statement_timeout: undefined,
        query_timeout: undefined,
      });
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        await client.end();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * The name to give drizzle's `.prepare()`: none of our own, so the statement is named after its text
 * below (bounded), as every other statement is.
 */
export const BY_TEXT = '';

/** Names of statement texts, shared by the connections; bounded, as texts built with IN lists vary. */
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_MAX = 2_000;
/** Named statements one connection keeps prepared at most (each holds server memory). */
const PREPARED_PER_CONNECTION = 500;

/**
 * Statements with parameters (every query drizzle builds) run as named prepared statements, named
 * after their text: a connection has PostgreSQL parse and analyse a list's query once, then only
 * binds and runs it (a generic plan, once PostgreSQL finds it as good as planning each time), where
 * an unnamed statement is parsed and planned on every request. Statements without parameters
 * (migrations, several statements in one text) stay unnamed, as they must.
 */
function prepareRepeatedStatements(client: pg.PoolClient) {
  const prepared = new Set<string>();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, ...rest: unknown[]) => {
    const values = rest[0];
    if (
      config !== null &&
      typeof config === 'object' &&
      'text' in config &&
      typeof config.text === 'string' &&
      !('name' in config && config.name) &&
      Array.isArray(values) &&
      values.length > 0
    ) {
      let name = statementNames.get(config.text);
      if (name === undefined && statementNames.size < STATEMENT_NAMES_MAX) {
        name = `cowork_${statementNames.size}`;
        statementNames.set(config.text, name);
      }
      if (name !== undefined && (prepared.has(name) || prepared.size < PREPARED_PER_CONNECTION)) {
        prepared.add(name);
        return query({ ...config, name }, ...rest);
      }
    }
    return query(config, ...rest);
  }) as typeof client.query;
}

export interface PoolTimeouts {
  /** Opening a connection, or waiting for a free one, gives up after this many milliseconds. */
  connectTimeoutMs: number;
  /** PostgreSQL cancels a statement running longer than this many milliseconds; 0: never (batch jobs). */
  queryTimeoutMs: number;
}

/**
 * The client stops waiting for an answer this much after the server's statement_timeout: a slow
 * statement ends with PostgreSQL's own cancel (the connection stays usable), so only a link that no
 * longer answers at all (a silently dropped connection) reaches the client-side timeout.
 */
const READ_TIMEOUT_MARGIN_MS = 250;
const READ_TIMEOUT_MESSAGE = 'Query read timeout';

/**
 * A node-postgres pool whose every wait is bounded, so a database outage fails requests within
 * about two seconds (answered 503) instead of hanging them, and the pool recovers by itself.
 */
export function createPool(connectionString: string, timeouts: PoolTimeouts, max = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    ...(timeouts.queryTimeoutMs > 0 && {
      statement_timeout: timeouts.queryTimeoutMs,
      query_timeout: timeouts.queryTimeoutMs + READ_TIMEOUT_MARGIN_MS,
    }),
    // Lets the operating system notice idle connections to a vanished server.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  pool.on('connect', endOnReadTimeout);
  return pool;
}

/**
 * node-postgres answers a query that outlives query_timeout with an error but keeps the connection,
 * still waiting for the answer: on a dead link every later query on it (a transaction's rollback,
 * the next request handed this client) would hang as well. Ending it makes the pool open a new one.
 */
function endOnReadTimeout(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const endIfTimedOut = (error: unknown) => {
    if (error instanceof Error && error.message === READ_TIMEOUT_MESSAGE)
      void client.end().catch(() => undefined);
  };
  client.query = ((...args: unknown[]) => {
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (error: unknown, result: unknown) => {
        endIfTimedOut(error);
        (callback as (e: unknown, r: unknown) => void)(error, result);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) result.catch(endIfTimedOut);
    return result;
  }) as typeof client.query;
}

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
  if (options.databaseUrl) {
    const pool = createPool(options.databaseUrl, {
      connectTimeoutMs: options.databaseConnectTimeoutMs,
      queryTimeoutMs: options.databaseQueryTimeoutMs,
    });
    return postgresHandle(pool);
  }
  const dir = path.join(options.dataDir, 'pglite');
  await fs.mkdir(dir, { recursive: true });
  return pgliteHandle(await PGlite.create(dir, { postgresqlconf: PGLITE_SETTINGS }));
}

/**
 * PGlite runs inside this process and reads its files through the operating system's cache: its
 * own buffer pool need not be PostgreSQL's 128 MB default, which would sit in the process's memory
 * for good (16 MB saves about 120 MB of RSS; the WASM heap itself starts at 128 MB).
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB'];
