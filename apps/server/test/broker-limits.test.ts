/**
 * The embedded broker against clients that never finish connecting or ask it to keep data
 * (devices/broker.ts): connection caps in total and per address with HTTP still answering, the
 * CONNECT timeout, the CONNECT size limit, retained messages, and the TLS listener (same rules).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { endpoints } from '@cowork/contract';
import { ConfigError, loadConfig } from '../src/config.ts';
import { brokerSettingsOf, startEmbeddedBroker, type EmbeddedBroker } from '../src/device-link/broker.ts';
import type { Credentials } from '../src/device-link/rules.ts';
import { topics } from '../src/device-link/protocol.ts';
import { buildTestApp, until, type TestApp } from './helper.ts';
import { selfSignedCertificate } from './self-signed.ts';

const enrolKey = 'test-enrol-key-0123456789';
const secret = 'a'.repeat(43);
/** DEV-1 is registered with `secret`; every other sn may enrol. */
const credentials = async (sn: string): Promise<Credentials> =>
  sn === 'DEV-1' ? { registered: true, secrets: [secret] } : { registered: false };

interface Held {
  socket: net.Socket;
  closed: boolean;
}

/** Opens `count` TCP connections one after the other from `localAddress`, sending nothing. */
async function hold(port: number, count: number, localAddress = '127.0.0.1'): Promise<Held[]> {
  const held: Held[] = [];
  for (let i = 0; i < count; i++) {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    const entry = { socket, closed: false };
    socket.on('error', () => undefined);
    socket.on('close', () => (entry.closed = true));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    held.push(entry);
  }
  return held;
}
const closedIndexes = (held: Held[]) => held.flatMap((h, i) => (h.closed ? [i] : []));
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** The fixed header of a CONNECT announcing `length` bytes to follow. */
function connectHeader(length: number): Buffer {
  const bytes = [0x10];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return Buffer.from(bytes);
}

const brokers: EmbeddedBroker[] = [];
async function broker(options: Partial<Parameters<typeof startEmbeddedBroker>[0]> = {}) {
  const b = await startEmbeddedBroker({ port: 0, host: '127.0.0.1', enrolKey, credentials, ...options });
  brokers.push(b);
  return b;
}
afterAll(async () => {
  await Promise.all(brokers.map((b) => b.close()));
});

describe('a port it cannot have', () => {
  test('the start fails with the reason, and nothing of the broker keeps the process alive', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cowork-taken-port-'));
    // In a process of its own, which must end by itself once the start failed (aedes's timers,
    // left running, kept `npm run bench` alive for good on a machine where Mosquitto holds 1883).
    const script = path.join(dir, 'start.mts');
    writeFileSync(
      script,
      `import { startEmbeddedBroker } from ${JSON.stringify(new URL('../src/device-link/broker.ts', import.meta.url).pathname)};
try {
  await startEmbeddedBroker({ port: ${port}, host: '127.0.0.1', enrolKey: ${JSON.stringify(enrolKey)}, credentials: async () => ({ registered: false }) });
  console.log('started');
} catch (error) {
  console.log((error as NodeJS.ErrnoException).code);
}
`,
    );
    try {
      // The bound only ends a process that would otherwise never exit.
      const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.stdout.trim()).toBe('EADDRINUSE');
      expect({ status: run.status, signal: run.signal }).toEqual({ status: 0, signal: null });
    } finally {
      holder.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('connection caps', () => {
  let t: TestApp;
  let http: string;
  let mqttPort: number;
  const held: Held[] = [];

  beforeAll(async () => {
    t = await buildTestApp({
      seed: false,
      config: {
        deviceEnrolKey: enrolKey,
        mqttMaxConnections: 250,
        mqttMaxConnectionsPerAddress: 150,
        // Long enough that only the caps close anything here; the timeout has its own test.
        mqttConnectTimeoutMs: 120_000,
      },
    });
    http = await t.app.listen({ port: 0, host: '127.0.0.1' });
    mqttPort = Number(new URL(t.app.devices.status().url!).port);
  });
  afterAll(async () => {
    held.forEach((h) => h.socket.destroy());
    await t?.close();
  });

  const health = async () => {
    const res = await fetch(`${http}${endpoints.health}`);
    return { status: res.status, body: (await res.json()) as { data: { status: string; mqtt: string } } };
  };

  test('past the cap per address, then the total cap, connections are closed at once; HTTP answers', async () => {
    const one = await hold(mqttPort, 180, '127.0.0.1');
    held.push(...one);
    await until(() => closedIndexes(one).length >= 30, '30 connections from 127.0.0.1 closed');
    expect(closedIndexes(one)).toEqual(range(150, 180));
    expect(await health()).toMatchObject({ status: 200, body: { data: { status: 'up', mqtt: 'up' } } });

    // Another address gets its own 150, but the 250 in all are reached after 100.
    const two = await hold(mqttPort, 130, '127.0.0.2');
    held.push(...two);
    await until(() => closedIndexes(two).length >= 30, '30 connections from 127.0.0.2 closed');
    expect(closedIndexes(two)).toEqual(range(100, 130));
    expect(closedIndexes(one)).toEqual(range(150, 180));
    expect(await health()).toMatchObject({ status: 200, body: { data: { status: 'up', mqtt: 'up' } } });

    // Connections that close give their places back: a device connects again from 127.0.0.1.
    one.forEach((h) => h.socket.destroy());
    const device = await until(
      () =>
        mqtt
          .connectAsync(
            `mqtt://127.0.0.1:${mqttPort}`,
            { clientId: 'CAP-1', username: 'CAP-1', password: enrolKey, reconnectPeriod: 0 },
            false,
          )
          .catch(() => undefined),
      'a device connecting once places are free',
    );
    expect(device.connected).toBe(true);
    await device.endAsync();
  });
});

describe('unfinished and oversized CONNECTs', () => {
  test('a socket that has not completed its CONNECT is closed after the timeout (5 s)', async () => {
    const b = await broker();
    const [slow] = await hold(b.port, 1);
    // The first 5 bytes of a CONNECT, and nothing more.
    slow.socket.write(Buffer.from([0x10, 0x20, 0x00, 0x04, 0x4d]));
    await until(() => slow.closed, 'the slow CONNECT closed', 15_000);
  });

  test('a CONNECT announcing more than a few KB is closed before its body arrives', async () => {
    const refused: string[] = [];
    const b = await broker({
      limits: { connectTimeoutMs: 120_000 },
      onRefused: (_sn, reason) => refused.push(reason),
    });
    const [big] = await hold(b.port, 1);
    // 100 KB is within the PUBLISH limit: only the CONNECT limit closes this.
    big.socket.write(Buffer.concat([connectHeader(100_000), Buffer.from([0x00, 0x04])]));
    await until(() => big.closed, 'the oversized CONNECT closed');
    expect(refused).toEqual(['oversized-connect']);

    // A CONNECT within the limit is read and answered.
    const device = await mqtt.connectAsync(
      `mqtt://127.0.0.1:${b.port}`,
      { clientId: 'SIZE-1', username: 'SIZE-1', password: enrolKey, reconnectPeriod: 0 },
      false,
    );
    expect(device.connected).toBe(true);
    await device.endAsync();
  });

  test('the longest enrolment key the settings take fits in a CONNECT', async () => {
    expect(() => loadConfig({ DEVICE_ENROL_KEY: 'k'.repeat(1025) })).toThrow(
      /DEVICE_ENROL_KEY must be at most 1024/,
    );
    const longest = loadConfig({ DEVICE_ENROL_KEY: 'k'.repeat(1024) }).deviceEnrolKey;
    const b = await broker({ enrolKey: longest });
    const device = await mqtt.connectAsync(
      `mqtt://127.0.0.1:${b.port}`,
      {
        clientId: 'X'.repeat(64),
        username: 'X'.repeat(64),
        password: longest,
        will: {
          topic: topics.status('X'.repeat(64)),
          payload: Buffer.from('{"online":false}'),
          qos: 1,
          retain: true,
        },
        reconnectPeriod: 0,
      },
      false,
    );
    expect(device.connected).toBe(true);
    await device.endAsync();
  });
});

describe('retained messages', () => {
  /** Every retained message the broker holds under devices/. */
  async function retained(b: EmbeddedBroker): Promise<{ topic: string; payload: Buffer }[]> {
    const persistence = (
      b.aedes as unknown as {
        persistence: { createRetainedStream(p: string): AsyncIterable<{ topic: string; payload: Buffer }> };
      }
    ).persistence;
    const found: { topic: string; payload: Buffer }[] = [];
    for await (const packet of persistence.createRetainedStream('devices/#')) found.push(packet);
    return found;
  }

  test('1 000 retained 250 KB hellos: none is kept', async () => {
    const b = await broker();
    const hello = Buffer.from(
      JSON.stringify({ type: 'hello', params: { pad: 'x'.repeat(250 * 1024 - 40) } }),
    );
    let heard = 0;
    b.aedes.subscribe(
      'devices/+/evt',
      (_packet, done) => (heard++, done()),
      () => undefined,
    );
    for (let batch = 0; batch < 40; batch++) {
      await Promise.all(
        Array.from({ length: 25 }, async (_, i) => {
          const sn = `FLOOD-${batch * 25 + i}`;
          const c = await mqtt.connectAsync(
            `mqtt://127.0.0.1:${b.port}`,
            { clientId: sn, username: sn, password: enrolKey, reconnectPeriod: 0 },
            false,
          );
          await c.publishAsync(topics.evt(sn), hello, { qos: 1, retain: true });
          await c.endAsync();
        }),
      );
    }
    // Passed on (the server still hears each hello), not kept.
    await until(() => heard === 1000, 'every hello passed on');
    expect(await retained(b)).toEqual([]);
  });

  test("a device's small status stays retained; a status over 64 bytes is refused", async () => {
    const b = await broker();
    const device = await mqtt.connectAsync(
      `mqtt://127.0.0.1:${b.port}`,
      { clientId: 'DEV-1', username: 'DEV-1', password: secret, reconnectPeriod: 0 },
      false,
    );
    await device.publishAsync(topics.status('DEV-1'), '{"online":true}', { qos: 1, retain: true });
    await until(async () => (await retained(b)).length === 1, 'the status retained');
    let closed = false;
    device.once('close', () => (closed = true));
    device.publish(topics.status('DEV-1'), JSON.stringify({ online: true, pad: 'x'.repeat(60) }), {
      qos: 1,
      retain: true,
    });
    await until(() => closed, 'the device cut for its oversized status');
    const kept = await retained(b);
    expect(kept.map((p) => [p.topic, p.payload.toString()])).toEqual([
      [topics.status('DEV-1'), '{"online":true}'],
    ]);
    device.end(true);
  });
});

describe('the TLS listener', () => {
  let dir: string;
  const env: Record<string, string> = {};
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cowork-mqtt-tls-'));
    const { cert, key } = selfSignedCertificate(dir);
    Object.assign(env, { MQTT_PORT: '0', MQTT_TLS_PORT: '0', MQTT_TLS_CERT: cert, MQTT_TLS_KEY: key });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('mqtts with the same credentials and rules; a silent or oversized client is closed', async () => {
    const settings = brokerSettingsOf(loadConfig(env));
    const b = await broker({ ...settings, limits: { ...settings.limits, connectTimeoutMs: 1_000 } });
    expect(b.tlsPort).toBeGreaterThan(0);
    const url = `mqtts://127.0.0.1:${b.tlsPort}`;
    const tlsOptions = { rejectUnauthorized: false, reconnectPeriod: 0 };
    const heard: string[] = [];
    b.aedes.subscribe(
      'devices/+/evt',
      (packet, done) => (heard.push(packet.topic), done()),
      () => undefined,
    );

    const device = await mqtt.connectAsync(
      url,
      { ...tlsOptions, clientId: 'TLS-1', username: 'TLS-1', password: enrolKey },
      false,
    );
    await device.publishAsync(topics.evt('TLS-1'), JSON.stringify({ type: 'hello' }), { qos: 1 });
    await until(() => heard.includes(topics.evt('TLS-1')), 'the hello over TLS');
    await device.endAsync();
    await expect(
      mqtt.connectAsync(
        url,
        { ...tlsOptions, clientId: 'TLS-2', username: 'TLS-2', password: 'wrong-key' },
        false,
      ),
    ).rejects.toThrow();

    // No handshake at all: closed after the connect timeout.
    const [silent] = await hold(b.tlsPort!, 1);
    await until(() => silent.closed, 'the silent TLS connection closed');
    // A handshake, then a CONNECT announcing 100 KB: closed before its body.
    const big = tls.connect({ port: b.tlsPort!, host: '127.0.0.1', rejectUnauthorized: false });
    let bigClosed = false;
    big.on('error', () => undefined);
    big.on('close', () => (bigClosed = true));
    await new Promise<void>((resolve) => big.once('secureConnect', resolve));
    big.write(Buffer.concat([connectHeader(100_000), Buffer.from([0x00, 0x04])]));
    await until(() => bigClosed, 'the oversized CONNECT over TLS closed');
  });

  test('a missing, unreadable or wrong file stops the start naming the variable', () => {
    const problem = (patch: Record<string, string>) => {
      try {
        loadConfig({ ...env, ...patch });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return String(error);
      }
      return 'started';
    };
    expect(problem({ MQTT_TLS_CERT: path.join(dir, 'missing.pem') })).toMatch(/MQTT_TLS_CERT cannot be read/);
    expect(problem({ MQTT_TLS_KEY: dir })).toMatch(/MQTT_TLS_KEY cannot be read/);
    expect(problem({ MQTT_TLS_CERT: env.MQTT_TLS_KEY })).toMatch(/MQTT_TLS_CERT .* is not a PEM certificate/);
    const other = path.join(dir, 'other.pem');
    writeFileSync(
      other,
      execFileSync('openssl', ['genpkey', '-algorithm', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1']),
    );
    expect(problem({ MQTT_TLS_KEY: other })).toMatch(/MQTT_TLS_KEY is not the private key of MQTT_TLS_CERT/);
    expect(problem({ MQTT_TLS_KEY: '' })).toMatch(/MQTT_TLS_KEY is required with MQTT_TLS_PORT/);
    expect(problem({ MQTT_TLS_PORT: '' })).toMatch(/MQTT_TLS_CERT is used only with MQTT_TLS_PORT/);
    expect(problem({})).toBe('started');
  });
});
