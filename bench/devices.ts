/**
 * Door devices at scale: BENCH_DEVICES (default 10 000) simulated devices, heartbeats on, connected
 * to the embedded broker of a server in its own process (bench/device-server.ts). Measured, each
 * over three rounds:
 * - `device.open-door.p99-ms`: p99 of 远程开门 round trips (API call → signed command → ack → 200),
 *   100 sequential calls to random devices per round;
 * - `device.sync-1000.ms`: an access change (a 门禁联动 of 1 000 devices letting go of, or taking
 *   back, the floor where a member holds a card) until every one of the 1 000 devices has the new
 *   list and has acked it;
 * - `device.rss-10000-mb`: the server process's resident memory with every device connected.
 * Goals (issue 12): p99 ≤ 100 ms, 1 000-device sync ≤ 2 s, RSS ≤ 1 GB; each is printed as a ratio
 * to its goal and written to bench/last-run.json (not with another BENCH_DEVICES: a trial).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import {
  ADMIN_CLIENT_ID,
  ADMIN_CLIENT_SECRET,
  deviceEndpoints,
  endpoints,
  type TokenResponse,
} from '@cowork/contract';
import { deviceSetEndpoints } from '@cowork/contract/resources/device-set';
import { SimulatedDevice } from '../apps/server/src/device-link/simulator.ts';
import { benchSecret, benchSn, SYNC_SET_SIZE } from './device-ids.ts';
import { summarise, type BenchResult } from './results.ts';

export const DEVICE_DEFAULT_COUNT = 10_000;
const COUNT = Number(process.env.BENCH_DEVICES ?? DEVICE_DEFAULT_COUNT);
const ROUNDS = 3;
const OPENS_PER_ROUND = 100;
const CONNECTING_AT_ONCE = Number(process.env.BENCH_CONNECTING ?? 200);
export const deviceGoals = { openP99Ms: 100, sync1000Ms: 2_000, rssMb: 1_024 };

const fixedSeconds = (since: number) => ((performance.now() - since) / 1000).toFixed(0);
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
export const rssMbOf = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return line ? Number(line[1]) / 1024 : NaN;
};

export async function until(probe: () => boolean | Promise<boolean>, what: string, ms: number, everyMs = 10) {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`device bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Starts bench/device-server.ts with `count` devices and answers its addresses once it printed them. */
export async function startDeviceServer(count: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/device-server.ts'], {
    env: { ...process.env, BENCH_DEVICES: String(count) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<{ url: string; mqttUrl: string; setId: number; spaceId: number }>(
    (resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`device bench server exited (${code})`)));
      createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
    },
  );
  return { child, ready };
}

/**
 * Connects `count` devices, `CONNECTING_AT_ONCE` at a time, each made by `make` from its number
 * (1…), into `devices` as they connect (so that a failure midway still closes those connected).
 */
export async function connectDevices(
  devices: SimulatedDevice[],
  count: number,
  make: (i: number) => SimulatedDevice,
) {
  const started = performance.now();
  for (let i = 1; i <= count; i += CONNECTING_AT_ONCE) {
    const batch = Array.from({ length: Math.min(CONNECTING_AT_ONCE, count - i + 1) }, (_, k) => make(i + k));
    await Promise.all(batch.map((d) => d.connect()));
    devices.push(...batch);
    if (devices.length % 1000 < CONNECTING_AT_ONCE)
      console.error(`  … ${devices.length} devices connected (${fixedSeconds(started)} s)`);
  }
}

export async function deviceBench() {
  const { child, ready } = await startDeviceServer(COUNT);
  const devices: SimulatedDevice[] = [];
  try {
    const token = (await (
      await fetch(`${ready.url}${endpoints.token}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${ADMIN_CLIENT_ID}:${ADMIN_CLIENT_SECRET}`).toString('base64')}`,
        },
        body: 'grant_type=password&username=admin&password=Admin@123',
      })
    ).json()) as TokenResponse;
    const headers = { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' };
    const post = (path: string, body: object) =>
      fetch(`${ready.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const syncs = (d: SimulatedDevice) => d.commands.filter((c) => c.type === 'sync').length;

    // Connect every device, a few hundred at a time, and wait for each one's first sync.
    const started = performance.now();
    await connectDevices(
      devices,
      COUNT,
      (i) => new SimulatedDevice({ url: ready.mqttUrl, sn: benchSn(i), secret: benchSecret(benchSn(i)) }),
    );
    await until(() => devices.every((d) => syncs(d) > 0), 'every device synced after its hello', 15 * 60_000);
    const connectSeconds = (performance.now() - started) / 1000;
    const rss = [rssMbOf(child.pid!)];

    // 远程开门 round trips.
    const p99s: number[] = [];
    const p50s: number[] = [];
    const byId = await (async () => {
      const ids = new Map<string, number>();
      for (let page = 1; ids.size < COUNT; page++) {
        const res = await fetch(`${ready.url}${deviceEndpoints.page}?current=${page}&size=100`, { headers });
        const body = (await res.json()) as { data: { records: { id: number; sn: string }[] } };
        if (body.data.records.length === 0) break;
        for (const r of body.data.records) ids.set(r.sn, r.id);
      }
      return ids;
    })();
    const idList = [...byId.values()];
    for (let round = 0; round < ROUNDS; round++) {
      const times: number[] = [];
      for (let k = 0; k < OPENS_PER_ROUND; k++) {
        const id = idList[Math.floor(Math.random() * idList.length)];
        const at = performance.now();
        const res = await post(deviceEndpoints.openDoor, { id, durationS: 1 });
        if (res.status !== 200) throw new Error(`open-door answered ${res.status}: ${await res.text()}`);
        times.push(performance.now() - at);
      }
      p99s.push(percentile(times, 99));
      p50s.push(percentile(times, 50));
      rss.push(rssMbOf(child.pid!));
    }

    // An access change reaching the 1 000 devices of the set: released, then held again.
    const inSet = devices.slice(0, SYNC_SET_SIZE);
    const syncMs: number[] = [];
    const receivedMs: number[] = [];
    for (let round = 0; round < ROUNDS * 2; round++) {
      const before = inSet.map(syncs);
      const at = performance.now();
      const res = await post(
        round % 2 === 0 ? deviceSetEndpoints.removeSpace : deviceSetEndpoints.saveSpace,
        {
          id: ready.setId,
          spaceIds: [ready.spaceId],
        },
      );
      if (res.status !== 200)
        throw new Error(`device-set change answered ${res.status}: ${await res.text()}`);
      await until(() => inSet.every((d, i) => syncs(d) > before[i]), 'the set synced', 60_000);
      receivedMs.push(performance.now() - at);
      // Every device has it and acks at once; done when the server has every ack (已同步).
      await until(
        async () => {
          const res = await fetch(`${ready.url}${deviceSetEndpoints.detail}/${ready.setId}`, { headers });
          const body = (await res.json()) as { data: { devices: { syncState: string }[] } };
          return body.data.devices.every((d) => d.syncState === 'synced');
        },
        'every ack of the set',
        60_000,
        // Reading 1 000 devices' state is itself work for the server: asked every 50 ms.
        50,
      );
      syncMs.push(performance.now() - at);
      rss.push(rssMbOf(child.pid!));
    }

    const results: BenchResult[] = [
      summarise('device.open-door.p99-ms', 'ms', p99s),
      summarise('device.sync-1000.ms', 'ms', syncMs),
      summarise('device.rss-10000-mb', 'MB', rss),
    ];
    // Another count is a trial: its figures are not those of the goals.
    return { count: COUNT, trial: COUNT !== DEVICE_DEFAULT_COUNT, connectSeconds, p50s, receivedMs, results };
  } finally {
    // The server first: 10 000 devices saying goodbye one by one would only slow the stop.
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await Promise.all(devices.map((d) => d.close().catch(() => undefined)));
  }
}
