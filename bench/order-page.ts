/**
 * Requests per second and p99 of `user-card-order/page` with 1 000 000 orders in PostgreSQL, for
 * (a) a member-phone filter and (b) a 30-day date range, against a bare node-postgres HTTP handler
 * running the very same SQL (captured from the pool while our endpoint answers once), both loaded
 * by autocannon in the same run. The ratio is what authentication, validation, the ORM and the
 * envelope cost on a large table.
 *
 * Needs PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL): it makes a throw-away database,
 * migrates it, loads the demo without orders, adds 20 000 members and BENCH_ORDERS orders
 * (default 1 000 000) with one INSERT … SELECT generate_series, analyzes, measures and drops it.
 * The bulk rows look real (every kind, products and buildings of the demo, phones spread over the
 * members, dates over a year, statuses with their times) but skip the timeline events and booking
 * overlap rules the list does not read.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { dashboardEndpoints } from '@cowork/contract/resources/dashboard';
import { orderPaths, userCardOrder } from '@cowork/contract/resources/order';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { postgresHandle } from '../apps/server/src/db/postgres.ts';
import { seedDemo } from '../apps/server/src/seed/demo.ts';
import { summarise, type BenchResult } from './results.ts';
import { fixedHeadersOf, signInAdmin, throwAwayDatabase } from './server.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const MEMBERS = 20_000;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 20;
/** Both sides get a pool of this size. */
const POOL_SIZE = 10;
const DAY = 86_400_000;
const ROUNDS = 3;
/** Sequential requests per latency round; the deep page skips this many pages of 10. */
const SEQUENTIAL_REQUESTS = 100;
const DEEP_PAGE = 1000;

export interface Load {
  rps: number;
  p99: number;
}
export interface Scenario {
  name: string;
  query: string;
  total: number;
  rounds: { bare: Load; ours: Load }[];
}
export interface Latencies {
  /** p95 of each round of sequential requests, in ms. */
  p95s: number[];
}
export type OrderPageResult =
  | { skipped: string }
  | {
      orders: number;
      loadSeconds: number;
      scenarios: Scenario[];
      sql: string[];
      deep: Latencies;
      summary: Latencies;
      results: BenchResult[];
    };

const ratiosOf = (scenario: Scenario) => scenario.rounds.map((r) => r.ours.rps / r.bare.rps);

/** Rounds of sequential requests (one at a time: the latency of one request, not of a queue). */
async function latencies(url: string, headers: Record<string, string>): Promise<Latencies> {
  const p95s: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const times: number[] = [];
    for (let i = 0; i < SEQUENTIAL_REQUESTS; i++) {
      const started = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    p95s.push(times[Math.ceil(times.length * 0.95) - 1]);
  }
  return { p95s };
}

async function load(url: string, headers: Record<string, string> = {}): Promise<Load> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_SECONDS });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/** The bulk orders: every kind in the demo's proportions, from the demo's own products. */
async function fillOrders(db: ReturnType<typeof postgresHandle>['db']) {
  await db.execute(sql`
    insert into members (phone, nickname, registered_at)
    select '166' || lpad(n::text, 8, '0'), '压测会员' || n, now() - (n % 700) * interval '1 day'
    from generate_series(1, ${MEMBERS}) as n`);
  // Products of every kind as sold (name, price, building), numbered within their kind.
  await db.execute(sql`
    create temp table bench_products as
    select kind, row_number() over (partition by kind order by id) - 1 as k, id, building_id,
           name, price_fen, face_value_fen, valid_days
    from (
      select 'user-card' as kind, id, building_ids[1] as building_id, name, price_fen,
             null::int as face_value_fen, valid_days from user_cards where published
      union all select 'team-card', id, building_ids[1], name, price_fen, face_value_fen, valid_days
        from team_cards where published
      union all select 'office-seat', id, building_id, name, month_price_fen, null, null
        from office_seats where published and month_price_fen is not null
      union all select 'hall-seat', id, building_id, name, coalesce(day_price_fen, month_price_fen), null, null
        from hall_seats where published
      union all select 'office-station', id, building_id, name, hour_price_fen * 2, null, null
        from office_stations where published
      union all select 'activity-station', id, building_id, name, hour_price_fen * 4, null, null
        from activity_stations where published
      union all select 'airport', id, null, lounge_name, price_fen, null, null
        from airport_products where published and price_fen > 0
    ) p`);
  await db.execute(sql`
    create temp table bench_kinds as
    select kind, count(*) as products from bench_products group by kind`);
  await db.execute(sql`
    create temp table bench_members as
    select row_number() over (order by id) - 1 as k, id, phone from members where phone like '166%'`);
  // One statement: n picks the kind (demo proportions), product, member, time and status.
  await db.execute(sql`
    insert into orders (id, kind, order_no, member_id, member_phone, product_id, product_snapshot,
                        building_id, quantity, amount_fen, discount_fen, paid_fen, pay_method, status,
                        paid_at, used_at, cancelled_at, refunded_at, start_at, end_at, card_no,
                        valid_from, valid_to, balance_fen, created_at, updated_at)
    select o.id, o.kind,
           o.prefix || to_char(o.created_at at time zone 'Asia/Shanghai', 'YYYYMMDD') || lpad(o.id::text, 6, '0'),
           m.id, m.phone, p.id,
           jsonb_build_object('name', p.name, 'priceFen', p.price_fen, 'buildingName', b.name),
           p.building_id, 1, p.price_fen, o.discount, case when o.paid then p.price_fen - o.discount else 0 end,
           case when o.paid then (array['wechat','wechat','alipay','offline'])[1 + o.n % 4] end, o.status,
           case when o.paid then o.created_at + interval '5 minutes' end,
           case when o.status = 'used' then o.created_at + interval '1 day' end,
           case when o.status = 'cancelled' then o.created_at + interval '30 minutes' end,
           case when o.status = 'refunded' then o.created_at + interval '2 hours' end,
           case when o.booking then date_trunc('hour', o.created_at) + interval '1 day' end,
           case when o.booking then date_trunc('hour', o.created_at) + interval '1 day 2 hours' end,
           case when o.card and o.paid then 'K' || o.prefix || lpad(o.id::text, 10, '0') end,
           case when o.card and o.paid then o.created_at + interval '5 minutes' end,
           case when o.card and o.paid then o.created_at + coalesce(p.valid_days, 30) * interval '1 day' end,
           case when o.kind = 'team-card' and o.paid then p.face_value_fen end,
           o.created_at, o.created_at + interval '5 minutes'
    from (
      select nextval(pg_get_serial_sequence('orders', 'id')) as id, s.*,
             s.kind in ('user-card', 'team-card') as card,
             s.kind in ('office-seat', 'hall-seat', 'office-station', 'activity-station') as booking,
             s.status in ('paid', 'used', 'refunded') as paid
      from (
        select n, kind, prefix, (hashint4(n)::bigint + 2147483648) % ${MEMBERS} as member_k,
               now() - ((n::bigint * 104729) % 31536000) * interval '1 second' as created_at,
               (array['used','used','used','paid','paid','cancelled','refunded'])[1 + (n / 7) % 7] as status,
               case when n % 6 = 0 then 1000 else 0 end as discount
        from generate_series(1, ${ORDERS}) as n
        cross join lateral (
          select (array['user-card','user-card','user-card','user-card','team-card','team-card','office-seat',
                        'office-seat','office-seat','hall-seat','hall-seat','office-station','office-station',
                        'office-station','office-station','office-station','activity-station','airport',
                        'airport','airport'])[1 + n % 20] as kind) k
        cross join lateral (
          select (array['UC','TC','OS','HS','MR','AV','AP'])[array_position(
            array['user-card','team-card','office-seat','hall-seat','office-station','activity-station','airport'],
            k.kind)] as prefix) x
      ) s
    ) o
    join bench_kinds bk on bk.kind = o.kind
    join bench_products p on p.kind = o.kind and p.k = o.n % bk.products
    join bench_members m on m.k = o.member_k
    left join buildings b on b.id = p.building_id`);
}

/**
 * A plain HTTP server answering every request with the captured queries' rows, as JSON, and the
 * same fixed headers as our answer (the security headers are bytes of the answer, not work).
 */
async function bareServer(
  pool: pg.Pool,
  queries: { text: string; values: unknown[] }[],
  headers: Record<string, string>,
) {
  const server: Server = createServer((_request, response) => {
    (async () => {
      const results = [];
      for (const q of queries) results.push((await pool.query(q.text, q.values)).rows);
      const body = JSON.stringify({ code: 200, msg: 'ok', data: { total: results[0], records: results[1] } });
      response.writeHead(200, headers).end(body);
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function orderPageBench(): Promise<OrderPageResult> {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    return {
      skipped:
        'needs PostgreSQL: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a server where a database may be created',
    };
  }
  const database = await throwAwayDatabase(baseUrl);

  const pool = new pg.Pool({ connectionString: database.url, max: POOL_SIZE });
  const barePool = new pg.Pool({ connectionString: database.url, max: POOL_SIZE });
  // Dropping the database at the end closes its idle connections: not a crash.
  barePool.on('error', () => undefined);
  const handle = postgresHandle(pool);
  try {
    await handle.migrate();
    const demoOrders = process.env.DEMO_ORDERS;
    process.env.DEMO_ORDERS = '0';
    await seedDemo(handle.db);
    if (demoOrders === undefined) delete process.env.DEMO_ORDERS;
    else process.env.DEMO_ORDERS = demoOrders;
    const loadStarted = performance.now();
    await fillOrders(handle.db);
    await handle.db.execute(sql`vacuum analyze orders`);
    await handle.db.execute(sql`analyze members`);
    const loadSeconds = (performance.now() - loadStarted) / 1000;

    // The broker on a free port, as in server.ts: 1883 may be Mosquitto's.
    const config = {
      ...loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/cowork-bench' }),
      webDist: '/nonexistent',
      mqttPort: 0,
    };
    const app = await buildApp({ config, db: handle.db, logger: false, checkResponses: false });
    const ours = await app.listen({ port: 0, host: '127.0.0.1' });
    const headers = await signInAdmin(ours);

    // The member with the median number of member-card orders, and the last 30 Shanghai days.
    const phone = (
      (await handle.db.execute(sql`
        with c as (
          select member_phone, count(*) as n from orders where kind = 'user-card' group by member_phone)
        select member_phone from c order by n, member_phone offset (select count(*) / 2 from c) limit 1`)) as unknown as {
        rows: { member_phone: string }[];
      }
    ).rows[0].member_phone;
    const day = (at: number) => new Date(at + 8 * 3_600_000).toISOString().slice(0, 10);
    const scenarios = [
      { name: 'phone filter', query: `memberPhone=${phone}` },
      {
        name: 'date range (30 days)',
        query: `createdAtFrom=${day(Date.now() - 29 * DAY)}&createdAtTo=${day(Date.now())}`,
      },
    ];

    // The SQL our endpoint sends for each scenario, read off the pool while it answers once
    // (before any load, so no other request's queries mix in).
    const captures = [];
    for (const scenario of scenarios) {
      const path = `${orderPaths(userCardOrder).page}?current=1&size=10&${scenario.query}`;
      const queries: { text: string; values: unknown[] }[] = [];
      const query = pool.query.bind(pool);
      pool.query = ((config: unknown, values?: unknown) => {
        // drizzle passes { text, rowMode, types } and the values as the second argument.
        const text = typeof config === 'string' ? config : (config as { text: string }).text;
        const params = (values ?? (config as { values?: unknown[] }).values ?? []) as unknown[];
        if (/"orders"/.test(text)) queries.push({ text, values: params });
        return query(config as string, values as unknown[]);
      }) as typeof pool.query;
      const answer = await fetch(`${ours}${path}`, { headers });
      pool.query = query;
      if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
      const { data } = (await answer.json()) as { data: { total: number } };
      // The page, and the count when the page is full (a partial page ends the list).
      if (queries.length < 1 || queries.length > 2)
        throw new Error(`expected a page query and at most a count, got ${queries.length}`);
      captures.push({ ...scenario, path, queries, fixedHeaders: fixedHeadersOf(answer), total: data.total });
    }

    const results: Scenario[] = [];
    const settle = () => new Promise((resolve) => setTimeout(resolve, 1000));
    for (const { path, queries, fixedHeaders, ...scenario } of captures) {
      const bare = await bareServer(barePool, queries, fixedHeaders);
      // Warm both up, then measure them one after the other, round after round, in the same run,
      // letting the requests still queued from one run finish before the next.
      await load(bare.url);
      await settle();
      await load(`${ours}${path}`, headers);
      await settle();
      const rounds = [];
      for (let i = 0; i < ROUNDS; i++) {
        const reference = await load(bare.url);
        await settle();
        const measured = await load(`${ours}${path}`, headers);
        await settle();
        rounds.push({ bare: reference, ours: measured });
      }
      await bare.close();
      results.push({ ...scenario, rounds });
    }
    const deepPath = `${orderPaths(userCardOrder).page}?current=${DEEP_PAGE}&size=10`;
    const deep = await latencies(`${ours}${deepPath}`, headers);
    const summary = await latencies(`${ours}${dashboardEndpoints.summary}`, headers);
    const sqlText = captures.flatMap((c) =>
      c.queries.map((q) => `${q.text}   -- ${JSON.stringify(q.values)}`),
    );
    await app.close();
    return {
      orders: ORDERS,
      loadSeconds,
      scenarios: results,
      sql: sqlText,
      deep,
      summary,
      results: [
        summarise('order-page.phone.ratio', 'ratio', ratiosOf(results[0])),
        summarise('order-page.date.ratio', 'ratio', ratiosOf(results[1])),
        summarise('order-page.deep.p95-ms', 'ms', deep.p95s),
        summarise('dashboard.summary.p95-ms', 'ms', summary.p95s),
      ],
    };
  } finally {
    await handle.close().catch(() => undefined);
    await barePool.end().catch(() => undefined);
    await database.drop();
  }
}
