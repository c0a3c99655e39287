/**
 * 待注册 and registering: a device that said hello with the enrolment key waits in the list until
 * staff register it, which issues its secret (shown once); unregistering revokes it at once.
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEVICE_EDIT_PERMISSION,
  DEVICE_REMOVE_PERMISSION,
  DEVICE_VIEW_PERMISSION,
  deviceEndpoints,
  deviceFieldLabels,
  deviceIdBody,
  deviceMessages,
  deviceRegisterBody,
  deviceRegistered,
  waitingDevice,
} from '@cowork/contract';
import { deviceEnrolments, devices, spaces } from '../../db/schema.ts';
import { isConsoleName } from '../../device-link/console-identity.ts';
import { audit } from '../../lib/audit.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { badRequest, conflict, envelope, ok } from '../../lib/http.ts';
import { toIso } from '../../lib/time.ts';
import { currentUser } from '../../plugins/auth.ts';
import { deviceById } from './records.ts';

const tags = ['device'];

/** A device's secret: 32 random bytes, base64url (the protocol's form); reset-config issues a new one. */
export const newDeviceSecret = () => randomBytes(32).toString('base64url');

export const registrationRoutes: FastifyPluginAsyncZod = async (app) => {
  const link = app.devices;

  app.get(
    deviceEndpoints.unPulledList,
    {
      config: { permission: DEVICE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: 'Devices that said hello with the enrolment key and are not registered',
        response: { 200: envelope(z.array(waitingDevice)) },
      },
    },
    async () => {
      const rows = await app.db
        .select({
          sn: deviceEnrolments.sn,
          model: deviceEnrolments.model,
          vendor: deviceEnrolments.vendor,
          firmware: deviceEnrolments.firmware,
          lastSeenAt: deviceEnrolments.lastSeenAt,
        })
        .from(deviceEnrolments)
        .where(sql`not exists (select 1 from ${devices} where ${devices.sn} = ${deviceEnrolments.sn})`)
        .orderBy(desc(deviceEnrolments.lastSeenAt))
        .limit(500);
      return ok(rows.map((r) => ({ ...r, lastSeenAt: toIso(r.lastSeenAt) })));
    },
  );

  app.post(
    deviceEndpoints.register,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels: deviceFieldLabels.register },
      schema: {
        tags,
        summary: 'Register a waiting device; answers its secret, the only time it is shown',
        body: deviceRegisterBody,
        response: { 200: envelope(deviceRegistered) },
      },
    },
    async (request) => {
      const { sn, name, spaceId } = request.body;
      if (isConsoleName(app.config, sn)) throw badRequest(deviceMessages.snIsConsole(sn));
      const secret = newDeviceSecret();
      const created = await app.db.transaction(async (tx) => {
        const [waiting] = await tx.select().from(deviceEnrolments).where(eq(deviceEnrolments.sn, sn));
        const [taken] = await tx.select({ id: devices.id }).from(devices).where(eq(devices.sn, sn));
        if (taken) throw conflict(deviceMessages.snTaken(sn));
        if (!waiting) throw badRequest(deviceMessages.notWaiting(sn));
        if (spaceId) {
          const [space] = await tx
            .select({ id: spaces.id })
            .from(spaces)
            .where(and(eq(spaces.id, spaceId), inKeyBuildings(request, spaces.buildingId)));
          if (!space) throw badRequest(deviceMessages.spaceNotFound);
        }
        const [row] = await tx
          .insert(devices)
          .values({
            sn,
            name,
            spaceId: spaceId ?? null,
            model: waiting.model,
            vendor: waiting.vendor,
            firmware: waiting.firmware,
            secret: link.box.seal(secret),
            createdBy: currentUser(request).id,
            updatedBy: currentUser(request).id,
          })
          .onConflictDoNothing({ target: devices.sn })
          .returning();
        if (!row) throw conflict(deviceMessages.snTaken(sn));
        await tx.delete(deviceEnrolments).where(eq(deviceEnrolments.sn, sn));
        await audit(
          request,
          {
            action: 'register',
            resource: 'device',
            resourceId: String(row.id),
            after: { sn, name, spaceId },
          },
          tx,
        );
        return row;
      });
      // Connected with the enrolment key until now: it must reconnect with its secret.
      link.kick(sn);
      return ok({ id: created.id, sn: created.sn, secret });
    },
  );

  app.post(
    deviceEndpoints.unregister,
    {
      config: { permission: DEVICE_REMOVE_PERMISSION },
      schema: {
        tags,
        summary: 'Unregister: the secret stops working at once and the device is disconnected',
        body: deviceIdBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const row = await deviceById(app.db, request.body.id, request);
      await app.db.transaction(async (tx) => {
        await tx.delete(devices).where(eq(devices.id, row.id));
        await audit(
          request,
          {
            action: 'unregister',
            resource: 'device',
            resourceId: String(row.id),
            before: { sn: row.sn, name: row.name, spaceId: row.spaceId },
          },
          tx,
        );
      });
      link.kick(row.sn);
      return ok(null);
    },
  );
};
