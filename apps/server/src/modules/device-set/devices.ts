/**
 * A set's devices: `edit-relation` makes them exactly the ones named, `remove-relation` takes the
 * named ones out. The devices that joined or left are re-synced once committed.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEVICE_SET_EDIT_PERMISSION,
  deviceSetEndpoints,
  deviceSetMessages,
  deviceSetRelationBody,
} from '@cowork/contract/resources/device-set';
import { deviceSetDevices, devices } from '../../db/schema.ts';
import { envelope, ok } from '../../lib/http.ts';
import { assertAllExist, changeSet, configOf, devicesOfSet, loadSet, tags } from './change.ts';

export const setDeviceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    deviceSetEndpoints.editRelation,
    {
      config: configOf(DEVICE_SET_EDIT_PERMISSION),
      schema: {
        tags,
        summary: "Sets a set's devices to exactly these",
        body: deviceSetRelationBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { id } = request.body;
      const deviceIds = [...new Set(request.body.deviceIds)];
      await changeSet(request, 'edit-relation', id, async (tx) => {
        await loadSet(tx, id);
        await assertAllExist(tx, deviceIds, devices, deviceSetMessages.devicesMissing);
        const before = await devicesOfSet(tx, id);
        await tx.delete(deviceSetDevices).where(eq(deviceSetDevices.setId, id));
        if (deviceIds.length)
          await tx.insert(deviceSetDevices).values(deviceIds.map((deviceId) => ({ setId: id, deviceId })));
        return { id, answer: null, before: { deviceIds: before }, after: { deviceIds } };
      });
      return ok(null, deviceSetMessages.devicesSaved(deviceIds.length));
    },
  );

  app.post(
    deviceSetEndpoints.removeRelation,
    {
      config: configOf(DEVICE_SET_EDIT_PERMISSION),
      schema: {
        tags,
        summary: 'Takes these devices out of a set',
        body: deviceSetRelationBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { id, deviceIds } = request.body;
      const n = await changeSet(request, 'remove-relation', id, async (tx) => {
        await loadSet(tx, id);
        const gone = deviceIds.length
          ? await tx
              .delete(deviceSetDevices)
              .where(and(eq(deviceSetDevices.setId, id), inArray(deviceSetDevices.deviceId, deviceIds)))
              .returning({ id: deviceSetDevices.deviceId })
          : [];
        const goneIds = gone.map((g) => g.id);
        return { id, answer: gone.length, before: { deviceIds: goneIds }, deviceIds: goneIds };
      });
      return ok(null, deviceSetMessages.devicesRemoved(n));
    },
  );
};
