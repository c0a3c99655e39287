/**
 * The start-up check of MQTT_URL's broker (devices/broker-check.ts), against two Mosquittos of the
 * test's own: an anonymous one, whose holes it finds (and production refuses to start on it unless
 * MQTT_ALLOW_UNAUTHENTICATED=true), and the set-up docs/deploy.md shows, built from exactly the
 * files in docs/mosquitto/, where it finds none and each device keeps to its own topics.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { endpoints } from '@cowork/contract';
import { ConfigError } from '../src/config.ts';
import { checkBroker } from '../src/device-link/broker-check.ts';
import { topics } from '../src/device-link/protocol.ts';
import { buildTestApp, until } from './helper.ts';
import { startMosquitto, type MosquittoServer } from './mosquitto-server.ts';

const docs = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../docs');
const docFile = (name: string) => readFileSync(path.join(docs, name), 'utf8');

interface Health {
  mqtt: string;
  mqttBroker?: { checked: boolean; unauthenticated: boolean; findings: string[] };
}

/** /api/health of an app on MQTT_URL `url` with these settings, or the error its start threw. */
async function healthOn(
  url: string,
  config: { nodeEnv?: 'production'; mqttAllowUnauthenticated?: boolean } = {},
) {
  const t = await buildTestApp({ seed: false, config: { mqttUrl: url, ...config } });
  try {
    await t.app.ready();
    return (await t.app.inject({ method: 'GET', url: endpoints.health })).json<{ data: Health }>().data;
  } catch (error) {
    return error;
  } finally {
    await t.close();
  }
}

const clients: MqttClient[] = [];
async function client(url: string, options: mqtt.IClientOptions = {}) {
  const c = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 5_000, ...options }, false);
  clients.push(c);
  return c;
}
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
});

describe('an anonymous Mosquitto', () => {
  let broker: MosquittoServer;
  beforeAll(async () => {
    broker = await startMosquitto((port) => `listener ${port} 127.0.0.1\nallow_anonymous true\n`);
  });
  afterAll(() => broker?.stop());

  test('the check finds every hole: connect, read every device, write on another device', async () => {
    const findings = await checkBroker(broker.url());
    const joined = findings.join('\n');
    expect(joined).toContain('an anonymous client may connect');
    expect(joined).toMatch(/an anonymous client may subscribe to devices\/#/);
    expect(joined).toMatch(/an anonymous client may publish on another device's topics/);
    expect(joined).toMatch(/a made-up device name \(cowork-check-\w+\) with a wrong password may connect/);
    expect(joined).toMatch(/a made-up device name .* may subscribe to devices\/#/);
    expect(joined).toMatch(/a made-up device name .* may publish on another device's topics/);
    expect(findings).toHaveLength(6);
  });

  test('development starts and says so in /api/health', async () => {
    const health = await healthOn(broker.url());
    expect(health).toMatchObject({ mqtt: 'up', mqttBroker: { checked: true, unauthenticated: true } });
    expect((health as Health).mqttBroker!.findings.length).toBeGreaterThan(0);
  });

  test('production refuses to start, naming MQTT_ALLOW_UNAUTHENTICATED; with it set it starts', async () => {
    const refused = await healthOn(broker.url(), { nodeEnv: 'production' });
    expect(refused).toBeInstanceOf(ConfigError);
    expect(String(refused)).toContain('MQTT_ALLOW_UNAUTHENTICATED=true');
    expect(String(refused)).toContain('docs/deploy.md');

    const allowed = await healthOn(broker.url(), { nodeEnv: 'production', mqttAllowUnauthenticated: true });
    expect(allowed).toMatchObject({ mqtt: 'up', mqttBroker: { checked: true, unauthenticated: true } });
  });
});

describe('the Mosquitto set-up of docs/deploy.md', () => {
  let broker: MosquittoServer;
  const consolePassword = randomBytes(18).toString('base64url');
  const secrets = { A: randomBytes(32).toString('base64url'), B: randomBytes(32).toString('base64url') };
  const sn = (name: 'A' | 'B') => `CHECK-${name}`;

  beforeAll(async () => {
    broker = await startMosquitto(
      // The files as the docs show them; only the port and the folder are the test's own.
      (port, dir) =>
        docFile('mosquitto/cowork.conf')
          .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`)
          .replaceAll('/etc/mosquitto/cowork/', `${dir}/`),
      async (dir) => {
        await writeFile(path.join(dir, 'acl'), docFile('mosquitto/cowork.acl'));
        const passwd = path.join(dir, 'passwd');
        execFileSync('mosquitto_passwd', ['-c', '-b', passwd, 'cowork.console', consolePassword]);
        for (const name of ['A', 'B'] as const)
          execFileSync('mosquitto_passwd', ['-b', passwd, sn(name), secrets[name]]);
      },
    );
  });
  afterAll(() => broker?.stop());

  test('docs/deploy.md shows exactly these files', () => {
    const deploy = docFile('deploy.md');
    expect(deploy).toContain(docFile('mosquitto/cowork.conf'));
    expect(deploy).toContain(docFile('mosquitto/cowork.acl'));
  });

  test('the check finds nothing, and production starts on it', async () => {
    expect(await checkBroker(broker.url('cowork.console', consolePassword))).toEqual([]);
    const health = await healthOn(broker.url('cowork.console', consolePassword), { nodeEnv: 'production' });
    expect(health).toMatchObject({
      mqtt: 'up',
      mqttBroker: { checked: true, unauthenticated: false, findings: [] },
    });
  });

  test('each device signs in with its own secret and uses only its own topics', async () => {
    const operator = await client(broker.url('cowork.console', consolePassword), {
      clientId: 'check-console',
    });
    const heard: string[] = [];
    operator.on('message', (topic, payload) => heard.push(`${topic} ${payload.toString()}`));
    await operator.subscribeAsync(['devices/+/evt', 'devices/+/status'], { qos: 1 });

    const device = (name: 'A' | 'B', password = secrets[name]) =>
      client(broker.url(sn(name), password), { clientId: sn(name) });
    await expect(device('A', secrets.B)).rejects.toThrow();
    const a = await device('A');
    const b = await device('B');
    const got: Record<string, string[]> = { A: [], B: [] };
    a.on('message', (topic) => got.A.push(topic));
    b.on('message', (topic) => got.B.push(topic));
    await a.subscribeAsync(topics.cmd(sn('A')), { qos: 1 });
    // Mosquitto grants this SUBACK but never delivers B's commands to A (checked below).
    await a.subscribeAsync(topics.cmd(sn('B')), { qos: 1 });
    await b.subscribeAsync(topics.cmd(sn('B')), { qos: 1 });

    // A's own topics reach the console; A posing as B is dropped.
    await a.publishAsync(topics.status(sn('B')), '{"online":false}', { qos: 1 });
    await a.publishAsync(topics.evt(sn('B')), '{"forged":true}', { qos: 1 });
    await a.publishAsync(topics.status(sn('A')), '{"online":true}', { qos: 1 });
    await a.publishAsync(topics.evt(sn('A')), '{"own":true}', { qos: 1 });
    await until(() => heard.includes(`${topics.evt(sn('A'))} {"own":true}`), "A's event at the console");
    // Mosquitto delivers one client's messages in order: the forged ones, sent first, would be here.
    expect(heard).toEqual([
      `${topics.status(sn('A'))} {"online":true}`,
      `${topics.evt(sn('A'))} {"own":true}`,
    ]);

    // The console commands each device; each gets its own only.
    await operator.publishAsync(topics.cmd(sn('B')), '{"to":"B"}', { qos: 1 });
    await operator.publishAsync(topics.cmd(sn('A')), '{"to":"A"}', { qos: 1 });
    await until(() => got.A.length > 0 && got.B.length > 0, 'both commands delivered');
    expect(got).toEqual({ A: [topics.cmd(sn('A'))], B: [topics.cmd(sn('B'))] });
  });
});
