/**
 * A device's `door` events written to the open log (开门记录), each once: the event's id is unique
 * in the log, so one sent again (by the device, or heard by every instance on an external broker)
 * changes nothing. A remote opening is credited to whoever sent the last open-door to that device.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { deviceCommands, deviceOpenLogs, openMethodValues, openResultValues } from '../db/schema.ts';
import { batchLoader, batchWriter } from '../lib/batch.ts';
import type { DeviceMetrics } from '../lib/metrics.ts';
import { eventAtAccepted, textParam, type DropReason, type Envelope } from './protocol.ts';
import { recordDoorEvents } from './webhook-events.ts';

export type DoorEvents = ReturnType<typeof createDoorEvents>;

export function createDoorEvents({ db, metrics }: { db: Database; metrics?: DeviceMetrics }) {
  const listeners = new Set<(sn: string) => void>();

  /**
   * The open log's rows of one turn in one INSERT; an id already logged changes nothing. The rows
   * written are told to webhooks in the same transaction (door.opened / door.denied).
   */
  const writeDoor = batchWriter(async (rows: (typeof deviceOpenLogs.$inferInsert)[]) => {
    const written = await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(deviceOpenLogs)
        .values(rows)
        .onConflictDoNothing({ target: deviceOpenLogs.messageId })
        .returning();
      await recordDoorEvents(tx, inserted);
      return inserted;
    });
    // Counted once committed; an event already logged (sent again) was not written.
    metrics?.openLogWritten(written.map((r) => r.result));
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

  return {
    /**
     * Writes one signed door event of this device: resolves once its row is in the database (or
     * was already), answers why it was refused when it cannot be logged (it is acknowledged
     * anyway: sending it again would not make it right).
     */
    async record(
      device: { id: number; name: string },
      sn: string,
      message: Envelope,
    ): Promise<DropReason | undefined> {
      const p = message.params;
      const method = openMethodValues.find((m) => m === p.method);
      const result = openResultValues.find((r) => r === p.result);
      // A v1 device may leave `at` out: then it is the message's own time.
      const at = p.at === undefined ? message.ts : p.at;
      if (!method || !result || typeof at !== 'number' || !Number.isFinite(at)) return 'malformed';
      if (!eventAtAccepted(at)) return 'at-out-of-range';
      const who = method === 'remote' ? ((await lastOpenerOf(device.id)) ?? null) : null;
      await writeDoor({
        messageId: message.id,
        deviceId: device.id,
        sn,
        deviceName: device.name,
        method,
        // Devices send the credential masked to its last 4 characters; keep those even from one that
        // sends more (a whole card number, or `****5678`).
        credential: typeof p.credential === 'string' ? p.credential.slice(-4) : null,
        result,
        reason: result === 'denied' ? textParam(p.reason, 200) : null,
        who,
        at: new Date(at),
      });
      listeners.forEach((listener) => listener(sn));
      return undefined;
    },
    /** Called after every door event is logged (the simulator's tests and the dashboard). */
    listen(listener: (sn: string) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
