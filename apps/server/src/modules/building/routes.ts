/**
 * 楼宇列表: the declaration's CRUD with the checks a building needs, plus three read-only answers
 * for other screens (any signed-in staff member, like `list`):
 * - GET …/building/buildings?cityCode=&merchantId=: published buildings with their city and floors;
 * - GET …/building/buildingCity: the cities that have buildings, with how many each;
 * - GET …/building/buildingFloors/{id}: one building's floors.
 *
 * Writes check that the area codes exist and nest (province → city → region), that the merchant,
 * highlights/facilities and rules exist, that floors are unique and that hours close after they
 * open. A building that seats, rooms, cards or charge persons still use cannot be removed (409).
 * A changed 门禁离线授权时长 is sent at once to the building's connected v1.1 doors, so a shorter
 * lease does not wait for the one they hold to run out.
 */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldInvalid, resourceMessages, idOf } from '@cowork/contract';
import {
  building,
  buildingCity,
  buildingEndpoints,
  buildingOption,
  buildingOptionsQuery,
} from '@cowork/contract/resources/building';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../../db/client.ts';
import {
  activityStations,
  buildingBrightPoints,
  buildingChargePersons,
  buildingRules,
  buildings,
  devices,
  hallSeats,
  merchants,
  officeSeats,
  officeStations,
  spaces,
  orders,
  teamCards,
  userCards,
} from '../../db/schema.ts';
import { staffActor } from '../../device-link/actors.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { crudModule, valueAfterWrite, type ValuesOf, type WriteContext } from '../../lib/crud.ts';
import { badRequest, envelope, notFound, ok } from '../../lib/http.ts';
import { describeUsage, holds } from '../../lib/in-use.ts';
import { cityNameOf, GROUPING_NAMES, loadAreas } from '../area/areas.ts';

type Values = ValuesOf<typeof buildings, (typeof building)['fields']>;

const rechoose = (label: string) => `所选${label}不存在，请重新选择省份/城市/区县`;

/** 400 naming 省份/城市/区县 unless the codes exist and each lies inside the one above. */
function checkArea(provinceCode: string, cityCode: string, regionCode: string | null | undefined) {
  const areas = loadAreas();
  const province = areas.get(provinceCode);
  if (province?.level !== 'province') throw badRequest(fieldInvalid('省份', rechoose('省份')));
  const city = areas.get(cityCode);
  if (city?.level !== 'city') throw badRequest(fieldInvalid('城市', rechoose('城市')));
  if (city.parentCode !== province.code)
    throw badRequest(fieldInvalid('城市', `${city.name}不属于${province.name}，请重新选择城市`));
  if (!regionCode) return;
  const region = areas.get(regionCode);
  if (region?.level !== 'region') throw badRequest(fieldInvalid('区县', rechoose('区县')));
  if (region.parentCode !== city.code)
    throw badRequest(fieldInvalid('区县', `${region.name}不属于所选城市，请重新选择区县`));
}

/** `北京市 朝阳区`, `广东省 深圳市 南山区`: the area as read in an address. */
export function areaNameOf(
  row: Pick<typeof buildings.$inferSelect, 'provinceCode' | 'cityCode' | 'regionCode'>,
) {
  const areas = loadAreas();
  const codes = [row.provinceCode, row.cityCode, row.regionCode].filter((code) => code !== null);
  if (codes.length === 0) return null;
  const names = codes
    .map((code) => areas.get(code))
    .filter((area) => area && !(area.level === 'city' && GROUPING_NAMES.has(area.name)))
    .map((area) => area!.name);
  // A municipality's province and city share a name (北京市 / 北京市): say it once.
  return [...new Set(names)].join(' ');
}

/** 400 naming the field when one of the ids is not a record of the table. */
async function checkIdsExist(tx: Executor, table: PgTable & { id: PgColumn }, ids: number[], label: string) {
  if (ids.length === 0) return;
  const found = await tx.select({ id: table.id }).from(table).where(inArray(table.id, ids));
  const missing = ids.filter((id) => !found.some((row) => row.id === id));
  if (missing.length)
    throw badRequest(
      fieldInvalid(label, `编号 ${missing.join('、')} 不存在或已被删除，请刷新后重新选择${label}`),
    );
}

async function prepare(values: Values, { tx, existing }: WriteContext<typeof buildings>) {
  if ([values.provinceCode, values.cityCode, values.regionCode].some((code) => code !== undefined)) {
    checkArea(
      valueAfterWrite('provinceCode', values, existing),
      valueAfterWrite('cityCode', values, existing),
      valueAfterWrite('regionCode', values, existing),
    );
  }
  if (values.merchantId !== undefined) {
    const [merchant] = await tx
      .select({ id: merchants.id })
      .from(merchants)
      .where(eq(merchants.id, values.merchantId));
    if (!merchant) throw badRequest(fieldInvalid('所属商户', '所选商户不存在或已被删除，请重新选择所属商户'));
  }
  const prepared = { ...values };
  for (const [key, table, label] of [
    ['brightPointIds', buildingBrightPoints, '亮点与设施'],
    ['ruleIds', buildingRules, '行为项'],
  ] as const) {
    const ids = values[key];
    if (ids === undefined) continue;
    prepared[key] = [...new Set(ids)];
    await checkIdsExist(tx, table, prepared[key], label);
  }
  const floors = values.floors;
  if (floors !== undefined) {
    const repeated = floors.find((floor, i) => floors.indexOf(floor) !== i);
    if (repeated) throw badRequest(fieldInvalid('楼层', `“${repeated}”重复了，每个楼层只填一次`));
  }
  const openTime = valueAfterWrite('openTime', values, existing);
  const closeTime = valueAfterWrite('closeTime', values, existing);
  if (openTime && !closeTime)
    throw badRequest(fieldInvalid('关门时间', '填写了开门时间，请同时填写关门时间，或两者都不填'));
  if (closeTime && !openTime)
    throw badRequest(fieldInvalid('开门时间', '填写了关门时间，请同时填写开门时间，或两者都不填'));
  // 'HH:mm' strings compare in time order.
  if (openTime && closeTime && closeTime <= openTime)
    throw badRequest(fieldInvalid('关门时间', `须晚于开门时间 ${openTime}，请重新选择关门时间`));
  return prepared;
}

/** What still uses a building: seats, rooms, venues, cards and charge persons. */
const usagesOf = (id: number) => [
  {
    what: '办公室工位',
    unit: '个',
    table: officeSeats,
    name: officeSeats.name,
    where: eq(officeSeats.buildingId, id),
  },
  {
    what: '大厅工位',
    unit: '个',
    table: hallSeats,
    name: hallSeats.name,
    where: eq(hallSeats.buildingId, id),
  },
  {
    what: '物理空间',
    unit: '个',
    table: spaces,
    name: spaces.name,
    where: eq(spaces.buildingId, id),
  },
  {
    what: '会议室',
    unit: '个',
    table: officeStations,
    name: officeStations.name,
    where: eq(officeStations.buildingId, id),
  },
  {
    what: '活动场地',
    unit: '个',
    table: activityStations,
    name: activityStations.name,
    where: eq(activityStations.buildingId, id),
  },
  {
    what: '会员卡',
    unit: '张',
    table: userCards,
    name: userCards.name,
    where: holds(userCards.buildingIds, id),
  },
  {
    what: '会议卡',
    unit: '张',
    table: teamCards,
    name: teamCards.name,
    where: holds(teamCards.buildingIds, id),
  },
  {
    what: '楼宇负责人',
    unit: '位',
    table: buildingChargePersons,
    name: buildingChargePersons.name,
    where: holds(buildingChargePersons.buildingIds, id),
  },
  { what: '订单', unit: '个', table: orders, name: orders.orderNo, where: eq(orders.buildingId, id) },
];

/**
 * Each sync grants the building's lease: its connected v1.1 doors are sent their whole state again
 * (forced, as the state itself did not change), which replaces the lease they hold.
 */
async function resendLeases(request: FastifyRequest, buildingId: number) {
  const { db, devices: link } = request.server;
  const rows = await db
    .select({ id: devices.id })
    .from(devices)
    .innerJoin(spaces, eq(spaces.id, devices.spaceId))
    .where(and(eq(spaces.buildingId, buildingId), eq(devices.protocol, '1.1'), eq(devices.status, 'online')));
  if (rows.length)
    await link.syncDevices(
      rows.map((r) => r.id),
      staffActor(request),
      true,
    );
}

const crud = crudModule({
  resource: building,
  table: buildings,
  // A building's own row: a key limited to buildings sees and edits those only.
  buildingColumn: buildings.id,
  prepare,
  expand: async (rows) =>
    rows.map((row) => ({
      ...row,
      areaName: areaNameOf(row),
      openingHours: row.openTime && row.closeTime ? `${String(row.openTime)}–${String(row.closeTime)}` : null,
    })),
  afterCommit({ before, after }, request) {
    if (!before || before.deviceLeaseHours === after.deviceLeaseHours) return;
    // Devices that miss it (offline, no ack) get the new lease with their next sync.
    void resendLeases(request, after.id).catch((error: unknown) =>
      request.log.warn({ err: error, buildingId: after.id }, 'lease re-sync failed'),
    );
  },
  async inUse(id, tx) {
    const users = await describeUsage(tx, usagesOf(id));
    if (!users) return undefined;
    const [{ name }] = await tx.select({ name: buildings.name }).from(buildings).where(eq(buildings.id, id));
    return `楼宇“${name}”仍被${users}使用，不能删除；请先解除这些关联，或将楼宇下架`;
  },
});

const tags = [building.key];

export const buildingRoutes: FastifyPluginAsyncZod = async (app, options) => {
  await crud(app, options);

  app.get(
    buildingEndpoints.buildings,
    {
      config: { auth: true, fieldLabels: { cityCode: '城市', merchantId: '所属商户' } },
      schema: {
        tags,
        summary: '已发布的楼宇（其他页面选择用），可按城市或商户筛选',
        querystring: buildingOptionsQuery,
        response: { 200: envelope(z.array(buildingOption)) },
      },
    },
    async (request) => {
      const { cityCode, merchantId } = request.query;
      const rows = await app.db
        .select({
          id: buildings.id,
          name: buildings.name,
          cityCode: buildings.cityCode,
          floors: buildings.floors,
        })
        .from(buildings)
        .where(
          and(
            eq(buildings.published, true),
            cityCode ? eq(buildings.cityCode, cityCode) : undefined,
            merchantId ? eq(buildings.merchantId, merchantId) : undefined,
            inKeyBuildings(request, buildings.id),
          ),
        )
        .orderBy(asc(buildings.sort), asc(buildings.id));
      return ok(rows);
    },
  );

  app.get(
    buildingEndpoints.buildingCity,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: '有楼宇的城市及各城市的楼宇数',
        response: { 200: envelope(z.array(buildingCity)) },
      },
    },
    async (request) => {
      const rows = await app.db
        .select({ code: buildings.cityCode, buildingCount: count() })
        .from(buildings)
        .where(inKeyBuildings(request, buildings.id))
        .groupBy(buildings.cityCode)
        .orderBy(asc(buildings.cityCode));
      return ok(rows.map((row) => ({ ...row, name: cityNameOf(row.code) ?? row.code })));
    },
  );

  app.get(
    `${buildingEndpoints.buildingFloors}/:id`,
    {
      config: { auth: true, fieldLabels: { id: '楼宇编号' } },
      schema: {
        tags,
        summary: '一个楼宇的楼层',
        params: z.object({
          id: idOf('楼宇编号必须是正整数'),
        }),
        response: { 200: envelope(z.array(z.string())) },
      },
    },
    async (request) => {
      const [row] = await app.db
        .select({ floors: buildings.floors })
        .from(buildings)
        .where(and(eq(buildings.id, request.params.id), inKeyBuildings(request, buildings.id)));
      if (!row) throw notFound(resourceMessages.notFound(building));
      return ok(row.floors);
    },
  );
};

export default buildingRoutes;
