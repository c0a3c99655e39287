/**
 * 设施配置: the declared CRUD routes, plus `label-list` for building screens (the published
 * highlights or facilities with their icons, in display order). Names are unique per kind. One that
 * buildings or meeting rooms / venues still show cannot be removed (409 naming them).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { valuesOf } from '@cowork/contract';
import {
  brightPoint,
  brightPointKinds,
  brightPointLabelListPath,
} from '@cowork/contract/resources/bright-point';
import { activityStations, buildingBrightPoints, buildings, officeStations } from '../../db/schema.ts';
import { crudModule } from '../../lib/crud.ts';
import { envelope, ok } from '../../lib/http.ts';
import { describeUsage, holds } from '../../lib/in-use.ts';

const kindValues = valuesOf(brightPointKinds);

const label = z.object({
  id: z.number().int(),
  kind: z.enum(kindValues),
  name: z.string(),
  iconUrl: z.string().nullable(),
  sort: z.number().int(),
});

const crud = crudModule({
  resource: brightPoint,
  table: buildingBrightPoints,
  async inUse(id, tx) {
    const users = await describeUsage(tx, [
      {
        what: '楼宇',
        unit: '个',
        table: buildings,
        name: buildings.name,
        where: holds(buildings.brightPointIds, id),
      },
      {
        what: '会议室',
        unit: '个',
        table: officeStations,
        name: officeStations.name,
        where: holds(officeStations.facilityIds, id),
      },
      {
        what: '活动场地',
        unit: '个',
        table: activityStations,
        name: activityStations.name,
        where: holds(activityStations.facilityIds, id),
      },
    ]);
    return users ? `该设施亮点仍被${users}使用，不能删除；请先在其中取消选择，或将其下架` : undefined;
  },
});

export const brightPointRoutes: FastifyPluginAsyncZod = async (app, options) => {
  await crud(app, options);

  app.get(
    brightPointLabelListPath,
    {
      // Building screens of any role pick from these, so any signed-in staff member may read them.
      config: { auth: true },
      schema: {
        tags: [brightPoint.key],
        summary: '已发布的亮点或设施（楼宇页面选择用）',
        querystring: z.object({
          kind: z.enum(kindValues, { error: '类型必须是 highlight（亮点）或 facility（设施）' }).optional(),
        }),
        response: { 200: envelope(z.array(label)) },
      },
    },
    async (request) => {
      const { kind } = request.query;
      const rows = await app.db
        .select({
          id: buildingBrightPoints.id,
          kind: buildingBrightPoints.kind,
          name: buildingBrightPoints.name,
          iconUrl: buildingBrightPoints.iconUrl,
          sort: buildingBrightPoints.sort,
        })
        .from(buildingBrightPoints)
        .where(
          and(
            eq(buildingBrightPoints.published, true),
            kind ? eq(buildingBrightPoints.kind, kind) : undefined,
          ),
        )
        .orderBy(
          asc(buildingBrightPoints.kind),
          asc(buildingBrightPoints.sort),
          asc(buildingBrightPoints.id),
        );
      return ok(rows);
    },
  );
};

export default brightPointRoutes;
