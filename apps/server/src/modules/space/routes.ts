/**
 * 物理空间: the declaration's CRUD plus `sub-space` (a space's children, or a building's top spaces,
 * for the tree). A parent must be in the same building and may hold the kind asked for
 * (spaceChildKinds); a space never moves under itself; one with children or devices stays (409
 * naming them).
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { optionLabel } from '@cowork/contract';
import {
  SPACE_TREE_PERMISSIONS,
  space,
  spaceChildKinds,
  spaceKindOptions,
  spaceListPath,
  spaceListQuery,
  spaceMessages,
  spaceOption,
  spaceSubSpacePath,
  spaceSubSpaceQuery,
  subSpaceRecord,
  type SpaceKind,
} from '@cowork/contract/resources/space';
import { rowsOf, type Executor } from '../../db/client.ts';
import {
  activityStations,
  deviceSetSpaces,
  deviceSets,
  devices,
  officeStations,
  spaces,
} from '../../db/schema.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { crudModule, valueAfterWrite } from '../../lib/crud.ts';
import { badRequest, envelope, ok } from '../../lib/http.ts';
import { describeUsage } from '../../lib/in-use.ts';
import { spacePaths } from './paths.ts';
import { staffActor } from '../../device-link/actors.ts';

const kindLabel = (kind: SpaceKind) => optionLabel(spaceKindOptions, kind);

/** The ids of a space and of everything under it. */
async function subtreeOf(tx: Executor, id: number): Promise<number[]> {
  const result = await rowsOf<{ id: number | string }>(
    tx,
    sql`
    with recursive tree(id) as (
      select ${id}::int
      union all
      select s.id from ${spaces} s join tree on s.parent_id = tree.id
    )
    select id from tree`,
  );
  return result.map((r) => Number(r.id));
}

const crud = crudModule({
  resource: space,
  table: spaces,
  buildingColumn: spaces.buildingId,
  async prepare(values, { tx, existing }) {
    const buildingId = valueAfterWrite('buildingId', values, existing);
    const kind = valueAfterWrite('kind', values, existing);
    const parentId = valueAfterWrite('parentId', values, existing);
    let allowed = spaceChildKinds.root;
    let parentLabel: string = spaceMessages.topLevel;
    if (parentId) {
      const [parent] = await tx.select().from(spaces).where(eq(spaces.id, parentId));
      if (!parent) throw badRequest(spaceMessages.parentNotFound);
      if (parent.buildingId !== buildingId) throw badRequest(spaceMessages.parentOtherBuilding);
      if (existing && (await subtreeOf(tx, existing.id)).includes(parentId))
        throw badRequest(spaceMessages.parentIsSelf);
      allowed = spaceChildKinds[parent.kind];
      parentLabel = `${kindLabel(parent.kind)}“${parent.name}”`;
    }
    if (!allowed.includes(kind))
      throw badRequest(
        spaceMessages.kindNotAllowed(parentLabel, kindLabel(kind), allowed.map(kindLabel).join('、') || '无'),
      );
    for (const [key, table, label] of [
      ['officeStationId', officeStations, '会议室'],
      ['activityStationId', activityStations, '活动场地'],
    ] as const) {
      const stationId = values[key] === undefined ? existing?.[key] : values[key];
      if (!stationId) continue;
      if (kind !== 'room') throw badRequest(spaceMessages.stationNotRoom);
      const [station] = await tx
        .select({ buildingId: table.buildingId })
        .from(table)
        .where(eq(table.id, Number(stationId)));
      if (!station || station.buildingId !== buildingId)
        throw badRequest(spaceMessages.stationOtherBuilding(label));
    }
    if (existing && existing.buildingId !== buildingId) {
      const [child] = await tx
        .select({ id: spaces.id })
        .from(spaces)
        .where(eq(spaces.parentId, existing.id))
        .limit(1);
      if (child) throw badRequest(spaceMessages.buildingMoved);
    }
    return { ...values, parentId: parentId ?? null };
  },
  // A room linked to another meeting room, or moved under another held space, opens other doors now.
  afterCommit({ before, after }, request) {
    const buildingIds = [...new Set([before?.buildingId, after.buildingId].map(Number).filter(Boolean))];
    void request.server.devices.accessChanged({ buildingIds }, staffActor(request));
  },
  async inUse(id, tx) {
    const users = await describeUsage(tx, [
      { what: '下级空间', unit: '个', table: spaces, name: spaces.name, where: eq(spaces.parentId, id) },
      { what: '设备', unit: '台', table: devices, name: devices.name, where: eq(devices.spaceId, id) },
      {
        what: '门禁联动',
        unit: '个',
        table: deviceSets,
        name: deviceSets.name,
        where: inArray(
          deviceSets.id,
          tx
            .select({ id: deviceSetSpaces.setId })
            .from(deviceSetSpaces)
            .where(eq(deviceSetSpaces.spaceId, id)),
        ),
      },
    ]);
    return users ? spaceMessages.inUse(users) : undefined;
  },
});

export const spaceRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(crud);

  app.get(
    spaceListPath,
    {
      // Options for selects on other screens (as every resource's list): any signed-in staff member.
      config: { auth: true },
      schema: {
        tags: ['space'],
        summary: '空间选项（下拉列表）：名称为“楼宇 / 上级空间 / 空间”，可按楼宇筛选',
        querystring: spaceListQuery,
        response: { 200: envelope(z.array(spaceOption)) },
      },
    },
    async (request) => {
      const { buildingId } = request.query;
      const paths = await spacePaths(
        app.db,
        and(
          buildingId ? eq(spaces.buildingId, buildingId) : undefined,
          inKeyBuildings(request, spaces.buildingId),
        ),
      );
      return ok(paths.map((p) => ({ value: p.id, label: p.path, buildingId: p.buildingId })));
    },
  );

  app.get(
    spaceSubSpacePath,
    {
      config: { permission: SPACE_TREE_PERMISSIONS },
      schema: {
        tags: ['space'],
        summary: "A space's children (parentId), or a building's top spaces (buildingId without parentId)",
        querystring: spaceSubSpaceQuery,
        response: { 200: envelope(z.array(subSpaceRecord)) },
      },
    },
    async (request) => {
      const { buildingId, parentId } = request.query;
      const rows = await app.db
        .select({
          id: spaces.id,
          parentId: spaces.parentId,
          buildingId: spaces.buildingId,
          name: spaces.name,
          kind: spaces.kind,
          sort: spaces.sort,
          // Spelled out: drizzle may render the outer column unqualified, which the alias would capture.
          hasChildren: sql<boolean>`exists (select 1 from spaces c where c.parent_id = spaces.id)`,
          deviceCount: sql<number>`(select count(*)::int from devices d where d.space_id = spaces.id)`,
        })
        .from(spaces)
        .where(
          and(
            eq(spaces.buildingId, buildingId),
            parentId ? eq(spaces.parentId, parentId) : isNull(spaces.parentId),
            inKeyBuildings(request, spaces.buildingId),
          ),
        )
        .orderBy(asc(spaces.sort), asc(spaces.id));
      return ok(
        rows.map((r) => ({ ...r, hasChildren: Boolean(r.hasChildren), deviceCount: Number(r.deviceCount) })),
      );
    },
  );
};

export default spaceRoutes;
