/**
 * The server of the device benchmark, in its own process so that its memory is measured alone:
 * a migrated demo database (PGlite in memory, or a throw-away PostgreSQL database when
 * BENCH_DATABASE_URL is set), BENCH_DEVICES registered devices (secrets derived from their sn by a
 * bench-only key, so the parent can connect them), one 门禁联动 of the first 1 000 holding a floor of
 * a building where a member holds a paid membership card, and the app with its embedded broker on
 * free ports. It listens at its PUBLIC_URL (the firmware links devices are sent point back to it)
 * and keeps its files in a temporary DATA_DIR removed at the stop. Prints one JSON line
 * `{url, mqttUrl, setId, spaceId}` when ready; stops on SIGTERM.
 */
import fs from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { DbHandle } from '../apps/server/src/db/client.ts';
import { pgliteHandle } from '../apps/server/src/db/pglite.ts';
import { postgresHandle } from '../apps/server/src/db/postgres.ts';
import {
  buildings,
  deviceSetDevices,
  deviceSets,
  deviceSetSpaces,
  devices,
  members,
  orders,
  spaces,
} from '../apps/server/src/db/schema.ts';
import { seedDemo } from '../apps/server/src/seed/demo.ts';
import { benchSecret, benchSn, SYNC_SET_SIZE } from './device-ids.ts';
import { throwAwayDatabase } from './server.ts';

async function openDatabase(): Promise<{ handle: DbHandle; drop: () => Promise<void> }> {
  const baseUrl = process.env.BENCH_DATABASE_URL;
  if (!baseUrl) return { handle: pgliteHandle(await PGlite.create()), drop: async () => undefined };
  const database = await throwAwayDatabase(baseUrl);
  return {
    handle: postgresHandle(new pg.Pool({ connectionString: database.url, max: 10 })),
    drop: database.drop,
  };
}

/** A port free now: the server must know its own address (PUBLIC_URL) before it listens. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });

const count = Number(process.env.BENCH_DEVICES ?? 10_000);
const { handle, drop } = await openDatabase();
await handle.migrate();
process.env.DEMO_ORDERS = '50';
await seedDemo(handle.db);

const port = await freePort();
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-bench-devices-'));
const config = {
  ...loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // Every bench device connects from this one address: the per-address cap must admit them all.
    MQTT_MAX_CONNECTIONS_PER_ADDRESS: String(count + 100),
    MQTT_PORT: '0',
    SECRET_KEY: 'cowork-bench-secret-key-0123456789abcdef',
    DEMO_DEVICES: '0',
    LOG_LEVEL: 'silent',
  }),
  webDist: '/nonexistent',
};
const app = await buildApp({ config, db: handle.db, logger: false, checkResponses: false });

// Devices, a floor, a member with a card there, and the set of the first 1 000 holding the floor.
const [building] = await handle.db.select({ id: buildings.id }).from(buildings).limit(1);
const [floor] = await handle.db
  .insert(spaces)
  .values({ buildingId: building.id, name: '压测楼层', kind: 'floor' })
  .returning({ id: spaces.id });
const [member] = await handle.db.select({ id: members.id, phone: members.phone }).from(members).limit(1);
const now = Date.now();
await handle.db.insert(orders).values({
  id: 900_000_001,
  kind: 'user-card',
  orderNo: 'UCBENCH0000001',
  memberId: member.id,
  memberPhone: member.phone,
  productId: 1,
  productSnapshot: { name: '压测会员卡' },
  buildingId: building.id,
  amountFen: 1000,
  paidFen: 1000,
  status: 'paid',
  cardNo: 'BENCHCARD0001',
  validFrom: new Date(now - 86_400_000),
  validTo: new Date(now + 30 * 86_400_000),
});
const ids: number[] = [];
for (let start = 1; start <= count; start += 1_000) {
  const rows = Array.from({ length: Math.min(1_000, count - start + 1) }, (_, k) => {
    const sn = benchSn(start + k);
    return { sn, name: `压测门禁 ${sn}`, spaceId: floor.id, secret: app.devices.box.seal(benchSecret(sn)) };
  });
  ids.push(...(await handle.db.insert(devices).values(rows).returning({ id: devices.id })).map((r) => r.id));
}
const [set] = await handle.db
  .insert(deviceSets)
  .values({ name: '压测联动' })
  .returning({ id: deviceSets.id });
await handle.db
  .insert(deviceSetDevices)
  .values(ids.slice(0, SYNC_SET_SIZE).map((deviceId) => ({ setId: set.id, deviceId })));
await handle.db.insert(deviceSetSpaces).values({ setId: set.id, spaceId: floor.id });

const url = await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(
  `${JSON.stringify({ url, mqttUrl: app.devices.status().url, setId: set.id, spaceId: floor.id })}\n`,
);

process.once('SIGTERM', () => {
  void (async () => {
    await app.close();
    await handle.close();
    await drop();
    await fs.rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  })();
});
