/**
 * The server's side of the device protocol (docs/devices.md): one link per API instance, over the embedded broker
 * (MQTT_URL unset) or as a client of an external one. It sends signed commands and waits for their
 * acks, believes only signed, fresh, unseen messages, keeps online/offline and last seen, writes
 * every door event to the open log once, and counts what it drops per device.
 *
 * Several instances on one external broker each subscribe to every device's events: an ack reaches
 * the instance that waits for it; a door event is logged once (its id is unique in the database);
 * the sync after a hello is sent by the one instance that claims that hello's id.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import mqtt from 'mqtt';
import mqttPacket from 'mqtt-packet';
import {
  DEVICE_ACK_TIMEOUT_MS,
  DEVICE_HEARTBEAT_MS,
  DEVICE_OFFLINE_AFTER_MS,
  DEVICE_SN_PATTERN,
  deviceMessages,
} from '@cowork/contract';
import type { Config } from '../config.ts';
import { rowsOf, type Database } from '../db/client.ts';
import {
  deviceCommands,
  deviceEnrolments,
  deviceOpenLogs,
  devices,
  openMethodValues,
  openResultValues,
} from '../db/schema.ts';
import { batchLoader, batchWriter } from '../lib/batch.ts';
import { AppError } from '../lib/http.ts';
import { loadSecretKey, secretBox, type SecretBox } from '../lib/secret-box.ts';
import {
  accessLists,
  devicesAffected,
  doorOrderKinds,
  hashOfAccess,
  nextExpiryOf,
  type AccessState,
} from './access.ts';
import { brokerSettingsOf, startEmbeddedBroker, type Credentials, type EmbeddedBroker } from './broker.ts';
import { createBrokerCheck } from './broker-check.ts';
import { automaticActor } from './actors.ts';
import { isConsoleName } from './console-identity.ts';
import { adminPasswordsFor, protocolOf, type DeviceProtocol } from './secrets-v11.ts';
import { errorOf, propertyOf, textOf } from '../lib/unknown.ts';
import { dropCounter } from './drops.ts';
import { DEVICE_RATE, ENROL_RATE, fairRate, HOLD_MS } from './fair-rate.ts';
import {
  eventAtAccepted,
  isKeptEvent,
  parseEnvelope,
  parseTopic,
  ReplayGuard,
  seal,
  signedWith,
  topics,
  clockAccepts,
  type Envelope,
} from './protocol.ts';

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

export interface CommandActor {
  userId: number | null;
  name: string;
  reason?: string;
}

export interface DeviceRow {
  id: number;
  sn: string;
  name: string;
  secret: string;
  status: 'online' | 'offline';
}

interface Waiter {
  resolve: (ack: { ok: boolean; error?: string }) => void;
}

/** How messages reach the broker, the same for the embedded one and an external one. */
interface Transport {
  publish(topic: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

export type DeviceLink = ReturnType<typeof createDeviceLink>;

const SEEN_FLUSH_MS = 5_000;
/** How long an external broker keeps the server's session (and its events) while it is away. */
const SESSION_EXPIRY_S = 3 * 86_400;

/** A message declined beyond the fair rate: not acknowledged, so the device keeps it and retries. */
class Declined extends Error {
  constructor(sn: string) {
    super(`${sn}: beyond the fair rate, declined`);
  }
}
const EXPIRY_RECHECK_MS = 60_000;

export function createDeviceLink({
  config,
  db,
  log,
}: {
  config: Config;
  db: Database;
  log: FastifyBaseLogger;
}) {
  const secretKey = loadSecretKey(config.secretKey, config.dataDir);
  const box: SecretBox = secretBox(secretKey.key);
  const replay = new ReplayGuard();
  const brokerCheck = createBrokerCheck(config, log);
  const waiters = new Map<string, Waiter>();
  /** Last seen per sn, written in one statement every few seconds (heartbeats of many devices). */
  const seen = new Map<string, Date>();
  let transport: Transport | undefined;
  let broker: EmbeddedBroker | undefined;
  let status: LinkStatus = { up: false, mode: config.mqttUrl ? 'external' : 'embedded', url: undefined };
  let timers: NodeJS.Timeout[] = [];
  const doorListeners = new Set<(sn: string) => void>();
  const pending = new Set<Promise<unknown>>();
  let expiryTimer: NodeJS.Timeout | undefined;
  let running = false;

  /** A device's id, name and the secrets it may sign with (a reset-config's new one too), by sn. */
  const deviceOf = batchLoader(async (sns: string[]) => {
    const rows = await db
      .select({
        id: devices.id,
        sn: devices.sn,
        name: devices.name,
        secret: devices.secret,
        pending: devices.pendingSecret,
      })
      .from(devices)
      .where(inArray(devices.sn, sns));
    return new Map(rows.map((r) => [r.sn, r]));
  });
  const secretsOf = async (sn: string) => {
    const row = await deviceOf(sn);
    if (!row) return undefined;
    const secrets = [box.open(row.secret), ...(row.pending ? [box.open(row.pending)] : [])];
    return { id: row.id, name: row.name, secrets };
  };

  /** Command rows written as they are sent, and their fates as they are known, many at a time. */
  const insertCommand = batchWriter(async (rows: (typeof deviceCommands.$inferInsert)[]) => {
    await db.insert(deviceCommands).values(rows);
  });
  const recordFate = batchWriter(
    async (
      fates: { id: string; state: 'failed' | 'timeout' | 'acked'; error: string | null; at: Date }[],
    ) => {
      const values = sql.join(
        fates.map(
          (f) => sql`(${f.id}::uuid, ${f.state}::text, ${f.error}::text, ${f.at.toISOString()}::timestamptz)`,
        ),
        sql`, `,
      );
      await db.execute(sql`update device_commands c set state = v.state, error = v.error, answered_at = v.at
        from (values ${values}) as v(id, state, error, at) where c.id = v.id`);
    },
  );
  const recordAcked = batchWriter(async (acks: { id: number; version: number }[]) => {
    const values = sql.join(
      acks.map((a) => sql`(${a.id}::int, ${a.version}::int)`),
      sql`, `,
    );
    await db.execute(sql`update devices d set acked_version = greatest(d.acked_version, v.version)
      from (values ${values}) as v(id, version) where d.id = v.id`);
  });

  async function credentials(sn: string): Promise<Credentials> {
    const device = await secretsOf(sn);
    return device ? { registered: true, secrets: device.secrets } : { registered: false };
  }

  /** Counted in memory, written once a second, logged once a minute per device (drops.ts). */
  const drops = dropCounter({ db, log });
  const countDrop = (sn: string, reason: string) => drops.count(sn, reason);
  const deviceRate = fairRate(DEVICE_RATE);
  const enrolRate = fairRate(ENROL_RATE);

  /** Work that follows a message but must not hold its acknowledgement (a sync waits for the device). */
  const background = (sn: string, work: Promise<unknown>) =>
    void work.catch((error: unknown) => log.warn({ err: error, sn }, 'device message failed'));

  /**
   * receive, with what it could not write counted (summarised) and its error passed on; `canDecline`
   * is false on an external broker, whose PUBACK to the device went out already: there a door event
   * beyond the fair rate is still written (declining it would only lose it), other messages are not.
   */
  async function received(sn: string, payload: Buffer, address: string | undefined, canDecline: boolean) {
    try {
      await receive(sn, payload, address, canDecline);
    } catch (error) {
      if (!(error instanceof Declined)) countDrop(sn, 'not-written');
      throw error;
    }
  }

  /**
   * A device's evt message as it arrives, before anyone acknowledges it (the embedded broker's
   * PUBACK to the device, or ours to an external broker): resolves once it may be acknowledged, that
   * is once a `door` event is written; rejects when it must not be (beyond the fair rate, or not
   * written), so the device (or the broker) sends it again. What is refused (bad signature, `at` out
   * of range, …) is counted and acknowledged: sending it again would not make it right.
   */
  async function receive(
    sn: string,
    payload: Buffer,
    address: string | undefined,
    canDecline: boolean,
  ): Promise<void> {
    // The embedded broker let only this sn publish here: its turn is taken before any work (parsing,
    // the lookup, the signature), so a flood costs the server next to nothing. Elsewhere anyone the
    // broker lets in could spend a device's turns, so there it is taken once the signature is checked.
    if (canDecline) await fairTurn(deviceRate, sn, 'rate', true);
    const message = parseEnvelope(payload);
    if (typeof message === 'string') return countDrop(sn, message);
    const device = await secretsOf(sn);
    if (!device) {
      // Only hello, signed with the enrolment key, is heard from a device not registered.
      if (message.type !== 'hello' || !signedWith(message, config.deviceEnrolKey)) return;
      for (const key of [`sn:${sn}`, ...(address === undefined ? [] : [`address:${address}`])])
        if (!(await fairTurn(enrolRate, sn, 'enrol-rate', canDecline, key))) {
          countDrop(sn, 'enrol-rate');
          return;
        }
      if (!replay.check(message)) await onEnrolHello(sn, message);
      return;
    }
    if (!device.secrets.some((secret) => signedWith(message, secret))) return countDrop(sn, 'bad-signature');
    // On an external broker a door event beyond the rate is still written (see `received`).
    if (!canDecline && !deviceRate.take(sn) && message.type !== 'door') {
      countDrop(sn, 'rate');
      return;
    }
    // Kept events may come late and again: their id dedups them in the database, `at` is checked.
    if (isKeptEvent(message.type)) {
      // Only a fresh one says the device is there now (a late one was kept, or queued by a broker).
      if (clockAccepts(message)) heard(sn);
      if (message.type === 'door') return onDoor(device.id, device.name, sn, message);
      return countDrop(sn, 'malformed'); // alarms are not logged by this server yet
    }
    const stale = replay.check(message);
    if (stale) return countDrop(sn, stale);
    heard(sn);

    switch (message.type) {
      case 'ack':
        return background(sn, onAck(device.id, message));
      case 'hello':
        return background(sn, onHello(device.id, sn, message));
      case 'heartbeat':
        // Last seen (and online again after a sweep) is written for every device every few seconds.
        return;
      default:
        return countDrop(sn, 'malformed');
    }
  }

  /**
   * Waits for the message's turn under the fair rate (embedded broker: held, the PUBACK with it, up
   * to HOLD_MS, then declined and counted). Where it cannot decline (external broker), answers
   * false beyond the rate without waiting: holding there would fill the server's session's
   * in-flight window and stall every device.
   */
  async function fairTurn(
    rate: ReturnType<typeof fairRate>,
    sn: string,
    reason: string,
    canDecline: boolean,
    key = sn,
  ): Promise<boolean> {
    if (!canDecline) return rate.take(key);
    const wait = rate.reserve(key, HOLD_MS);
    if (wait === undefined) {
      countDrop(sn, reason);
      throw new Declined(sn);
    }
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return true;
  }

  /**
   * When each device last sent a message signed with its secret, and the gap between its last two:
   * its heartbeat interval as it keeps it (the protocol's 30 s until two were seen).
   */
  const signedAt = new Map<string, { at: number; every: number }>();
  const offlineChecks = new Map<string, NodeJS.Timeout>();
  /** A fresh message signed with the device's secret: last seen, and its heartbeat interval. */
  function heard(sn: string) {
    seen.set(sn, new Date());
    const now = Date.now();
    const last = signedAt.get(sn);
    const gap = last ? now - last.at : DEVICE_HEARTBEAT_MS;
    signedAt.set(sn, { at: now, every: Math.min(Math.max(gap, 1_000), DEVICE_HEARTBEAT_MS) });
  }

  async function onStatus(sn: string, payload: Buffer) {
    let online: unknown;
    try {
      online = propertyOf(JSON.parse(payload.toString()), 'online');
    } catch {
      return;
    }
    if (typeof online !== 'boolean') return;
    if (online) return markOnline(sn);
    await offlineUnlessHeard(sn);
  }

  /**
   * `status` carries no signature: anyone an external broker lets publish there (or a retained
   * payload left behind) could say `{"online":false}`. It is believed only when no signed message
   * came from the device within its last heartbeat interval (and a half, for the next one's travel);
   * otherwise it is checked again then, so a device really gone still shows offline within that time.
   */
  async function offlineUnlessHeard(sn: string) {
    const last = signedAt.get(sn);
    const wait = last ? last.at + last.every * 1.5 - Date.now() : 0;
    if (wait > 0) {
      // One check pending per device, however many payloads: the latest replaces it.
      clearTimeout(offlineChecks.get(sn));
      const heard = last!.at;
      const timer = setTimeout(() => {
        offlineChecks.delete(sn);
        if (signedAt.get(sn)?.at === heard) background(sn, offlineUnlessHeard(sn));
      }, wait);
      timer.unref();
      offlineChecks.set(sn, timer);
      return;
    }
    seen.delete(sn);
    await db.update(devices).set({ status: 'offline' }).where(eq(devices.sn, sn));
  }

  async function markOnline(sn: string) {
    const now = new Date();
    seen.set(sn, now);
    // Only the change is written at once; last seen of devices already online is batched.
    await db
      .update(devices)
      .set({ status: 'online', lastSeenAt: now })
      .where(and(eq(devices.sn, sn), eq(devices.status, 'offline')));
  }

  const text = (value: unknown, max = 100) => (typeof value === 'string' ? value.slice(0, max) : null);

  async function onEnrolHello(sn: string, message: Envelope) {
    // The console's own MQTT username is never a device's (devices/console-identity.ts).
    if (isConsoleName(config, sn)) return;
    const p = message.params;
    await upsertEnrolment({
      sn,
      model: text(p.model),
      vendor: text(p.vendor),
      firmware: text(p.firmware),
      lastSeenAt: new Date(),
    });
  }
  /** The waiting list's rows, one upsert per turn (the latest hello of each sn in it). */
  const upsertEnrolment = batchWriter(async (rows: (typeof deviceEnrolments.$inferInsert)[]) => {
    const latest = [...new Map(rows.map((r) => [r.sn, r])).values()];
    await db
      .insert(deviceEnrolments)
      .values(latest)
      .onConflictDoUpdate({
        target: deviceEnrolments.sn,
        set: {
          model: sql`excluded.model`,
          vendor: sql`excluded.vendor`,
          firmware: sql`excluded.firmware`,
          lastSeenAt: sql`excluded.last_seen_at`,
        },
      });
  });

  /**
   * Claims hellos (every instance hears each one; the one whose update changes last_hello_id
   * answers it), many in one statement: a fleet reconnecting after an outage says hello at once.
   */
  const claimHello = batchLoader(
    async (
      hellos: {
        deviceId: number;
        id: string;
        model: string | null;
        vendor: string | null;
        firmware: string | null;
        protocol: DeviceProtocol;
      }[],
    ) => {
      const values = sql.join(
        hellos.map(
          (h) =>
            sql`(${h.deviceId}::int, ${h.id}::text, ${h.model}::text, ${h.vendor}::text, ${h.firmware}::text, ${h.protocol}::text)`,
        ),
        sql`, `,
      );
      const result = await rowsOf<{ hello_id: string }>(
        db,
        sql`
        update devices d set model = v.model, vendor = v.vendor, firmware = v.firmware,
          protocol = v.protocol, status = 'online', last_seen_at = now(), last_hello_id = v.hello_id
        from (values ${values}) as v(id, hello_id, model, vendor, firmware, protocol)
        where d.id = v.id and d.last_hello_id is distinct from v.hello_id
        returning v.hello_id`,
      );
      const claimed = new Set(result.map((r) => r.hello_id));
      return new Map(hellos.map((h) => [h, claimed.has(h.id)]));
    },
  );
  /** The syncs after the hellos of one turn, sent as one batch. */
  const syncAfterHello = batchWriter(async (deviceIds: number[]) => {
    await syncDevices(deviceIds, automaticActor, true);
  });

  async function onHello(deviceId: number, sn: string, message: Envelope) {
    const p = message.params;
    const claimed = await claimHello({
      deviceId,
      id: message.id,
      model: text(p.model),
      vendor: text(p.vendor),
      firmware: text(p.firmware),
      protocol: protocolOf(p.protocol),
    });
    if (!claimed) return;
    await syncAfterHello(deviceId).catch((error: unknown) =>
      log.warn({ err: error, sn }, 'sync after hello failed'),
    );
  }

  async function onAck(deviceId: number, message: Envelope) {
    const ref = message.params.ref;
    if (typeof ref !== 'string') return;
    const ok = message.params.ok === true;
    const error = ok ? undefined : (text(message.params.error, 200) ?? '');
    const waiter = waiters.get(ref);
    if (!waiter) {
      // Another instance sent it (and waits for it), or it came after the timeout: record the fate.
      await db
        .update(deviceCommands)
        .set({ state: ok ? 'acked' : 'failed', error, answeredAt: new Date() })
        .where(
          and(
            eq(deviceCommands.id, ref),
            eq(deviceCommands.deviceId, deviceId),
            eq(deviceCommands.state, 'sent'),
          ),
        );
      return;
    }
    waiters.delete(ref);
    waiter.resolve({ ok, error });
  }

  async function onDoor(deviceId: number, deviceName: string, sn: string, message: Envelope) {
    const p = message.params;
    const method = openMethodValues.find((m) => m === p.method);
    const result = openResultValues.find((r) => r === p.result);
    // A v1 device may leave `at` out: then it is the message's own time.
    const at = p.at === undefined ? message.ts : p.at;
    if (!method || !result || typeof at !== 'number' || !Number.isFinite(at))
      return countDrop(sn, 'malformed');
    if (!eventAtAccepted(at)) return countDrop(sn, 'at-out-of-range');
    // A remote opening is credited to whoever sent the last open-door to this device.
    const who = method === 'remote' ? ((await lastOpenerOf(deviceId)) ?? null) : null;
    // Resolves once the row is in the database (or was already: the same id sent again).
    await writeDoor({
      messageId: message.id,
      deviceId,
      sn,
      deviceName,
      method,
      credential: text(p.credential, 4),
      result,
      reason: result === 'denied' ? text(p.reason, 200) : null,
      who,
      at: new Date(at),
    });
    doorListeners.forEach((listener) => listener(sn));
  }
  /** The open log's rows of one turn in one INSERT; an id already logged changes nothing. */
  const writeDoor = batchWriter(async (rows: (typeof deviceOpenLogs.$inferInsert)[]) => {
    await db.insert(deviceOpenLogs).values(rows).onConflictDoNothing({ target: deviceOpenLogs.messageId });
  });
  const lastOpenerOf = batchLoader(async (deviceIds: number[]) => {
    const rows = await db
      .selectDistinctOn([deviceCommands.deviceId], {
        deviceId: deviceCommands.deviceId,
        byName: deviceCommands.byName,
      })
      .from(deviceCommands)
      .where(and(inArray(deviceCommands.deviceId, deviceIds), eq(deviceCommands.type, 'open-door')))
      .orderBy(deviceCommands.deviceId, sql`${deviceCommands.sentAt} desc`);
    return new Map(rows.map((r) => [r.deviceId, r.byName]));
  });

  /** Sends one signed command and waits for its ack; the row records its fate either way. */
  async function command(
    device: DeviceRow,
    type: string,
    params: Record<string, unknown>,
    actor: CommandActor,
  ): Promise<void> {
    const record = async (id: string | undefined, state: 'failed' | 'timeout' | 'acked', error?: string) => {
      if (id) await recordFate({ id, state, error: error ?? null, at: new Date() });
    };
    if (!status.up || !transport) {
      await insertCommandRow(undefined, 'failed', status.reason);
      throw new AppError(503, deviceMessages.linkDown(status.reason ?? '未启动'));
    }
    if (device.status !== 'online') {
      await insertCommandRow(undefined, 'failed', '设备离线');
      throw new AppError(409, deviceMessages.offline(device.name));
    }
    const message = seal(type, params, box.open(device.secret));
    await insertCommandRow(message.id, 'sent');
    const answer = new Promise<{ ok: boolean; error?: string } | 'timeout'>((resolve) => {
      const timer = setTimeout(() => {
        waiters.delete(message.id);
        resolve('timeout');
      }, DEVICE_ACK_TIMEOUT_MS);
      waiters.set(message.id, {
        resolve: (ack) => {
          clearTimeout(timer);
          resolve(ack);
        },
      });
    });
    try {
      await transport.publish(topics.cmd(device.sn), JSON.stringify(message));
    } catch (error) {
      waiters.delete(message.id);
      await record(message.id, 'failed', String(error));
      throw new AppError(503, deviceMessages.linkDown(String(error)));
    }
    const ack = await answer;
    if (ack === 'timeout') {
      await record(message.id, 'timeout', '5 秒内无应答');
      throw new AppError(504, deviceMessages.timeout(device.name));
    }
    if (!ack.ok) {
      await record(message.id, 'failed', ack.error);
      throw new AppError(409, deviceMessages.refused(device.name, ack.error ?? ''));
    }
    await record(message.id, 'acked');

    async function insertCommandRow(id: string | undefined, state: 'sent' | 'failed', error?: string) {
      await insertCommand({
        id: id ?? randomUUID(),
        deviceId: device.id,
        type,
        byUserId: actor.userId,
        byName: actor.name,
        reason: actor.reason ?? null,
        state,
        error: error ?? null,
        answeredAt: state === 'failed' ? new Date() : null,
      });
    }
  }

  /**
   * Sends each device its whole access state (replacing what it holds) when that state differs from
   * the one last sent, or always (`force`, after a hello). Claiming the new state is one UPDATE per
   * batch guarded by the hash, so of several instances reacting to one change only one sends it.
   * Offline devices get it at their next hello; the sync state shows 未同步 meanwhile.
   */
  /** Answers the ids of the devices that acked the state sent now. */
  async function syncDevices(
    deviceIds: readonly number[],
    actor: CommandActor,
    force = false,
  ): Promise<number[]> {
    const ids = [...new Set(deviceIds)];
    if (ids.length === 0) return [];
    const now = Date.now();
    const rows = await db
      .select({
        id: devices.id,
        adminPasswords: devices.adminPasswords,
        cardRules: devices.cardRules,
        protocol: devices.protocol,
      })
      .from(devices)
      .where(inArray(devices.id, ids));
    const lists = await accessLists(db, ids, new Date(now));
    const states = new Map(
      rows.map((r) => {
        const state: AccessState = {
          access: lists.get(r.id) ?? [],
          // v1.1 devices get salted PBKDF2, v1 devices SHA-256 (devices/secrets-v11.ts).
          adminPasswords: adminPasswordsFor(r.adminPasswords, r.protocol),
          cardRules: r.cardRules,
        };
        return [r.id, state];
      }),
    );
    if (states.size === 0) return [];
    const values = sql.join(
      [...states].map(([id, state]) => {
        const next = nextExpiryOf(state, now);
        return sql`(${id}::int, ${hashOfAccess(state)}::text, ${next ? next.toISOString() : null}::timestamptz)`;
      }),
      sql`, `,
    );
    const claimed = await rowsOf<{
      id: number;
      sn: string;
      name: string;
      secret: string;
      status: 'online' | 'offline';
      access_version: number;
      next_expiry_at: string | null;
    }>(
      db,
      sql`
      update devices d
      set access_version = d.access_version + 1, access_hash = v.hash, next_expiry_at = v.next
      from (values ${values}) as v(id, hash, next)
      where d.id = v.id ${force ? sql`` : sql`and d.access_hash is distinct from v.hash`}
      returning d.id, d.sn, d.name, d.secret, d.status, d.access_version, d.next_expiry_at`,
    );
    // A state ending sooner than the timer waits re-arms it.
    if (claimed.some((row) => row.next_expiry_at)) armExpiry();
    const sent = await Promise.allSettled(
      claimed
        .filter((row) => row.status === 'online')
        .map(async (row) => {
          const id = Number(row.id);
          await command({ ...row, id }, 'sync', { now: Date.now(), ...states.get(id)! }, actor);
          await recordAcked({ id, version: Number(row.access_version) });
          return id;
        }),
    );
    // One device's failure is the caller's to report; in a batch each is logged and shows as 未同步.
    const failed = sent.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (ids.length === 1 && failed.length) throw failed[0].reason;
    for (const f of failed) log.warn({ err: f.reason }, 'sync failed');
    return sent.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  }

  const syncDevice = (deviceId: number, actor: CommandActor, force = false) =>
    syncDevices([deviceId], actor, force);

  /**
   * Something changed access (an order paid, cancelled or refunded; a set or a space edited): the
   * devices it may touch are re-synced now, in the background, so the caller's answer does not wait
   * for acks. Failures show as 未同步 on the device list and in the log.
   */
  function accessChanged(scope: Parameters<typeof devicesAffected>[1], actor = automaticActor) {
    const done = devicesAffected(db, scope)
      .then((ids) => syncDevices(ids, actor))
      .catch((error: unknown) => log.warn({ err: error, scope }, 'access re-sync failed'));
    pending.add(done);
    void done.finally(() => pending.delete(done));
    return done;
  }

  /** An order was created, paid, cancelled or refunded: the doors of its building may change. */
  function orderChanged(
    order: { kind: string; buildingId: number | null; status: string },
    actor = automaticActor,
  ) {
    if (!order.buildingId || !doorOrderKinds.some((kind) => kind === order.kind)) return;
    void accessChanged({ buildingIds: [order.buildingId] }, actor);
  }

  /** Re-syncs devices whose access state has an entry ending now (cards expiring, bookings over). */
  async function syncExpired() {
    const due = await db
      .update(devices)
      .set({ nextExpiryAt: null })
      .where(lte(devices.nextExpiryAt, new Date()))
      .returning({ id: devices.id });
    await syncDevices(
      due.map((d) => d.id),
      automaticActor,
    );
    armExpiry();
  }

  /** Wakes up at the next expiry of any device (checked again at least every minute). */
  function armExpiry() {
    if (!running) return;
    // Started from a promise: a database that is not there yet fails here, not in the caller.
    void Promise.resolve()
      .then(() => db.select({ at: sql<string | null>`min(${devices.nextExpiryAt})` }).from(devices))
      .then(([row]) => {
        const at = row?.at ? new Date(row.at).getTime() : Infinity;
        const wait = Math.max(0, Math.min(at - Date.now(), EXPIRY_RECHECK_MS));
        clearTimeout(expiryTimer);
        expiryTimer = setTimeout(
          () =>
            void syncExpired().catch((error: unknown) => log.warn({ err: error }, 'expiry re-sync failed')),
          wait,
        ).unref();
      })
      .catch((error: unknown) => log.warn({ err: error }, 'could not schedule access expiry'));
  }

  async function flushSeen() {
    if (seen.size === 0) return;
    const batch = [...seen];
    seen.clear();
    const values = sql.join(
      batch.map(([sn, at]) => sql`(${sn}, ${at.toISOString()}::timestamptz)`),
      sql`, `,
    );
    await db.execute(
      sql`update devices set last_seen_at = v.at, status = 'online' from (values ${values}) as v(sn, at) where devices.sn = v.sn`,
    );
  }

  /** No heartbeat for 90 s is offline, even without a last will. */
  async function sweepOffline() {
    await db
      .update(devices)
      .set({ status: 'offline' })
      .where(
        and(
          eq(devices.status, 'online'),
          lt(devices.lastSeenAt, new Date(Date.now() - DEVICE_OFFLINE_AFTER_MS)),
        ),
      );
  }

  /**
   * Online devices whose last sync never arrived (the device did not ack, or the database failed
   * under load before it was sent) are sent their state again, a batch at a time, instead of
   * waiting for their next hello. Runs with the offline sweep.
   */
  async function resyncStale() {
    const result = await rowsOf<{ id: number | string }>(
      db,
      sql`
      select d.id from devices d
      where d.status = 'online' and (d.acked_version < d.access_version or d.access_hash is null)
        and not exists (select 1 from device_commands c where c.device_id = d.id and c.type = 'sync'
          and c.state = 'sent' and c.sent_at > now() - interval '10 seconds')
      order by d.id limit 1000`,
    );
    await syncDevices(
      result.map((r) => Number(r.id)),
      automaticActor,
      true,
    );
  }

  async function startEmbedded() {
    try {
      broker = await startEmbeddedBroker({
        port: config.mqttPort,
        enrolKey: config.deviceEnrolKey,
        ...brokerSettingsOf(config),
        credentials,
        onRefused: (sn, reason) => {
          if (sn) countDrop(sn, reason);
        },
        // The device's PUBACK waits for this: a door event is acknowledged once written.
        accept: (sn, topic, payload, address) =>
          parseTopic(topic)?.kind === 'evt' ? received(sn, payload, address, true) : Promise.resolve(),
      });
    } catch (error) {
      const code = textOf(error, 'code');
      const reason =
        code === 'EADDRINUSE'
          ? `端口 ${config.mqttPort} 已被占用`
          : `内置 MQTT 服务无法启动（${errorOf(error).message}）`;
      const detail =
        code === 'EADDRINUSE'
          ? `port ${config.mqttPort} is taken`
          : `embedded MQTT broker cannot start: ${errorOf(error).message}`;
      status = { up: false, mode: 'embedded', url: undefined, reason, detail };
      log.error(
        `Device link down: MQTT_PORT ${config.mqttPort} is ${code === 'EADDRINUSE' ? 'taken (another broker, e.g. Mosquitto, holds it)' : `unavailable (${errorOf(error).message})`}; set MQTT_PORT to a free port, or MQTT_URL to use that broker. The console runs; device commands fail until then.`,
      );
      return;
    }
    const aedes = broker.aedes;
    // Events are taken before their PUBACK (accept, above); status payloads have nothing to wait for.
    aedes.subscribe(
      'devices/+/status',
      (packet, done) => {
        const sn = parseTopic(packet.topic)?.sn;
        if (sn) background(sn, onStatus(sn, Buffer.from(packet.payload)));
        done();
      },
      () => undefined,
    );
    // A device gone without its will (the broker restarted with this process) is offline until heard.
    // A database not answering yet must not stop the start (readiness says so); the sweep catches up.
    await Promise.resolve()
      .then(() => db.update(devices).set({ status: 'offline' }).where(eq(devices.status, 'online')))
      .catch((error: unknown) => log.warn({ err: error }, 'could not mark devices offline at start'));
    transport = {
      publish: (topic, payload) =>
        new Promise((resolve, reject) =>
          aedes.publish(
            { cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false },
            (error) => (error ? reject(error) : resolve()),
          ),
        ),
      close: () => broker!.close(),
    };
    status = { up: true, mode: 'embedded', url: `mqtt://127.0.0.1:${broker.port}` };
  }

  async function startExternal(url: string) {
    // A persistent session (v1.1 Delivery): a fixed client id per instance, not clean, QoS 1, so the
    // broker keeps the events published while this instance is down (3 days) and delivers them when
    // it is back. Every instance has its own session and hears every event; the open log's unique
    // message id keeps each once.
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
    status = {
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
      status = {
        ...status,
        up: false,
        reason: `无法连接 ${shown.host}`,
        detail: `cannot reach ${shown.host}`,
      };
    });
    client.on('error', (error) => log.warn({ err: error }, 'MQTT client error'));
    // mqtt.js handles incoming packets one at a time and sends the PUBACK once handleMessage calls
    // back (handlers/publish.js, client.js `work`): waiting there for the write would put every
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
          ? received(parsed.sn, Buffer.from(packet.payload), undefined, false)
          : parsed?.kind === 'status'
            ? onStatus(parsed.sn, Buffer.from(packet.payload))
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
    transport = {
      publish: async (topic, payload) => {
        await client.publishAsync(topic, payload, { qos: 1 });
      },
      close: () => client.endAsync(),
    };
    // Give the first connection a moment, so a console started with devices can command them at once.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 3_000);
      client.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  return {
    secretKeyGenerated: secretKey.generated ? secretKey.file : undefined,
    box,
    status: () => status,
    /** What the start-up check found on MQTT_URL's broker (broker-check.ts); undefined when embedded. */
    brokerCheck: brokerCheck.report,
    async start() {
      if (config.mqttUrl) {
        await brokerCheck.run(config.mqttUrl); // throws in production on a broker that admits anyone
        await startExternal(config.mqttUrl);
      } else await startEmbedded();
      const every = (ms: number, task: () => Promise<void>) =>
        timers.push(
          setInterval(
            () => void task().catch((error: unknown) => log.warn({ err: error }, 'device task failed')),
            ms,
          ).unref(),
        );
      every(SEEN_FLUSH_MS, flushSeen);
      every(1_000, () => drops.flush());
      every(15_000, async () => {
        await sweepOffline();
        await resyncStale();
      });
      running = true;
      armExpiry();
    },
    async stop() {
      brokerCheck.stop();
      timers.forEach(clearInterval);
      timers = [];
      running = false;
      clearTimeout(expiryTimer);
      await Promise.allSettled([...pending]);
      await flushSeen().catch(() => undefined);
      await drops.flush(true).catch(() => undefined);
      offlineChecks.forEach(clearTimeout);
      for (const waiter of waiters.values()) waiter.resolve({ ok: false, error: 'server stopping' });
      waiters.clear();
      await transport?.close();
      transport = undefined;
      status = { ...status, up: false, reason: '已停止', detail: 'stopped' };
    },
    command,
    syncDevice,
    syncDevices,
    accessChanged,
    orderChanged,
    resyncStale,
    /** Settles once every re-sync started so far is done (tests, a clean stop). */
    settled: () => Promise.allSettled([...pending]).then(() => undefined),
    /** Disconnects a device from the embedded broker (an external broker drops it at its next auth). */
    kick: (sn: string) => broker?.kick(sn),
    /** Called after every door event is logged (the simulator's tests and the dashboard). */
    onDoor(listener: (sn: string) => void) {
      doorListeners.add(listener);
      return () => doorListeners.delete(listener);
    },
    isSn: (sn: string) => DEVICE_SN_PATTERN.test(sn),
    /** What an sn may connect with (the embedded broker, and an external one through mqtt-auth). */
    credentials,
  };
}
