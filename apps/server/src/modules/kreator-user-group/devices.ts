/**
 * A group's devices (kreator-device): page (each device with its 权限同步 state, so staff see a
 * revocation reach every door), add and delete. A device placed in another building than the
 * group's is refused; one not placed in any space may join (for staff: an API key limited to
 * buildings finds only its buildings' devices). Every change re-syncs the devices it
 * touches once committed (a removed device loses the group's members).
 */
import { and, count, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fieldInvalid } from '@cowork/contract';
import {
  KREATOR_EDIT_PERMISSION,
  KREATOR_REMOVE_PERMISSION,
  KREATOR_VIEW_PERMISSION,
  kreatorAddedAnswer,
  kreatorDeleteBody,
  kreatorDeviceAddBody,
  kreatorDeviceEndpoints,
  kreatorDevicePageQuery,
  kreatorDeviceRecord,
  kreatorFieldLabels,
  kreatorMessages,
  kreatorRemovedAnswer,
} from '@cowork/contract/resources/kreator';
import { devices, kreatorDevices, spaces } from '../../db/schema.ts';
import { auditMany } from '../../lib/audit.ts';
import { spaceInKeyBuildings } from '../../lib/building-scope.ts';
import { badRequest, envelope, notFound, ok, pageOf } from '../../lib/http.ts';
import { deviceRecords } from '../device/records.ts';
import { groupInKeyBuildings, loadGroup } from './members.ts';
import { staffActor } from '../../device-link/actors.ts';

const tags = ['kreator-device'];
const resource = 'kreator-device';

export const kreatorDeviceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    kreatorDeviceEndpoints.page,
    {
      config: { permission: KREATOR_VIEW_PERMISSION, fieldLabels: kreatorFieldLabels },
      schema: {
        tags,
        summary: '门禁组的设备（含权限同步状态）',
        querystring: kreatorDevicePageQuery,
        response: { 200: envelope(pageOf(kreatorDeviceRecord)) },
      },
    },
    async (request) => {
      const { groupId, current, size } = request.query;
      await loadGroup(app.db, groupId, request);
      const inGroup = eq(kreatorDevices.groupId, groupId);
      const [{ total }] = await app.db.select({ total: count() }).from(kreatorDevices).where(inGroup);
      const links = await app.db
        .select({ id: kreatorDevices.id, deviceId: kreatorDevices.deviceId })
        .from(kreatorDevices)
        .where(inGroup)
        .orderBy(kreatorDevices.id)
        .limit(size)
        .offset((current - 1) * size);
      const records = links.length
        ? await deviceRecords(
            app.db,
            inArray(
              devices.id,
              links.map((l) => l.deviceId),
            ),
          )
        : [];
      const byId = new Map(records.map((r) => [r.id, r]));
      return ok({
        records: links.flatMap((link) => {
          const device = byId.get(link.deviceId);
          return device ? [{ ...device, id: link.id, groupId, deviceId: link.deviceId }] : [];
        }),
        total,
        current,
        size,
      });
    },
  );

  app.post(
    kreatorDeviceEndpoints.add,
    {
      config: { permission: KREATOR_EDIT_PERMISSION, fieldLabels: kreatorFieldLabels },
      schema: {
        tags,
        summary: '给门禁组添加设备（已在组内的跳过）',
        body: kreatorDeviceAddBody,
        response: { 200: envelope(kreatorAddedAnswer) },
      },
    },
    async (request) => {
      const { groupId, deviceIds } = request.body;
      const ids = [...new Set(deviceIds)];
      const answer = await app.db.transaction(async (tx) => {
        const group = await loadGroup(tx, groupId, request);
        const found = await tx
          .select({ id: devices.id, name: devices.name, buildingId: spaces.buildingId })
          .from(devices)
          .leftJoin(spaces, eq(spaces.id, devices.spaceId))
          // A key limited to buildings finds only its buildings' devices (not those placed nowhere).
          .where(and(inArray(devices.id, ids), spaceInKeyBuildings(request, devices.spaceId)));
        if (found.length !== ids.length)
          throw badRequest(fieldInvalid(kreatorFieldLabels.deviceIds, kreatorMessages.devicesMissing));
        const elsewhere = found.find((d) => d.buildingId !== null && d.buildingId !== group.buildingId);
        if (elsewhere)
          throw badRequest(
            fieldInvalid(kreatorFieldLabels.deviceIds, kreatorMessages.deviceOtherBuilding(elsewhere.name)),
          );
        const by = request.user?.id ?? null;
        const added = await tx
          .insert(kreatorDevices)
          .values(ids.map((deviceId) => ({ groupId, deviceId, createdBy: by })))
          .onConflictDoNothing()
          .returning();
        await auditMany(
          request,
          added.map((row) => ({ action: 'add', resource, resourceId: row.id, after: row })),
          tx,
        );
        return { added: added.length, skipped: ids.length - added.length };
      });
      void app.devices.accessChanged({ deviceIds: ids }, staffActor(request));
      return ok(answer, kreatorMessages.devicesAdded(answer.added, answer.skipped));
    },
  );

  app.delete(
    kreatorDeviceEndpoints.delete,
    {
      config: { permission: KREATOR_REMOVE_PERMISSION, fieldLabels: kreatorFieldLabels },
      schema: {
        tags,
        summary: '把设备移出门禁组',
        body: kreatorDeleteBody,
        response: { 200: envelope(kreatorRemovedAnswer) },
      },
    },
    async (request) => {
      const ids = [...new Set(request.body.ids)];
      const removed = await app.db.transaction(async (tx) => {
        // Another building's group's link (an API key limited to buildings) is missing, as an unknown id is.
        const rows = await tx
          .delete(kreatorDevices)
          .where(and(inArray(kreatorDevices.id, ids), groupInKeyBuildings(request, kreatorDevices.groupId)))
          .returning();
        if (rows.length !== ids.length) throw notFound(kreatorMessages.recordsMissing);
        await auditMany(
          request,
          rows.map((row) => ({ action: 'remove', resource, resourceId: row.id, before: row })),
          tx,
        );
        return rows;
      });
      void app.devices.accessChanged({ deviceIds: removed.map((r) => r.deviceId) }, staffActor(request));
      return ok({ removed: removed.length }, kreatorMessages.removed(removed.length));
    },
  );
};
