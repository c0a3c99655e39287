/**
 * 门禁权限查询 on a device and on a space: every member who can open it now or later, why and from
 * when to when, searchable by name, phone or company, and as Excel. The rows are the entries of the
 * devices' access states (device-link/access-views.ts). A space's doors are the devices placed in
 * it or in a space under it.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accessViewEndpoints,
  DEVICE_VIEW_PERMISSION,
  deviceAccessQuery,
  deviceAccessRow,
  modeMessages,
  spaceAccessQuery,
  spaceAccessRow,
  type DeviceAccessRow,
  type SpaceAccessRow,
} from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { devices, spaces } from '../../db/schema.ts';
import { accessRowsOf } from '../../device-link/access-views.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { businessTime, fileDay, sendExcel, type ExcelColumn } from '../../lib/excel-export.ts';
import { envelope, notFound, ok } from '../../lib/http.ts';
import { deviceById } from './records.ts';

const tags = ['device'];

/** One sheet row per entry; a space's sheet has the device first. */
const accessColumns: ExcelColumn<DeviceAccessRow>[] = [
  { header: '姓名', value: (r) => r.name, width: 14 },
  { header: '手机号', value: (r) => r.phone, width: 14 },
  { header: '生效时间', value: (r) => businessTime(new Date(r.validFrom)), width: 20 },
  { header: '失效时间', value: (r) => businessTime(new Date(r.validTo)), width: 20 },
  { header: '开门依据', value: (r) => r.sources.map((s) => s.label).join('；'), width: 48 },
];
const spaceColumns: ExcelColumn<SpaceAccessRow>[] = [
  { header: '设备', value: (r) => r.deviceName, width: 18 },
  ...accessColumns,
];

/** The rows of one device the caller may reach (404 otherwise, an API key's buildings included). */
async function deviceRows(
  db: Executor,
  query: z.output<typeof deviceAccessQuery>,
  request: Parameters<typeof deviceById>[2],
) {
  const device = await deviceById(db, query.id, request);
  return {
    device,
    rows: (await accessRowsOf(db, [device.id], query.keyword || undefined)).get(device.id) ?? [],
  };
}

/** The rows of the doors of a space the caller may reach: its devices and those of the spaces under it. */
async function spaceRows(
  db: Executor,
  query: z.output<typeof spaceAccessQuery>,
  request: Parameters<typeof deviceById>[2],
): Promise<{ name: string; rows: SpaceAccessRow[] }> {
  const [space] = await db
    .select({ id: spaces.id, name: spaces.name })
    .from(spaces)
    .where(and(eq(spaces.id, query.id), inKeyBuildings(request, spaces.buildingId)));
  if (!space) throw notFound(modeMessages.spaceNotFound);
  const doors = await db
    .select({ id: devices.id, name: devices.name })
    .from(devices)
    .where(
      sql`${devices.spaceId} in (with recursive tree(id) as (
        select ${space.id}::int union all select s.id from spaces s join tree on s.parent_id = tree.id
      ) select id from tree)`,
    )
    .orderBy(devices.name, devices.id);
  const lists = await accessRowsOf(
    db,
    doors.map((d) => d.id),
    query.keyword || undefined,
  );
  return {
    name: space.name,
    rows: doors.flatMap((d) =>
      (lists.get(d.id) ?? []).map((row) => ({ deviceId: d.id, deviceName: d.name, ...row })),
    ),
  };
}

/** `门禁权限-<device or space>-<today>.xlsx`. */
const exportName = (name: string) => `门禁权限-${name}-${fileDay()}.xlsx`;

/** Rows already in memory, as the one batch sendExcel reads. */
async function* once<R>(rows: R[]) {
  yield rows;
}

export const accessViewRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { permission: DEVICE_VIEW_PERMISSION, fieldLabels: { keyword: '关键词' } };

  app.get(
    accessViewEndpoints.deviceAccessList,
    {
      config,
      schema: {
        tags,
        summary: '门禁权限查询: who can open this device, why and when (its access state)',
        querystring: deviceAccessQuery,
        response: { 200: envelope(z.array(deviceAccessRow)) },
      },
    },
    async (request) => ok((await deviceRows(app.db, request.query, request)).rows),
  );

  app.get(
    accessViewEndpoints.deviceAccessExport,
    {
      config,
      schema: { tags, summary: '门禁权限查询 of a device as Excel', querystring: deviceAccessQuery },
    },
    async (request, reply) => {
      const { device, rows } = await deviceRows(app.db, request.query, request);
      return sendExcel(reply, {
        title: '门禁权限查询',
        fileName: exportName(device.name),
        columns: accessColumns,
        rows: once(rows),
      });
    },
  );

  app.get(
    accessViewEndpoints.spaceAccessList,
    {
      config,
      schema: {
        tags,
        summary: "门禁权限查询 on a space: who can open its doors (its devices' and those under it)",
        querystring: spaceAccessQuery,
        response: { 200: envelope(z.array(spaceAccessRow)) },
      },
    },
    async (request) => ok((await spaceRows(app.db, request.query, request)).rows),
  );

  app.get(
    accessViewEndpoints.spaceAccessExport,
    {
      config,
      schema: { tags, summary: '门禁权限查询 of a space as Excel', querystring: spaceAccessQuery },
    },
    async (request, reply) => {
      const { name, rows } = await spaceRows(app.db, request.query, request);
      return sendExcel(reply, {
        title: '门禁权限查询',
        fileName: exportName(name),
        columns: spaceColumns,
        rows: once(rows),
      });
    },
  );
};
