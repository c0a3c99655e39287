/**
 * A device's `hello` (sent at every connect): from a device not registered it puts the device on
 * the waiting list (待注册); from a registered one it records model, vendor, firmware and protocol,
 * and the device is sent its whole access state, since it may have lost it.
 *
 * Every instance on an external broker hears each hello: the one whose update changes the device's
 * last_hello_id claims it and sends the sync.
 */
import { inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { retryingDeadlocks, rowsOf, type Database } from '../db/client.ts';
import { deviceEnrolments, devices } from '../db/schema.ts';
import { batchLoader, batchWriter } from '../lib/batch.ts';
import { automaticActor } from './actors.ts';
import type { AccessSync } from './access-sync.ts';
import { isConsoleName } from './console-identity.ts';
import { textParam, type Envelope } from './protocol.ts';
import { protocolOf, type DeviceProtocol } from './secrets-v11.ts';
import { changePresence } from './webhook-events.ts';

interface Hello {
  deviceId: number;
  id: string;
  model: string | null;
  vendor: string | null;
  firmware: string | null;
  protocol: DeviceProtocol;
}

export interface HelloDeps {
  config: Pick<Config, 'mqttUrl'>;
  db: Database;
  log: FastifyBaseLogger;
  /** Sends devices their access state (access-sync.ts). */
  syncDevices: AccessSync['syncDevices'];
  /** A claimed hello's firmware, which may finish a device's update (firmware/rollouts.ts). */
  firmwareHello?: (deviceId: number, firmware: string | null) => Promise<void>;
}

export type Hellos = ReturnType<typeof createHellos>;

export function createHellos({ config, db, log, syncDevices, firmwareHello }: HelloDeps) {
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

  /** Claims hellos many in one statement: a fleet reconnecting after an outage says hello at once. */
  const claimHello = batchLoader(async (hellos: Hello[]) => {
    const values = sql.join(
      hellos.map(
        (h) =>
          sql`(${h.deviceId}::int, ${h.id}::text, ${h.model}::text, ${h.vendor}::text, ${h.firmware}::text, ${h.protocol}::text)`,
      ),
      sql`, `,
    );
    const result = await retryingDeadlocks(() =>
      db.transaction(async (tx) => {
        // Those offline until now come online (and are told to webhooks) first.
        await changePresence(
          tx,
          'online',
          inArray(
            devices.id,
            hellos.map((h) => h.deviceId),
          ),
        );
        return rowsOf<{ hello_id: string }>(
          tx,
          sql`
      update devices d set model = v.model, vendor = v.vendor, firmware = v.firmware,
        protocol = v.protocol, status = 'online', last_seen_at = now(), last_hello_id = v.hello_id
      from (values ${values}) as v(id, hello_id, model, vendor, firmware, protocol)
      where d.id = v.id and d.last_hello_id is distinct from v.hello_id
      returning v.hello_id`,
        );
      }),
    );
    const claimed = new Set(result.map((r) => r.hello_id));
    return new Map(hellos.map((h) => [h, claimed.has(h.id)]));
  });

  /** The syncs after the hellos of one turn, sent as one batch. */
  const syncAfterHello = batchWriter(async (deviceIds: number[]) => {
    await syncDevices(deviceIds, automaticActor, true);
  });

  return {
    /** A hello signed with the enrolment key by an sn not registered: the waiting list. */
    async enrol(sn: string, message: Envelope) {
      // The console's own MQTT username is never a device's (console-identity.ts).
      if (isConsoleName(config, sn)) return;
      const p = message.params;
      await upsertEnrolment({
        sn,
        model: textParam(p.model),
        vendor: textParam(p.vendor),
        firmware: textParam(p.firmware),
        lastSeenAt: new Date(),
      });
    },
    /** A registered device's signed, fresh hello. */
    async hello(deviceId: number, sn: string, message: Envelope) {
      const p = message.params;
      const claimed = await claimHello({
        deviceId,
        id: message.id,
        model: textParam(p.model),
        vendor: textParam(p.vendor),
        firmware: textParam(p.firmware),
        protocol: protocolOf(p.protocol),
      });
      if (!claimed) return;
      void firmwareHello?.(deviceId, textParam(p.firmware)).catch((error: unknown) =>
        log.warn({ err: error, sn }, 'firmware rollout after hello failed'),
      );
      await syncAfterHello(deviceId).catch((error: unknown) =>
        log.warn({ err: error, sn }, 'sync after hello failed'),
      );
    },
  };
}
