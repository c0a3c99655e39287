/**
 * The embedded database (DATABASE_URL unset): PGlite, PostgreSQL compiled to WebAssembly, in this
 * process, its files under DATA_DIR. db/client.ts loads it only when DATABASE_URL is unset.
 */
import fs from 'node:fs/promises';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrateNamed, migrationsFolder, type DbHandle } from './client.ts';
import { queryObservation, timed } from './observe.ts';
import * as schema from './schema.ts';

export function pgliteHandle(client: PGlite): DbHandle {
  const observation = observeStatements(client);
  const db = drizzlePglite({ client, schema });
  observation.attach(db);
  const migrate = () => migrateNamed(db, () => migratePglite(db, { migrationsFolder }));
  return {
    db,
    engine: 'pglite',
    migrate,
    // One process holds a PGlite data directory (db/pglite-control.ts): no other instance to wait for.
    startUp: async (prepare) => ({ migrations: await migrate(), prepared: await prepare() }),
    // PGlite runs one transaction at a time and every statement of the server goes through one; inside
    // this one (read-only, no transaction id) nothing else runs. The checkpoint writes every change to
    // the files, so the copy opens without replaying the log.
    snapshot: () =>
      client.transaction(async (tx) => {
        await tx.exec('CHECKPOINT');
        return client.dumpDataDir('none');
      }),
    close: () => client.close(),
  };
}

export async function openPglite(dir: string): Promise<DbHandle> {
  await fs.mkdir(dir, { recursive: true });
  return pgliteHandle(await PGlite.create(dir, { postgresqlconf: PGLITE_SETTINGS }));
}

/**
 * PGlite runs inside this process and reads its files through the operating system's cache: its
 * own buffer pool need not be PostgreSQL's 128 MB default, which would sit in the process's memory
 * for good. 16 MB measured about 120 MB of RSS below the default; 8 MB saves 9 MB more, with the
 * order list's throughput measured the same. The WASM heap itself starts at 128 MB, touched as used.
 */
const PGLITE_SETTINGS = ['shared_buffers=8MB'];

/**
 * Times every statement drizzle sends (all pass through `query`, a transaction's through its own).
 * PGlite is one connection that a statement or a whole transaction holds while the others queue:
 * its "pool" is that one connection, in use while any runs, the rest waiting; a statement's time
 * includes its wait.
 */
function observeStatements(client: PGlite) {
  let running = 0;
  const observation = queryObservation(() => ({
    open: 1,
    inUse: Math.min(running, 1),
    waiting: Math.max(running - 1, 0),
    max: 1,
  }));
  const holding = async <T>(run: () => Promise<T>) => {
    running += 1;
    try {
      return await run();
    } finally {
      running -= 1;
    }
  };
  const timedQuery =
    (query: PGlite['query']): PGlite['query'] =>
    <T>(text: string, params?: unknown[], options?: QueryOptions) =>
      timed(observation.start(), () => query<T>(text, params, options));
  const query = timedQuery(client.query.bind(client));
  const transaction = client.transaction.bind(client);
  client.query = (text, params, options) => holding(() => query(text, params, options));
  client.transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    holding(() =>
      transaction((tx) => {
        tx.query = timedQuery(tx.query.bind(tx));
        return callback(tx);
      }),
    );
  return observation;
}
