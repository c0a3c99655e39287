/**
 * The API suite's seeded templates (see helper.ts): a PostgreSQL database and a PGlite dump per
 * demo variant, named after the run (COWORK_TEST_RUN, set in vitest.config.ts). This file drops
 * this run's templates once every file has run, and those an interrupted run left behind.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** PostgreSQL template databases are named `${TEMPLATE_DB_PREFIX}${run}_…`. */
export const TEMPLATE_DB_PREFIX = 'cowork_tpl_';
/** PGlite template dumps are temp files named `${TEMPLATE_FILE_PREFIX}${run}-….tar`. */
export const TEMPLATE_FILE_PREFIX = 'cowork-pglite-seeded-';
/** Other runs may share the server (and be running now): only templates of runs this old are stale. */
const STALE_MS = 2 * 3600_000;

/** Drops the templates of runs for which `drop(run)` holds. */
async function dropTemplates(drop: (run: number) => boolean) {
  const runOf = (name: string, prefix: string) => Number(name.slice(prefix.length).split(/[-_]/)[0]);
  for (const file of await fs.readdir(os.tmpdir())) {
    if (file.startsWith(TEMPLATE_FILE_PREFIX) && drop(runOf(file, TEMPLATE_FILE_PREFIX)))
      await fs.rm(path.join(os.tmpdir(), file), { force: true });
  }
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) return;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1)',
      [TEMPLATE_DB_PREFIX],
    );
    for (const { datname } of rows)
      if (drop(runOf(datname, TEMPLATE_DB_PREFIX)))
        await admin.query(`drop database if exists ${datname} with (force)`);
  } finally {
    await admin.end();
  }
}

export async function setup() {
  const run = Number(process.env.COWORK_TEST_RUN);
  await dropTemplates((r) => r < Date.now() - STALE_MS);
  return () => dropTemplates((r) => r === run);
}
