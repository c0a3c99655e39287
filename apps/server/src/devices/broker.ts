/**
 * The embedded MQTT broker (aedes) used when MQTT_URL is unset. It enforces the protocol's
 * credentials (client id = username = sn; password = the device secret, or the enrolment key for a
 * device not yet registered, which may only publish `hello`) and topic rules (a device publishes
 * and subscribes only under its own `devices/{sn}/`), and cuts a connection announcing a packet
 * larger than the protocol allows before its body is buffered.
 */
import net from 'node:net';
import { Duplex, Transform, type TransformCallback } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { DEVICE_MAX_PAYLOAD_BYTES } from '@cowork/contract';
import { publishRefusal, roleOf, subscribeAllowed, type Credentials, type DeviceRole } from './rules.ts';
import { propertyOf } from '../lib/unknown.ts';

export type { Credentials } from './rules.ts';

/** The protocol's payload plus room for the topic and headers of one PUBLISH. */
const MAX_PACKET_BYTES = DEVICE_MAX_PAYLOAD_BYTES + 1024;

export interface EmbeddedBroker {
  aedes: Aedes;
  port: number;
  /** Disconnects a device now (unregister, a secret rotated). */
  kick(sn: string): void;
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
}): Promise<EmbeddedBroker> {
  const roles = new WeakMap<Client, DeviceRole>();
  const aedes = await Aedes.createBroker({
    maxClientsIdLength: 64,
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

  const server = net.createServer((socket) =>
    aedes.handle(guarded(socket, () => options.onRefused?.(undefined, 'oversized'))),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error('The MQTT server listens on no TCP port.');
  const { port } = address;

  return {
    aedes,
    port,
    kick(sn) {
      // aedes keeps its connected clients by id (here the device's sn) but does not type the map.
      const client = propertyOf(propertyOf(aedes, 'clients'), sn);
      const close = propertyOf(client, 'close');
      if (typeof close === 'function') close.call(client);
    },
    async close() {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The socket as aedes sees it, with each MQTT packet's announced length read from its fixed header
 * as bytes arrive: a packet longer than the protocol allows closes the connection before its body
 * is read, so no device can make the broker buffer megabytes.
 */
function guarded(socket: net.Socket, onOversized: () => void): Duplex {
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
          header = [];
          if (length > MAX_PACKET_BYTES) {
            onOversized();
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
