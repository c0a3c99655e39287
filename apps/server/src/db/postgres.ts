/**
 * PostgreSQL through node-postgres (DATABASE_URL): a pool whose every wait is bounded, statements
 * prepared by their text, and migrations (with the start's data preparation) under an advisory lock.
 * db/client.ts loads it only when DATABASE_URL is set.
 */
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrateNamed, migrationsFolder, type DbHandle } from './client.ts';
import { queryObservation } from './observe.ts';
import * as schema from './schema.ts';

/** Arbitrary constant: one instance migrating at a time when several start on one PostgreSQL. */
const MIGRATION_LOCK_KEY = 827_314_001;

export function postgresHandle(pool: pg.Pool): DbHandle {
  // An idle connection the server closes (a restart, a failover, a dropped test database) is
  // dropped by the pool and replaced on the next query; unhandled, it would end the process.
  pool.on('error', (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
  pool.on('connect', prepareRepeatedStatements);
  // Every statement passes through a pooled connection's query: timed there (db/observe.ts).
  const observation = queryObservation(() => ({
    open: pool.totalCount,
    inUse: pool.totalCount - pool.idleCount,
    waiting: pool.waitingCount,
    max: pool.options.max,
  }));
  pool.on('connect', (client) =>
    watchQueries(client, () => {
      const end = observation.start();
      return (error) => end(error !== undefined);
    }),
  );
  const db = drizzlePg({ client: pool, schema });
  observation.attach(db);
  /**
   * Runs `run` holding the migration lock, on a connection of its own without the statement
   * timeouts that keep requests short: migrations, and waiting for another instance's, may take long.
   */
  async function underMigrationLock<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ ...pool.options, statement_timeout: undefined, query_timeout: undefined });
    await client.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      return await run(client);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      await client.end();
    }
  }
  // Read under the lock: another instance may have applied some while this one waited.
  const migrateOn = (client: pg.Client) => {
    const migrating = drizzlePg({ client, schema });
    return migrateNamed(migrating, () => migratePg(migrating, { migrationsFolder }));
  };
  return {
    db,
    engine: 'postgres',
    migrate: () => underMigrationLock(migrateOn),
    // The preparation runs on the pool while the lock's connection waits: the next instance starts
    // once the first administrator (or the demo) is there, and finds it.
    startUp: (prepare) =>
      underMigrationLock(async (client) => ({
        migrations: await migrateOn(client),
        prepared: await prepare(),
      })),
    close: () => pool.end(),
  };
}

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
  interceptQueries(client, (query, [config, ...rest]) => {
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
  });
}

/**
 * Puts `intercept` in front of the client's `query`: it gets the original (bound to the client) and
 * the arguments, and answers in its place. node-postgres's `query` has many overloads; the two
 * interceptors below read their arguments as unknown and pass them on unchanged.
 */
function interceptQueries(
  client: pg.PoolClient,
  intercept: (query: (...args: unknown[]) => unknown, args: unknown[]) => unknown,
) {
  const original: unknown = Reflect.get(client, 'query');
  if (typeof original !== 'function') return;
  const query = (...args: unknown[]): unknown => Reflect.apply(original, client, args);
  Reflect.set(client, 'query', (...args: unknown[]) => intercept(query, args));
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
  pool.on('connect', dropBrokenConnections);
  return pool;
}

/**
 * Calls `begin` with the text of each query of the client as it is sent, and the function it answers
 * once the query ends, with its error (undefined when it succeeded). Queries answered by a callback
 * and by a promise alike; a submittable (a cursor) is passed on untold.
 */
function watchQueries(client: pg.PoolClient, begin: (text: string) => (error: unknown) => void) {
  interceptQueries(client, (query, args) => {
    const [config] = args;
    const text =
      typeof config === 'string'
        ? config
        : config !== null && typeof config === 'object' && 'text' in config
          ? String(config.text)
          : '';
    const end = begin(text);
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (error: unknown, result: unknown) => {
        end(error || undefined);
        callback(error, result);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise)
      result.then(
        () => end(undefined),
        (error: unknown) => end(error ?? new Error('query failed')),
      );
    return result;
  });
}

/** Calls `onError` with the text and error of each query of the client that fails. */
function onQueryError(client: pg.PoolClient, onError: (text: string, error: unknown) => void) {
  watchQueries(client, (text) => (error) => {
    if (error) onError(text, error);
  });
}

/**
 * node-postgres answers a query that outlives query_timeout with an error but keeps the connection,
 * still waiting for the answer: on a dead link every later query on it (a transaction's rollback,
 * the next request handed this client) would hang as well. Ending it makes the pool open a new one.
 *
 * drizzle (0.45) sends a transaction's BEGIN before its try/finally that hands the connection back:
 * a BEGIN that fails (a dropped link) would keep the connection checked out for ever, the pool one
 * smaller and its end() waiting. It is handed back here instead, and dropped as broken.
 */
function dropBrokenConnections(client: pg.PoolClient) {
  onQueryError(client, (text, error) => {
    if (error instanceof Error && error.message === READ_TIMEOUT_MESSAGE)
      void client.end().catch(() => undefined);
    if (/^\s*begin\b/i.test(text)) client.release(error instanceof Error ? error : true);
  });
}
