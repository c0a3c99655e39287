/**
 * The server's side of the device protocol (docs/device-protocol.md): one link per API instance, over the
 * embedded broker (MQTT_URL unset) or as a client of an external one. It sends signed commands and
 * waits for their acks, believes only signed, fresh, unseen messages, keeps online/offline and last
 * seen, writes every door event to the open log and every alarm change to 告警记录 once, and counts
 * what it drops per device.
 *
 * Several instances on one external broker each subscribe to every device's events: an ack reaches
 * the instance that waits for it; a door event is logged once (its id is unique in the database);
 * the sync after a hello is sent by the one instance that claims that hello's id.
 *
 * This file only puts the pieces together, each built on the ones before it:
 * device-keys (who signs with what) → presence (online, last seen) → transport (broker or client)
 * → commands (rows, acks) → access-sync (state, claims, expiry) → hellos, door-events and alarms
 * → inbound (checks and dispatch of what arrives, handed to the transport at start).
 */
import type { FastifyBaseLogger } from 'fastify';
import { DEVICE_SN_PATTERN } from '@cowork/contract';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { DeviceMetrics } from '../lib/metrics.ts';
import { loadSecretKey, secretBox } from '../lib/secret-box.ts';
import { createAccessSync } from './access-sync.ts';
import { createAlarmEvents } from './alarms.ts';
import { automaticActor } from './actors.ts';
import { backgroundOf } from './background.ts';
import { createBrokerCheck } from './broker-check.ts';
import { createCommands } from './commands.ts';
import { createDeviceKeys } from './device-keys.ts';
import { createDoorEvents } from './door-events.ts';
import { createRollouts } from './firmware/rollouts.ts';
import { firmwareLinks } from './firmware/signed-url.ts';
import { dropCounter } from './drops.ts';
import { createHellos } from './hellos.ts';
import { createInbound } from './inbound.ts';
import { createLeases } from './leases.ts';
import { createPresence, SEEN_FLUSH_MS } from './presence.ts';
import { createTransport } from './transport.ts';

export type { CommandActor, DeviceRow } from './commands.ts';
export type { LinkStatus } from './transport.ts';

/** How often drop counts are written, and offline devices swept (then stale syncs sent again). */
const DROPS_FLUSH_MS = 1_000;
const SWEEP_MS = 15_000;

export type DeviceLink = ReturnType<typeof createDeviceLink>;

export function createDeviceLink({
  config,
  db,
  log,
  metrics,
}: {
  config: Config;
  db: Database;
  log: FastifyBaseLogger;
  /** What the link counts for /metrics (lib/metrics.ts). */
  metrics?: DeviceMetrics;
}) {
  const secretKey = loadSecretKey(config.secretKey, config.dataDir);
  const box = secretBox(secretKey.key);
  const background = backgroundOf(log);
  const keys = createDeviceKeys({ db, box });
  /** Counted in memory, written once a second, logged once a minute per device (drops.ts). */
  const drops = dropCounter({ db, log, metrics });
  const presence = createPresence({ db, log, background });
  const brokerCheck = createBrokerCheck(config, log);
  const transport = createTransport({
    config,
    log,
    background,
    credentials: keys.credentials,
    brokerCheck,
    embeddedStarted: presence.markAllOffline,
  });
  const commands = createCommands({
    db,
    box,
    linkStatus: transport.status,
    publish: transport.publish,
    log,
    metrics,
  });
  const sync = createAccessSync({ db, log, command: commands.command });
  const firmware = createRollouts({
    db,
    log,
    links: firmwareLinks(secretKey.key, config.publicUrl),
    command: commands.command,
  });
  const hellos = createHellos({
    config,
    db,
    log,
    syncDevices: sync.syncDevices,
    firmwareHello: firmware.hello,
  });
  const doors = createDoorEvents({ db, metrics });
  const alarms = createAlarmEvents({ db });
  const inbound = createInbound({
    config,
    keysOf: keys.keysOf,
    countDrop: drops.count,
    background,
    presence,
    commands,
    hellos,
    doors,
    alarms,
    firmware,
    versions: sync,
  });
  const leases = createLeases({
    db,
    log,
    command: commands.command,
    resync: (ids) => sync.syncDevices(ids, automaticActor, true),
  });
  let timers: NodeJS.Timeout[] = [];
  const every = (ms: number, task: () => Promise<void>) =>
    timers.push(
      setInterval(
        () => void task().catch((error: unknown) => log.warn({ err: error }, 'device task failed')),
        ms,
      ).unref(),
    );

  return {
    secretKeyGenerated: secretKey.generated ? secretKey.file : undefined,
    box,
    status: transport.status,
    /** What the start-up check found on MQTT_URL's broker (broker-check.ts); undefined when embedded. */
    brokerCheck: brokerCheck.report,
    async start() {
      await transport.start(inbound);
      every(SEEN_FLUSH_MS, presence.flushSeen);
      every(DROPS_FLUSH_MS, () => drops.flush());
      every(SWEEP_MS, async () => {
        await presence.sweepOffline();
        await sync.resyncStale();
        await leases.renew();
      });
      sync.start();
      firmware.start();
    },
    async stop() {
      brokerCheck.stop();
      timers.forEach(clearInterval);
      timers = [];
      await sync.stop();
      await presence.flushSeen().catch(() => undefined);
      await drops.flush(true).catch(() => undefined);
      presence.stop();
      commands.stop();
      // After the commands: a firmware command still waiting for its ack is answered by their stop.
      await firmware.stop();
      await transport.close();
    },
    command: commands.command,
    syncDevice: sync.syncDevice,
    syncDevices: sync.syncDevices,
    accessChanged: sync.accessChanged,
    orderChanged: sync.orderChanged,
    resyncStale: sync.resyncStale,
    renewLeases: leases.renew,
    /** Settles once every re-sync started so far is done (tests, a clean stop). */
    settled: sync.settled,
    kick: transport.kick,
    /** Firmware rollouts (firmware/rollouts.ts) and the download links devices are sent. */
    firmware,
    onDoor: doors.listen,
    /** Told of each alarm raised or cleared once it is written (alarms.ts). */
    onAlarm: alarms.listen,
    isSn: (sn: string) => DEVICE_SN_PATTERN.test(sn),
    /** What an sn may connect with (the embedded broker, and an external one through mqtt-auth). */
    credentials: keys.credentials,
  };
}
