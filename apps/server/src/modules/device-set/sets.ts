/**
 * 门禁联动's sets themselves: the list with each set's counts, one set with its devices, and
 * creating (with devices), renaming and removing a set. Removing a set takes back the access it
 * gave: its devices are re-synced once committed.
 */
import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEVICE_SET_EDIT_PERMISSION,
  DEVICE_SET_REMOVE_PERMISSION,
  DEVICE_SET_VIEW_PERMISSION,
  deviceSetDetail,
  deviceSetEditBody,
  deviceSetEndpoints,
  deviceSetIdParams,
  deviceSetListQuery,
  deviceSetMessages,
  deviceSetRecord,
  deviceSetSaveBody,
  deviceSetSaved,
} from '@cowork/contract/resources/device-set';
import { deviceSetDevices, deviceSetSpaces, deviceSets, devices } from '../../db/schema.ts';
import { containing } from '../../lib/like.ts';
import { envelope, ok } from '../../lib/http.ts';
import { toIso } from '../../lib/time.ts';
import { deviceRecords } from '../device/records.ts';
import { assertAllExist, changeSet, configOf, devicesOfSet, loadSet, tags } from './change.ts';

export const setRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    deviceSetEndpoints.list,
    {
      config: configOf(DEVICE_SET_VIEW_PERMISSION),
      schema: {
        tags,
        summary: 'Every device set with how many devices and spaces it has',
        querystring: deviceSetListQuery,
        response: { 200: envelope(z.array(deviceSetRecord)) },
      },
    },
    async (request) => {
      const name = request.query.name?.trim();
      const rows = await app.db
        .select({
          id: deviceSets.id,
          name: deviceSets.name,
          remark: deviceSets.remark,
          updatedAt: deviceSets.updatedAt,
          deviceCount: sql<number>`(select count(*)::int from device_set_devices x where x.set_id = ${deviceSets.id})`,
          spaceCount: sql<number>`(select count(*)::int from device_set_spaces x where x.set_id = ${deviceSets.id})`,
        })
        .from(deviceSets)
        .where(name ? containing(deviceSets.name, name) : undefined)
        .orderBy(asc(deviceSets.name));
      return ok(
        rows.map((r) => ({
          ...r,
          deviceCount: Number(r.deviceCount),
          spaceCount: Number(r.spaceCount),
          updatedAt: toIso(r.updatedAt),
        })),
      );
    },
  );

  app.get(
    `${deviceSetEndpoints.detail}/:id`,
    {
      config: configOf(DEVICE_SET_VIEW_PERMISSION),
      schema: {
        tags,
        summary: 'One device set with its devices (status and sync state)',
        params: deviceSetIdParams,
        response: { 200: envelope(deviceSetDetail) },
      },
    },
    async (request) => {
      const set = await loadSet(app.db, request.params.id);
      const ids = await devicesOfSet(app.db, set.id);
      const [{ n }] = await app.db
        .select({ n: count() })
        .from(deviceSetSpaces)
        .where(eq(deviceSetSpaces.setId, set.id));
      const members = ids.length ? await deviceRecords(app.db, inArray(devices.id, ids)) : [];
      return ok({
        id: set.id,
        name: set.name,
        remark: set.remark,
        updatedAt: toIso(set.updatedAt),
        deviceCount: members.length,
        spaceCount: n,
        devices: members,
      });
    },
  );

  app.post(
    deviceSetEndpoints.save,
    {
      config: configOf(DEVICE_SET_EDIT_PERMISSION),
      schema: {
        tags,
        summary: 'A new device set, with its devices',
        body: deviceSetSaveBody,
        response: { 200: envelope(deviceSetSaved) },
      },
    },
    async (request) => {
      const { name, remark, deviceIds } = request.body;
      const id = await changeSet(request, 'save', undefined, async (tx) => {
        await assertAllExist(tx, deviceIds, devices, deviceSetMessages.devicesMissing);
        const by = request.user?.id ?? null;
        const [row] = await tx
          .insert(deviceSets)
          .values({ name, remark: remark ?? null, createdBy: by, updatedBy: by })
          .returning();
        if (deviceIds.length)
          await tx
            .insert(deviceSetDevices)
            .values([...new Set(deviceIds)].map((deviceId) => ({ setId: row.id, deviceId })));
        return { id: row.id, answer: row.id, after: { name, remark, deviceIds } };
      });
      return ok({ id }, deviceSetMessages.saved);
    },
  );

  app.put(
    deviceSetEndpoints.edit,
    {
      config: configOf(DEVICE_SET_EDIT_PERMISSION),
      schema: {
        tags,
        summary: "A set's name and remark",
        body: deviceSetEditBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { id, name, remark } = request.body;
      await changeSet(request, 'edit', id, async (tx) => {
        const before = await loadSet(tx, id);
        await tx
          .update(deviceSets)
          .set({ name, remark: remark ?? null, updatedAt: new Date(), updatedBy: request.user?.id ?? null })
          .where(eq(deviceSets.id, id));
        return {
          id,
          answer: null,
          before: { name: before.name, remark: before.remark },
          after: { name, remark },
        };
      });
      return ok(null, deviceSetMessages.saved);
    },
  );

  app.delete(
    `${deviceSetEndpoints.remove}/:id`,
    {
      config: configOf(DEVICE_SET_REMOVE_PERMISSION),
      schema: {
        tags,
        summary: 'Removes a set: its devices lose the access it gave',
        params: deviceSetIdParams,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await changeSet(request, 'remove', id, async (tx) => {
        const before = await loadSet(tx, id);
        const removed = await devicesOfSet(tx, id);
        await tx.delete(deviceSets).where(eq(deviceSets.id, id));
        return { id, answer: null, before: { name: before.name, deviceIds: removed } };
      });
      return ok(null, deviceSetMessages.removed);
    },
  );
};
