/**
 * 设施配置: the declared CRUD routes, plus `label-list` for building screens (the published
 * highlights or facilities with their icons, in display order). Names are unique per kind.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  brightPoint,
  brightPointKinds,
  brightPointLabelListPath,
} from '@cowork/contract/resources/bright-point';
import { buildingBrightPoints } from '../../db/schema.ts';
import { crudModule } from '../../lib/crud.ts';
import { envelope, ok } from '../../lib/http.ts';

const kindValues = brightPointKinds.map((k) => k.value) as ['highlight', 'facility'];

const label = z.object({
  id: z.number().int(),
  kind: z.enum(kindValues),
  name: z.string(),
  iconUrl: z.string().nullable(),
  sort: z.number().int(),
});

const crud = crudModule({ resource: brightPoint, table: buildingBrightPoints });

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
