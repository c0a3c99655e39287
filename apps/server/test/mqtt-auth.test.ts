/**
 * The HTTP authenticator and authorizer an external broker (EMQX) calls: the same credentials and
 * topic rules as the embedded broker, behind MQTT_AUTH_TOKEN, absent without it.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { devices } from '../src/db/schema.ts';
import { mqttAuthPaths } from '../src/modules/mqtt-auth/routes.ts';
import { buildTestApp, type TestApp } from './helper.ts';

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

test('without MQTT_AUTH_TOKEN the endpoints do not exist', async () => {
  const plain = await buildTestApp({ demoRows: false });
  try {
    const res = await plain.app.inject({ method: 'POST', url: mqttAuthPaths.authenticate, payload: {} });
    expect(res.statusCode).toBe(404);
  } finally {
    await plain.close();
  }
});
