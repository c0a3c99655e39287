/**
 * `npm run seed:demo -- --orders N`: demo orders at scale, on the database `npm start` uses
 * (DATABASE_URL, else the embedded PGlite under DATA_DIR). It migrates; an empty database gets the
 * whole demo with N orders; a database already holding demo data gets N more orders (and members,
 * one per hundred orders), their bookings in the time rooms still have free. Run twice, it adds
 * twice. Never in production.
 */
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { orders } from '../db/schema.ts';
import { addDemoOrders, DEFAULT_DEMO_ORDERS, demoOrderProgress } from '../modules/order/demo.ts';
import { isDatabaseEmpty, seedDemo } from './demo.ts';

const usage = `Usage: npm run seed:demo -- [--orders N]

Adds N demo orders (default ${DEFAULT_DEMO_ORDERS}) to the database npm start uses (DATABASE_URL, else
the embedded database under DATA_DIR). An empty database first gets the rest of the demo data.`;

function ordersWanted(): number {
  const { values } = parseArgs({
    options: { orders: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const raw = values.orders ?? String(DEFAULT_DEMO_ORDERS);
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new ConfigError(`--orders must be a whole number of orders, 1 or more (got "${raw}")\n\n${usage}`);
  }
  return Number(raw);
}

/** Prints how far the inserts are, every tenth of the way. */
function progressPrinter(started: number) {
  let shown = -1;
  return (done: number, total: number) => {
    const tenth = Math.floor((done / total) * 10);
    if (tenth === shown) return;
    shown = tenth;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`  ${String(done).padStart(String(total).length)} / ${total} orders written  (${seconds} s)`);
  };
}

async function main() {
  const count = ordersWanted();
  const config = loadConfig();
  if (config.nodeEnv === 'production') {
    throw new ConfigError(
      'seed:demo never writes demo data into a production database (NODE_ENV=production)',
    );
  }
  const started = performance.now();
  // A batch job: writing and analysing many orders may take longer than a request's statement.
  const handle = await openDatabase({ ...config, databaseQueryTimeoutMs: 0 });
  try {
    console.log(
      `Database: ${handle.engine === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
    );
    await handle.migrate();
    const report = progressPrinter(started);
    if (await isDatabaseEmpty(handle.db)) {
      console.log(`Empty database: loading the demo data with ${count} orders…`);
      process.env.DEMO_ORDERS = String(count);
      demoOrderProgress.report = report;
      await seedDemo(handle.db);
    } else {
      const [{ existing }] = await handle.db.select({ existing: sql<number>`count(*)::int` }).from(orders);
      console.log(`The database holds ${existing} orders: adding ${count} more…`);
      const added = await handle.db.transaction((tx) =>
        // Seeded by what is there, so a second run adds different orders, not a copy of the first.
        addDemoOrders(tx, { count, seed: existing + count, onProgress: report }),
      );
      if (added.orders === 0) {
        console.log('Nothing added: the database has no members or products to make orders of.');
      } else {
        const kinds = Object.entries(added.byKind).map(([kind, n]) => `${kind} ${n}`);
        console.log(
          `Added ${added.orders} orders (${kinds.join(', ')}) and ${added.events} timeline events.`,
        );
      }
    }
    // Fresh statistics, so the lists plan their queries for the new size at once.
    await handle.db.execute(sql`analyze orders, order_events, members`);
    const [{ total }] = await handle.db.select({ total: sql<number>`count(*)::int` }).from(orders);
    console.log(
      `Done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${total} orders in the database.`,
    );
  } finally {
    await handle.close();
  }
}

main().catch((err: unknown) => {
  console.error(`seed:demo failed: ${err instanceof ConfigError ? err.message : String(err)}`);
  if (!(err instanceof ConfigError)) console.error(err);
  process.exit(1);
});
