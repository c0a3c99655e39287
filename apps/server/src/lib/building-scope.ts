/**
 * Records valid in several buildings (会员卡, 会议卡) keep the ids in an integer[] column. Their
 * module takes both hooks from here: `check` in prepare (the ids must name existing buildings)
 * and `where` for the page (records valid in the one building searched for).
 *
 * @example
 *   const scope = buildingScope(userCards.buildingIds, '适用楼宇');
 *   crudModule({ ..., where: scope.where, prepare: (values, { tx }) => scope.check(values, tx) });
 */
import { arrayContains, arrayOverlaps, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { fieldInvalid, idOf, quoted } from '@cowork/contract';
import { apiKeyMessages } from '@cowork/contract/resources/api-key';
import type { Executor } from '../db/client.ts';
import { buildings, devices, spaces } from '../db/schema.ts';
import { AppError, badRequest, queryText } from './http.ts';
import { recordOf } from './unknown.ts';

export function buildingScope(column: PgColumn, label: string) {
  return {
    /** Drops repeated ids and answers 400 naming the field when one names no building. */
    async check<V extends { buildingIds?: number[] }>(values: V, tx: Executor): Promise<V> {
      const ids = values.buildingIds;
      if (ids === undefined) return values;
      const unique = [...new Set(ids)];
      const found = await tx
        .select({ id: buildings.id })
        .from(buildings)
        .where(inArray(buildings.id, unique));
      if (found.length !== unique.length) {
        throw badRequest(fieldInvalid(label, '所选楼宇不存在或已被删除，请刷新楼宇列表后重新选择'));
      }
      return { ...values, buildingIds: unique };
    },
    /** The page filter `?buildingIds=3`: records whose ids contain building 3. */
    where(request: FastifyRequest) {
      const raw = queryText(request, 'buildingIds');
      if (raw === undefined || raw === '') return undefined;
      const id = idOf().safeParse(raw);
      if (!id.success) throw badRequest(fieldInvalid(label, `请选择一个${label}`));
      return arrayContains(column, [id.data]);
    },
  };
}

/** Building ids by name, for demo rows that name the demo buildings. */
export async function buildingIdsByName(tx: Executor, names: readonly string[]): Promise<number[]> {
  const rows = await tx
    .select({ id: buildings.id, name: buildings.name })
    .from(buildings)
    .where(inArray(buildings.name, [...names]));
  const ids = new Map(rows.map((row) => [row.name, row.id]));
  return names.map((name) => {
    const id = ids.get(name);
    if (id === undefined) throw new Error(`demo building ${name} is missing`);
    return id;
  });
}

/**
 * The floors of a building (null when there is none), read once per transaction: an import checks
 * thousands of rows against a handful of buildings.
 */
const floorsRead = new WeakMap<Executor, Map<number, string[] | null>>();
async function floorsOf(tx: Executor, buildingId: number): Promise<string[] | null> {
  const known = floorsRead.get(tx) ?? new Map<number, string[] | null>();
  floorsRead.set(tx, known);
  if (!known.has(buildingId)) {
    const [building] = await tx
      .select({ floors: buildings.floors })
      .from(buildings)
      .where(eq(buildings.id, buildingId));
    known.set(buildingId, building?.floors ?? null);
  }
  return known.get(buildingId)!;
}

/**
 * Something placed in one building (a seat, a meeting room): the building must exist and, when it
 * has floors, the floor must be one of them. 400 naming the field otherwise.
 */
export async function checkBuildingFloor(
  tx: Executor,
  place: { buildingId: number; floor: string | null | undefined },
  labels: Record<string, string>,
) {
  const floors = await floorsOf(tx, place.buildingId);
  if (!floors)
    throw badRequest(fieldInvalid(labels.buildingId, '所选楼宇不存在或已被删除，请刷新后重新选择'));
  if (floors.length === 0) return;
  const list = floors.join('、');
  if (!place.floor) throw badRequest(fieldInvalid(labels.floor, `请选择所在楼层，该楼宇的楼层有 ${list}`));
  if (!floors.includes(place.floor)) {
    throw badRequest(fieldInvalid(labels.floor, `该楼宇没有${quoted(place.floor)}，请从 ${list} 中选择`));
  }
}

/** An import template's example 楼层: the first floor of the example row's 楼宇 (named), blank without floors. */
export async function sampleFloor(row: Record<string, unknown>, request: FastifyRequest): Promise<string> {
  const [building] = await request.server.db
    .select({ floors: buildings.floors })
    .from(buildings)
    .where(eq(buildings.name, String(row.buildingId ?? '')));
  return building?.floors?.[0] ?? '';
}

/** The 必填 of 楼层 on an import template's 说明 sheet: it depends on the 楼宇 (checkBuildingFloor). */
export const FLOOR_REQUIRED_WHEN = '楼宇设有楼层时必填';

/** For an import template's 说明 sheet: each building's floors, so the 楼层 column can be filled. */
export async function floorsNote(request: FastifyRequest): Promise<string> {
  const rows = await request.server.db
    .select({ name: buildings.name, floors: buildings.floors })
    .from(buildings)
    .orderBy(asc(buildings.name));
  const lines = rows.map((b) => `${b.name}：${b.floors?.length ? b.floors.join('、') : '无楼层（留空）'}`);
  return lines.length ? `各楼宇的楼层——${lines.join('；')}` : '';
}

/** The names a building is sent under: one (`buildingId`), or several (`buildingIds`). */
const BUILDING_KEYS = ['buildingId', 'buildingIds'] as const;

/** The building ids a query or body value names (a number, a numeric string, or a list of them). */
function idsIn(value: unknown): number[] {
  const items = Array.isArray(value)
    ? value
    : value === undefined || value === null || value === ''
      ? []
      : [value];
  return items.map(Number);
}

/**
 * An API key limited to some buildings (接口密钥's 限定楼宇) names only those: a query or body
 * naming another one is refused (403). Runs before validation, on what was sent. What it reads,
 * edits or removes by id, and what lists show it, is limited by `inKeyBuildings` below. Staff and
 * unlimited keys pass untouched.
 */
export function limitToKeyBuildings(request: FastifyRequest) {
  const allowed = keyBuildingsOf(request);
  if (!allowed) return;
  for (const source of [recordOf(request.query), recordOf(request.body)])
    for (const key of BUILDING_KEYS)
      if (idsIn(source[key]).some((id) => !allowed.includes(id)))
        throw new AppError(403, apiKeyMessages.outsideBuildings);
}

/**
 * The buildings the caller is limited to: an API key's 限定楼宇. Undefined for staff (who have no
 * building scope yet) and for keys of every building.
 */
export function keyBuildingsOf(request: FastifyRequest | undefined): number[] | undefined {
  const ids = request?.user?.apiKey?.buildingIds;
  return ids?.length ? ids : undefined;
}

/**
 * Rows of the caller's buildings only, as a condition for the WHERE of every read, edit and removal
 * (by id or in a list), so that a row elsewhere is simply not found: 404, never 403, and a key does
 * not learn what exists in other buildings. `column` holds a row's building (integer) or the
 * buildings it is valid in (integer[]: any of the key's). A row of no building is outside every
 * key's buildings. Undefined (no condition) for staff and unlimited keys.
 *
 * @example
 *   .where(and(eq(alerts.id, id), inKeyBuildings(request, alerts.buildingId)))
 */
export function inKeyBuildings(request: FastifyRequest | undefined, column: PgColumn): SQL | undefined {
  const allowed = keyBuildingsOf(request);
  if (!allowed) return undefined;
  return column.columnType === 'PgArray' ? arrayOverlaps(column, allowed) : inArray(column, allowed);
}

/** `inKeyBuildings` for rows placed in a space (devices): the space's building. */
export function spaceInKeyBuildings(request: FastifyRequest | undefined, spaceId: PgColumn): SQL | undefined {
  const allowed = keyBuildingsOf(request);
  if (!allowed) return undefined;
  return sql`${spaceId} in (select ${spaces.id} from ${spaces} where ${inArray(spaces.buildingId, allowed)})`;
}

/** `inKeyBuildings` for rows of a device (open logs): the building of the device's space. */
export function deviceInKeyBuildings(
  request: FastifyRequest | undefined,
  deviceId: PgColumn,
): SQL | undefined {
  const placed = spaceInKeyBuildings(request, devices.spaceId);
  return placed && sql`${deviceId} in (select ${devices.id} from ${devices} where ${placed})`;
}

/**
 * For a row already read (hand-written routes that load before they know the building): the 404
 * `missing` gives unless one of the row's buildings is the key's. Staff and unlimited keys pass.
 */
export function assertInKeyBuildings(
  request: FastifyRequest,
  buildingIds: number | readonly number[] | null | undefined,
  missing: () => Error,
) {
  const allowed = keyBuildingsOf(request);
  if (!allowed) return;
  const held = buildingIds === null || buildingIds === undefined ? [] : [buildingIds].flat();
  if (!held.some((id) => allowed.includes(id))) throw missing();
}
