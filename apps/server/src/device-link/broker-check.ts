/**
 * The start-up check of an external broker (MQTT_URL): does it make clients prove they are a
 * device, and keep each device to its own topics? A broker that does not lets anyone mark a door
 * offline or read every device's access list, whatever the server checks on its side.
 *
 * It connects anonymously and as a made-up device with a wrong password; each connection that gets
 * in tries to read every device's topics (`devices/#`) and to publish on another device's `status`.
 * Both are tried on a throw-away sn that no device uses, and judged by what arrives: a command the
 * console sends there reaching the probe, the probe's message reaching the console (a broker may
 * accept a publish and drop it, so an acknowledgement alone proves nothing). The payloads are not
 * envelopes and carry no `online`, so nothing, on any instance, takes them for a device's word.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { ConfigError, type Config } from '../config.ts';
import { errorOf } from '../lib/unknown.ts';
import { topics } from './protocol.ts';

export interface BrokerCheckReport {
  /** False until the broker answered the check (it is tried again while the broker is away). */
  checked: boolean;
  /** A client without a device's credentials got in. */
  unauthenticated: boolean;
  /** What such clients were allowed, in English for IT staff. */
  findings: string[];
}

/** How long a probe's message may take to arrive before it counts as refused. */
const ARRIVAL_MS = 1_500;
const RETRY_MS = 30_000;

/** A valid sn (so the broker's rules apply to it as to a device) that no device has. */
const throwAwaySn = () => `cowork-check-${randomBytes(6).toString('hex')}`;

const connect = (url: string, options: IClientOptions) =>
  mqtt.connectAsync(url, { clean: true, reconnectPeriod: 0, connectTimeout: 5_000, ...options }, false);

/** Waits until `seen` answers true, at most ARRIVAL_MS. */
async function arrives(seen: () => boolean): Promise<boolean> {
  const deadline = Date.now() + ARRIVAL_MS;
  while (!seen()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/**
 * What clients without a device's credentials may do on the broker of `url` (its own credentials are
 * the console's, which watches). Empty: nothing. Throws when the console itself cannot connect.
 */
export async function checkBroker(url: string): Promise<string[]> {
  const target = throwAwaySn(); // the "other device" the probes try to read and impersonate
  const bare = new URL(url);
  bare.username = '';
  bare.password = '';
  const watcher = await connect(url, { clientId: throwAwaySn() });
  const heard = new Set<string>();
  watcher.on('message', (_topic, payload) => heard.add(payload.toString()));
  try {
    await watcher.subscribeAsync(topics.status(target), { qos: 1 });
    const madeUp = throwAwaySn();
    const probes: [string, IClientOptions][] = [
      ['an anonymous client', { clientId: throwAwaySn() }],
      [
        `a made-up device name (${madeUp}) with a wrong password`,
        { clientId: madeUp, username: madeUp, password: randomBytes(16).toString('base64url') },
      ],
    ];
    const found = await Promise.all(
      probes.map(([who, options]) => probe(bare.toString(), who, options, watcher, target, heard)),
    );
    return found.flat();
  } finally {
    await watcher.endAsync(true);
  }
}

async function probe(
  url: string,
  who: string,
  options: IClientOptions,
  watcher: MqttClient,
  target: string,
  heard: Set<string>,
): Promise<string[]> {
  let client: MqttClient;
  try {
    client = await connect(url, options);
  } catch {
    return []; // refused: as it should be
  }
  const findings = [`${who} may connect`];
  const received = new Set<string>();
  client.on('message', (_topic, payload) => received.add(payload.toString()));
  try {
    const granted = await client.subscribeAsync('devices/#', { qos: 1 }).catch(() => []);
    if (granted.some((grant) => grant.qos < 128)) {
      const command = JSON.stringify({ probe: randomUUID() });
      await watcher.publishAsync(topics.cmd(target), command, { qos: 1 });
      if (await arrives(() => received.has(command)))
        findings.push(
          `${who} may subscribe to devices/# and read every device's commands (access lists, secrets)`,
        );
    }
    const status = JSON.stringify({ probe: randomUUID() });
    await client.publishAsync(topics.status(target), status, { qos: 1 }).catch(() => undefined);
    if (await arrives(() => heard.has(status)))
      findings.push(`${who} may publish on another device's topics (devices/${target}/status)`);
  } finally {
    await client.endAsync(true);
  }
  return findings;
}

/**
 * The check as the link runs it at start with MQTT_URL: logs what it found, keeps it for
 * /api/health and the hardware screens' banner, and refuses production on such a broker unless
 * MQTT_ALLOW_UNAUTHENTICATED=true. A broker that does not answer yet is checked again later.
 */
export function createBrokerCheck(config: Config, log: FastifyBaseLogger) {
  let report: BrokerCheckReport | undefined;
  let retry: NodeJS.Timeout | undefined;

  const suffix = () =>
    config.nodeEnv !== 'production'
      ? ' NODE_ENV=production refuses to start on it unless MQTT_ALLOW_UNAUTHENTICATED=true.'
      : config.mqttAllowUnauthenticated
        ? ' Running anyway: MQTT_ALLOW_UNAUTHENTICATED=true.'
        : '';

  async function attempt(url: string): Promise<boolean> {
    let findings: string[];
    try {
      findings = await checkBroker(url);
    } catch (error) {
      log.warn(
        `MQTT broker check could not run (${errorOf(error).message}); it is tried again in ${RETRY_MS / 1000} s. Until then nobody knows whether MQTT_URL's broker checks device identity.`,
      );
      return false;
    }
    report = { checked: true, unauthenticated: findings.length > 0, findings };
    if (findings.length > 0)
      log.error(
        `MQTT_URL's broker does not check device identity: ${findings.join('; ')}. Anyone who reaches it can pose as a door device (mark doors offline, read access lists). Give every device its own credentials and topics (docs/deploy.md, Mosquitto or EMQX).${suffix()}`,
      );
    else
      log.info("MQTT_URL's broker checks device identity: anonymous and made-up device clients are refused");
    return true;
  }

  const later = (url: string) => {
    retry = setTimeout(
      () => void attempt(url).then((done) => (done ? undefined : later(url))),
      RETRY_MS,
    ).unref();
  };

  return {
    /** Undefined without MQTT_URL (the embedded broker enforces the rules itself). */
    report: () => report,
    async run(url: string) {
      report = { checked: false, unauthenticated: false, findings: [] };
      if (!(await attempt(url))) return later(url);
      if (report.unauthenticated && config.nodeEnv === 'production' && !config.mqttAllowUnauthenticated)
        throw new ConfigError(
          `MQTT_URL's broker does not check device identity (${report.findings.join('; ')}): give every device its own credentials and topics as docs/deploy.md shows (Mosquitto or EMQX), or set MQTT_ALLOW_UNAUTHENTICATED=true to start anyway`,
        );
    },
    stop() {
      clearTimeout(retry);
    },
  };
}
