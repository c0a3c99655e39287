/**
 * A device as the console lists it (设备管理's rows, 门禁联动's devices): one query shape and one
 * answer schema, so both screens say the same about status and sync state.
 */
import { desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { DEVICE_ACK_TIMEOUT_MS, MAX_PAGE_SIZE, numeric } from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { deviceProtocolValues, devices, deviceStatusValues, spaces } from '../../db/schema.ts';
import { toIso } from '../../lib/time.ts';
import { spacePathsOf } from '../space/paths.ts';

export const deviceRecord = z.object({
  id: z.number(),
  sn: z.string(),
  name: z.string(),
  spaceId: z.number().nullable(),
  spaceName: z.string().nullable(),
  /** Where it is: `楼宇 / 上级空间 / 空间` (null while unplaced). */
  spacePath: z.string().nullable(),
  buildingId: z.number().nullable(),
  model: z.string().nullable(),
  vendor: z.string().nullable(),
  firmware: z.string().nullable(),
  status: z.enum(deviceStatusValues),
  lastSeenAt: z.string().nullable(),
  /**
   * 已同步: acked the access state last sent; 同步中: a sync is awaiting its ack; else 未同步 (always
   * for a device that never connected).
   */
  syncState: z.enum(['synced', 'syncing', 'unsynced']),
  droppedCount: z.number(),
  /** The protocol its last hello named: "1.1", or "1" (v1 devices get no secretBox nor PBKDF2). */
  protocol: z.enum(deviceProtocolValues),
});
export type DeviceRecordRow = z.infer<typeof deviceRecord>;

/** `current` and `size` of the hardware pages. */
export const pageParams = {
  current: numeric(
    z.number({ error: '页码必须是正整数' }).int().min(1, '页码必须是正整数').max(100_000).default(1),
  ),
  size: numeric(
    z
      .number({ error: '每页条数必须是正整数' })
      .int()
      .min(1)
      .max(MAX_PAGE_SIZE, `每页最多 ${MAX_PAGE_SIZE} 条`)
      .default(10),
  ),
};

const inFlightMs = DEVICE_ACK_TIMEOUT_MS + 1_000;

/** Devices matching `where`, newest first, with their space's name and path and their sync state. */
export async function deviceRecords(
  db: Executor,
  where: SQL | undefined,
  window?: { limit: number; offset: number },
): Promise<DeviceRecordRow[]> {
  const query = db
    .select({
      device: devices,
      spaceName: spaces.name,
      syncing: sql<boolean>`exists (select 1 from device_commands c where c.device_id = ${devices.id}
        and c.type = 'sync' and c.state = 'sent' and c.sent_at > now() - ${sql.raw(`interval '${inFlightMs} milliseconds'`)})`,
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
  return rows.map(({ device: d, spaceName, syncing }) => ({
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
    // A device that never connected holds nothing yet, whatever the versions say.
    syncState:
      d.lastSeenAt === null
        ? 'unsynced'
        : d.ackedVersion >= d.accessVersion
          ? 'synced'
          : syncing
            ? 'syncing'
            : 'unsynced',
    droppedCount: d.droppedCount,
    protocol: d.protocol,
  }));
}

/** Where each of these devices is now (`楼宇 / 空间`), by device id; unplaced and removed ones are absent. */
export async function devicePlaces(db: Executor, deviceIds: readonly (number | null)[]) {
  const ids = [...new Set(deviceIds.filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map<number, string>();
  const placed = await db
    .select({ id: devices.id, spaceId: devices.spaceId })
    .from(devices)
    .where(inArray(devices.id, ids));
  const paths = await spacePathsOf(
    db,
    placed.map((d) => d.spaceId),
  );
  return new Map(
    placed.flatMap((d) => {
      const path = d.spaceId === null ? undefined : paths.get(d.spaceId)?.path;
      return path ? [[d.id, path] as const] : [];
    }),
  );
}
