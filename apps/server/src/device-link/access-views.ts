/**
 * 门禁权限查询: who can open a door and why, and which doors a member can open, read from the query
 * the devices are synced from (access.ts), so a row is exactly an entry of the device's `access`
 * state. A member's door is `synced` when the device holds the state that has it.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { maskPhone, toIso, type DeviceAccessRow, type MemberDoorRow } from '@cowork/contract';
import { rowsOf, type Database, type Executor } from '../db/client.ts';
import { buildings, devices, spaces } from '../db/schema.ts';
import { membersMatching } from '../lib/member-keyword.ts';
import { accessGrants, hashOfAccess, type AccessGrant } from './access.ts';
import { accessStatesOf } from './access-sync.ts';

const collator = new Intl.Collator('zh-Hans-CN');

/**
 * The state version a device holds: its heartbeat's (v1.1), else its last ack's; null for a device
 * that never connected.
 */
export const heldVersionOf = (d: {
  heldVersion: number | null;
  ackedVersion: number;
  lastSeenAt: Date | null;
}) => d.heldVersion ?? (d.lastSeenAt === null ? null : d.ackedVersion);

/** Whom a grant names: the staff list's name, else the member's (staff name, real name, nickname). */
async function namesOf(db: Executor, grants: readonly AccessGrant[]) {
  const ids = [...new Set(grants.filter((g) => g.name === null).map((g) => g.memberId))];
  if (ids.length === 0) return new Map<number, string | null>();
  const rows = await rowsOf<{ id: number | string; name: string | null }>(
    db,
    sql`select m.id, coalesce(
        (select cs.name from company_staff cs where cs.member_id = m.id
          order by cs.status = 'active' desc, cs.id desc limit 1),
        nullif(btrim(m.real_name), ''), nullif(btrim(m.nickname), '')) as name
      from members m where m.id in (${sql.join(
        ids.map((id) => sql`${id}::int`),
        sql`, `,
      )})`,
  );
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

/**
 * The entries of these devices with whom they name and why, by device; each device's by name then
 * phone. `keyword` (a phone, a name or a company: lib/member-keyword.ts) keeps its members' only.
 */
export async function accessRowsOf(
  db: Executor,
  deviceIds: readonly number[],
  keyword?: string,
  now = new Date(),
): Promise<Map<number, DeviceAccessRow[]>> {
  const grants = await accessGrants(
    db,
    { deviceIds, members: keyword ? membersMatching(keyword) : undefined },
    now,
  );
  const names = await namesOf(db, [...grants.values()].flat());
  return new Map(
    [...grants].map(([id, list]) => [
      id,
      list
        .map((g) => ({
          memberId: g.memberId,
          name: g.name ?? names.get(g.memberId) ?? null,
          phone: maskPhone(g.phone),
          validFrom: toIso(new Date(g.validFrom)),
          validTo: toIso(new Date(g.validTo)),
          sources: g.sources,
        }))
        .sort(
          (a, b) =>
            collator.compare(a.name ?? '', b.name ?? '') ||
            a.phone.localeCompare(b.phone) ||
            a.validFrom.localeCompare(b.validFrom),
        ),
    ]),
  );
}

/**
 * Every door the member can open now or later, why and until when, among the devices `where`
 * allows (an API key's buildings); by building, space and device. `synced`: the device holds the
 * current state (it acked its version, and that state is still the one the database gives).
 */
export async function memberDoorsOf(
  db: Database,
  memberId: number,
  where: SQL | undefined,
  now = Date.now(),
): Promise<MemberDoorRow[]> {
  const grants = await accessGrants(
    db,
    { deviceIds: 'all', members: sql`select ${memberId}::int` },
    new Date(now),
  );
  const ids = [...grants.keys()];
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: devices.id,
      name: devices.name,
      spaceName: spaces.name,
      buildingName: buildings.name,
      accessHash: devices.accessHash,
      accessVersion: devices.accessVersion,
      ackedVersion: devices.ackedVersion,
      heldVersion: devices.heldVersion,
      lastSeenAt: devices.lastSeenAt,
    })
    .from(devices)
    .leftJoin(spaces, eq(spaces.id, devices.spaceId))
    .leftJoin(buildings, eq(buildings.id, spaces.buildingId))
    .where(and(inArray(devices.id, ids), where));
  const states = await accessStatesOf(
    db,
    rows.map((d) => d.id),
    now,
  );
  const doors = rows.flatMap((d) => {
    const held = heldVersionOf(d);
    const state = states.get(d.id);
    const synced =
      held !== null && held >= d.accessVersion && state !== undefined && d.accessHash === hashOfAccess(state);
    return (grants.get(d.id) ?? []).map((g) => ({
      deviceId: d.id,
      deviceName: d.name,
      spaceName: d.spaceName,
      buildingName: d.buildingName,
      validFrom: toIso(new Date(g.validFrom)),
      validTo: toIso(new Date(g.validTo)),
      sources: g.sources,
      synced,
    }));
  });
  return doors.sort(
    (a, b) =>
      collator.compare(a.buildingName ?? '', b.buildingName ?? '') ||
      collator.compare(a.spaceName ?? '', b.spaceName ?? '') ||
      collator.compare(a.deviceName, b.deviceName) ||
      a.deviceId - b.deviceId ||
      a.validFrom.localeCompare(b.validFrom),
  );
}
