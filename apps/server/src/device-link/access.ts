/**
 * Who may open which door: the `access` list each device is synced (docs/device-protocol.md, access sync), the union of
 * - members with a paid (or checked-in) booking of a meeting room or venue linked to a space that a
 *   set holding the device holds (that space or one above it), from 15 minutes before the start to
 *   15 minutes after the end;
 * - members with a paid (or checked-in), unexpired membership card bought for the building of such a
 *   space;
 * - members of an enabled enterprise access group (企业门禁组) holding the device, within the
 *   group's validFrom–validTo.
 * Entries already over are left out; one member's overlapping windows on a device are merged.
 */
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { ACCESS_BOOKING_MARGIN_MS, maskPhone, type DeviceAccessState } from '@cowork/contract';
import { rowsOf, type Executor } from '../db/client.ts';

/** What a `sync` carries besides `now` (the contract's deviceSyncParams); its hash tells whether a change changed anything. */
export type AccessState = DeviceAccessState;
export type AccessEntry = AccessState['access'][number];

/**
 * A source of access: a select of (device_id, member_id, phone, valid_from, valid_to) for the devices
 * in `scope` (a table expression of device_id), `held` being (set_id, space_id) of every space a set
 * holds, spaces under held ones included.
 */
export type AccessSource = (parts: { now: Date }) => SQL;

const margin = sql.raw(`interval '${ACCESS_BOOKING_MARGIN_MS / 60_000} minutes'`);

const bookings: AccessSource = ({ now }) => sql`
  select sd.device_id, o.member_id, o.member_phone as phone,
         o.start_at - ${margin} as valid_from, o.end_at + ${margin} as valid_to
  from held h
  join device_set_devices sd on sd.set_id = h.set_id
  join scope on scope.device_id = sd.device_id
  join spaces s on s.id = h.space_id
  join orders o on o.status in ('paid', 'used')
    and ((o.kind = 'office-station' and o.product_id = s.office_station_id)
      or (o.kind = 'activity-station' and o.product_id = s.activity_station_id))
  where o.end_at + ${margin} > ${now.toISOString()}::timestamptz`;

const memberCards: AccessSource = ({ now }) => sql`
  select sd.device_id, o.member_id, o.member_phone as phone, o.valid_from, o.valid_to
  from held h
  join device_set_devices sd on sd.set_id = h.set_id
  join scope on scope.device_id = sd.device_id
  join spaces s on s.id = h.space_id
  join orders o on o.kind = 'user-card' and o.status in ('paid', 'used') and o.building_id = s.building_id
  where o.valid_to > ${now.toISOString()}::timestamptz and o.valid_from is not null`;

const enterpriseGroups: AccessSource = ({ now }) => sql`
  select kd.device_id, ku.member_id, ku.phone, g.valid_from, g.valid_to
  from kreator_devices kd
  join scope on scope.device_id = kd.device_id
  join kreator_user_groups g on g.id = kd.group_id and g.status = 'enabled'
  join kreator_users ku on ku.group_id = g.id
  where g.valid_to > ${now.toISOString()}::timestamptz`;

/** The order kinds that open doors: their moves re-sync the devices of their building. */
export const doorOrderKinds = ['office-station', 'activity-station', 'user-card'] as const;

/** Every source of access. */
export const accessSources: AccessSource[] = [bookings, memberCards, enterpriseGroups];

interface Row {
  device_id: number | string;
  member_id: number | string;
  phone: string;
  valid_from: string | Date;
  valid_to: string | Date;
}

/** The access lists of these devices as of `now` (a device with none answers []). */
export async function accessLists(
  db: Executor,
  deviceIds: readonly number[],
  now = new Date(),
): Promise<Map<number, AccessEntry[]>> {
  const lists = new Map<number, AccessEntry[]>(deviceIds.map((id) => [id, []]));
  if (deviceIds.length === 0) return lists;
  const ids = sql.join(
    deviceIds.map((id) => sql`(${id}::int)`),
    sql`, `,
  );
  const union = sql.join(
    accessSources.map((source) => source({ now })),
    sql` union all `,
  );
  const result = await rowsOf<Row>(
    db,
    sql`
    with recursive scope(device_id) as (values ${ids}),
    held(set_id, space_id) as (
      select ss.set_id, ss.space_id from device_set_spaces ss
      where ss.set_id in (select sd.set_id from device_set_devices sd join scope on scope.device_id = sd.device_id)
      union
      select h.set_id, s.id from spaces s join held h on s.parent_id = h.space_id
    )
    select distinct device_id, member_id, phone, valid_from, valid_to from (${union}) entries
    order by device_id, member_id, valid_from`,
  );
  for (const row of result) {
    const list = lists.get(Number(row.device_id));
    if (!list) continue;
    const entry = {
      memberId: Number(row.member_id),
      phone: maskPhone(row.phone),
      validFrom: new Date(row.valid_from).getTime(),
      validTo: new Date(row.valid_to).getTime(),
    };
    const last = list.at(-1);
    // Rows come by member and start: a window overlapping the member's previous one extends it.
    if (last && last.memberId === entry.memberId && entry.validFrom <= last.validTo)
      last.validTo = Math.max(last.validTo, entry.validTo);
    else list.push(entry);
  }
  return lists;
}

export const hashOfAccess = (state: AccessState) =>
  createHash('sha256').update(JSON.stringify(state)).digest('hex');

/** When the first entry of a state ends (a card expiring, a booking's window closing), if any does. */
export function nextExpiryOf(state: AccessState, now = Date.now()): Date | null {
  const ends = [...state.access, ...state.cardRules].map((e) => e.validTo).filter((t) => t > now);
  return ends.length ? new Date(Math.min(...ends)) : null;
}

/**
 * The devices whose access may change when something changes in these buildings (an order, a
 * space), in these sets, or these devices themselves; recomputing finds out whether it did.
 */
export async function devicesAffected(
  db: Executor,
  scope: {
    buildingIds?: readonly number[];
    setIds?: readonly number[];
    deviceIds?: readonly number[];
    groupIds?: readonly number[];
  },
): Promise<number[]> {
  const parts: SQL[] = [];
  const list = (values: readonly number[]) =>
    sql.join(
      values.map((v) => sql`${v}::int`),
      sql`, `,
    );
  if (scope.buildingIds?.length)
    parts.push(sql`
      select sd.device_id from device_set_devices sd
      join device_set_spaces ss on ss.set_id = sd.set_id
      join spaces s on s.id = ss.space_id
      where s.building_id in (${list(scope.buildingIds)})`);
  if (scope.setIds?.length)
    parts.push(
      sql`select sd.device_id from device_set_devices sd where sd.set_id in (${list(scope.setIds)})`,
    );
  if (scope.groupIds?.length)
    parts.push(
      sql`select kd.device_id from kreator_devices kd where kd.group_id in (${list(scope.groupIds)})`,
    );
  const ids = new Set(scope.deviceIds ?? []);
  if (parts.length) {
    const rows = await rowsOf<{ device_id: number | string }>(db, sql.join(parts, sql` union `));
    for (const row of rows) ids.add(Number(row.device_id));
  }
  return [...ids];
}
