/**
 * Opens the database: embedded PGlite when DATABASE_URL is unset, PostgreSQL through node-postgres
 * when it is set. Both are handed out as drizzle's PgDatabase so the rest of the server does not
 * know which engine runs.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

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
  const db = drizzlePg({ client: pool, schema });
  return {
    db,
    engine: 'postgres',
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<DbHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    return postgresHandle(pool);
  }
  const dir = path.join(options.dataDir, 'pglite');
  await fs.mkdir(dir, { recursive: true });
  return pgliteHandle(await PGlite.create(dir));
}
