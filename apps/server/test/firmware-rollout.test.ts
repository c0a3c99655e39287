/**
 * A firmware rollout end to end over HTTP and the embedded broker: the server listens at its
 * PUBLIC_URL, simulated v1.1 devices fetch the signed link, check size and SHA-256, report
 * `progress` and restart on the new version; one whose check fails reports `failed` and keeps its
 * old firmware.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { doorOperationEndpoints as fw } from '@cowork/contract';
import { devices } from '../src/db/schema.ts';
import { doorFixture } from './device-fixture.ts';
import { type TestApp, until } from './helper.ts';
import { freePort } from './mosquitto-server.ts';

const doors = doorFixture({
  enrolKey: 'test-enrol-key-firmware-http',
  device: { model: 'SIM-FW', protocol: '1.1', heartbeatMs: 1_000, reconnectMs: 100 },
});
const { get, post, registered } = doors;
let t: TestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-firmware-http-'));
  const port = await freePort();
  t = await doors.start({ config: { dataDir, publicUrl: `http://127.0.0.1:${port}` } });
  await t.app.listen({ port, host: '127.0.0.1' });
});

afterAll(async () => {
  await doors.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

test('devices download the signed link, check it, and finish on the new version; a failed check fails', async () => {
  const good = await registered('FWH-GOOD');
  const bad = await registered('FWH-BAD', { failFirmwareCheck: true });
  const file = randomBytes(300 * 1024);
  const boundary = 'fwboundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="version"\r\n\r\n3.0.0\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nSIM-FW\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="sim.bin"\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const uploaded = await post(fw.firmwareUpload, payload, {
    'content-type': `multipart/form-data; boundary=${boundary}`,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const firmwareId = uploaded.json<{ data: { id: number } }>().data.id;
  const started = await post(fw.rollout, {
    firmwareId,
    deviceIds: [good.id, bad.id],
    batchSize: 1,
    stopAfterFailures: 2,
  });
  expect(started.statusCode, started.body).toBe(200);
  const id = started.json<{ data: { id: number } }>().data.id;
  const detail = async () =>
    (await get(`${fw.rolloutDetail}/${id}`)).json<{
      data: {
        state: string;
        devices: { sn: string; state: string; percent: number; error: string | null }[];
      };
    }>().data;
  await until(async () => (await detail()).state === 'done', 'rollout done', 30_000);
  const [first, second] = (await detail()).devices;
  expect(first).toMatchObject({ sn: 'FWH-GOOD', state: 'done', percent: 100, error: null });
  expect(second).toMatchObject({ sn: 'FWH-BAD', state: 'failed' });
  expect(second.error).toContain('sha256 mismatch');
  expect(good.d.firmware).toBe('3.0.0');
  expect(bad.d.firmware).toBe('1.0.0');
  const [row] = await t.db.select().from(devices).where(eq(devices.id, good.id));
  expect(row.firmware).toBe('3.0.0');
});
