/**
 * 会议室 (office-station) and 活动场地 (activity-station): one set of rules registered for both
 * declarations. Besides the declared CRUD: the building must exist, the floor must be one of the
 * building's floors when it has any, every facility must be a facility (not a highlight), and
 * the room must close after it opens. `building-floors/{buildingId}` feeds the floor select.
 */
import { eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldInvalid, labelsOf } from '@cowork/contract';
import {
  activityStation,
  officeStation,
  stationFloorsPath,
  type StationResource,
} from '@cowork/contract/resources/station';
import type { Executor } from '../../db/client.ts';
import { activityStations, buildingBrightPoints, buildings, officeStations } from '../../db/schema.ts';
import { crudModule, type ResourceTable, type WriteContext } from '../../lib/crud.ts';
import { badRequest, envelope, notFound, ok } from '../../lib/http.ts';

type Values = Record<string, unknown>;

const buildingMissing = '所选楼宇不存在或已被删除，请刷新后重新选择';
// Both declarations share their fields, so their labels are one set.
const labels = labelsOf(officeStation);

async function floorsOf(db: Executor, buildingId: number): Promise<string[] | undefined> {
  const [building] = await db
    .select({ floors: buildings.floors })
    .from(buildings)
    .where(eq(buildings.id, buildingId));
  return building?.floors;
}

/** Checks a save or an edit against the stored record: what one field allows depends on others. */
async function checkStation(values: Values, { tx, existing }: WriteContext): Promise<Values> {
  const merged = (key: string) => (values[key] !== undefined ? values[key] : existing?.[key]);
  if (values.floor === '') values.floor = null;

  if (values.buildingId !== undefined || values.floor !== undefined) {
    const floors = await floorsOf(tx, merged('buildingId') as number);
    if (!floors) throw badRequest(fieldInvalid(labels.buildingId, buildingMissing));
    const floor = merged('floor') as string | null | undefined;
    if (floors.length > 0 && (!floor || !floors.includes(floor))) {
      throw badRequest(fieldInvalid(labels.floor, `请从该楼宇的楼层中选择：${floors.join('、')}`));
    }
  }

  if (Array.isArray(values.facilityIds)) {
    const ids = [...new Set(values.facilityIds as number[])];
    const found = ids.length
      ? await tx
          .select({ id: buildingBrightPoints.id, kind: buildingBrightPoints.kind })
          .from(buildingBrightPoints)
          .where(inArray(buildingBrightPoints.id, ids))
      : [];
    if (found.length !== ids.length || found.some((p) => p.kind !== 'facility')) {
      throw badRequest(
        fieldInvalid(
          labels.facilityIds,
          '所选设施不存在或不是设施（亮点不能作为设施），请在「设施配置」中确认后重新选择',
        ),
      );
    }
    values.facilityIds = ids;
  }

  const openTime = merged('openTime') as string;
  const closeTime = merged('closeTime') as string;
  // 'HH:mm' strings order like the times they name.
  if ((values.openTime !== undefined || values.closeTime !== undefined) && closeTime <= openTime) {
    throw badRequest(fieldInvalid(labels.closeTime, `须晚于开放时间 ${openTime}，请重新选择`));
  }
  return values;
}

function stationRoutes(resource: StationResource, table: ResourceTable): FastifyPluginAsyncZod {
  const crud = crudModule({ resource, table, prepare: checkStation });
  return async (app, options) => {
    await crud(app, options);

    app.get(
      `${stationFloorsPath(resource)}/:buildingId`,
      {
        // Floor names of a building are no secret: whoever may fill the form may read them.
        config: { auth: true, fieldLabels: labels },
        schema: {
          tags: [resource.key],
          summary: `${resource.label}可选的楼层（所选楼宇的楼层）`,
          params: z.object({ buildingId: z.coerce.number().int().positive() }),
          response: { 200: envelope(z.array(z.string())) },
        },
      },
      async (request) => {
        const floors = await floorsOf(app.db, request.params.buildingId);
        if (!floors) throw notFound(buildingMissing);
        return ok(floors);
      },
    );
  };
}

export const stationModule: FastifyPluginAsyncZod = async (app, options) => {
  await stationRoutes(officeStation, officeStations)(app, options);
  await stationRoutes(activityStation, activityStations)(app, options);
};

export default stationModule;
