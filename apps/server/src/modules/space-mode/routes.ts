/**
 * 紧急模式: a building's, floor's or room's mode (正常, 封锁, 全部常开). Setting it is one transaction
 * with its audit entry; then every device in or under the space is synced (its state's hash covers
 * the mode, so the sync carries the new one) and the answer says, device by device, whether it took
 * the mode now (applied), will get it at its next hello or sweep (pending), or speaks v1 and cannot
 * (unsupported). Only staff with hardware:emergency change a mode; any hardware screen reads them.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  EMERGENCY_PERMISSION,
  doorOperationEndpoints,
  menuRoutes,
  modeFieldLabels,
  modeMessages,
  permissionOf,
  spaceModeAnswer,
  spaceModeBody,
  spaceModeList,
  spaceModePreview,
  spaceModePreviewPath,
  spaceModePreviewQuery,
  type SpaceModeDevice,
} from '@cowork/contract';
import { rowsOf, type Executor } from '../../db/client.ts';
import { buildings, spaces } from '../../db/schema.ts';
import { staffActor } from '../../device-link/actors.ts';
import { deviceModesOf } from '../../device-link/modes.ts';
import { audit } from '../../lib/audit.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { envelope, notFound, ok } from '../../lib/http.ts';
import { recordEvent } from '../../lib/outbox.ts';
import { toIso } from '../../lib/time.ts';
import { currentUser } from '../../plugins/auth.ts';
import { spacePathsOf } from '../space/paths.ts';

const tags = ['space-mode'];

/** The whole change answers within this long: devices that did not ack by then are pending. */
const MODE_WAIT_MS = 6_000;

/** Every hardware screen shows the banner, so seeing any of them reads the modes. */
const hardwareViewers = [
  EMERGENCY_PERMISSION,
  ...menuRoutes.filter((r) => r.group === 'hardware').map((r) => permissionOf(r, 'view')),
];

interface DeviceUnder {
  id: number;
  name: string;
  status: 'online' | 'offline';
  protocol: '1' | '1.1';
  ackedVersion: number;
  accessVersion: number;
  sentMode: string | null;
}

/** The devices in this space or any space under it, by name. */
async function devicesUnder(db: Executor, spaceId: number): Promise<DeviceUnder[]> {
  const rows = await rowsOf<{
    id: number | string;
    name: string;
    status: 'online' | 'offline';
    protocol: '1' | '1.1';
    acked_version: number | string;
    access_version: number | string;
    sent_mode: string | null;
  }>(
    db,
    sql`
    with recursive under(id) as (
      select ${spaceId}::int
      union all
      select s.id from spaces s join under on s.parent_id = under.id
    )
    select d.id, d.name, d.status, d.protocol, d.acked_version, d.access_version, d.sent_mode
    from devices d join under on d.space_id = under.id
    order by d.name, d.id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    status: r.status,
    protocol: r.protocol,
    ackedVersion: Number(r.acked_version),
    accessVersion: Number(r.access_version),
    sentMode: r.sent_mode,
  }));
}

/** A space the caller may reach (an API key: in its buildings), else 404. */
async function spaceOrNotFound(db: Executor, id: number, request: FastifyRequest) {
  const [space] = await db
    .select()
    .from(spaces)
    .where(and(eq(spaces.id, id), inKeyBuildings(request, spaces.buildingId)));
  if (!space) throw notFound(modeMessages.spaceNotFound);
  return space;
}

/** Resolves with `work`'s answer, or with undefined once `ms` passed (the work goes on unawaited). */
function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const spaceModeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    doorOperationEndpoints.spaceMode,
    {
      config: { permission: EMERGENCY_PERMISSION, fieldLabels: modeFieldLabels },
      schema: {
        tags,
        summary: "Set a space's emergency mode and sync every device in or under it",
        body: spaceModeBody,
        response: { 200: envelope(spaceModeAnswer) },
      },
    },
    async (request) => {
      const { spaceId, mode, reason } = request.body;
      const started = Date.now();
      const user = currentUser(request);
      const space = await app.db.transaction(async (tx) => {
        const before = await spaceOrNotFound(tx, spaceId, request);
        const changedAt = new Date();
        const changedBy = user.nickname || user.username;
        await tx
          .update(spaces)
          .set({ mode, modeReason: reason, modeChangedAt: changedAt, modeChangedBy: changedBy })
          .where(eq(spaces.id, spaceId));
        // The same mode set again (a new reason) is no change of mode for webhooks.
        if (before.mode !== mode) {
          const [building] = await tx
            .select({ name: buildings.name })
            .from(buildings)
            .where(eq(buildings.id, before.buildingId));
          await recordEvent(tx, 'space.mode.changed', {
            spaceId,
            spaceName: before.name,
            buildingId: before.buildingId,
            buildingName: building?.name ?? null,
            mode,
            previousMode: before.mode,
            reason,
            changedBy,
            changedAt: toIso(changedAt),
          });
        }
        await audit(
          request,
          {
            action: 'mode',
            resource: 'space',
            resourceId: String(spaceId),
            before: { name: before.name, mode: before.mode, reason: before.modeReason },
            after: { name: before.name, mode, reason },
          },
          tx,
        );
        return before;
      });

      const found = await devicesUnder(app.db, spaceId);
      const ids = found.map((d) => d.id);
      // One device's failure (offline, no ack) shows as pending below, never as the answer's error.
      const syncing = app.devices.syncDevices(ids, staffActor(request, reason)).catch((error: unknown) => {
        request.log.warn({ err: error, spaceId }, 'mode sync failed');
        return [];
      });
      const acked = new Set(
        (await within(syncing, Math.max(0, MODE_WAIT_MS - (Date.now() - started)))) ?? [],
      );
      // A device may hold the mode already (the same mode set again, or acked while we stopped
      // waiting): it took it when it acked the current version carrying the mode it is in now.
      const [now, modes] = await Promise.all([devicesUnder(app.db, spaceId), deviceModesOf(app.db, ids)]);
      const holds = new Set(
        now
          .filter((d) => d.ackedVersion >= d.accessVersion && d.sentMode === (modes.get(d.id) ?? 'normal'))
          .map((d) => d.id),
      );
      const online = new Set(now.filter((d) => d.status === 'online').map((d) => d.id));
      const answer: SpaceModeDevice[] = found.map((d) => ({
        id: d.id,
        name: d.name,
        state:
          d.protocol !== '1.1'
            ? 'unsupported'
            : acked.has(d.id) || (online.has(d.id) && holds.has(d.id))
              ? 'applied'
              : 'pending',
      }));
      const applied = answer.filter((d) => d.state === 'applied').length;
      return ok({ devices: answer }, modeMessages.changed(space.name, mode, applied, answer.length));
    },
  );

  app.get(
    spaceModePreviewPath,
    {
      config: { permission: EMERGENCY_PERMISSION, fieldLabels: modeFieldLabels },
      schema: {
        tags,
        summary: 'How many doors a mode change of this space would reach',
        querystring: spaceModePreviewQuery,
        response: { 200: envelope(spaceModePreview) },
      },
    },
    async (request) => {
      const space = await spaceOrNotFound(app.db, request.query.spaceId, request);
      const [found, paths] = await Promise.all([
        devicesUnder(app.db, space.id),
        spacePathsOf(app.db, [space.id]),
      ]);
      return ok({
        spaceId: space.id,
        path: paths.get(space.id)?.path ?? space.name,
        mode: space.mode,
        devices: found.length,
        online: found.filter((d) => d.status === 'online').length,
        unsupported: found.filter((d) => d.protocol !== '1.1').length,
      });
    },
  );

  app.get(
    doorOperationEndpoints.spaceModes,
    {
      config: { permission: hardwareViewers },
      schema: {
        tags,
        summary: 'The spaces not in normal mode now (the hardware screens banner)',
        response: { 200: envelope(spaceModeList) },
      },
    },
    async (request) => {
      const rows = await app.db
        .select()
        .from(spaces)
        .where(and(ne(spaces.mode, 'normal'), inKeyBuildings(request, spaces.buildingId)))
        .orderBy(spaces.id);
      const paths = await spacePathsOf(
        app.db,
        rows.map((r) => r.id),
      );
      return ok(
        rows.map((r) => ({
          id: r.id,
          name: r.name,
          path: paths.get(r.id)?.path ?? r.name,
          mode: r.mode,
          reason: r.modeReason,
          changedAt: r.modeChangedAt ? toIso(r.modeChangedAt) : null,
          changedBy: r.modeChangedBy,
        })),
      );
    },
  );
};

export default spaceModeRoutes;
