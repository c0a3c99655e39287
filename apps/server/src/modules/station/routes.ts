/**
 * 会议室 (office-station) and 活动场地 (activity-station): one set of rules registered for both
 * declarations. Besides the declared CRUD: the building must exist, the floor must be one of the
 * building's floors when it has any, every facility must be a facility (not a highlight), and
 * the room must close after it opens. Each also has an Excel import like the seats' (template and
 * import under `{base}/import/…`), every row checked by the same rules.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fieldInvalid, labelsOf } from '@cowork/contract';
import { activityStation, officeStation, type StationResource } from '@cowork/contract/resources/station';
import { activityStations, buildingBrightPoints, buildings, officeStations } from '../../db/schema.ts';
import {
  crudModule,
  valueAfterWrite,
  type CrudOptions,
  type ValuesOf,
  type WriteContext,
} from '../../lib/crud.ts';
import {
  checkBuildingFloor,
  FLOOR_REQUIRED_WHEN,
  floorsNote,
  sampleFloor,
} from '../../lib/building-scope.ts';
import { soldProduct } from '../../lib/in-use.ts';
import { excelImportRoutes } from '../../lib/excel-import.ts';
import { badRequest } from '../../lib/http.ts';

/** Both kinds keep the same columns. */
type StationTable = typeof officeStations;
type Values = ValuesOf<StationTable, StationResource['fields']>;

// Both declarations share their fields, so their labels are one set.
const labels = labelsOf(officeStation);

/** Checks a save or an edit against the stored record: what one field allows depends on others. */
async function checkStation(values: Values, { tx, existing }: WriteContext<StationTable>): Promise<Values> {
  if (values.floor === '') values.floor = null;

  // Hours first: they depend on no other check, so an import names them beside a wrong floor.
  const openTime = valueAfterWrite('openTime', values, existing);
  const closeTime = valueAfterWrite('closeTime', values, existing);
  const hoursChanged =
    values.openTime !== undefined || values.closeTime !== undefined || values.buildingId !== undefined;
  // 'HH:mm' strings order like the times they name.
  if (hoursChanged && closeTime <= openTime) {
    throw badRequest(fieldInvalid(labels.closeTime, `须晚于开放时间 ${openTime}，请重新选择`));
  }
  const buildingId = valueAfterWrite('buildingId', values, existing);
  if (hoursChanged && typeof buildingId === 'number') {
    // A room is open only while its building is: its hours lie within the building's.
    const [building] = await tx
      .select({ name: buildings.name, openTime: buildings.openTime, closeTime: buildings.closeTime })
      .from(buildings)
      .where(eq(buildings.id, buildingId));
    const within = `须在所在楼宇「${building?.name ?? ''}」的营业时间 ${building?.openTime ?? '00:00'}–${building?.closeTime ?? '23:59'} 内，请重新选择`;
    if (building?.openTime && openTime < building.openTime)
      throw badRequest(fieldInvalid(labels.openTime, within));
    if (building?.closeTime && closeTime > building.closeTime)
      throw badRequest(fieldInvalid(labels.closeTime, within));
  }

  if (values.buildingId !== undefined || values.floor !== undefined) {
    await checkBuildingFloor(tx, { buildingId, floor: valueAfterWrite('floor', values, existing) }, labels);
  }

  if (values.facilityIds !== undefined) {
    const ids = [...new Set(values.facilityIds)];
    const found = ids.length
      ? await tx
          .select({
            id: buildingBrightPoints.id,
            kind: buildingBrightPoints.kind,
            name: buildingBrightPoints.name,
            published: buildingBrightPoints.published,
          })
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
    // As the form offers only published facilities; one the room already has may stay after
    // being unpublished, so editing other fields never forces staff to drop it.
    const kept = new Set(existing?.facilityIds ?? []);
    const hidden = found.find((p) => !p.published && !kept.has(p.id));
    if (hidden) {
      throw badRequest(
        fieldInvalid(labels.facilityIds, `「${hidden.name}」未上架，请先在「设施配置」中上架后再选择`),
      );
    }
    values.facilityIds = ids;
  }

  return values;
}

/**
 * The facilities a 设施 cell may name: the published ones, as the form offers them. The field's
 * list endpoint answers every bright point, and a highlight may share a facility's name.
 */
async function facilityChoices(request: FastifyRequest) {
  return request.server.db
    .select({ value: buildingBrightPoints.id, label: buildingBrightPoints.name })
    .from(buildingBrightPoints)
    .where(and(eq(buildingBrightPoints.kind, 'facility'), eq(buildingBrightPoints.published, true)))
    .orderBy(asc(buildingBrightPoints.sort), asc(buildingBrightPoints.id));
}

/**
 * The CRUD and the Excel import of one declaration. The API table names one "office-activity import
 * excel" for both kinds; rather than one `office-station/office-activity/import/excel`, each
 * declaration has it under its own base as the seats do (`importPaths(resource)`:
 * `…/office-station/import/excel`, `…/activity-station/import/excel`, and `…/import/template`), so
 * an import asks its screen's own edit permission (product:meetingRoom or product:activityVenue)
 * and writes to that screen's table only. The floor is a plain cell that `checkStation` checks
 * against the building's floors like the form's. The gallery (图片) is left out of the template:
 * a cell cannot hold an upload, so pictures are added in the form afterwards.
 */
function stationRoutes(resource: StationResource, table: StationTable): FastifyPluginAsyncZod {
  const options: CrudOptions<StationResource['fields'], StationTable> = {
    resource,
    table,
    buildingColumn: table.buildingId,
    prepare: checkStation,
    inUse: soldProduct(resource.key, resource.label),
  };
  const crud = crudModule(options);
  const excelImport = excelImportRoutes({
    ...options,
    choices: { facilityIds: facilityChoices },
    notes: { floor: floorsNote },
    sample: { floor: sampleFloor },
    requiredWhen: { floor: FLOOR_REQUIRED_WHEN },
    example: {
      name: '创想厅',
      capacity: 12,
      areaSqm: 36.5,
      hourPriceFen: 120,
      openTime: '08:00',
      closeTime: '22:00',
      minBookingMinutes: 60,
      published: '否',
    },
  });
  return async (app, pluginOptions) => {
    await crud(app, pluginOptions);
    // Its own context: only the import route parses multipart bodies.
    await app.register(excelImport);
  };
}

export const stationModule: FastifyPluginAsyncZod = async (app, options) => {
  await stationRoutes(officeStation, officeStations)(app, options);
  await stationRoutes(activityStation, activityStations)(app, options);
};

export default stationModule;
