/**
 * 门禁运维 at scale (issue 28): BENCH_DOOR_DEVICES (default 1 000) simulated v1.1 devices on one floor
 * of the device bench's server (bench/device-server.ts, a process of its own), driven through the
 * console API as staff would. Measured:
 * - `device.mode-1000.ms`: 封锁 of the floor, then back to 正常, three times, each change from the
 *   `space/mode` call until the device list says every device holds the current version
 *   (syncedVersion = currentVersion) in the new mode;
 * - `device.alarm-storm.ms`: every device raising an alarm within one second, until 告警记录's total
 *   counts all of them (three rounds, one alarm kind each), with `device.alarm-storm.api-p99-ms`, the
 *   p99 of sequential GETs of the device list meanwhile;
 * - `device.rollout-1000.s`: a firmware rollout of every device, batch 100, a 1 MB file uploaded
 *   through the API, from the rollout's start until it is done (three rounds, one version each), and
 *   `device.rollout-1000.rss-mb`, the server's peak RSS during it (sampled every 50 ms and the
 *   kernel's high-water mark, reset before each rollout).
 * Goals: ≤ 2 000 ms, ≤ 3 000 ms, RSS ≤ 1 024 MB (no goal for the rollout's time). A smaller
 * BENCH_DOOR_DEVICES is a trial: its figures are printed, not recorded.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import {
  alarmKinds,
  deviceEndpoints,
  doorOperationEndpoints,
  MAX_PAGE_SIZE,
  type AlarmKind,
  type DeviceRecord,
  type RolloutRecord,
  type SpaceMode,
} from '@cowork/contract';
import { SimulatedDevice } from '../apps/server/src/device-link/simulator.ts';
import { benchSecret, benchSn } from './device-ids.ts';
import { connectDevices, percentile, rssMbOf, startDeviceServer, until } from './devices.ts';
import { summarise, type BenchResult } from './results.ts';
import { signInAdmin } from './server.ts';

export const DOOR_DEFAULT_DEVICES = 1_000;
const COUNT = Number(process.env.BENCH_DOOR_DEVICES ?? DOOR_DEFAULT_DEVICES);
const ROUNDS = 3;
const ROLLOUT_BATCH = 100;
const FIRMWARE_BYTES = 1024 * 1024;
/** The model every simulated device names in its hello (the simulator's default). */
const SIM_MODEL = 'SIM-100';
/** The quiet and the storm's API p99 both come from GETs of this page. */
const PROBED_PAGE = `${deviceEndpoints.page}?current=1&size=10`;
const QUIET_REQUESTS = 100;
export const doorGoals = { modeMs: 2_000, alarmStormMs: 3_000, rolloutRssMb: 1_024 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The console API as the signed-in administrator: the answer's `data`, or an error naming the call. */
function consoleApi(url: string, auth: Record<string, string>) {
  const call = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${url}${path}`, { ...init, headers: { ...auth, ...init.headers } });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text}`);
    return (JSON.parse(text) as { data: T }).data;
  };
  return {
    get: <T>(path: string) => call<T>(path),
    post: <T>(path: string, body: object) =>
      call<T>(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    upload: <T>(path: string, form: FormData) => call<T>(path, { method: 'POST', body: form }),
  };
}
type ConsoleApi = ReturnType<typeof consoleApi>;

/** Every device of the floor as the device list shows it, a page of MAX_PAGE_SIZE at a time. */
async function floorDevices(api: ConsoleApi, spaceId: number): Promise<DeviceRecord[]> {
  const pages = Math.ceil(COUNT / MAX_PAGE_SIZE);
  const answers = await Promise.all(
    Array.from({ length: pages }, (_, i) =>
      api.get<{ records: DeviceRecord[] }>(
        `${deviceEndpoints.page}?spaceId=${spaceId}&size=${MAX_PAGE_SIZE}&current=${i + 1}`,
      ),
    ),
  );
  return answers.flatMap((a) => a.records);
}

/** Whether the server has every device of the floor holding its current state, in `mode`. */
async function allHold(api: ConsoleApi, spaceId: number, mode: SpaceMode) {
  const records = await floorDevices(api, spaceId);
  return (
    records.length === COUNT && records.every((d) => d.syncedVersion === d.currentVersion && d.mode === mode)
  );
}

/** One mode change: when `space/mode` answered, how many it said applied, and when all hold it. */
async function changeMode(api: ConsoleApi, spaceId: number, mode: SpaceMode) {
  const at = performance.now();
  const answer = await api.post<{ devices: { state: string }[] }>(doorOperationEndpoints.spaceMode, {
    spaceId,
    mode,
    reason: '压测：紧急模式切换',
  });
  const answeredMs = performance.now() - at;
  // Reading 1 000 devices is itself work for the server: asked every 50 ms.
  await until(() => allHold(api, spaceId, mode), `every device in ${mode}`, 60_000, 50);
  return {
    ms: performance.now() - at,
    answeredMs,
    applied: answer.devices.filter((d) => d.state === 'applied').length,
  };
}

/** Sequential GETs of PROBED_PAGE until `running()` says stop (at least `atLeast`): their times. */
async function probeApi(api: ConsoleApi, running: () => boolean, atLeast = 0) {
  const times: number[] = [];
  while (running() || times.length < atLeast) {
    const at = performance.now();
    await api.get(PROBED_PAGE);
    times.push(performance.now() - at);
  }
  return times;
}

/** Alarms of this kind the bench devices raised, as 告警记录's total counts them. */
const alarmTotal = async (api: ConsoleApi, kind: AlarmKind) =>
  (await api.get<{ total: number }>(`${deviceEndpoints.alarmPage}?sn=BENCH-&kind=${kind}&current=1&size=1`))
    .total;

/** Every device raises `kind` within one second; done when 告警记录 counts each of them. */
async function alarmStorm(api: ConsoleApi, devices: SimulatedDevice[], kind: AlarmKind) {
  const before = await alarmTotal(api, kind);
  let storming = true;
  const probing = probeApi(api, () => storming);
  const at = performance.now();
  const raising = Promise.all(
    devices.map((d, i) =>
      sleep((i * 1000) / devices.length).then(() => d.raiseAlarm(kind, '压测：告警风暴')),
    ),
  );
  let rows = 0;
  await until(
    async () => {
      rows = (await alarmTotal(api, kind)) - before;
      return rows >= devices.length;
    },
    `${devices.length} ${kind} alarms in the log`,
    120_000,
    50,
  );
  const ms = performance.now() - at;
  storming = false;
  const times = await probing;
  await raising;
  await sleep(500);
  // Each alarm once: a row more than the devices raised would be a duplicate.
  const settled = (await alarmTotal(api, kind)) - before;
  return { ms, p99: percentile(times, 99), requests: times.length, rows: settled };
}

/** VmHWM (the peak RSS) of a child, reset first so that it covers only what follows. */
const peakRss = {
  reset: (pid: number) => {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      return true;
    } catch {
      return false;
    }
  },
  mbOf: (pid: number) => {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
    return line ? Number(line[1]) / 1024 : NaN;
  },
};

/** Uploads a 1 MB file as `version` for the simulated model; answers its id. */
async function uploadFirmware(api: ConsoleApi, version: string) {
  const form = new FormData();
  form.set('version', version);
  form.set('model', SIM_MODEL);
  form.set('remark', '压测固件');
  form.set('file', new Blob([randomBytes(FIRMWARE_BYTES)]), `bench-${version}.bin`);
  return (await api.upload<{ id: number }>(doorOperationEndpoints.firmwareUpload, form)).id;
}

/** A rollout of `version` to every device, batch ROLLOUT_BATCH: its time and the server's peak RSS. */
async function rollout(
  api: ConsoleApi,
  serverPid: number,
  deviceIds: number[],
  devices: SimulatedDevice[],
  version: string,
) {
  const uploadAt = performance.now();
  const firmwareId = await uploadFirmware(api, version);
  const uploadMs = performance.now() - uploadAt;
  const hwmReset = peakRss.reset(serverPid);
  const samples = [rssMbOf(serverPid)];
  const sampler = setInterval(() => samples.push(rssMbOf(serverPid)), 50);
  const at = performance.now();
  try {
    const { id } = await api.post<{ id: number }>(doorOperationEndpoints.rollout, {
      firmwareId,
      deviceIds,
      batchSize: ROLLOUT_BATCH,
      // Never halted: every failure is counted and printed instead.
      stopAfterFailures: deviceIds.length,
      reason: '压测：固件升级',
    });
    let record: RolloutRecord | undefined;
    await until(
      async () => {
        const page = await api.get<{ records: RolloutRecord[] }>(
          `${doorOperationEndpoints.rolloutPage}?current=1&size=10`,
        );
        record = page.records.find((r) => r.id === id);
        return record !== undefined && record.state !== 'running';
      },
      `rollout of ${version} over`,
      30 * 60_000,
      200,
    );
    const seconds = (performance.now() - at) / 1000;
    clearInterval(sampler);
    samples.push(rssMbOf(serverPid));
    const peakMb = Math.max(...samples, hwmReset ? peakRss.mbOf(serverPid) : 0);
    const updated = devices.filter((d) => d.firmware === version).length;
    return {
      seconds,
      peakMb,
      uploadMs,
      state: record!.state,
      done: record!.done,
      failed: record!.failed,
      updated,
    };
  } finally {
    clearInterval(sampler);
  }
}

export async function doorOperationsBench() {
  const { child, ready } = await startDeviceServer(COUNT);
  const devices: SimulatedDevice[] = [];
  try {
    const api = consoleApi(ready.url, await signInAdmin(ready.url));
    const started = performance.now();
    await connectDevices(
      devices,
      COUNT,
      (i) =>
        new SimulatedDevice({
          url: ready.mqttUrl,
          sn: benchSn(i),
          secret: benchSecret(benchSn(i)),
          protocol: '1.1',
          // A firmware update restarts the device: it comes back by itself, as a real one does.
          reconnectMs: 500,
        }),
    );
    await until(
      () => allHold(api, ready.spaceId, 'normal'),
      'every device synced after its hello',
      10 * 60_000,
      500,
    );
    const connectSeconds = (performance.now() - started) / 1000;

    const modes: Awaited<ReturnType<typeof changeMode>>[] = [];
    for (let round = 0; round < ROUNDS; round++)
      for (const mode of ['lockdown', 'normal'] as const)
        modes.push(await changeMode(api, ready.spaceId, mode));

    const quiet = await probeApi(api, () => false, QUIET_REQUESTS);
    const storms: Awaited<ReturnType<typeof alarmStorm>>[] = [];
    for (const kind of alarmKinds.slice(0, ROUNDS)) {
      storms.push(await alarmStorm(api, devices, kind));
      await sleep(1_000);
    }

    const ids = (await floorDevices(api, ready.spaceId)).map((d) => d.id);
    const rollouts: Awaited<ReturnType<typeof rollout>>[] = [];
    for (let round = 0; round < ROUNDS; round++)
      rollouts.push(await rollout(api, child.pid!, ids, devices, `9.${round + 1}.0`));

    const results: BenchResult[] = [
      summarise(
        'device.mode-1000.ms',
        'ms',
        modes.map((m) => m.ms),
      ),
      summarise(
        'device.alarm-storm.ms',
        'ms',
        storms.map((s) => s.ms),
      ),
      summarise(
        'device.alarm-storm.api-p99-ms',
        'ms',
        storms.map((s) => s.p99),
      ),
      summarise(
        'device.rollout-1000.s',
        's',
        rollouts.map((r) => r.seconds),
      ),
      summarise(
        'device.rollout-1000.rss-mb',
        'MB',
        rollouts.map((r) => r.peakMb),
      ),
    ];
    return {
      count: COUNT,
      trial: COUNT !== DOOR_DEFAULT_DEVICES,
      connectSeconds,
      modes,
      quietP99: percentile(quiet, 99),
      storms,
      rollouts,
      results,
    };
  } finally {
    // The server first: a thousand devices saying goodbye one by one would only slow the stop.
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await Promise.all(devices.map((d) => d.close().catch(() => undefined)));
  }
}
