/**
 * Door-event delivery under attack and accident (issue 26), against a server in its own process
 * (bench/device-child.ts), PGlite or, with BENCH_DATABASE_URL, a throw-away PostgreSQL database:
 * - `device.flood.order-page-p99-ratio`: p99 of `user-card-order/page` (sequential requests) while
 *   one registered device floods signed door events and an enrolment-key holder floods `hello`,
 *   over its p99 when quiet, three rounds. Goal ≤ 2.
 * - `device.kill.acked-lost`: a stream of signed door events from 50 devices (about 1 000 a
 *   second in all) with the server killed (SIGKILL) mid-stream: events a device got a PUBACK for
 *   that are not in the open log. Must read 0, three rounds.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { orderPaths, userCardOrder } from '@cowork/contract/resources/order';
import { pgliteHandle } from '../apps/server/src/db/pglite.ts';
import { SimulatedDevice } from '../apps/server/src/device-link/simulator.ts';
import { startChild } from './device-child-process.ts';
import { benchSecret, CHILD_ENROL_KEY } from './device-ids.ts';
import { summarise, type BenchResult } from './results.ts';
import { signInAdmin, throwAwayDatabase } from './server.ts';

const flooderScript = fileURLToPath(new URL('./device-flooder.ts', import.meta.url));

const ROUNDS = 3;
const REQUESTS = 200;
const KILL_DEVICES = 50;
const KILL_AFTER_MS = 2_000;
const FLOOD_SN = 'FLOOD-0001';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function p99Of(url: string, headers: Record<string, string>) {
  const page = `${url}${orderPaths(userCardOrder).page}?current=1&size=10`;
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const res = await fetch(page, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`order page answered ${res.status}`);
    times.push(performance.now() - started);
  }
  return percentile(times, 99);
}

/** Starts bench/device-flooder.ts; `stop` ends it and answers how many were acknowledged. */
function flooder(mqttUrl: string, sn: string, password: string, kind: 'door' | 'hello') {
  const child = spawn(process.execPath, ['--import', 'tsx', flooderScript], {
    env: { ...process.env, FLOOD_URL: mqttUrl, FLOOD_SN: sn, FLOOD_PASSWORD: password, FLOOD_KIND: kind },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  const flooding = new Promise<void>((resolve) =>
    child.stdout!.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      if (printed.startsWith('flooding')) resolve();
    }),
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    /** Once the flooder is connected and sending. */
    flooding,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      return Number(printed.replace('flooding', '').trim()) || 0;
    },
  };
}

async function flood(): Promise<{ quiet: number[]; flooded: number[]; ratio: BenchResult }> {
  const baseUrl = process.env.BENCH_DATABASE_URL;
  const database = baseUrl ? await throwAwayDatabase(baseUrl) : undefined;
  const server = await startChild({
    CHILD_SEED: '1',
    CHILD_DEVICES: FLOOD_SN,
    ...(database ? { CHILD_DATABASE_URL: database.url } : {}),
  });
  try {
    const headers = await signInAdmin(server.url);
    const secret = benchSecret(FLOOD_SN);
    const quiet: number[] = [];
    const flooded: number[] = [];
    await p99Of(server.url, headers); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      quiet.push(await p99Of(server.url, headers));
      const doors = flooder(server.mqttUrl, FLOOD_SN, secret, 'door');
      const enrolling = `ENROL-${round}`;
      const hellos = flooder(server.mqttUrl, enrolling, CHILD_ENROL_KEY, 'hello');
      await Promise.race([Promise.all([doors.flooding, hellos.flooding]), sleep(10_000)]);
      await sleep(500); // the floods under way
      flooded.push(await p99Of(server.url, headers));
      const [doorAcks, helloAcks] = await Promise.all([doors.stop(), hellos.stop()]);
      console.error(
        `  … round ${round + 1}: ${doorAcks} door events and ${helloAcks} hellos acknowledged during the flood`,
      );
    }
    return {
      quiet,
      flooded,
      ratio: summarise(
        'device.flood.order-page-p99-ratio',
        'ratio',
        flooded.map((f, i) => f / quiet[i]),
      ),
    };
  } finally {
    await server.stop();
    await database?.drop();
  }
}

/** A migrated PGlite dump for the killed server's directory (initdb on disk is slow). */
async function pgliteTemplate(file: string) {
  const client = await PGlite.create();
  await pgliteHandle(client).migrate();
  await fs.writeFile(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  await client.close();
}

async function killRound(template: string): Promise<{ acked: number; lost: number }> {
  const baseUrl = process.env.BENCH_DATABASE_URL;
  const database = baseUrl ? await throwAwayDatabase(baseUrl) : undefined;
  const dir = database ? undefined : await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-bench-kill-'));
  const sns = Array.from({ length: KILL_DEVICES }, (_, i) => `KILL-${String(i).padStart(4, '0')}`);
  const server = await startChild({
    CHILD_DEVICES: sns.join(','),
    ...(database
      ? { CHILD_DATABASE_URL: database.url }
      : { CHILD_PGLITE_DIR: dir!, CHILD_PGLITE_TEMPLATE: template }),
  });
  const acked: string[] = [];
  const devices = sns.map((sn) => new SimulatedDevice({ url: server.mqttUrl, sn, secret: benchSecret(sn) }));
  try {
    for (let i = 0; i < devices.length; i += 10)
      await Promise.all(devices.slice(i, i + 10).map((d) => d.connect()));
    devices.forEach((d) => d.on('delivered', (id) => acked.push(id)));
    // 20 events a second per device (the fair rate), until a while after the kill.
    const started = Date.now();
    let killed = false;
    while (Date.now() - started < KILL_AFTER_MS + 500) {
      for (const d of devices) void d.swipeCard('BENCH').catch(() => undefined);
      if (!killed && Date.now() - started >= KILL_AFTER_MS) {
        killed = true;
        await server.kill();
      }
      await sleep(50);
    }
  } finally {
    await server.kill();
    await Promise.all(devices.map((d) => d.close().catch(() => undefined)));
  }
  const ids = new Set<string>();
  if (database) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    (await client.query<{ message_id: string }>('select message_id from device_open_logs')).rows.forEach(
      (r) => ids.add(r.message_id),
    );
    await client.end();
    await database.drop();
  } else {
    const db = await PGlite.create(dir!);
    (await db.query<{ message_id: string }>('select message_id from device_open_logs')).rows.forEach((r) =>
      ids.add(r.message_id),
    );
    await db.close();
    await fs.rm(dir!, { recursive: true, force: true });
  }
  return { acked: acked.length, lost: acked.filter((id) => !ids.has(id)).length };
}

export async function deliveryBench() {
  const floodResult = await flood();
  const template = path.join(os.tmpdir(), `cowork-bench-template-${process.pid}.tar`);
  const kills: { acked: number; lost: number }[] = [];
  try {
    if (!process.env.BENCH_DATABASE_URL) await pgliteTemplate(template);
    for (let round = 0; round < ROUNDS; round++) kills.push(await killRound(template));
  } finally {
    await fs.rm(template, { force: true });
  }
  return {
    engine: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
    ...floodResult,
    kills,
    results: [
      floodResult.ratio,
      summarise(
        'device.kill.acked-lost',
        'events',
        kills.map((k) => k.lost),
      ),
    ],
  };
}
