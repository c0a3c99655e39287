/**
 * What devices send, as it arrives: the envelope and signature checked, the fair rate kept, and each
 * message kind handed to the piece that handles it (hello, ack, door and alarm events, heartbeat;
 * `status`). Only signed, fresh, unseen messages are believed; what is refused is counted per device.
 *
 * A device's evt message is taken before anyone acknowledges it (the embedded broker's PUBACK to
 * the device, or the link's own to an external broker): `received` resolves once it may be
 * acknowledged, that is once a `door` or `alarm` event is written, and rejects when it must not be
 * (beyond the fair rate, or not written), so the device (or the broker) sends it again. What is
 * refused (bad signature, `at` out of range, …) is counted and acknowledged: sending it again would
 * not make it right.
 */
import type { Config } from '../config.ts';
import type { AlarmEvents } from './alarms.ts';
import type { AccessSync } from './access-sync.ts';
import type { Background } from './background.ts';
import type { Commands } from './commands.ts';
import type { DeviceKeys } from './device-keys.ts';
import type { DoorEvents } from './door-events.ts';
import type { Rollouts } from './firmware/rollouts.ts';
import { DEVICE_RATE, ENROL_RATE, fairRate, HOLD_MS } from './fair-rate.ts';
import type { Hellos } from './hellos.ts';
import type { Presence, StatusOrigin } from './presence.ts';
import { clockAccepts, isKeptEvent, parseEnvelope, ReplayGuard, signedWith } from './protocol.ts';

/** A message declined beyond the fair rate: not acknowledged, so the device keeps it and retries. */
export class Declined extends Error {
  constructor(sn: string) {
    super(`${sn}: beyond the fair rate, declined`);
  }
}

export interface InboundDeps {
  config: Pick<Config, 'deviceEnrolKey'>;
  /** The registered device of an sn and the secrets it may sign with (device-keys.ts). */
  keysOf: (sn: string) => Promise<DeviceKeys | undefined>;
  /** Counts a message dropped or declined (drops.ts). */
  countDrop: (sn: string, reason: string) => void;
  background: Background;
  presence: Pick<Presence, 'heard' | 'onStatus'>;
  commands: Pick<Commands, 'onAck'>;
  hellos: Hellos;
  doors: Pick<DoorEvents, 'record'>;
  /** v1.1 alarms, each change written once (alarms.ts). */
  alarms: Pick<AlarmEvents, 'record'>;
  /** Firmware rollouts: a device's `progress` (firmware/rollouts.ts); without them it is dropped. */
  firmware?: Pick<Rollouts, 'progress'>;
  /** What each device holds (access-sync.ts). */
  versions: Pick<AccessSync, 'held'>;
}

/** The transport's view of the inbound side (transport.ts). */
export interface Inbound {
  /**
   * A message on `devices/{sn}/evt`. `canDecline` is false on an external broker, whose PUBACK to
   * the device went out already: there a door or alarm event beyond the fair rate is still written
   * (declining it would only lose it), other messages are not.
   */
  received(sn: string, payload: Buffer, address: string | undefined, canDecline: boolean): Promise<void>;
  /** A payload on `devices/{sn}/status`, and who sent it where the broker knows (presence.ts). */
  status(sn: string, payload: Buffer, origin?: StatusOrigin): Promise<void>;
  /** A connection that broke the broker's rules (oversized packet, refused topic). */
  refused(sn: string, reason: string): void;
}

export function createInbound(deps: InboundDeps): Inbound {
  const { config, keysOf, countDrop, background, presence, commands, hellos, doors, versions } = deps;
  const replay = new ReplayGuard();
  const deviceRate = fairRate(DEVICE_RATE);
  const enrolRate = fairRate(ENROL_RATE);

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

  async function receive(sn: string, payload: Buffer, address: string | undefined, canDecline: boolean) {
    // The embedded broker let only this sn publish here: its turn is taken before any work (parsing,
    // the lookup, the signature), so a flood costs the server next to nothing. Elsewhere anyone the
    // broker lets in could spend a device's turns, so there it is taken once the signature is checked.
    if (canDecline) await fairTurn(deviceRate, sn, 'rate', true);
    const message = parseEnvelope(payload);
    if (typeof message === 'string') return countDrop(sn, message);
    const device = await keysOf(sn);
    if (!device) {
      // Only hello, signed with the enrolment key, is heard from a device not registered.
      if (message.type !== 'hello' || !signedWith(message, config.deviceEnrolKey)) return;
      for (const key of [`sn:${sn}`, ...(address === undefined ? [] : [`address:${address}`])])
        if (!(await fairTurn(enrolRate, sn, 'enrol-rate', canDecline, key))) {
          countDrop(sn, 'enrol-rate');
          return;
        }
      if (!replay.check(message)) await hellos.enrol(sn, message);
      return;
    }
    if (!device.secrets.some((secret) => signedWith(message, secret))) return countDrop(sn, 'bad-signature');
    // On an external broker a door or alarm event beyond the rate is still written (see `received`).
    if (!canDecline && !deviceRate.take(sn) && !isKeptEvent(message.type)) {
      countDrop(sn, 'rate');
      return;
    }
    // Kept events may come late and again: their id dedups them in the database, `at` is checked.
    if (isKeptEvent(message.type)) {
      // Only a fresh one says the device is there now (a late one was kept, or queued by a broker).
      if (clockAccepts(message)) presence.heard(sn);
      const refused =
        message.type === 'alarm'
          ? await deps.alarms.record(device, sn, message)
          : await doors.record(device, sn, message);
      // An alarm sent again is counted, except on an external broker, where every instance hears
      // each event and all but one find it logged already.
      if (refused && (refused !== 'replayed' || canDecline)) countDrop(sn, refused);
      return;
    }
    const stale = replay.check(message);
    if (stale) return countDrop(sn, stale);
    presence.heard(sn);

    switch (message.type) {
      case 'ack':
        return background(sn, commands.onAck(device.id, message));
      case 'hello':
        return background(sn, hellos.hello(device.id, sn, message));
      case 'progress': {
        // An unknown ref or params not the protocol's change nothing and are counted.
        const firmware = deps.firmware;
        if (!firmware) return countDrop(sn, 'malformed');
        return background(
          sn,
          firmware.progress(device.id, message).then((drop) => drop && countDrop(sn, drop)),
        );
      }
      case 'heartbeat': {
        // Last seen (and online again after a sweep) is written for every device every few seconds;
        // the version a v1.1 device holds likewise.
        const version = message.params.version;
        if (typeof version === 'number' && Number.isSafeInteger(version) && version >= 0)
          background(sn, versions.held(device.id, version));
        return;
      }
      default:
        return countDrop(sn, 'malformed');
    }
  }

  return {
    async received(sn, payload, address, canDecline) {
      try {
        await receive(sn, payload, address, canDecline);
      } catch (error) {
        // What could not be written is counted (summarised), and its error passed on.
        if (!(error instanceof Declined)) countDrop(sn, 'not-written');
        throw error;
      }
    },
    status: (sn, payload, origin) => presence.onStatus(sn, payload, origin),
    refused: (sn, reason) => countDrop(sn, reason),
  };
}
