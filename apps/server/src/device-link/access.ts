/**
 * Who may open which door: the `access` list each device is synced (docs/device-protocol.md, access sync), the union of
 * - members with a paid (or checked-in) booking of a meeting room or venue linked to a space that a
 *   set holding the device holds (that space or one above it), from 15 minutes before the start to
 *   15 minutes after the end;
 * - members with a paid (or checked-in), unexpired membership card bought for the building of such a
 *   space;
 * - the active staff of an enabled company taken by an enabled enterprise access group (企业门禁组)
 *   holding the device: all of them, those of the group's departments, or the people chosen; within
 *   the group's validFrom–validTo, clipped to the company's contract period where it has one.
 * Entries already over are left out; one member's overlapping windows on a device are merged.
 *
 * The same query answers the console's 门禁权限查询 (access-views.ts) with each entry's reasons, so
 * the screen and the doors cannot disagree.
 */
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import {
  ACCESS_BOOKING_MARGIN_MS,
  maskPhone,
  type AccessSourceKind,
  type DeviceAccessState,
} from '@cowork/contract';
import { rowsOf, type Executor } from '../db/client.ts';
import { groupTakesStaff } from '../lib/staff-scope.ts';

/** What a `sync` carries besides `now` (the contract's deviceSyncParams); its hash tells whether a change changed anything. */
export type AccessState = DeviceAccessState;
export type AccessEntry = AccessState['access'][number];

/**
 * A source of access: a select of (device_id, member_id, phone, valid_from, valid_to, kind,
 * source_id, label, name) for the devices in `scope` (a table expression of device_id), `held` being
 * (set_id, space_id) of every space a set holds, spaces under held ones included. `kind`, `source_id`
 * and `label` say why (the contract's accessSource); `name` is the person's name where the source
 * knows it (the staff list).
 */
export type AccessSource = (parts: { now: Date }) => SQL;

const margin = sql.raw(`interval '${ACCESS_BOOKING_MARGIN_MS / 60_000} minutes'`);

const bookings: AccessSource = ({ now }) => sql`
  select sd.device_id, o.member_id, o.member_phone as phone,
         o.start_at - ${margin} as valid_from, o.end_at + ${margin} as valid_to,
         'booking' as kind, o.id as source_id, '预订 #' || o.order_no || ' ' || s.name as label,
         null::text as name
  from held h
  join device_set_devices sd on sd.set_id = h.set_id
  join scope on scope.device_id = sd.device_id
  join spaces s on s.id = h.space_id
  join orders o on o.status in ('paid', 'used')
    and ((o.kind = 'office-station' and o.product_id = s.office_station_id)
      or (o.kind = 'activity-station' and o.product_id = s.activity_station_id))
  where o.end_at + ${margin} > ${now.toISOString()}::timestamptz`;

const memberCards: AccessSource = ({ now }) => sql`
  select sd.device_id, o.member_id, o.member_phone as phone, o.valid_from, o.valid_to,
         'member-card' as kind, o.id as source_id, '会员卡 #' || o.order_no as label, null::text as name
  from held h
  join device_set_devices sd on sd.set_id = h.set_id
  join scope on scope.device_id = sd.device_id
  join spaces s on s.id = h.space_id
  join orders o on o.kind = 'user-card' and o.status in ('paid', 'used') and o.building_id = s.building_id
  where o.valid_to > ${now.toISOString()}::timestamptz and o.valid_from is not null`;

/** greatest/least skip nulls: a company without a contract period leaves the group's window as it is. */
const enterpriseGroups: AccessSource = ({ now }) => sql`
  select device_id, member_id, phone, valid_from, valid_to, kind, source_id, label, name from (
    select kd.device_id, cs.member_id, cs.phone,
           greatest(g.valid_from, c.valid_from) as valid_from, least(g.valid_to, c.valid_to) as valid_to,
           'access-group' as kind, g.id as source_id,
           '企业门禁组“' || g.name || '”（' || c.name || '）' as label, cs.name
    from kreator_devices kd
    join scope on scope.device_id = kd.device_id
    join kreator_user_groups g on g.id = kd.group_id and g.status = 'enabled'
    join companies c on c.id = g.company_id and c.status = 'enabled'
    join company_staff cs on ${groupTakesStaff('g', 'cs')}
  ) staff
  where valid_to > ${now.toISOString()}::timestamptz and valid_to > valid_from`;

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
  kind: AccessSourceKind;
  source_id: number | string;
  label: string;
  name: string | null;
}

/** Which entries the query reads: of these devices (or of every device), of every member or some. */
export interface AccessScope {
  deviceIds: readonly number[] | 'all';
  /** A select of member ids: only their entries (a member's doors, a keyword's members). */
  members?: SQL;
}

/** An entry of a device's access list with its reasons, as the console shows it. */
export interface AccessGrant {
  deviceId: number;
  memberId: number;
  /** In full; the device holds it masked. */
  phone: string;
  /** The staff list's name, where a source knows it. */
  name: string | null;
  validFrom: number;
  validTo: number;
  sources: { kind: AccessSourceKind; id: number; label: string }[];
}

/**
 * The entries of the devices in `scope` as of `now`, by device (in `scope.deviceIds` order, a device
 * with none answering []), each device's by member and start, with every source of each.
 */
export async function accessGrants(
  db: Executor,
  scope: AccessScope,
  now = new Date(),
): Promise<Map<number, AccessGrant[]>> {
  const listed = scope.deviceIds === 'all' ? [] : scope.deviceIds;
  const grants = new Map<number, AccessGrant[]>(listed.map((id) => [id, []]));
  if (scope.deviceIds !== 'all' && listed.length === 0) return grants;
  const devicesIn =
    scope.deviceIds === 'all'
      ? sql`select id from devices`
      : sql`values ${sql.join(
          listed.map((id) => sql`(${id}::int)`),
          sql`, `,
        )}`;
  const union = sql.join(
    accessSources.map((source) => source({ now })),
    sql` union all `,
  );
  const result = await rowsOf<Row>(
    db,
    sql`
    with recursive scope(device_id) as (${devicesIn}),
    held(set_id, space_id) as (
      select ss.set_id, ss.space_id from device_set_spaces ss
      where ss.set_id in (select sd.set_id from device_set_devices sd join scope on scope.device_id = sd.device_id)
      union
      select h.set_id, s.id from spaces s join held h on s.parent_id = h.space_id
    )
    select distinct device_id, member_id, phone, valid_from, valid_to, kind, source_id, label, name
    from (${union}) entries
    ${scope.members ? sql`where member_id in (${scope.members})` : sql``}
    order by device_id, member_id, valid_from, valid_to, phone, kind, source_id`,
  );
  for (const row of result) {
    const deviceId = Number(row.device_id);
    let list = grants.get(deviceId);
    if (!list) {
      if (scope.deviceIds !== 'all') continue;
      list = [];
      grants.set(deviceId, list);
    }
    const source = { kind: row.kind, id: Number(row.source_id), label: row.label };
    const from = new Date(row.valid_from).getTime();
    const to = new Date(row.valid_to).getTime();
    const last = list.at(-1);
    // Rows come by member and start: a window overlapping the member's previous one extends it.
    if (last && last.memberId === Number(row.member_id) && from <= last.validTo) {
      last.validTo = Math.max(last.validTo, to);
      last.name ??= row.name;
      if (!last.sources.some((s) => s.kind === source.kind && s.id === source.id)) last.sources.push(source);
    } else
      list.push({
        deviceId,
        memberId: Number(row.member_id),
        phone: row.phone,
        name: row.name,
        validFrom: from,
        validTo: to,
        sources: [source],
      });
  }
  return grants;
}

/** The access lists of these devices as of `now` (a device with none answers []): what they are synced. */
export async function accessLists(
  db: Executor,
  deviceIds: readonly number[],
  now = new Date(),
): Promise<Map<number, AccessEntry[]>> {
  const grants = await accessGrants(db, { deviceIds }, now);
  return new Map(
    [...grants].map(([id, list]) => [
      id,
      list.map((g) => ({
        memberId: g.memberId,
        phone: maskPhone(g.phone),
        validFrom: g.validFrom,
        validTo: g.validTo,
      })),
    ]),
  );
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
 * space), in these sets, access groups or companies, or these devices themselves; recomputing finds
 * out whether it did.
 */
export async function devicesAffected(
  db: Executor,
  scope: {
    buildingIds?: readonly number[];
    setIds?: readonly number[];
    deviceIds?: readonly number[];
    groupIds?: readonly number[];
    /** A company's staff list or its contract changed: the devices of its access groups. */
    companyIds?: readonly number[];
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
  if (scope.companyIds?.length)
    parts.push(sql`
      select kd.device_id from kreator_devices kd
      join kreator_user_groups g on g.id = kd.group_id
      where g.company_id in (${list(scope.companyIds)})`);
  const ids = new Set(scope.deviceIds ?? []);
  if (parts.length) {
    const rows = await rowsOf<{ device_id: number | string }>(db, sql.join(parts, sql` union `));
    for (const row of rows) ids.add(Number(row.device_id));
  }
  return [...ids];
}
