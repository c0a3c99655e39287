/**
 * Two instances starting at once on one empty PostgreSQL database (a deploy of two, a rolling
 * restart on a new database): one applies the migrations and creates the first administrator,
 * the other waits on the advisory lock, then finds both done. Each says its version in the start
 * line and in /api/health.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { endpoints } from '@cowork/contract';
import { migrationsFolder } from '../src/db/client.ts';
import { emptyPostgres, repo, startServer, stopAll } from './server-process.ts';

const version = (
  JSON.parse(readFileSync(path.join(repo, 'apps/server/package.json'), 'utf8')) as { version: string }
).version;
const tags = (
  JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  }
).entries.map((e) => e.tag);

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'two instances starting together (needs TEST_DATABASE_URL)',
  () => {
    // Uploads in progress would go here; nothing else of theirs is on disk.
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'cowork-startlock-'));
    afterAll(() => {
      stopAll();
      rmSync(scratch, { recursive: true, force: true });
    });

    test('migrate once, create the administrator once, both serve', async () => {
      const database = await emptyPostgres('startlock');
      const env = {
        DATABASE_URL: database.url,
        NODE_ENV: 'production',
        SECRET_KEY: 's'.repeat(40),
        DEVICE_ENROL_KEY: 'e'.repeat(40),
        ADMIN_PASSWORD: 'Change-me-2026!',
      };
      const first = await startServer({ ...env, DATA_DIR: path.join(scratch, 'a') });
      const second = await startServer({ ...env, DATA_DIR: path.join(scratch, 'b') });
      try {
        const [a, b] = await Promise.all([first.ready(), second.ready()]);
        expect(a, first.output()).toBe(true);
        expect(b, second.output()).toBe(true);
        const outputs = [first.output(), second.output()];
        // Every migration applied, each by exactly one of the two.
        for (const tag of tags)
          expect(
            outputs.filter((out) => out.includes(`"migration applied: ${tag}"`)),
            tag,
          ).toHaveLength(1);
        expect(
          outputs.filter((out) => out.includes('administrator `admin` created from ADMIN_PASSWORD')),
        ).toHaveLength(1);
        expect(
          outputs.filter((out) => out.includes('ADMIN_PASSWORD ignored: an administrator already exists')),
        ).toHaveLength(1);
        for (const [server, out] of [
          [first, outputs[0]],
          [second, outputs[1]],
        ] as const) {
          expect(out).toContain(`cowork-admin ${version} is running at http://127.0.0.1:${server.port}`);
          const health = (await (await fetch(`${server.base}${endpoints.health}`)).json()) as {
            data: { version: string };
          };
          expect(health.data.version).toBe(version);
        }
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          const applied = await client.query('select count(*)::int as n from drizzle.__drizzle_migrations');
          expect(applied.rows[0].n).toBe(tags.length);
          const admins = await client.query('select username from sso_users');
          expect(admins.rows).toEqual([{ username: 'admin' }]);
        } finally {
          await client.end();
        }
      } finally {
        await Promise.all([first.stop(), second.stop()]);
        await database.drop();
      }
    }, 240_000);
  },
);
