/**
 * v1.1 Delivery: no door event lost or logged twice when the server restarts or is killed, and no
 * device starving the others.
 * - The server stops (embedded broker; an external one: TEST_MQTT_URL, else a Mosquitto started
 *   here on a free port), door events are made meanwhile, the server starts again: each is in the
 *   open log exactly once. Two instances on the external broker log each once.
 * - A server in a child process is killed with SIGKILL during a stream of signed door events:
 *   every event a device got a PUBACK for is in the open log.
 * - A flood beyond the fair rate is declined (no PUBACK), counted, and whatever was acknowledged
 *   is written; `status` `{"online":false}` does not mark a device offline that still heartbeats.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import mqtt from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import type { DbHandle } from '../src/db/client.ts';
import { deviceEnrolments, deviceOpenLogs, devices } from '../src/db/schema.ts';
import { dropCounter } from '../src/device-link/drops.ts';
import { seal, topics } from '../src/device-link/protocol.ts';
import { SimulatedDevice } from '../src/device-link/simulator.ts';
import { benchSecret } from '../../../bench/device-ids.ts';
import { startChild } from '../../../bench/device-child-process.ts';
import { throwAwayDatabase } from '../../../bench/server.ts';
import { engine, openTestDatabase, testConfig, until } from './helper.ts';
import { freePort } from './mosquitto-server.ts';

const run = randomBytes(3).toString('hex');
const enrolKey = 'delivery-enrol-key-0123456789';
const secret = 'delivery-device-secret-0123456789abcdef';

let handle: DbHandle;
const apps: App[] = [];
const sims: SimulatedDevice[] = [];

async function startApp(config: Parameters<typeof testConfig>[0]) {
  const app = await buildApp({
    config: testConfig({ deviceEnrolKey: enrolKey, ...config }),
    db: handle.db,
    logger: false,
  });
  await app.ready();
  apps.push(app);
  return app;
}
async function stopApp(app: App) {
  await app.close();
  apps.splice(apps.indexOf(app), 1);
}
async function register(app: App, sn: string) {
  await handle.db.insert(devices).values({ sn, name: `门 ${sn}`, secret: app.devices.box.seal(secret) });
}
function simulator(url: string, sn: string) {
  const d = new SimulatedDevice({ url, sn, secret, heartbeatMs: 1_000, reconnectMs: 100 });
  sims.push(d);
  return d;
}
/** The door events of `sn` in the open log: how many rows, and their message ids. */
async function logged(sn: string) {
  const rows = await handle.db
    .select({ id: deviceOpenLogs.messageId })
    .from(deviceOpenLogs)
    .where(eq(deviceOpenLogs.sn, sn));
  return rows.map((r) => r.id);
}
/** Door events a simulator had acknowledged, by id. */
function deliveredBy(d: SimulatedDevice) {
  const ids: string[] = [];
  d.on('delivered', (id) => ids.push(id));
  return ids;
}
/**
 * A dump of a migrated PGlite of this file's own (openTestDatabase starts it from the dump of these
 * migrations), written to `file`: the child loads it instead of running initdb on disk, and no
 * other run's dump can be taken for it.
 */
async function migratedDump(file: string) {
  const migrated = await openTestDatabase();
  try {
    const client = (migrated.db as unknown as { $client: PGlite }).$client;
    await fs.writeFile(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await migrated.close();
  }
  return file;
}
const sameIds = (a: string[], b: string[]) => expect([...a].sort()).toEqual([...b].sort());

beforeAll(async () => {
  handle = await openTestDatabase({ seed: { withRows: false } });
});
afterAll(async () => {
  await Promise.all(sims.map((d) => d.close().catch(() => undefined)));
  for (const app of [...apps]) await app.close();
  await handle?.close();
});

describe('the embedded broker', () => {
  test('door events made while the server is down are sent when it is back, each logged once', async () => {
    const port = await freePort();
    const sn = `DLV-E-${run}`;
    let app = await startApp({ mqttPort: port });
    await register(app, sn);
    const d = simulator(`mqtt://127.0.0.1:${port}`, sn);
    const delivered = deliveredBy(d);
    await d.connect();
    await d.swipeCard('CARD0001');
    await until(async () => (await logged(sn)).length === 1, 'the first event');

    await stopApp(app);
    await until(() => !d.connected, 'the device cut off');
    for (let i = 0; i < 5; i++) await d.swipeCard(`CARD000${i + 2}`);
    expect(d.keptEvents).toHaveLength(5);

    app = await startApp({ mqttPort: port });
    await until(() => d.keptEvents.length === 0 && delivered.length === 6, 'the kept events delivered');
    const ids = await until(async () => {
      const now = await logged(sn);
      return now.length === 6 && now;
    }, 'six events logged');
    sameIds(ids, delivered);
  });

  test('an event that cannot be written is not acknowledged; the device keeps it and it is logged once the database is back', async () => {
    const app = apps[0] ?? (await startApp({}));
    const sn = `DLV-D-${run}`;
    await register(app, sn);
    const d = simulator(app.devices.status().url!, sn);
    const delivered = deliveredBy(d);
    await d.connect();
    // The open log out of reach: every insert fails, as with the database down.
    await handle.db.execute('alter table device_open_logs rename to device_open_logs_away');
    try {
      await d.swipeCard('DOWN0001');
      // Refused unacknowledged: the connection is closed, the event still kept by the device.
      await until(() => !d.connected || d.keptEvents.length === 1, 'the write failing');
      expect(delivered).toEqual([]);
      expect(d.keptEvents).toHaveLength(1);
    } finally {
      await handle.db.execute('alter table device_open_logs_away rename to device_open_logs');
    }
    await until(() => delivered.length === 1, 'delivered once the database is back', 15_000);
    expect(await logged(sn)).toEqual(delivered);
  });

  test('a door event sent again (same id, fresh ts) is acknowledged and changes nothing; one queued for hours is logged; a heartbeat that old is stale', async () => {
    const app = apps[0] ?? (await startApp({}));
    const sn = `DLV-R-${run}`;
    await register(app, sn);
    const d = simulator(app.devices.status().url!, sn);
    await d.connect();
    const hoursAgo = Date.now() - 3 * 3_600_000;
    const door = { method: 'card', credential: '0001', result: 'success', at: hoursAgo };
    const first = seal('door', door, secret, hoursAgo);
    await d.publishRaw(JSON.stringify(first));
    // The same event again, its PUBACK lost: the broker acknowledges (publishRaw resolves).
    await d.publishRaw(JSON.stringify(seal('door', door, secret, Date.now(), first.id)));
    await d.publishRaw(JSON.stringify(seal('heartbeat', { uptimeS: 1 }, secret, hoursAgo)));
    await until(async () => (await logged(sn)).length === 1, 'the event logged');
    const [row] = await handle.db
      .select({ at: deviceOpenLogs.at })
      .from(deviceOpenLogs)
      .where(eq(deviceOpenLogs.messageId, first.id));
    expect(row.at.getTime()).toBe(hoursAgo);
    const counted = async () =>
      (
        await handle.db
          .select({ n: devices.droppedCount, reason: devices.lastDropReason })
          .from(devices)
          .where(eq(devices.sn, sn))
      )[0];
    expect(
      await until(async () => (await counted()).n === 1 && counted(), 'the stale heartbeat counted'),
    ).toEqual({
      n: 1,
      reason: 'stale',
    });
  });

  test('`{"online":false}` does not mark offline a device that still sends signed heartbeats; its real departure does', async () => {
    const app = apps[0] ?? (await startApp({}));
    const sn = `DLV-S-${run}`;
    await register(app, sn);
    const d = simulator(app.devices.status().url!, sn);
    await d.connect();
    const status = async () =>
      (await handle.db.select({ s: devices.status }).from(devices).where(eq(devices.sn, sn)))[0].s;
    await until(async () => (await status()) === 'online', 'online');
    // Retained, as a will left behind (or anyone an open broker lets publish there) would leave it.
    await d.publishRaw('{"online":false}', topics.status(sn));
    // Read every 50 ms for three heartbeat intervals: never offline.
    const seen = new Set<string>();
    for (let i = 0; i < 60; i++) {
      seen.add(await status());
      await new Promise((r) => setTimeout(r, 50));
    }
    expect([...seen]).toEqual(['online']);
    await d.close();
    await until(async () => (await status()) === 'offline', 'offline once it left');
  });

  test('a flood is held to the fair rate, beyond it declined (no PUBACK) and counted; what was acknowledged is written', async () => {
    const app = apps[0] ?? (await startApp({}));
    const sn = `DLV-F-${run}`;
    await register(app, sn);
    const url = app.devices.status().url!;
    const client = await mqtt.connectAsync(url, {
      clientId: sn,
      username: sn,
      password: secret,
      reconnectPeriod: 0,
    });
    client.on('error', () => undefined);
    // 150 signed door events at once: the burst of 100 at once, the rest held to the fair rate
    // (their PUBACKs later), none lost. Then 300 at once: past what may be held, the embedded
    // broker declines (closes the connection unacknowledged).
    const acked: string[] = [];
    const closed = new Promise<'closed'>((resolve) => client.once('close', () => resolve('closed')));
    let sent = 0;
    for (const count of [150, 300]) {
      const messages = Array.from({ length: count }, (_, i) =>
        seal('door', { method: 'card', credential: String(i), result: 'success', at: Date.now() }, secret),
      );
      sent += count;
      const done = Promise.allSettled(
        messages.map((m) =>
          client.publishAsync(topics.evt(sn), JSON.stringify(m), { qos: 1 }).then(() => acked.push(m.id)),
        ),
      );
      if ((await Promise.race([done, closed])) === 'closed') break;
    }
    expect(await Promise.race([closed, until(() => !client.connected, 'declined')])).toBeTruthy();
    await client.endAsync(true);
    expect(acked.length).toBeGreaterThanOrEqual(150);
    expect(acked.length).toBeLessThan(sent);
    const ids = new Set(await logged(sn));
    expect(acked.filter((id) => !ids.has(id))).toEqual([]);
    await until(
      async () =>
        (await handle.db.select({ r: devices.lastDropReason }).from(devices).where(eq(devices.sn, sn)))[0]
          .r === 'rate',
      'the declined events counted',
    );

    // An enrolment-key holder saying hello over and over: declined past its rate, listed once.
    const enrolling = `DLV-H-${run}`;
    const hello = await mqtt.connectAsync(url, {
      clientId: enrolling,
      username: enrolling,
      password: enrolKey,
      reconnectPeriod: 0,
    });
    hello.on('error', () => undefined);
    await Promise.race([
      Promise.allSettled(
        Array.from({ length: 50 }, () =>
          hello.publishAsync(topics.evt(enrolling), JSON.stringify(seal('hello', { model: 'X' }, enrolKey))),
        ),
      ),
      new Promise<void>((resolve) => hello.once('close', () => resolve())),
    ]);
    await until(() => !hello.connected, 'the enrolling flood cut off');
    await hello.endAsync(true);
    const waiting = () =>
      handle.db
        .select({ sn: deviceEnrolments.sn })
        .from(deviceEnrolments)
        .where(inArray(deviceEnrolments.sn, [enrolling]));
    expect(
      await until(async () => (await waiting()).length > 0 && waiting(), 'listed as waiting'),
    ).toHaveLength(1);
  });
});

test('drops are written in one statement and logged as one line per device, not one per message', async () => {
  const sn = `DLV-L-${run}`;
  await handle.db.insert(devices).values({ sn, name: sn, secret: 'unused' });
  const lines: unknown[] = [];
  const log = { warn: (...args: unknown[]) => lines.push(args) } as unknown as FastifyBaseLogger;
  const drops = dropCounter({ db: handle.db, log });
  for (let i = 0; i < 1_000; i++) drops.count(sn, i % 2 ? 'rate' : 'bad-signature');
  await drops.flush(true);
  expect(lines).toEqual([
    [{ sn, drops: { 'bad-signature': 500, rate: 500 } }, expect.stringContaining('dropped')],
  ]);
  const [row] = await handle.db
    .select({ n: devices.droppedCount, reason: devices.lastDropReason })
    .from(devices)
    .where(eq(devices.sn, sn));
  expect(row).toEqual({ n: 1_000, reason: 'rate' });
});

describe('an external broker', () => {
  let mosquitto: ChildProcess | undefined;
  let url: string;

  beforeAll(async () => {
    if (process.env.TEST_MQTT_URL) {
      url = process.env.TEST_MQTT_URL;
      return;
    }
    const port = await freePort();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-mosquitto-'));
    const conf = path.join(dir, 'mosquitto.conf');
    await fs.writeFile(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
    mosquitto = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
    url = `mqtt://127.0.0.1:${port}`;
    await until(
      () =>
        mqtt
          .connectAsync(url, { reconnectPeriod: 0, connectTimeout: 1_000 })
          .then((c) => c.endAsync().then(() => true))
          .catch(() => false),
      'mosquitto listening',
    );
  });
  afterAll(async () => {
    mosquitto?.kill('SIGTERM');
  });

  test('events published while the server is down reach its persistent session; two instances log each once', async () => {
    const sn = `DLV-X-${run}`;
    const first = { mqttUrl: url, mqttClientId: `cowork-test.${run}.a` };
    let app = await startApp(first);
    await until(() => app.devices.status().up, 'connected to the broker');
    await register(app, sn);
    const d = simulator(url, sn);
    await d.connect();
    const delivered = deliveredBy(d);
    await d.swipeCard('EXT00001');
    await until(async () => (await logged(sn)).length === 1, 'the first event');

    await stopApp(app);
    // The broker acknowledges these and keeps them for the server's session.
    for (let i = 0; i < 5; i++) await d.swipeCard(`EXT0000${i + 2}`);
    expect(d.keptEvents).toHaveLength(0);
    expect((await logged(sn)).length).toBe(1);

    app = await startApp(first);
    await until(async () => (await logged(sn)).length === 6, 'the queued events logged');

    // A second instance with its own session: both hear every event, each is logged once.
    const second = await startApp({ mqttUrl: url, mqttClientId: `cowork-test.${run}.b` });
    await until(() => second.devices.status().up, 'the second instance connected');
    for (let i = 0; i < 5; i++) await d.swipeCard(`EXT0001${i}`);
    const ids = await until(async () => {
      const now = await logged(sn);
      return now.length === 11 && now;
    }, 'eleven events logged');
    await new Promise((r) => setTimeout(r, 500));
    expect(await logged(sn)).toHaveLength(11);
    sameIds(ids, delivered);
  });
});

test('a server killed with SIGKILL during a stream of door events: every acknowledged event is in the open log', async () => {
  const sns = Array.from({ length: 10 }, (_, i) => `KILL-${run}-${i}`);
  let dir: string | undefined;
  let database: Awaited<ReturnType<typeof throwAwayDatabase>> | undefined;
  if (engine === 'postgres') database = await throwAwayDatabase(process.env.TEST_DATABASE_URL!);
  else dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-kill-'));
  const child = await startChild({
    CHILD_DEVICES: sns.join(','),
    ...(database
      ? { CHILD_DATABASE_URL: database.url }
      : { CHILD_PGLITE_DIR: dir!, CHILD_PGLITE_TEMPLATE: await migratedDump(`${dir}.tar`) }),
  });
  const acked: string[] = [];
  const devicesUp = sns.map((sn) => new SimulatedDevice({ url: child.mqttUrl, sn, secret: benchSecret(sn) }));
  try {
    await Promise.all(devicesUp.map((d) => d.connect()));
    devicesUp.forEach((d) => d.on('delivered', (id) => acked.push(id)));
    // Bounded: 40 rounds of one swipe per device (within the fair rate's burst), the server
    // killed after 25.
    for (let round = 0; round < 40; round++) {
      for (const d of devicesUp) void d.swipeCard(`K${round}`).catch(() => undefined);
      if (round === 25) await child.kill();
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await child.kill();
    await Promise.all(devicesUp.map((d) => d.close().catch(() => undefined)));
  }
  // Read what the killed server left behind.
  const ids = new Set<string>();
  if (database) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const rows = await client.query<{ message_id: string }>('select message_id from device_open_logs');
    rows.rows.forEach((r) => ids.add(r.message_id));
    await client.end();
    await database.drop();
  } else {
    const db = await PGlite.create(dir!);
    const rows = await db.query<{ message_id: string }>('select message_id from device_open_logs');
    rows.rows.forEach((r) => ids.add(r.message_id));
    await db.close();
    await fs.rm(dir!, { recursive: true, force: true });
    await fs.rm(`${dir}.tar`, { force: true });
  }
  expect(acked.length).toBeGreaterThan(0);
  expect(acked.filter((id) => !ids.has(id))).toEqual([]);
});
