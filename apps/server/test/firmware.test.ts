/**
 * 固件升级 through the embedded broker with simulated v1.1 devices: uploads (limits, hash, nothing
 * left behind), the signed download link, and rollouts (a batch at a time, the next as each
 * finishes, halted at the failure limit, timed out, paused, resumed, cancelled, one rollout per
 * device), the `progress` events that move them and the ones dropped, and the permission codes.
 *
 * The devices here ack a `firmware` command and do nothing more: the test plays the device's part
 * (progress events, the reconnect that says hello with the new version) step by step.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  doorOperationEndpoints as fw,
  FIRMWARE_URL_TTL_MS,
  FIRMWARE_VIEW_PERMISSION,
  firmwareMessages,
} from '@cowork/contract';
import { devices, firmwareFiles, firmwareRolloutDevices } from '../src/db/schema.ts';
import type { SimulatedDevice } from '../src/device-link/simulator.ts';
import type { Envelope } from '../src/device-link/protocol.ts';
import { doorFixture } from './device-fixture.ts';
import { createRole, createUser, demo, type TestApp, until } from './helper.ts';

const MAX = 64 * 1024;

/** A multipart body: text fields then (optionally) the file; `cut` drops the closing boundary. */
function form(fields: Record<string, string>, file?: Buffer, cut = false) {
  const boundary = `----fw${randomUUID().replaceAll('-', '')}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="door.bin"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      file,
    );
    if (!cut) parts.push(Buffer.from('\r\n'));
  }
  if (!cut) parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const bytes = (n: number, seed = 1) => Buffer.from(Array.from({ length: n }, (_, i) => (i * seed + 7) % 256));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Acks a `firmware` command and leaves the rest of the update to the test; the rest as usual. */
function acksFirmwareOnly(command: Envelope, d: SimulatedDevice) {
  if (command.type !== 'firmware') return { ok: true } as const;
  setImmediate(() => void d.send('ack', { ref: command.id, ok: true }).catch(() => undefined));
  return 'silent' as const;
}

describe('firmware', () => {
  const doors = doorFixture({
    enrolKey: 'test-enrol-key-firmware',
    device: { protocol: '1.1', heartbeatMs: 1_000, model: 'DOOR-X', answer: acksFirmwareOnly },
  });
  const { get, post, registered } = doors;
  let t: TestApp;
  let dataDir: string;

  /** An upload as the admin, or as the user of `as`. */
  const upload = (fields: Record<string, string>, file?: Buffer, cut = false, as = {}) => {
    const body = form(fields, file, cut);
    return t.app.inject({
      method: 'POST',
      url: fw.firmwareUpload,
      payload: body.payload,
      headers: { ...doors.headers, ...as, ...body.headers },
    });
  };
  const storedFiles = async () =>
    (await fs.readdir(path.join(dataDir, 'uploads', 'firmware')).catch(() => [])).length;
  const detail = async (id: number) =>
    (await get(`${fw.rolloutDetail}/${id}`)).json<{
      data: {
        state: string;
        done: number;
        failed: number;
        devices: { id: number; sn: string; state: string; percent: number; error: string | null }[];
      };
    }>().data;
  const deviceState = async (rollout: number, sn: string) =>
    (await detail(rollout)).devices.find((d) => d.sn === sn)!;

  /** The device restarts on new firmware: it reconnects and says hello with that version. */
  async function restartOn(dev: { sn: string; secret: string; d: SimulatedDevice }, version: string) {
    await dev.d.close();
    dev.d = await doors.device({ sn: dev.sn, secret: dev.secret, firmware: version });
  }

  /** The `firmware` commands a device was sent for this version. */
  const firmwareFor = (d: SimulatedDevice, version: string) =>
    d.commands.filter((c) => c.type === 'firmware' && c.params.version === version);

  async function uploaded(version: string, model = 'DOOR-X') {
    const res = await upload({ version, model }, bytes(1000, version.length));
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { id: number } }>().data.id;
  }

  /** Uploads `version` and rolls it out to `devices`: answers the rollout's id and the file's. */
  async function rollout(
    version: string,
    devices: { id: number }[],
    limits: { batchSize: number; stopAfterFailures: number; timeoutMinutes?: number },
  ) {
    const fileId = await uploaded(version);
    const res = await post(fw.rollout, {
      firmwareId: fileId,
      deviceIds: devices.map((d) => d.id),
      ...limits,
    });
    expect(res.statusCode, res.body).toBe(200);
    return { id: res.json<{ data: { id: number } }>().data.id, fileId };
  }

  type Dev = Awaited<ReturnType<typeof registered>>;
  let a: Dev, b: Dev, c: Dev, old: Dev, other: Dev;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-firmware-'));
    t = await doors.start({ config: { dataDir, firmwareMaxBytes: MAX } });
    a = await registered('FW-A');
    b = await registered('FW-B');
    c = await registered('FW-C');
    other = await registered('FW-OTHER', { model: 'DOOR-Y' });
    // A v1 device: registered, but says hello without `protocol`.
    old = await registered('FW-V1');
    await old.d.close();
    old.d = await doors.device({ sn: old.sn, secret: old.secret, protocol: '1' });
    await until(
      async () => (await t.db.select().from(devices).where(eq(devices.id, old.id)))[0]?.protocol === '1',
      'v1 hello',
    );
  });

  afterAll(async () => {
    await doors.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  test('upload: the answer names the SHA-256 computed as it streamed; the list shows the file', async () => {
    const file = bytes(MAX, 3);
    const res = await upload({ version: '1.5.0', model: 'DOOR-X', remark: '修复门磁' }, file);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json().data;
    expect(answer).toEqual({
      id: expect.any(Number),
      version: '1.5.0',
      model: 'DOOR-X',
      sha256: sha(file),
      size: MAX,
    });
    const page = (await get(`${fw.firmwarePage}?model=DOOR-X`)).json().data;
    expect(page.records[0]).toMatchObject({ id: answer.id, remark: '修复门磁', fileName: 'door.bin' });
    const again = await upload({ version: '1.5.0', model: 'DOOR-X' }, bytes(10));
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(firmwareMessages.duplicate('DOOR-X', '1.5.0'));
  });

  test('upload: too large, empty, cut off or without its fields leaves no file and no row', async () => {
    const rowsBefore = (await t.db.select().from(firmwareFiles)).length;
    const filesBefore = await storedFiles();
    const tooLarge = await upload({ version: '9.0.0', model: 'DOOR-X' }, bytes(MAX + 1));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().msg).toBe(firmwareMessages.tooLarge(MAX));
    const empty = await upload({ version: '9.0.1', model: 'DOOR-X' }, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toBe(firmwareMessages.empty);
    const cut = await upload({ version: '9.0.2', model: 'DOOR-X' }, bytes(5000), true);
    expect(cut.statusCode).toBe(400);
    expect(cut.json().msg).toBe(firmwareMessages.cutOff);
    const noFile = await upload({ version: '9.0.3', model: 'DOOR-X' });
    expect(noFile.json().msg).toBe(firmwareMessages.fileRequired);
    const noVersion = await upload({ model: 'DOOR-X' }, bytes(10));
    expect(noVersion.statusCode).toBe(400);
    expect(noVersion.json().msg).toBe(firmwareMessages.versionRequired);
    const badModel = await upload({ version: '9.0.4', model: '门禁/../x' }, bytes(10));
    expect(badModel.json().msg).toBe(firmwareMessages.modelInvalid);
    expect((await t.db.select().from(firmwareFiles)).length).toBe(rowsBefore);
    expect(await storedFiles()).toBe(filesBefore);
    expect(await fs.readdir(path.join(dataDir, 'tmp'))).toEqual([]);
  });

  test('download: only with the signed link, unchanged and unexpired; no session needed', async () => {
    const file = bytes(3000, 5);
    const { id } = (await upload({ version: '1.6.0', model: 'DOOR-X' }, file)).json().data;
    const link = new URL(t.app.devices.firmware.links.url(id));
    const res = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(res.statusCode).toBe(200);
    expect(sha(res.rawPayload)).toBe(sha(file));
    expect(res.headers['content-length']).toBe('3000');

    const changed = (key: string, value: string) => {
      const u = new URL(link);
      u.searchParams.set(key, value);
      return t.app.inject({ method: 'GET', url: u.pathname + u.search });
    };
    const sig = link.searchParams.get('sig')!;
    for (const wrong of [
      await changed('sig', `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`),
      await changed('id', String(id + 1)),
      await changed('expires', String(Number(link.searchParams.get('expires')) + 1)),
      await changed('sig', 'nothex'),
    ]) {
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json().msg).toBe(firmwareMessages.linkInvalid);
    }
    const expired = new URL(t.app.devices.firmware.links.url(id, Date.now() - FIRMWARE_URL_TTL_MS - 1));
    const late = await t.app.inject({ method: 'GET', url: expired.pathname + expired.search });
    expect(late.statusCode).toBe(403);
  });

  test('permissions: view opens the lists only; without the code nothing', async () => {
    await createRole(t.db, { code: 'fw-viewer', name: '固件查看', permissions: [FIRMWARE_VIEW_PERMISSION] });
    await createUser(t.db, { username: 'fwviewer', password: 'Viewer@123', roleCodes: ['fw-viewer'] });
    const viewer = await t.auth('fwviewer', 'Viewer@123');
    expect((await get(fw.firmwarePage, {}, viewer)).statusCode).toBe(200);
    expect((await get(fw.rolloutPage, {}, viewer)).statusCode).toBe(200);
    expect((await upload({ version: '7.0.0', model: 'DOOR-X' }, bytes(10), false, viewer)).statusCode).toBe(
      403,
    );
    const fileId = await uploaded('7.0.1');
    const body = { firmwareId: fileId, deviceIds: [a.id], batchSize: 1, stopAfterFailures: 1 };
    expect((await post(fw.rollout, body, viewer)).statusCode).toBe(403);
    expect((await post(fw.rolloutCancel, { id: 1 }, viewer)).statusCode).toBe(403);
    const finance = await t.auth(...demo.caiwu);
    expect((await get(fw.firmwarePage, {}, finance)).statusCode).toBe(403);
    expect((await get(fw.rolloutPage, {}, finance)).statusCode).toBe(403);
  });

  test('rollout: devices must be registered, of the file’s model and v1.1', async () => {
    const fileId = await uploaded('1.7.0');
    const base = { firmwareId: fileId, batchSize: 1, stopAfterFailures: 1 };
    const cases: [number[], string][] = [
      [[a.id, 999_999], firmwareMessages.deviceNotFound(999_999)],
      [[a.id, other.id], firmwareMessages.wrongModel(`门 ${other.sn}`, 'DOOR-Y', 'DOOR-X')],
      [[old.id], firmwareMessages.notV11(`门 ${old.sn}`)],
      [[], firmwareMessages.devicesRequired],
      [[a.id, a.id], firmwareMessages.devicesRepeated],
    ];
    for (const [deviceIds, msg] of cases) {
      const res = await post(fw.rollout, { ...base, deviceIds });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg).toContain(msg);
    }
    const zero = await post(fw.rollout, { ...base, deviceIds: [a.id], batchSize: 0 });
    expect(zero.json().msg).toContain(firmwareMessages.batchSizeInvalid);
  });

  test('rollout: a batch at a time, the next as each finishes; progress moves a device, unknown refs are dropped', async () => {
    const { id, fileId } = await rollout('2.0.0', [a, b, c], { batchSize: 2, stopAfterFailures: 2 });
    await until(
      () => firmwareFor(a.d, '2.0.0').length === 1 && firmwareFor(b.d, '2.0.0').length === 1,
      'first batch',
    );
    const sent = firmwareFor(a.d, '2.0.0')[0];
    expect(sent.params).toMatchObject({
      version: '2.0.0',
      size: 1000,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(String(sent.params.url)).toContain(`${fw.firmwareDownload}?id=${fileId}&expires=`);
    // The third waits for a place in the batch.
    await t.app.devices.firmware.tick();
    expect(firmwareFor(c.d, '2.0.0')).toHaveLength(0);
    expect((await deviceState(id, c.sn)).state).toBe('queued');

    await a.d.send('progress', { ref: sent.id, stage: 'downloading', percent: 40 });
    await until(async () => (await deviceState(id, a.sn)).percent === 40, 'progress 40');
    expect((await deviceState(id, a.sn)).state).toBe('downloading');

    // A ref that is no command of this device, and params not the protocol's: counted, nothing changes.
    const [before] = await t.db.select().from(devices).where(eq(devices.id, a.id));
    await a.d.send('progress', { ref: randomUUID(), stage: 'failed', percent: 0, error: 'x' });
    await a.d.send('progress', { ref: firmwareFor(b.d, '2.0.0')[0].id, stage: 'failed', percent: 0 });
    await a.d.send('progress', { ref: sent.id, stage: 'exploded', percent: 50 });
    await a.d.send('progress', { ref: sent.id, stage: 'downloading', percent: 101 });
    await until(
      async () =>
        (await t.db.select().from(devices).where(eq(devices.id, a.id)))[0].droppedCount >=
        before.droppedCount + 4,
      'drops counted',
    );
    expect(await deviceState(id, a.sn)).toMatchObject({ state: 'downloading', percent: 40, error: null });
    expect((await deviceState(id, b.sn)).state).toBe('sent');

    await a.d.send('progress', { ref: sent.id, stage: 'done', percent: 100 });
    await until(async () => (await deviceState(id, a.sn)).percent === 100, 'installed');
    await restartOn(a, '2.0.0');
    await until(async () => (await deviceState(id, a.sn)).state === 'done', 'a done');
    // a finished: c takes its place.
    await until(() => firmwareFor(c.d, '2.0.0').length === 1, 'c sent');

    await b.d.send('progress', {
      ref: firmwareFor(b.d, '2.0.0')[0].id,
      stage: 'failed',
      percent: 0,
      error: 'sha256 mismatch',
    });
    await until(async () => (await deviceState(id, b.sn)).state === 'failed', 'b failed');
    expect((await deviceState(id, b.sn)).error).toBe('sha256 mismatch');
    await restartOn(c, '2.0.0');
    await until(async () => (await detail(id)).state === 'done', 'rollout done');
    expect(await detail(id)).toMatchObject({ done: 2, failed: 1 });
  });

  test('rollout: halts at its failure limit; the devices not reached leave it', async () => {
    const { id } = await rollout('2.1.0', [a, b, c], { batchSize: 1, stopAfterFailures: 1 });
    await until(() => firmwareFor(a.d, '2.1.0').length === 1, 'a sent');
    await a.d.send('progress', { ref: firmwareFor(a.d, '2.1.0')[0].id, stage: 'failed', percent: 0 });
    await until(async () => (await detail(id)).state === 'halted', 'halted');
    const shown = await detail(id);
    expect(shown.devices.map((d) => d.state)).toEqual(['failed', 'queued', 'queued']);
    expect(shown.devices[0].error).toBe(firmwareMessages.failedOnDevice);
    await t.app.devices.firmware.tick();
    expect(firmwareFor(b.d, '2.1.0')).toHaveLength(0);
    const active = await t.db
      .select()
      .from(firmwareRolloutDevices)
      .where(sql`${firmwareRolloutDevices.rolloutId} = ${id} and ${firmwareRolloutDevices.active}`);
    expect(active).toEqual([]);
  });

  test('rollout: one device in one rollout at a time (409 naming it); pause, resume, cancel', async () => {
    const { id, fileId } = await rollout('2.2.0', [a, b], { batchSize: 1, stopAfterFailures: 2 });
    const second = await post(fw.rollout, {
      firmwareId: fileId,
      deviceIds: [c.id, b.id],
      batchSize: 1,
      stopAfterFailures: 1,
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().msg).toBe(firmwareMessages.busy(`门 ${b.sn}`, id));

    await until(() => firmwareFor(a.d, '2.2.0').length === 1, 'a sent');
    expect((await post(fw.rolloutPause, { id })).statusCode).toBe(200);
    expect((await post(fw.rolloutPause, { id })).json().msg).toBe(firmwareMessages.cannotPause);
    await restartOn(a, '2.2.0');
    await until(async () => (await deviceState(id, a.sn)).state === 'done', 'a done while paused');
    await t.app.devices.firmware.tick();
    expect(firmwareFor(b.d, '2.2.0')).toHaveLength(0);
    expect((await detail(id)).state).toBe('paused');

    expect((await post(fw.rolloutResume, { id })).statusCode).toBe(200);
    await until(() => firmwareFor(b.d, '2.2.0').length === 1, 'b sent after resume');
    expect((await post(fw.rolloutResume, { id })).json().msg).toBe(firmwareMessages.cannotResume);

    expect((await post(fw.rolloutCancel, { id })).statusCode).toBe(200);
    expect((await detail(id)).state).toBe('cancelled');
    const again = await post(fw.rolloutCancel, { id });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(firmwareMessages.cannotCancel);
    expect((await post(fw.rolloutCancel, { id: 999_999 })).statusCode).toBe(404);
    // b's update was under way: it still counts until it ends, then b is free again.
    await b.d.send('progress', { ref: firmwareFor(b.d, '2.2.0')[0].id, stage: 'failed', percent: 0 });
    await until(async () => (await deviceState(id, b.sn)).state === 'failed', 'b failed');
    const page = (await get(`${fw.rolloutPage}?state=cancelled`)).json().data;
    expect(page.records.map((r: { id: number }) => r.id)).toContain(id);
  });

  test('rollout: a device that neither finishes nor fails within the timeout has failed', async () => {
    const { id } = await rollout('2.3.0', [c], { batchSize: 1, stopAfterFailures: 1, timeoutMinutes: 1 });
    await until(() => firmwareFor(c.d, '2.3.0').length === 1, 'c sent');
    await t.app.devices.firmware.tick();
    expect((await deviceState(id, c.sn)).state).toBe('sent');
    // As if the minute had passed.
    await t.db.execute(sql`update firmware_rollout_devices set sent_at = now() - interval '61 seconds'
      where rollout_id = ${id}`);
    await t.app.devices.firmware.tick();
    expect(await deviceState(id, c.sn)).toMatchObject({ state: 'failed', error: firmwareMessages.timedOut });
    expect((await detail(id)).state).toBe('halted');
  });
});
