/**
 * The HTTP authenticator and authorizer an external broker (EMQX) calls: the same credentials and
 * topic rules as the embedded broker, behind MQTT_AUTH_TOKEN, absent without it.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { deviceEndpoints } from '@cowork/contract';
import { deviceEnrolments, devices } from '../src/db/schema.ts';
import { mqttAuthPaths } from '../src/modules/mqtt-auth/routes.ts';
import { SimulatedDevice } from '../src/device-link/simulator.ts';
import { buildTestApp, demo, type TestApp, until } from './helper.ts';

const token = 'mqtt-auth-token-for-tests-0123456789abcdef';
const enrolKey = 'enrol-key-for-mqtt-auth-tests';
const secret = 'A'.repeat(43);
let t: TestApp;

const call = (path: string, body: object, authorization = `Bearer ${token}`) =>
  t.app.inject({ method: 'POST', url: path, payload: body, headers: { authorization } });
const result = async (path: string, body: object) => {
  const res = await call(path, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: string; is_superuser?: boolean }>();
};

beforeAll(async () => {
  t = await buildTestApp({
    demoRows: false,
    // Nothing listens there: the console's link stays down, which these endpoints do not need.
    config: {
      mqttAuthToken: token,
      deviceEnrolKey: enrolKey,
      mqttUrl: 'mqtt://cowork:server-pass@127.0.0.1:9',
    },
  });
  await t.db
    .insert(devices)
    .values({ sn: 'EMQX-1', name: '外部代理测试门', secret: t.app.devices.box.seal(secret) });
});
afterAll(() => t?.close());

test('only the broker holding the token may ask', async () => {
  expect((await call(mqttAuthPaths.authenticate, {}, '')).statusCode).toBe(401);
  expect((await call(mqttAuthPaths.authenticate, {}, `Bearer ${'x'.repeat(token.length)}`)).statusCode).toBe(
    401,
  );
});

test('authentication: a device with its secret, an unregistered sn with the enrolment key, the console', async () => {
  const login = (clientid: string, username: string, password: string) =>
    result(mqttAuthPaths.authenticate, { clientid, username, password });
  expect(await login('EMQX-1', 'EMQX-1', secret)).toEqual({ result: 'allow', is_superuser: false });
  expect((await login('EMQX-1', 'EMQX-1', 'B'.repeat(43))).result).toBe('deny');
  expect((await login('EMQX-1', 'EMQX-1', enrolKey)).result).toBe('deny');
  expect((await login('EMQX-1', 'other', secret)).result).toBe('deny');
  expect((await login('NEW-9', 'NEW-9', enrolKey)).result).toBe('allow');
  expect((await login('bad sn!', 'bad sn!', enrolKey)).result).toBe('deny');
  expect(await login('cowork-server-1', 'cowork', 'server-pass')).toEqual({
    result: 'allow',
    is_superuser: true,
  });
  expect((await login('cowork-server-1', 'cowork', 'guess')).result).toBe('deny');
});

test('authorisation: a device uses only its own topics; an enrolling one may only publish evt', async () => {
  const may = async (clientid: string, action: string, topic: string) =>
    (await result(mqttAuthPaths.authorize, { clientid, username: clientid, action, topic })).result;
  expect(await may('EMQX-1', 'publish', 'devices/EMQX-1/evt')).toBe('allow');
  expect(await may('EMQX-1', 'publish', 'devices/EMQX-1/status')).toBe('allow');
  expect(await may('EMQX-1', 'publish', 'devices/EMQX-1/cmd')).toBe('deny');
  expect(await may('EMQX-1', 'publish', 'devices/OTHER/evt')).toBe('deny');
  expect(await may('EMQX-1', 'subscribe', 'devices/EMQX-1/cmd')).toBe('allow');
  expect(await may('EMQX-1', 'subscribe', 'devices/+/cmd')).toBe('deny');
  expect(await may('EMQX-1', 'subscribe', 'devices/EMQX-1/evt')).toBe('deny');
  expect(await may('NEW-9', 'publish', 'devices/NEW-9/evt')).toBe('allow');
  expect(await may('NEW-9', 'publish', 'devices/NEW-9/status')).toBe('deny');
  const spoofed = await result(mqttAuthPaths.authorize, {
    clientid: 'EMQX-1',
    username: 'NEW-9',
    action: 'publish',
    topic: 'devices/EMQX-1/evt',
  });
  expect(spoofed.result).toBe('deny');
});

test("the issue's attack: the enrolment key under the console's username is no one, and `#` is not granted to it", async () => {
  const attack = { clientid: 'cowork', username: 'cowork', password: enrolKey };
  expect(await result(mqttAuthPaths.authenticate, attack)).toEqual({ result: 'deny', is_superuser: false });
  expect((await result(mqttAuthPaths.authenticate, { ...attack, clientid: 'cowork-2' })).result).toBe('deny');
  const everything = { clientid: 'cowork', username: 'cowork', topic: '#', action: 'subscribe' };
  expect((await result(mqttAuthPaths.authorize, everything)).result).toBe('deny');
  // A device registered under that name before (it can no longer be) does not log in with its secret.
  await t.db.insert(devices).values({ sn: 'cowork', name: '旧设备', secret: t.app.devices.box.seal(secret) });
  try {
    expect((await result(mqttAuthPaths.authenticate, { ...attack, password: secret })).result).toBe('deny');
  } finally {
    await t.db.delete(devices).where(eq(devices.sn, 'cowork'));
  }
  // The console itself, with its password and its own client id, still may.
  expect(
    await result(mqttAuthPaths.authenticate, {
      ...attack,
      clientid: 'cowork-server.a.3000',
      password: 'server-pass',
    }),
  ).toEqual({ result: 'allow', is_superuser: true });
  expect(
    (await result(mqttAuthPaths.authorize, { ...everything, clientid: 'cowork-server.a.3000' })).result,
  ).toBe('allow');
});

test("no device may be registered under the console's username: 400 naming the field, nothing written", async () => {
  await t.db.insert(deviceEnrolments).values({ sn: 'cowork', model: 'SIM-100' });
  const headers = await t.auth(...demo.admin);
  const res = await t.app.inject({
    method: 'POST',
    url: deviceEndpoints.register,
    headers,
    payload: { sn: 'cowork', name: '冒充控制台', spaceId: null },
  });
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().msg).toContain('设备序列号“cowork”');
  expect(await t.db.select().from(devices).where(eq(devices.sn, 'cowork'))).toEqual([]);
  await t.db.delete(deviceEnrolments).where(eq(deviceEnrolments.sn, 'cowork'));
});

/** The local Mosquitto (anonymous, it checks no one): the console alone must ignore the name. */
const mosquitto = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

test("a hello signed with the enrolment key under the console's username is not listed as waiting", async () => {
  const url = new URL(mosquitto);
  url.username = 'cowork-v11-console';
  url.password = 'console-pass';
  const app = await buildTestApp({
    demoRows: false,
    config: {
      deviceEnrolKey: enrolKey,
      mqttUrl: url.toString(),
      mqttClientId: `cowork-server.test.${process.pid}`,
    },
  });
  const devicesStarted: SimulatedDevice[] = [];
  try {
    await app.app.ready();
    const headers = await app.auth(...demo.admin);
    const waiting = async () =>
      (await app.app.inject({ method: 'GET', url: deviceEndpoints.unPulledList, headers }))
        .json<{ data: { sn: string }[] }>()
        .data.map((d) => d.sn);
    const control = `CTRL-${process.pid}`;
    for (const sn of ['cowork-v11-console', control]) {
      const d = new SimulatedDevice({ url: mosquitto, sn, enrolKey });
      devicesStarted.push(d);
      await d.connect();
    }
    await until(async () => (await waiting()).includes(control), 'the control device waiting');
    expect(await waiting()).not.toContain('cowork-v11-console');
  } finally {
    await Promise.all(devicesStarted.map((d) => d.close().catch(() => undefined)));
    await app.close();
  }
});

test('without MQTT_AUTH_TOKEN the endpoints do not exist', async () => {
  const plain = await buildTestApp({ demoRows: false });
  try {
    const res = await plain.app.inject({ method: 'POST', url: mqttAuthPaths.authenticate, payload: {} });
    expect(res.statusCode).toBe(404);
  } finally {
    await plain.close();
  }
});
