/**
 * How messages reach devices and come back: the embedded MQTT broker (MQTT_URL unset) or a client
 * of an external one. Either way the link publishes commands with QoS 1 and hears `evt` and
 * `status` of every device; a device's message is acknowledged (PUBACK) only once the inbound side
 * has taken it, so no door event is lost to a crash between the two.
 */
import type { FastifyBaseLogger } from 'fastify';
import mqtt from 'mqtt';
import mqttPacket from 'mqtt-packet';
import type { Config } from '../config.ts';
import { errorOf, textOf } from '../lib/unknown.ts';
import type { Background } from './background.ts';
import { brokerSettingsOf, startEmbeddedBroker, type EmbeddedBroker } from './broker.ts';
import type { createBrokerCheck } from './broker-check.ts';
import type { Inbound } from './inbound.ts';
import { parseTopic } from './protocol.ts';
import type { Credentials } from './rules.ts';

// mqtt-packet otherwise keeps a Buffer for each of the 65 536 packet ids, made on the first packet
// written: about 7 MB of heap that the broker and every client in this process would share, to save
// a 2-byte allocation per packet. Set before the broker or any client writes.
mqttPacket.writeToStream.cacheNumbers = false;

export interface LinkStatus {
  up: boolean;
  mode: 'embedded' | 'external';
  /** Where devices connect (the embedded broker's port, or MQTT_URL without credentials). */
  url: string | undefined;
  /** Why the link is down, in Chinese. */
  reason?: string;
  /** The same in English, for the start line and logs read by IT staff. */
  detail?: string;
}

/** How long an external broker keeps the server's session (and its events) while it is away. */
const SESSION_EXPIRY_S = 3 * 86_400;
/** How long the start waits for an external broker's first connection. */
const FIRST_CONNECT_MS = 3_000;

/** One started broker or client. */
interface Connection {
  status(): LinkStatus;
  publish(topic: string, payload: string): Promise<void>;
  kick(sn: string): void;
  close(): Promise<void>;
}

export interface TransportDeps {
  config: Pick<
    Config,
    | 'mqttUrl'
    | 'mqttPort'
    | 'mqttClientId'
    | 'deviceEnrolKey'
    | 'mqttTls'
    | 'mqttMaxConnections'
    | 'mqttMaxConnectionsPerAddress'
    | 'mqttConnectTimeoutMs'
  >;
  log: FastifyBaseLogger;
  background: Background;
  /** What an sn may connect with (the embedded broker asks at each CONNECT). */
  credentials: (sn: string) => Promise<Credentials>;
  /** The start-up check of an external broker, run before connecting to it (broker-check.ts). */
  brokerCheck: Pick<ReturnType<typeof createBrokerCheck>, 'run'>;
  /** Run once the embedded broker listens, before the link says it is up. */
  embeddedStarted: () => Promise<void>;
}

type EmbeddedDeps = Omit<TransportDeps, 'brokerCheck'>;

/** A link that could not start: down, with why. */
const down = (status: LinkStatus): Connection => ({
  status: () => status,
  publish: () => Promise.reject(new Error(status.detail ?? 'link down')),
  kick: () => undefined,
  close: () => Promise.resolve(),
});

async function startEmbedded(deps: EmbeddedDeps, inbound: Inbound): Promise<Connection> {
  const { config, log, background } = deps;
  let broker: EmbeddedBroker;
  try {
    broker = await startEmbeddedBroker({
      port: config.mqttPort,
      enrolKey: config.deviceEnrolKey,
      ...brokerSettingsOf(config),
      credentials: deps.credentials,
      onRefused: (sn, reason) => {
        if (sn) inbound.refused(sn, reason);
      },
      // The device's PUBACK waits for this: a door event is acknowledged once written.
      accept: (sn, topic, payload, address) =>
        parseTopic(topic)?.kind === 'evt' ? inbound.received(sn, payload, address, true) : Promise.resolve(),
    });
  } catch (error) {
    const taken = textOf(error, 'code') === 'EADDRINUSE';
    const message = errorOf(error).message;
    log.error(
      `Device link down: MQTT_PORT ${config.mqttPort} is ${taken ? 'taken (another broker, e.g. Mosquitto, holds it)' : `unavailable (${message})`}; set MQTT_PORT to a free port, or MQTT_URL to use that broker. The console runs; device commands fail until then.`,
    );
    return down({
      up: false,
      mode: 'embedded',
      url: undefined,
      reason: taken ? `端口 ${config.mqttPort} 已被占用` : `内置 MQTT 服务无法启动（${message}）`,
      detail: taken ? `port ${config.mqttPort} is taken` : `embedded MQTT broker cannot start: ${message}`,
    });
  }
  const { aedes } = broker;
  // Events are taken before their PUBACK (accept, above); status payloads have nothing to wait for.
  // A will is published by the connection it belonged to, after aedes unregistered it: when
  // another connection holds the sn by then, the device reconnected and the will is not news.
  aedes.on('publish', (packet, client) => {
    const sn = client ? parseTopic(packet.topic) : undefined;
    if (client && sn?.kind === 'status')
      background(
        sn.sn,
        inbound.status(sn.sn, Buffer.from(packet.payload), broker.replaced(client) ? 'replaced' : 'current'),
      );
  });
  await deps.embeddedStarted();
  const status: LinkStatus = { up: true, mode: 'embedded', url: `mqtt://127.0.0.1:${broker.port}` };
  return {
    status: () => status,
    publish: (topic, payload) =>
      new Promise((resolve, reject) =>
        aedes.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false },
          (error) => (error ? reject(error) : resolve()),
        ),
      ),
    kick: (sn) => broker.kick(sn),
    close: () => broker.close(),
  };
}

/**
 * A client of MQTT_URL's broker, connecting (and reconnecting) on its own; `firstConnect` resolves
 * at its first connection, or after FIRST_CONNECT_MS without one.
 */
function connectExternal(
  { config, log }: Pick<TransportDeps, 'config' | 'log'>,
  inbound: Inbound,
  url: string,
): Connection & { firstConnect: Promise<void> } {
  // A persistent session: a fixed client id per instance, not clean, QoS 1, so the broker keeps
  // the events published while this instance is down (3 days) and delivers them when it is back.
  // Every instance has its own session and hears every event; the open log's unique message id
  // keeps each once.
  const client = mqtt.connect(url, {
    clientId: config.mqttClientId,
    clean: false,
    protocolVersion: 5,
    properties: { sessionExpiryInterval: SESSION_EXPIRY_S },
    reconnectPeriod: 2_000,
    connectTimeout: 5_000,
  });
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  let status: LinkStatus = {
    up: false,
    mode: 'external',
    url: shown.toString(),
    reason: '正在连接',
    detail: `connecting to ${shown.host}`,
  };
  client.on('connect', () => {
    status = { up: true, mode: 'external', url: shown.toString() };
    client.subscribe(['devices/+/evt', 'devices/+/status'], { qos: 1 });
  });
  client.on('close', () => {
    status = { ...status, up: false, reason: `无法连接 ${shown.host}`, detail: `cannot reach ${shown.host}` };
  });
  client.on('error', (error) => log.warn({ err: error }, 'MQTT client error'));
  // mqtt.js handles incoming packets one at a time, and its publish handler sends the PUBACK once
  // handleMessage calls back: waiting there for the write would put every
  // device's events behind one database round trip each. Calling back with an error skips that
  // PUBACK and moves on to the next packet; the PUBACK is sent here once the event is written, on
  // the connection it came by. One not written is never acknowledged: the connection is dropped
  // and the broker delivers it again to the session when the client is back.
  client.handleMessage = (packet, callback) => {
    const stream = client.stream;
    const { messageId, qos } = packet;
    const parsed = parseTopic(packet.topic);
    const done =
      parsed?.kind === 'evt'
        ? inbound.received(parsed.sn, Buffer.from(packet.payload), undefined, false)
        : parsed?.kind === 'status'
          ? inbound.status(parsed.sn, Buffer.from(packet.payload))
          : Promise.resolve();
    void done.then(
      () => {
        if (qos > 0 && messageId !== undefined && client.connected && client.stream === stream)
          mqttPacket.writeToStream({ cmd: 'puback', messageId }, stream, {
            protocolVersion: client.options.protocolVersion,
          });
      },
      () => {
        if (client.stream === stream) stream.destroy();
      },
    );
    callback(new Error('acknowledged by the device link once handled'));
  };
  // Give the first connection a moment, so a console started with devices can command them at once.
  const firstConnect = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, FIRST_CONNECT_MS);
    client.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return {
    status: () => status,
    publish: async (topic, payload) => {
      await client.publishAsync(topic, payload, { qos: 1 });
    },
    // An external broker drops a device at its next authentication.
    kick: () => undefined,
    close: () => client.endAsync(),
    firstConnect,
  };
}

export type Transport = ReturnType<typeof createTransport>;

export function createTransport(deps: TransportDeps) {
  const { config } = deps;
  let status: LinkStatus = { up: false, mode: config.mqttUrl ? 'external' : 'embedded', url: undefined };
  let connection: Connection | undefined;

  return {
    /** Whether devices can be reached now, and where they connect. */
    status: () => connection?.status() ?? status,
    /** Publishes with QoS 1; rejects when it cannot. */
    publish: (topic: string, payload: string) =>
      connection ? connection.publish(topic, payload) : Promise.reject(new Error('link not started')),
    /** Disconnects a device from the embedded broker (an external broker drops it at its next auth). */
    kick: (sn: string) => connection?.kick(sn),
    /** Starts the broker, or connects to MQTT_URL's: what arrives goes to `inbound`. */
    async start(inbound: Inbound) {
      if (!config.mqttUrl) {
        connection = await startEmbedded(deps, inbound);
        return;
      }
      await deps.brokerCheck.run(config.mqttUrl); // throws in production on a broker that admits anyone
      const external = connectExternal(deps, inbound, config.mqttUrl);
      connection = external;
      await external.firstConnect;
    },
    async close() {
      const closing = connection;
      await closing?.close();
      connection = undefined;
      status = { ...(closing?.status() ?? status), up: false, reason: '已停止', detail: 'stopped' };
    },
  };
}
