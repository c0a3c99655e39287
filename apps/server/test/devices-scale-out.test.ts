/**
 * Two API instances on one database and one external broker (TEST_MQTT_URL; CI: the local
 * Mosquitto), as docs/deploy.md runs them: either instance commands the device (the ack reaches
 * the one waiting), a door event is logged once, and an access change both instances react to is
 * sent to the device once. Skipped without an external broker: the embedded broker serves one
 * instance.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deviceEndpoints } from '@cowork/contract';
import { buildApp } from '../src/app.ts';
import { devices } from '../src/db/schema.ts';
import { SimulatedDevice } from '../src/device-link/simulator.ts';
import { buildTestApp, demo, type TestApp } from './helper.ts';

const brokerUrl = process.env.TEST_MQTT_URL;

describe.skipIf(!brokerUrl)('two instances on one broker', () => {
  let t: TestApp;
  let second: Awaited<ReturnType<typeof buildApp>>;
  let headers: Record<string, string>;
  let device: SimulatedDevice;
  let deviceId: number;
  const sn = `SCALE-${randomBytes(3).toString('hex')}`;

  const until = async (probe: () => boolean | Promise<boolean>, what: string, ms = 8_000) => {
    const deadline = Date.now() + ms;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const syncs = () => device.commands.filter((c) => c.type === 'sync').length;

  beforeAll(async () => {
    const enrolKey = 'scale-out-enrol-key';
    // Each instance has a client id (and persistent session) of its own, as MQTT_CLIENT_ID gives.
    t = await buildTestApp({
      demoRows: false,
      config: { mqttUrl: brokerUrl, deviceEnrolKey: enrolKey, mqttClientId: `cowork-test.${sn}.1` },
    });
    await t.app.ready();
    second = await buildApp({
      config: { ...t.config, mqttClientId: `cowork-test.${sn}.2` },
      db: t.db,
      logger: false,
    });
    await second.ready();
    headers = await t.auth(...demo.admin);

    const enrolling = new SimulatedDevice({ url: brokerUrl!, sn, enrolKey });
    await enrolling.connect();
    await until(
      async () =>
        (await t.app.inject({ url: deviceEndpoints.unPulledList, headers }))
          .json()
          .data.some((d: { sn: string }) => d.sn === sn),
      'the device waiting',
    );
    const res = await t.app.inject({
      method: 'POST',
      url: deviceEndpoints.register,
      headers,
      payload: { sn, name: '横向扩展测试门', spaceId: null },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id, secret } = res.json().data;
    deviceId = id;
    await enrolling.close();
    device = new SimulatedDevice({ url: brokerUrl!, sn, secret, heartbeatMs: 1_000 });
    await device.connect();
    // Both instances hear the hello; one claims it and sends the sync.
    await until(() => syncs() > 0, 'the sync after hello');
    await new Promise((r) => setTimeout(r, 500));
    expect(syncs()).toBe(1);
  });

  afterAll(async () => {
    await device?.close();
    await second?.close();
    await t?.close();
  });

  test('the other instance commands the device; the door event is logged once', async () => {
    const other = await second.inject({
      method: 'POST',
      url: deviceEndpoints.openDoor,
      headers,
      payload: { id: deviceId, durationS: 2 },
    });
    expect(other.statusCode, other.body).toBe(200);
    const logged = async () =>
      (await t.app.inject({ url: deviceEndpoints.openLogPage, headers, query: { sn } })).json().data.total;
    await until(async () => (await logged()) === 1, 'the door event logged');
    await new Promise((r) => setTimeout(r, 500));
    expect(await logged()).toBe(1);
  });

  test('an access change both instances react to is sent once', async () => {
    // A change committed (here straight into the row), then both instances told of it at once.
    const rule = { cardNo: 'SCALE001', validFrom: Date.now(), validTo: Date.now() + 3_600_000 };
    await t.db
      .update(devices)
      .set({ cardRules: [rule] })
      .where(eq(devices.id, deviceId));
    const before = syncs();
    await Promise.all([
      t.app.devices.accessChanged({ deviceIds: [deviceId] }),
      second.devices.accessChanged({ deviceIds: [deviceId] }),
    ]);
    await until(() => device.state.cardRules.length === 1, 'the card rule synced');
    await new Promise((r) => setTimeout(r, 500));
    expect(syncs()).toBe(before + 1);
  });
});
