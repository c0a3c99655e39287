/**
 * A device as the console lists it (设备管理's rows, 门禁联动's and 企业门禁组's devices): one query,
 * answering the contract's deviceRecord, so every screen says the same about status and sync state.
 */
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { DEVICE_ACK_TIMEOUT_MS, deviceMessages, deviceRecord, type DeviceRecord } from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { devices, spaces } from '../../db/schema.ts';
import { heldVersionOf } from '../../device-link/access-views.ts';
import { leaseHoursOf } from '../../device-link/leases.ts';
import { deviceModesOf } from '../../device-link/modes.ts';
import { spaceInKeyBuildings } from '../../lib/building-scope.ts';
import { notFound } from '../../lib/http.ts';
import { toIso } from '../../lib/time.ts';
import { spacePathsOf } from '../space/paths.ts';

export { deviceRecord };

const inFlightMs = DEVICE_ACK_TIMEOUT_MS + 1_000;

/** Devices matching `where`, newest first, with their space's name and path and their sync state. */
export async function deviceRecords(
  db: Executor,
  where: SQL | undefined,
  window?: { limit: number; offset: number },
): Promise<DeviceRecord[]> {
  const query = db
    .select({
      device: devices,
      spaceName: spaces.name,
      syncing: sql<boolean>`exists (select 1 from device_commands c where c.device_id = ${devices.id}
        and c.type = 'sync' and c.state = 'sent' and c.sent_at > now() - ${sql.raw(`interval '${inFlightMs} milliseconds'`)})`,
      openAlarms: sql<number>`(select count(*) from device_alarms a where a.device_id = ${devices.id}
        and a.state = 'open')::int`,
      leaseHours: sql<number>`${leaseHoursOf(sql`${devices.spaceId}`)}::int`,
    })
    .from(devices)
    .leftJoin(spaces, eq(spaces.id, devices.spaceId))
    .where(where)
    .orderBy(desc(devices.id));
  const rows = await (window ? query.limit(window.limit).offset(window.offset) : query);
  const paths = await spacePathsOf(
    db,
    rows.map((r) => r.device.spaceId),
  );
  const modes = await deviceModesOf(
    db,
    rows.map((r) => r.device.id),
  );
  return rows.map(({ device: d, spaceName, syncing, openAlarms, leaseHours }) => {
    // What it holds: its heartbeat's or last ack's version (acks alone for a v1 device).
    const held = heldVersionOf(d);
    // A device that never connected, or was never sent a state, holds nothing yet.
    const syncState =
      held === null || d.lastSeenAt === null || d.accessHash === null
        ? 'unsynced'
        : held >= d.accessVersion
          ? 'synced'
          : syncing
            ? 'syncing'
            : 'unsynced';
    const since = syncState === 'synced' ? d.syncedAt : d.accessChangedAt;
    return {
      id: d.id,
      sn: d.sn,
      name: d.name,
      spaceId: d.spaceId,
      spaceName,
      spacePath: d.spaceId === null ? null : (paths.get(d.spaceId)?.path ?? null),
      buildingId: d.spaceId === null ? null : (paths.get(d.spaceId)?.buildingId ?? null),
      model: d.model,
      vendor: d.vendor,
      firmware: d.firmware,
      status: d.status,
      lastSeenAt: d.lastSeenAt ? toIso(d.lastSeenAt) : null,
      syncState,
      droppedCount: d.droppedCount,
      protocol: d.protocol,
      syncedVersion: held,
      currentVersion: d.accessVersion,
      syncSince: since ? toIso(since) : null,
      mode: modes.get(d.id) ?? 'normal',
      leaseUntil: d.leaseUntil ? toIso(d.leaseUntil) : null,
      openAlarms: Number(openAlarms),
      leaseHours: Number(leaseHours),
    };
  });
}

/**
 * A registered device's row the caller may reach, or the 404 that it is not (any more, or in
 * another building than an API key's).
 */
export async function deviceById(db: Executor, id: number, request: FastifyRequest) {
  const [row] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.id, id), spaceInKeyBuildings(request, devices.spaceId)));
  if (!row) throw notFound(deviceMessages.notFound);
  return row;
}
