/**
 * Reading devices: 设备管理's list with live status, one device's detail (its last commands, what
 * was dropped from it and the alarms it still has raised), its current door code, and the link's
 * state for the hardware screens' banner.
 */
import { and, count, desc, eq, ilike, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DEVICE_VIEW_PERMISSION,
  deviceDetail,
  deviceEndpoints,
  deviceIdBody,
  deviceLinkStatus,
  devicePageQuery,
  deviceTotpCode,
  isDeviceCommandType,
} from '@cowork/contract';
import { deviceAlarms, deviceCommands, devices, spaces } from '../../db/schema.ts';
import { deviceTotpKey, totpCode } from '../../device-link/protocol.ts';
import { spaceInKeyBuildings } from '../../lib/building-scope.ts';
import { envelope, ok, pageAndTotal, pageOf } from '../../lib/http.ts';
import { containing, escapeLike } from '../../lib/like.ts';
import { toIso, toIsoOrNull } from '../../lib/time.ts';
import { deviceById, deviceRecord, deviceRecords } from './records.ts';

const tags = ['device'];

export const listingRoutes: FastifyPluginAsyncZod = async (app) => {
  const link = app.devices;

  app.get(
    deviceEndpoints.linkStatus,
    {
      config: { permission: DEVICE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: 'The device link: up or down and why (the banner of the hardware screens)',
        response: { 200: envelope(deviceLinkStatus) },
      },
    },
    async () => {
      const s = link.status();
      return ok({ up: s.up, mode: s.mode, url: s.url ?? null, reason: s.reason ?? null });
    },
  );

  app.get(
    deviceEndpoints.page,
    {
      config: { permission: DEVICE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: 'Devices, with live status and last seen',
        querystring: devicePageQuery,
        response: { 200: envelope(pageOf(deviceRecord)) },
      },
    },
    async (request) => {
      const q = request.query;
      const where: SQL[] = [];
      if (q.sn?.trim()) where.push(ilike(devices.sn, `${escapeLike(q.sn.trim())}%`));
      if (q.name?.trim()) where.push(containing(devices.name, q.name.trim()));
      if (q.spaceId) where.push(eq(devices.spaceId, q.spaceId));
      if (q.buildingId)
        where.push(sql`${devices.spaceId} in (select id from ${spaces} where building_id = ${q.buildingId})`);
      if (q.status) where.push(eq(devices.status, q.status));
      const condition = and(...where, spaceInKeyBuildings(request, devices.spaceId));
      return ok(
        await pageAndTotal(
          q,
          () => deviceRecords(app.db, condition, { limit: q.size, offset: (q.current - 1) * q.size }),
          () => app.db.select({ total: count() }).from(devices).where(condition),
        ),
      );
    },
  );

  app.get(
    `${deviceEndpoints.detail}/:id`,
    {
      config: { permission: DEVICE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: 'One device with its last 20 commands and what was dropped from it',
        params: deviceIdBody,
        response: { 200: envelope(deviceDetail) },
      },
    },
    async (request) => {
      const d = await deviceById(app.db, request.params.id, request);
      const [record] = await deviceRecords(app.db, eq(devices.id, d.id));
      const commands = await app.db
        .select()
        .from(deviceCommands)
        .where(eq(deviceCommands.deviceId, d.id))
        .orderBy(desc(deviceCommands.sentAt))
        .limit(20);
      // Alarms it still has raised (open, or acknowledged while the device still reports them).
      const raised = await app.db
        .select()
        .from(deviceAlarms)
        .where(and(eq(deviceAlarms.deviceId, d.id), isNull(deviceAlarms.clearedAt)))
        .orderBy(desc(deviceAlarms.raisedAt))
        .limit(20);
      return ok({
        ...record,
        lastDropReason: d.lastDropReason,
        raisedAlarms: raised.map((a) => ({
          id: a.id,
          kind: a.kind,
          state: a.state,
          raisedAt: toIso(a.raisedAt),
          detail: a.detail,
        })),
        // Every row was sent as a contract command; a type it no longer names is not listed.
        commands: commands.flatMap(({ type, ...c }) =>
          isDeviceCommandType(type)
            ? [
                {
                  id: c.id,
                  type,
                  byName: c.byName,
                  reason: c.reason,
                  state: c.state,
                  error: c.error,
                  sentAt: toIso(c.sentAt),
                  answeredAt: toIsoOrNull(c.answeredAt),
                },
              ]
            : [],
        ),
      });
    },
  );

  app.get(
    deviceEndpoints.totpCode,
    {
      config: { permission: DEVICE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: "The device's current door code and when it expires",
        querystring: deviceIdBody,
        response: { 200: envelope(deviceTotpCode) },
      },
    },
    async (request) => {
      const device = await deviceById(app.db, request.query.id, request);
      return ok(totpCode(deviceTotpKey(link.box.open(device.secret))));
    },
  );
};
