/**
 * The embedded MQTT broker (aedes) used when MQTT_URL is unset. It enforces the protocol's
 * credentials (client id = username = sn; password = the device secret, or the enrolment key for a
 * device not yet registered, which may only publish `hello`) and topic rules (a device publishes
 * and subscribes only under its own `devices/{sn}/`), and cuts a connection announcing a packet
 * larger than the protocol allows before its body is buffered.
 *
 * Whatever reaches the MQTT port, the HTTP side must keep its file descriptors and memory:
 * connections are capped in total and per remote address, one that has not sent its CONNECT within
 * a few seconds is closed, a CONNECT may be a few KB (the 256 KB limit is for PUBLISH), and only a
 * device's small `status` may stay retained. An optional TLS listener (MQTT_TLS_PORT) follows the
 * same rules, for v1 devices that receive their new secret in clear.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { Duplex, Transform, type TransformCallback } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { DEVICE_MAX_PAYLOAD_BYTES } from '@cowork/contract';
import { DEFAULT_MQTT_MAX_CONNECTIONS_PER_ADDRESS, MQTT_CONNECT_TIMEOUT_MS, type Config } from '../config.ts';
import {
  publishRefusal,
  retainAllowed,
  roleOf,
  subscribeAllowed,
  type Credentials,
  type DeviceRole,
} from './rules.ts';
import { errorOf, propertyOf } from '../lib/unknown.ts';

export type { Credentials } from './rules.ts';

/** The protocol's payload plus room for the topic and headers of one PUBLISH. */
const MAX_PACKET_BYTES = DEVICE_MAX_PAYLOAD_BYTES + 1024;
/**
 * A CONNECT holds a client id and username of at most 64 characters, a password (a 43-character
 * secret, or the enrolment key) and the `status` will: a few hundred bytes. 4 KB leaves MQTT 5
 * properties room; 1 500 unfinished 256 KB CONNECTs once held 370 MB.
 */
export const MAX_CONNECT_BYTES = 4096;

export interface ConnectionLimits {
  /** Open MQTT connections of both listeners together. */
  maxConnections: number;
  /** Devices of a building behind one NAT share an address; an attacker's one host is held to it. */
  maxConnectionsPerAddress: number;
  /** From the TCP accept to a complete CONNECT (and, on the TLS port, the handshake). */
  connectTimeoutMs: number;
}

export interface TlsListener {
  port: number;
  /** PEM text of the certificate (chain) and its private key. */
  cert: string;
  key: string;
}

/**
 * The total cap by default: at most 10 000, and at most half of the process's file-descriptor limit
 * (Node raises the soft limit to the hard one at start), so the MQTT side can never take the
 * descriptors HTTP, the database and files need.
 */
export function defaultMaxConnections(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    if (Number.isInteger(soft) && soft > 0) return Math.max(1, Math.min(10_000, Math.floor(soft / 2)));
  } catch {
    // Not Linux: the fixed cap alone.
  }
  return 10_000;
}

/** What the configuration gives the embedded broker beyond its port and credentials. */
export const brokerSettingsOf = (
  config: Pick<
    Config,
    'mqttTls' | 'mqttMaxConnections' | 'mqttMaxConnectionsPerAddress' | 'mqttConnectTimeoutMs'
  >,
) => ({
  tls: config.mqttTls,
  limits: {
    maxConnections: config.mqttMaxConnections ?? defaultMaxConnections(),
    maxConnectionsPerAddress: config.mqttMaxConnectionsPerAddress,
    connectTimeoutMs: config.mqttConnectTimeoutMs,
  },
});

export interface EmbeddedBroker {
  aedes: Aedes;
  port: number;
  /** The TLS listener's port, when MQTT_TLS_PORT is set. */
  tlsPort: number | undefined;
  /** Disconnects a device now (unregister, a secret rotated). */
  kick(sn: string): void;
  /** Whether this connection's device has connected again since (another connection holds its id). */
  replaced(client: Client): boolean;
  close(): Promise<void>;
}

const authError = (code: 4 | 5, message: string): AuthenticateError =>
  Object.assign(new Error(message), { returnCode: code });

export async function startEmbeddedBroker(options: {
  port: number;
  host?: string;
  enrolKey: string;
  credentials: (sn: string) => Promise<Credentials>;
  /** A connection that broke a rule (oversized packet, refused topic): counted by the link. */
  onRefused?: (sn: string | undefined, reason: string) => void;
  /**
   * A device's publish that passed the rules, before it is acknowledged: aedes's publish handler
   * writes the PUBACK only once authorizePublish calls back, so the link writes what must be
   * written first; a rejection closes the connection unacknowledged (the device sends it again).
   */
  accept?: (sn: string, topic: string, payload: Buffer, address: string | undefined) => Promise<void>;
  tls?: TlsListener;
  limits?: Partial<ConnectionLimits>;
}): Promise<EmbeddedBroker> {
  const limits: ConnectionLimits = {
    maxConnections: options.limits?.maxConnections ?? defaultMaxConnections(),
    maxConnectionsPerAddress:
      options.limits?.maxConnectionsPerAddress ?? DEFAULT_MQTT_MAX_CONNECTIONS_PER_ADDRESS,
    connectTimeoutMs: options.limits?.connectTimeoutMs ?? MQTT_CONNECT_TIMEOUT_MS,
  };
  const roles = new WeakMap<Client, DeviceRole>();
  const addresses = new WeakMap<object, string | undefined>();
  const aedes = await Aedes.createBroker({
    maxClientsIdLength: 64,
    connectTimeout: limits.connectTimeoutMs,
    authenticate(client, username, password, done) {
      roleOf(
        { clientId: client.id, username, password: password?.toString('utf8') },
        options.credentials,
        options.enrolKey,
      ).then(
        (role) => {
          if (!role) return done(authError(4, 'bad credentials'), false);
          roles.set(client, role);
          done(null, true);
        },
        () => done(authError(4, 'credentials unavailable'), false),
      );
    },
    authorizePublish(client, packet, callback) {
      if (!client) return callback(null); // the server's own messages
      const role = roles.get(client) ?? 'enrol';
      const refusal = publishRefusal(role, client.id, packet.topic, packet.payload);
      // Stored, not retained: a retained message would stay in memory for good (1 000 × 250 KB hellos).
      if (!refusal && packet.retain && !retainAllowed(packet.topic)) packet.retain = false;
      if (!refusal && options.accept) {
        const payload = Buffer.from(packet.payload);
        return void options.accept(client.id, packet.topic, payload, addresses.get(client.conn)).then(
          () => callback(null),
          (error: unknown) => callback(errorOf(error)),
        );
      }
      if (!refusal) return callback(null);
      // Counted against a registered device only (an enrolling client's will is not its fault).
      if (role === 'device') options.onRefused?.(client.id, refusal);
      callback(new Error(refusal));
    },
    authorizeSubscribe(client, subscription, callback) {
      if (!subscribeAllowed(client.id, subscription.topic)) return callback(new Error('topic'));
      callback(null, subscription);
    },
  });

  const admit = admission(limits);
  const handle = (socket: net.Socket) => {
    const conn = guarded(socket, (reason) => options.onRefused?.(undefined, reason));
    addresses.set(conn, socket.remoteAddress);
    aedes.handle(conn);
  };
  const server = net.createServer((socket) => {
    if (admit(socket)) handle(socket);
  });
  const servers: net.Server[] = [server];
  // A port that cannot be had (taken by Mosquitto, say) ends the broker: aedes's timers, running
  // since createBroker, would otherwise keep the process alive after the app closed.
  const closeAedes = () => new Promise<void>((resolve) => aedes.close(() => resolve()));
  let port: number;
  try {
    port = await listen(server, options.port, options.host);
  } catch (error) {
    await closeAedes();
    throw error;
  }
  let tlsPort: number | undefined;
  if (options.tls) {
    const secure = tls.createServer({
      cert: options.tls.cert,
      key: options.tls.key,
      handshakeTimeout: limits.connectTimeoutMs,
    });
    // Counted on the raw connection, before its handshake: a client that never completes one holds
    // a descriptor too (tls.Server wraps the socket in its own 'connection' listener, added first).
    secure.on('connection', (socket: net.Socket) => void admit(socket));
    secure.on('secureConnection', handle);
    // A handshake that failed or timed out: with a listener here, closing the socket is ours.
    secure.on('tlsClientError', (_error, socket) => socket.destroy());
    servers.push(secure);
    try {
      tlsPort = await listen(secure, options.tls.port, options.host);
    } catch (error) {
      await new Promise((resolve) => server.close(resolve));
      await closeAedes();
      throw error;
    }
  }

  // aedes keeps its connected clients by id (here the device's sn) but does not type the map.
  const clientOf = (sn: string) => propertyOf(propertyOf(aedes, 'clients'), sn);

  return {
    aedes,
    port,
    tlsPort,
    kick(sn) {
      const client = clientOf(sn);
      const close = propertyOf(client, 'close');
      if (typeof close === 'function') close.call(client);
    },
    replaced(client) {
      const current = clientOf(client.id);
      return current !== undefined && current !== client;
    },
    async close() {
      await closeAedes();
      const closed = Promise.all(
        servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
      );
      admit.open.forEach((socket) => socket.destroy()); // those still connecting (aedes has the rest)
      await closed;
    },
  };
}

/** Listens; answers the port (0 asks the system for a free one). */
async function listen(server: net.Server, port: number, host: string | undefined): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error('The MQTT server listens on no TCP port.');
  return address.port;
}

/**
 * Counts open connections in total and per remote address; one past either cap is closed at once,
 * so it costs a descriptor for an instant only. Answers whether the socket may go on.
 */
function admission(limits: ConnectionLimits) {
  let total = 0;
  const perAddress = new Map<string, number>();
  const open = new Set<net.Socket>();
  const admit = (socket: net.Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = perAddress.get(address) ?? 0;
    if (total >= limits.maxConnections || count >= limits.maxConnectionsPerAddress) {
      socket.destroy();
      return false;
    }
    total++;
    perAddress.set(address, count + 1);
    open.add(socket);
    socket.once('close', () => {
      total--;
      open.delete(socket);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    return true;
  };
  return Object.assign(admit, { open });
}

/**
 * The socket as aedes sees it, with each MQTT packet's announced length read from its fixed header
 * as bytes arrive: a packet longer than the protocol allows closes the connection before its body
 * is read, so no device can make the broker buffer megabytes. A CONNECT gets a few KB.
 */
function guarded(
  socket: net.Socket,
  onOversized: (reason: 'oversized' | 'oversized-connect') => void,
): Duplex {
  let remaining = 0; // body bytes of the current packet still to pass
  let header: number[] = []; // fixed-header bytes of the next packet read so far
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      let at = 0;
      while (at < chunk.length) {
        if (remaining > 0) {
          const take = Math.min(remaining, chunk.length - at);
          remaining -= take;
          at += take;
          continue;
        }
        header.push(chunk[at++]);
        // header[0] is type and flags; then 1–4 bytes of remaining length, 7 bits each.
        if (header.length >= 2 && (header[header.length - 1] & 0x80) === 0) {
          let length = 0;
          for (let i = 1; i < header.length; i++) length += (header[i] & 0x7f) * 128 ** (i - 1);
          const isConnect = header[0] >> 4 === 1;
          header = [];
          if (length > (isConnect ? MAX_CONNECT_BYTES : MAX_PACKET_BYTES)) {
            onOversized(isConnect ? 'oversized-connect' : 'oversized');
            socket.destroy();
            return callback();
          }
          remaining = length;
        } else if (header.length > 5) {
          socket.destroy();
          return callback();
        }
      }
      callback(null, chunk);
    },
  });
  socket.pipe(limit);
  socket.on('error', () => limit.destroy());
  return Duplex.from({ readable: limit, writable: socket });
}
