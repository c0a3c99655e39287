/**
 * The device link's webhook events (开放平台): door openings and refusals, devices going online and
 * offline, alarms raised and cleared. Each is recorded in the transaction that writes the change,
 * with the device's place (building, space) as it is then; a change written again (the same door
 * event twice, a device already online) records nothing, since only what was written is told.
 */
import { and, eq, inArray, ne, type SQL } from 'drizzle-orm';
import { maskPhone } from '@cowork/contract';
import type { Executor } from '../db/client.ts';
import { buildings, deviceAlarms, deviceOpenLogs, devices, spaces } from '../db/schema.ts';
import { recordEvents, type RecordedEvent } from '../lib/outbox.ts';
import { toIso, toIsoOrNull } from '../lib/time.ts';

/** The devices' places and names now, by device id. */
async function devicesOf(tx: Executor, ids: readonly (number | null)[]) {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  const rows =
    wanted.length === 0
      ? []
      : await tx
          .select({
            deviceId: devices.id,
            sn: devices.sn,
            deviceName: devices.name,
            lastSeenAt: devices.lastSeenAt,
            spaceId: spaces.id,
            spaceName: spaces.name,
            buildingId: buildings.id,
            buildingName: buildings.name,
          })
          .from(devices)
          .leftJoin(spaces, eq(spaces.id, devices.spaceId))
          .leftJoin(buildings, eq(buildings.id, spaces.buildingId))
          .where(inArray(devices.id, wanted));
  return new Map(rows.map((r) => [r.deviceId, r]));
}

type OpenLogRow = typeof deviceOpenLogs.$inferSelect;

/** A remote opening's `who` is the staff member; otherwise it is a member's phone, if known. */
const openerOf = (row: OpenLogRow) =>
  row.method === 'remote'
    ? { memberId: null, phone: null, operator: row.who }
    : { memberId: row.memberId, phone: row.who === null ? null : maskPhone(row.who), operator: null };

/** door.opened / door.denied for open-log rows just inserted (one per row). */
export async function recordDoorEvents(tx: Executor, rows: readonly OpenLogRow[]) {
  if (rows.length === 0) return;
  const found = await devicesOf(
    tx,
    rows.map((r) => r.deviceId),
  );
  const events = rows.map((row): RecordedEvent => {
    const place = row.deviceId === null ? undefined : found.get(row.deviceId);
    const common = {
      openLogId: row.id,
      deviceId: row.deviceId,
      sn: row.sn,
      deviceName: row.deviceName,
      buildingId: place?.buildingId ?? null,
      buildingName: place?.buildingName ?? null,
      spaceId: place?.spaceId ?? null,
      spaceName: place?.spaceName ?? null,
      method: row.method,
      ...openerOf(row),
    };
    return row.result === 'success'
      ? { type: 'door.opened', data: { ...common, openedAt: toIso(row.at) }, occurredAt: row.at }
      : {
          type: 'door.denied',
          data: { ...common, reason: row.reason, deniedAt: toIso(row.at) },
          occurredAt: row.at,
        };
  });
  await recordEvents(tx, events);
}

/**
 * Sets these devices (`where`) online or offline, with `also` written beside it, where they were
 * not already, and records device.online / device.offline for each that changed.
 */
export async function changePresence(
  tx: Executor,
  status: 'online' | 'offline',
  where: SQL | undefined,
  also: { lastSeenAt?: Date } = {},
) {
  const changed = await tx
    .update(devices)
    .set({ status, ...also })
    .where(and(where, ne(devices.status, status)))
    .returning({ id: devices.id });
  if (changed.length === 0) return;
  const found = await devicesOf(
    tx,
    changed.map((c) => c.id),
  );
  const now = toIso(new Date());
  await recordEvents(
    tx,
    [...found.values()].map(({ lastSeenAt, ...device }): RecordedEvent =>
      status === 'online'
        ? { type: 'device.online', data: { ...device, onlineAt: now } }
        : {
            type: 'device.offline',
            data: { ...device, lastSeenAt: toIsoOrNull(lastSeenAt), offlineAt: now },
          },
    ),
  );
}

/** device.alarm.raised / device.alarm.cleared for these alarm rows' changes, in their order. */
export async function recordAlarmEvents(
  tx: Executor,
  changes: readonly { id: number; state: 'raised' | 'cleared' }[],
) {
  if (changes.length === 0) return;
  const rows = await tx
    .select({
      alarm: deviceAlarms,
      spaceId: spaces.id,
      spaceName: spaces.name,
      buildingName: buildings.name,
    })
    .from(deviceAlarms)
    .leftJoin(devices, eq(devices.id, deviceAlarms.deviceId))
    .leftJoin(spaces, eq(spaces.id, devices.spaceId))
    .leftJoin(buildings, eq(buildings.id, deviceAlarms.buildingId))
    .where(
      inArray(
        deviceAlarms.id,
        changes.map((c) => c.id),
      ),
    );
  const byId = new Map(rows.map((r) => [r.alarm.id, r]));
  const events = changes.flatMap((change): RecordedEvent[] => {
    const row = byId.get(change.id);
    if (!row) return [];
    const { alarm } = row;
    const data = {
      alarmId: alarm.id,
      deviceId: alarm.deviceId,
      sn: alarm.sn,
      deviceName: alarm.deviceName,
      buildingId: alarm.buildingId,
      buildingName: row.buildingName,
      spaceId: row.spaceId,
      spaceName: row.spaceName,
      kind: alarm.kind,
      detail: alarm.detail,
      raisedAt: toIso(alarm.raisedAt),
    };
    if (change.state === 'raised') return [{ type: 'device.alarm.raised', data, occurredAt: alarm.raisedAt }];
    const clearedAt = alarm.clearedAt ?? new Date();
    return [
      { type: 'device.alarm.cleared', data: { ...data, clearedAt: toIso(clearedAt) }, occurredAt: clearedAt },
    ];
  });
  await recordEvents(tx, events);
}
