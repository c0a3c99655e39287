/**
 * The batched updates of device rows (hellos, acks, heartbeats, last seen) may deadlock with one
 * another on PostgreSQL, which then aborts one of them. The bench of a 1 000-device firmware rollout
 * lost a hello's claim that way: four devices were never synced. `retryingDeadlocks` runs the
 * aborted statement again. Here a real deadlock is made with a second connection; only on
 * PostgreSQL (PGlite runs one statement at a time and cannot deadlock).
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { retryingDeadlocks, rowsOf, type DbHandle } from '../src/db/client.ts';
import { engine, openTestDatabase } from './helper.ts';

describe.skipIf(engine !== 'postgres')('a statement PostgreSQL aborts to break a deadlock', () => {
  let handle: DbHandle;
  let other: pg.Client;

  beforeAll(async () => {
    handle = await openTestDatabase();
    await handle.db.execute(sql`create table deadlock_rows (id int primary key, v int not null)`);
    const [{ name }] = await rowsOf<{ name: string }>(handle.db, sql`select current_database() as name`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    other = new pg.Client({ connectionString: url.toString() });
    await other.connect();
    // The other side checks for a deadlock much later: the batched statement is the one aborted.
    await other.query(`set deadlock_timeout = '20s'`);
  });

  afterAll(async () => {
    await other?.end();
    await handle?.close();
  });

  /** Until the batch has row 1 and waits for row 2. */
  async function waitingForRow2() {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const { rows } = await other.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
      );
      if (rows[0].n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the batch never waited for row 2');
  }

  /** Row 2 held by the other connection, which then waits for row 1 while the batch holds it. */
  async function deadlocked(batch: () => Promise<unknown>) {
    await handle.db.execute(sql`delete from deadlock_rows`);
    await handle.db.execute(sql`insert into deadlock_rows values (1, 0), (2, 0)`);
    await other.query('begin');
    await other.query('update deadlock_rows set v = v + 1 where id = 2');
    const batched = batch();
    await waitingForRow2();
    // Done as soon as it has row 1, so that a batch run again can then have both.
    const crossing = other
      .query('update deadlock_rows set v = v + 1 where id = 1')
      .then(() => other.query('commit'));
    const outcome = await batched.then(
      () => 'written',
      (error: unknown) => error,
    );
    await crossing;
    return outcome;
  }

  // Row 1, then row 2 (locked in this order whatever the plan), as a batch of two devices would.
  // Sent at once (drizzle sends a query only when it is awaited).
  const update = async () =>
    await handle.db.execute(
      sql`with locked as (select id from deadlock_rows order by id for update)
        update deadlock_rows d set v = d.v + 10 from locked where d.id = locked.id`,
    );

  test('without a retry it fails with the deadlock', async () => {
    const outcome = await deadlocked(update);
    expect(outcome).toBeInstanceOf(Error);
  });

  test('run again, it is written once the other transaction is done', async () => {
    const outcome = await deadlocked(() => retryingDeadlocks(update));
    expect(outcome).toBe('written');
    const rows = await rowsOf<{ id: number; v: number }>(
      handle.db,
      sql`select id, v from deadlock_rows order by id`,
    );
    expect(rows).toEqual([
      { id: 1, v: 11 },
      { id: 2, v: 11 },
    ]);
  });
});
