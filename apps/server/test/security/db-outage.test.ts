/**
 * Point 10: a silently dropped database link. The app's pool goes through a TCP proxy this test
 * starts; "cutting" it stops forwarding and answering without closing any socket (a black hole, as
 * when a firewall or a failed-over address drops packets). Requests and /api/ready must answer 503
 * with the Chinese message instead of hanging, and the app must recover by itself once the link is
 * back. Only on PostgreSQL: PGlite runs inside the process, so there is no link to cut; the mapping of
 * each driver failure to the 503 is checked on both engines with a database that fails every query.
 */
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { endpoints, messages } from '@cowork/contract';
import { source } from '@cowork/contract/resources/source';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database, DbHandle } from '../../src/db/client.ts';
import { createPool, postgresHandle } from '../../src/db/postgres.ts';
import { seedDemo } from '../../src/seed/demo.ts';
import { basicAuth, demo, engine, openTestDatabase, testConfig } from '../helper.ts';

/**
 * A TCP proxy to `target` whose link can be cut (bytes dropped both ways, sockets left open), at
 * once or when the app next sends given bytes (to cut in the middle of a transaction).
 */
async function startProxy(target: { host: string; port: number }) {
  let cut = false;
  let tripwire: string | undefined;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A reset from either side must not end the test process.
    socket.on('error', () => undefined);
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    track(client);
    track(upstream);
    client.on('data', (chunk: Buffer) => {
      if (tripwire && chunk.includes(tripwire)) [cut, tripwire] = [true, undefined];
      if (!cut) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => void (cut || client.write(chunk)));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () => void (cut = true),
    cutWhenSent: (text: string) => void (tripwire = text),
    restore: () => void (cut = false),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A database whose every query fails with `failure()`, as the driver fails during an outage. */
function failingDatabase(failure: () => Error): Database {
  const chain: object = new Proxy(() => undefined, {
    get: (_target, prop) =>
      prop === 'then' ? (_resolve: unknown, reject: (e: Error) => void) => reject(failure()) : chain,
    apply: () => chain,
  });
  return chain as Database;
}

// Runs on both engines: how each driver failure is answered, without a real outage.
describe('driver failures of an outage are a 503 in Chinese, not a 500', () => {
  const cases: [string, Error, string][] = [
    ['pool wait', new Error('timeout exceeded when trying to connect'), messages.databaseUnavailable],
    ['dead link', new Error('Query read timeout'), messages.databaseUnavailable],
    [
      'refused',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      messages.databaseUnavailable,
    ],
    [
      'shutting down',
      Object.assign(new Error('terminating connection'), { code: '57P01' }),
      messages.databaseUnavailable,
    ],
    [
      'statement timeout, wrapped by drizzle',
      new Error('Failed query', {
        cause: Object.assign(new Error('canceling statement'), { code: '57014' }),
      }),
      messages.databaseTimeout,
    ],
  ];
  let failure = new Error('not set');
  let app: App;
  beforeAll(async () => {
    app = await buildApp({ config: testConfig(), db: failingDatabase(() => failure), logger: false });
  });
  afterAll(async () => {
    await app?.close();
  });

  test.each(cases)('%s', async (_name, error, msg) => {
    failure = error;
    for (const res of [
      await app.inject({ url: endpoints.ready }),
      await app.inject({ url: `${source.base}/page`, headers: { authorization: 'Bearer some-token' } }),
    ]) {
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: 503, msg, data: null });
    }
  });

  test('a bug is still a 500', async () => {
    failure = new Error('boom');
    const res = await app.inject({ url: `${source.base}/page`, headers: { authorization: 'Bearer x' } });
    expect(res.statusCode).toBe(500);
  });
});

/** Small, so that connections lost for good would exhaust it within a few calls. */
const POOL_SIZE = 4;

describe.skipIf(engine !== 'postgres')('a silently dropped database link', () => {
  let base: DbHandle;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let handle: DbHandle;
  let app: App;
  let authorization: string;

  beforeAll(async () => {
    base = await openTestDatabase();
    await seedDemo(base.db, { withRows: false });
    const { rows } = (await base.db.execute(sql`select current_database() as name`)) as unknown as {
      rows: { name: string }[];
    };
    const url = new URL(process.env.TEST_DATABASE_URL!);
    proxy = await startProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    url.pathname = `/${rows[0].name}`;
    // The production defaults, which must be short enough to answer an outage within about 2 s.
    const defaults = loadConfig({});
    handle = postgresHandle(
      createPool(
        url.toString(),
        {
          connectTimeoutMs: defaults.databaseConnectTimeoutMs,
          queryTimeoutMs: defaults.databaseQueryTimeoutMs,
        },
        POOL_SIZE,
      ),
    );
    app = await buildApp({ config: testConfig(), db: handle.db, logger: false });
    const res = await app.inject({
      method: 'POST',
      url: endpoints.token,
      headers: { authorization: basicAuth },
      payload: { grant_type: 'password', username: demo.admin[0], password: demo.admin[1] },
    });
    authorization = `Bearer ${res.json().access_token}`;
  });

  afterAll(async () => {
    await app?.close();
    await handle?.close();
    await proxy?.close();
    await base?.close();
  });

  // More calls than the pool has connections (waiting for a free one is bounded too), and creates,
  // whose transactions must not hand a connection stuck on the dead link back to the pool.
  let created = 0;
  const calls = () => [
    app.inject({ url: endpoints.ready }),
    ...Array.from({ length: 9 }, () =>
      app.inject({ url: `${source.base}/page?current=1&size=10`, headers: { authorization } }),
    ),
    ...Array.from({ length: 4 }, () => {
      created += 1;
      return app.inject({
        method: 'POST',
        url: `${source.base}/save`,
        headers: { authorization },
        payload: { name: `断线来源${created}`, code: `outage_${created}` },
      });
    }),
  ];

  test('answers normally through the proxy', async () => {
    for (const res of await Promise.all(calls())) expect(res.statusCode).toBe(200);
  });

  test(
    'answers 503 with the Chinese message while the link is cut, instead of hanging',
    { timeout: 8_000 },
    async () => {
      proxy.cut();
      for (const res of await Promise.all(calls())) {
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ code: 503, msg: messages.databaseUnavailable, data: null });
      }
      // Still cut: later requests fail as quickly, on fresh connection attempts.
      const again = await app.inject({ url: `${source.base}/page`, headers: { authorization } });
      expect(again.statusCode).toBe(503);
    },
  );

  test('recovers by itself once the link is back, without a restart', { timeout: 8_000 }, async () => {
    proxy.restore();
    for (const res of await Promise.all(calls())) expect(res.statusCode).toBe(200);
  });

  test(
    'a link cut inside a transaction fails it quickly and leaves no stuck connection',
    { timeout: 8_000 },
    async () => {
      // Cut when the transaction first sends this record's code (a parameter value: statements
      // are prepared once per connection, so their text is not sent again).
      proxy.cutWhenSent('cut_in_transaction');
      const res = await app.inject({
        method: 'POST',
        url: `${source.base}/save`,
        headers: { authorization },
        payload: { name: '事务中断线', code: 'cut_in_transaction' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().msg).toBe(messages.databaseUnavailable);
      proxy.restore();
      for (const res of await Promise.all(calls())) expect(res.statusCode).toBe(200);
    },
  );

  test(
    'a transaction whose BEGIN is lost hands its connection back, so the pool never runs dry',
    { timeout: 30_000 },
    async () => {
      // More lost BEGINs than the pool has connections: each one kept would leave fewer.
      for (let i = 0; i <= POOL_SIZE; i++) {
        proxy.cutWhenSent('begin');
        const res = await app.inject({
          method: 'POST',
          url: `${source.base}/save`,
          headers: { authorization },
          payload: { name: `开始时断线${i}`, code: `cut_at_begin_${i}` },
        });
        expect(res.statusCode).toBe(503);
        proxy.restore();
      }
      for (const res of await Promise.all(calls())) expect(res.statusCode).toBe(200);
    },
  );
});
