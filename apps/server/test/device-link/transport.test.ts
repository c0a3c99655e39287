/**
 * The transport alone, with a fake inbound side: what reaches the link from devices, when their
 * messages are acknowledged, what the link publishes to them, and what it says about itself. The
 * embedded broker on a free port; the external path against a Mosquitto of the test's own that
 * admits anyone, standing in for MQTT_URL's.
 */
import net from 'node:net';
import mqtt from 'mqtt';
import { afterEach, describe, expect, test } from 'vitest';
import type { Inbound } from '../../src/device-link/inbound.ts';
import { topics } from '../../src/device-link/protocol.ts';
import { createTransport, type Transport } from '../../src/device-link/transport.ts';
import { testConfig } from '../helper.ts';
import { startMosquitto } from '../mosquitto-server.ts';
import { capturedLog } from './fixture.ts';

const secret = 'transport-device-secret-0123456789';
const sn = 'DOOR-T1';

/** An inbound side that records what it gets and settles each evt message when told to. */
function fakeInbound() {
  const events: { sn: string; payload: string; canDecline: boolean; settle: (ok: boolean) => void }[] = [];
  const statuses: string[] = [];
  const inbound: Inbound = {
    received: (from, payload, _address, canDecline) =>
      new Promise((resolve, reject) =>
        events.push({
          sn: from,
          payload: payload.toString(),
          canDecline,
          settle: (ok) => (ok ? resolve() : reject(new Error('not written'))),
        }),
      ),
    status: async (from, payload, origin) =>
      void statuses.push(`${from} ${payload.toString()}${origin ? ` (${origin})` : ''}`),
    refused: () => undefined,
  };
  return { inbound, events, statuses };
}

const waitFor = async (done: () => boolean, what: string) => {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

function transportOf(overrides: Parameters<typeof testConfig>[0] = {}) {
  const started: string[] = [];
  const checked: string[] = [];
  const transport = createTransport({
    config: testConfig({ deviceEnrolKey: 'transport-enrol-key-0123456789', ...overrides }),
    log: capturedLog().log,
    background: (_sn, work) => void work.catch(() => undefined),
    credentials: async (of) => (of === sn ? { registered: true, secrets: [secret] } : { registered: false }),
    brokerCheck: { run: async (url) => void checked.push(url) },
    embeddedStarted: async () => void started.push('embedded'),
  });
  cleanups.push(() => transport.close());
  return { transport, started, checked };
}

async function deviceOn(transport: Transport) {
  const client = await mqtt.connectAsync(transport.status().url!, {
    clientId: sn,
    username: sn,
    password: secret,
    reconnectPeriod: 0,
  });
  cleanups.push(() => client.endAsync(true));
  return client;
}

describe('the embedded broker', () => {
  test('a device message is acknowledged only once inbound took it; one it refuses never is', async () => {
    const { transport, started } = transportOf();
    const fake = fakeInbound();
    await transport.start(fake.inbound);
    expect(started).toEqual(['embedded']);
    expect(transport.status()).toMatchObject({
      up: true,
      mode: 'embedded',
      url: expect.stringMatching(/^mqtt:/),
    });

    const device = await deviceOn(transport);
    let acked = false;
    const publishing = device.publishAsync(topics.evt(sn), 'first', { qos: 1 }).then(() => (acked = true));
    await waitFor(() => fake.events.length === 1, 'the event at inbound');
    expect(fake.events[0]).toMatchObject({ sn, payload: 'first', canDecline: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(acked).toBe(false);
    fake.events[0].settle(true);
    await publishing;

    const closed = new Promise<void>((resolve) => device.once('close', () => resolve()));
    void device.publishAsync(topics.evt(sn), 'second', { qos: 1 }).catch(() => undefined);
    await waitFor(() => fake.events.length === 2, 'the second event');
    fake.events[1].settle(false);
    await closed;
  });

  test('status payloads reach inbound; commands published reach the device', async () => {
    const { transport } = transportOf();
    const fake = fakeInbound();
    await transport.start(fake.inbound);
    const device = await deviceOn(transport);
    const got = new Promise<string>((resolve) =>
      device.once('message', (_topic, payload) => resolve(payload.toString())),
    );
    await device.subscribeAsync(topics.cmd(sn), { qos: 1 });
    await device.publishAsync(topics.status(sn), '{"online":true}', { qos: 1 });
    await transport.publish(topics.cmd(sn), '{"hello":"device"}');
    expect(await got).toBe('{"hello":"device"}');
    await waitFor(() => fake.statuses.length === 1, 'the status');
    expect(fake.statuses).toEqual([`${sn} {"online":true} (current)`]);
  });

  test('a will from a connection the device has replaced by reconnecting says so; its own payloads and a lone will do not', async () => {
    const { transport } = transportOf();
    const fake = fakeInbound();
    await transport.start(fake.inbound);
    const will = {
      topic: topics.status(sn),
      payload: Buffer.from('{"online":false}'),
      qos: 1 as const,
      retain: true,
    };
    const connect = () =>
      mqtt.connectAsync(transport.status().url!, {
        clientId: sn,
        username: sn,
        password: secret,
        reconnectPeriod: 0,
        will,
      });
    await (await connect()).endAsync(true); // cut without DISCONNECT: the broker publishes the will
    await waitFor(() => fake.statuses.length === 1, 'the will');
    expect(fake.statuses).toEqual([`${sn} {"online":false} (current)`]);

    // Taken over by a new connection with its id: the old one's will comes from a replaced connection.
    const old = await connect();
    const fresh = await connect();
    cleanups.push(
      () => old.endAsync(true),
      () => fresh.endAsync(true),
    );
    await waitFor(() => fake.statuses.length === 2, "the replaced connection's will");
    expect(fake.statuses[1]).toBe(`${sn} {"online":false} (replaced)`);
    await fresh.publishAsync(topics.status(sn), '{"online":false}', { qos: 1 });
    await waitFor(() => fake.statuses.length === 3, "the device's own offline");
    expect(fake.statuses[2]).toBe(`${sn} {"online":false} (current)`);
  });

  test('a taken port leaves the link down, saying why; stopped says so', async () => {
    const holder = net.createServer();
    const port = await new Promise<number>((resolve) =>
      holder.listen(0, () => resolve(Number(Object(holder.address()).port))),
    );
    cleanups.push(() => new Promise((resolve) => holder.close(resolve)));
    const { transport, started } = transportOf({ mqttPort: port });
    await transport.start(fakeInbound().inbound);
    expect(started).toEqual([]);
    expect(transport.status()).toMatchObject({ up: false, reason: `端口 ${port} 已被占用` });
    await expect(transport.publish(topics.cmd(sn), '{}')).rejects.toThrow();
    await transport.close();
    expect(transport.status()).toMatchObject({ up: false, reason: '已停止' });
  });
});

describe('an external broker', () => {
  test('is checked, then subscribed; an event is acknowledged once taken, one not taken comes again', async () => {
    const broker = await startMosquitto((port) => `listener ${port} 127.0.0.1\nallow_anonymous true\n`);
    cleanups.push(() => broker.stop());
    const url = broker.url('cowork-console', 'console-password');
    const { transport, checked } = transportOf({ mqttUrl: url, mqttClientId: 'cowork-transport-test' });
    const fake = fakeInbound();
    await transport.start(fake.inbound);
    expect(checked).toEqual([url]);
    await waitFor(() => transport.status().up, 'the connection');
    // Where devices connect, without the console's credentials.
    expect(transport.status()).toMatchObject({ mode: 'external', url: broker.url() });

    const device = await mqtt.connectAsync(broker.url(), { clientId: sn, reconnectPeriod: 0 });
    cleanups.push(() => device.endAsync(true));
    await device.publishAsync(topics.evt(sn), 'kept', { qos: 1 });
    await waitFor(() => fake.events.length === 1, 'the event at inbound');
    expect(fake.events[0]).toMatchObject({ sn, payload: 'kept', canDecline: false });
    // Not taken: the connection is dropped unacknowledged, and the broker delivers it again.
    fake.events[0].settle(false);
    await waitFor(() => fake.events.length === 2, 'the event delivered again');
    expect(fake.events[1].payload).toBe('kept');
    fake.events[1].settle(true);
  });
});
