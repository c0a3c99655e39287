/**
 * Firmware rollouts from the console: start one over chosen devices (registered, of the file's
 * model, speaking v1.1, in no other rollout not over), list them, show one with each device's
 * progress, and pause, resume or cancel it. The device link's engine (device-link/firmware) sends
 * the commands and follows the devices; these routes change a rollout's state and tell it to move.
 */
import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  doorOperationEndpoints,
  FIRMWARE_EDIT_PERMISSION,
  FIRMWARE_VIEW_PERMISSION,
  firmwareFieldLabels,
  firmwareMessages,
  rolloutBody,
  rolloutDetail,
  rolloutIdBody,
  rolloutPageQuery,
  rolloutRecord,
  rolloutStateLabels,
  type RolloutState,
} from '@cowork/contract';
import { rowsOf, sqlState, type Executor } from '../../db/client.ts';
import { devices, firmwareFiles, firmwareRolloutDevices, firmwareRollouts } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import {
  AppError,
  badRequest,
  conflict,
  envelope,
  notFound,
  ok,
  pageAndTotal,
  pageOf,
} from '../../lib/http.ts';
import { toIso, toIsoOrNull } from '../../lib/time.ts';
import { currentUser } from '../../plugins/auth.ts';

const tags = ['firmware'];

/** A rollout with its file and its devices' counts, as the list and the detail show it. */
const rolloutColumns = {
  id: firmwareRollouts.id,
  state: firmwareRollouts.state,
  firmwareId: firmwareRollouts.firmwareId,
  model: firmwareFiles.model,
  version: firmwareFiles.version,
  sha256: firmwareFiles.sha256,
  size: firmwareFiles.size,
  batchSize: firmwareRollouts.batchSize,
  stopAfterFailures: firmwareRollouts.stopAfterFailures,
  timeoutMinutes: firmwareRollouts.timeoutMinutes,
  reason: firmwareRollouts.reason,
  createdBy: firmwareRollouts.createdBy,
  createdAt: firmwareRollouts.createdAt,
  finishedAt: firmwareRollouts.finishedAt,
  total: sql<number>`(select count(*) from firmware_rollout_devices d where d.rollout_id = ${firmwareRollouts.id})::int`,
  done: sql<number>`(select count(*) from firmware_rollout_devices d where d.rollout_id = ${firmwareRollouts.id} and d.state = 'done')::int`,
  failed: sql<number>`(select count(*) from firmware_rollout_devices d where d.rollout_id = ${firmwareRollouts.id} and d.state = 'failed')::int`,
};

function rolloutsQuery(db: Executor, where: SQL | undefined) {
  return db
    .select(rolloutColumns)
    .from(firmwareRollouts)
    .innerJoin(firmwareFiles, eq(firmwareFiles.id, firmwareRollouts.firmwareId))
    .where(where);
}

type RolloutRow = Awaited<ReturnType<typeof rolloutsQuery>>[number];

const recordOf = ({ sha256: _sha256, size: _size, ...r }: RolloutRow) => ({
  ...r,
  total: Number(r.total),
  done: Number(r.done),
  failed: Number(r.failed),
  createdAt: toIso(r.createdAt),
  finishedAt: toIsoOrNull(r.finishedAt),
});

/** The devices asked for, each checked: registered, of the file's model, v1.1. */
async function checkedDevices(db: Executor, ids: number[], model: string) {
  const rows = await db
    .select({ id: devices.id, name: devices.name, model: devices.model, protocol: devices.protocol })
    .from(devices)
    .where(inArray(devices.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of ids) {
    const d = byId.get(id);
    if (!d) throw badRequest(firmwareMessages.deviceNotFound(id));
    if (d.model !== model) throw badRequest(firmwareMessages.wrongModel(d.name, d.model, model));
    if (d.protocol !== '1.1') throw badRequest(firmwareMessages.notV11(d.name));
  }
  return byId;
}

/** A 409 naming the first of these devices that is in a rollout not over, and that rollout. */
async function busyConflict(db: Executor, ids: number[]): Promise<AppError | undefined> {
  const [busy] = await db
    .select({ rolloutId: firmwareRolloutDevices.rolloutId, name: devices.name })
    .from(firmwareRolloutDevices)
    .innerJoin(devices, eq(devices.id, firmwareRolloutDevices.deviceId))
    .where(and(inArray(firmwareRolloutDevices.deviceId, ids), eq(firmwareRolloutDevices.active, true)))
    .limit(1);
  return busy ? conflict(firmwareMessages.busy(busy.name, busy.rolloutId)) : undefined;
}

export const rolloutRoutes: FastifyPluginAsyncZod = async (app) => {
  const engine = app.devices.firmware;

  app.post(
    doorOperationEndpoints.rollout,
    {
      config: { permission: FIRMWARE_EDIT_PERMISSION, fieldLabels: firmwareFieldLabels.rollout },
      schema: {
        tags,
        summary: 'Start a firmware rollout: batchSize devices at a time, halted at stopAfterFailures',
        body: rolloutBody,
        response: { 200: envelope(z.object({ id: z.number() })) },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const body = request.body;
      const [file] = await app.db.select().from(firmwareFiles).where(eq(firmwareFiles.id, body.firmwareId));
      if (!file) throw badRequest(firmwareMessages.firmwareNotFound);
      await checkedDevices(app.db, body.deviceIds, file.model);
      const busy = await busyConflict(app.db, body.deviceIds);
      if (busy) throw busy;
      let id: number;
      try {
        id = await app.db.transaction(async (tx) => {
          const [rollout] = await tx
            .insert(firmwareRollouts)
            .values({
              firmwareId: file.id,
              batchSize: body.batchSize,
              stopAfterFailures: body.stopAfterFailures,
              timeoutMinutes: body.timeoutMinutes,
              reason: body.reason || null,
              createdById: caller.id,
              createdBy: caller.nickname || caller.username,
            })
            .returning({ id: firmwareRollouts.id });
          await tx
            .insert(firmwareRolloutDevices)
            .values(
              body.deviceIds.map((deviceId, position) => ({ rolloutId: rollout.id, deviceId, position })),
            );
          await audit(
            request,
            {
              action: 'rollout',
              resource: 'firmware',
              resourceId: rollout.id,
              after: {
                firmwareId: file.id,
                model: file.model,
                version: file.version,
                deviceIds: body.deviceIds,
                batchSize: body.batchSize,
                stopAfterFailures: body.stopAfterFailures,
                timeoutMinutes: body.timeoutMinutes,
                ...(body.reason ? { reason: body.reason } : {}),
              },
            },
            tx,
          );
          return rollout.id;
        });
      } catch (error) {
        // Another rollout took one of the devices between the check and the insert.
        if (sqlState(error) === '23505') throw (await busyConflict(app.db, body.deviceIds)) ?? error;
        throw error;
      }
      engine.advance();
      return ok({ id });
    },
  );

  app.get(
    doorOperationEndpoints.rolloutPage,
    {
      config: { permission: FIRMWARE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: 'Firmware rollouts, newest first',
        querystring: rolloutPageQuery,
        response: { 200: envelope(pageOf(rolloutRecord)) },
      },
    },
    async (request) => {
      const q = request.query;
      const where = q.state ? eq(firmwareRollouts.state, q.state) : undefined;
      const page = await pageAndTotal(
        q,
        () =>
          rolloutsQuery(app.db, where)
            .orderBy(desc(firmwareRollouts.id))
            .limit(q.size)
            .offset((q.current - 1) * q.size),
        () => app.db.select({ total: count() }).from(firmwareRollouts).where(where),
      );
      return ok({ ...page, records: page.records.map(recordOf) });
    },
  );

  app.get(
    `${doorOperationEndpoints.rolloutDetail}/:id`,
    {
      config: { permission: FIRMWARE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: 'One rollout with each device’s state and progress, in rollout order',
        params: rolloutIdBody,
        response: { 200: envelope(rolloutDetail) },
      },
    },
    async (request) => {
      const [row] = await rolloutsQuery(app.db, eq(firmwareRollouts.id, request.params.id));
      if (!row) throw notFound(firmwareMessages.rolloutNotFound);
      const rows = await app.db
        .select({
          id: devices.id,
          sn: devices.sn,
          name: devices.name,
          state: firmwareRolloutDevices.state,
          percent: firmwareRolloutDevices.percent,
          error: firmwareRolloutDevices.error,
          sentAt: firmwareRolloutDevices.sentAt,
          finishedAt: firmwareRolloutDevices.finishedAt,
        })
        .from(firmwareRolloutDevices)
        .innerJoin(devices, eq(devices.id, firmwareRolloutDevices.deviceId))
        .where(eq(firmwareRolloutDevices.rolloutId, row.id))
        .orderBy(firmwareRolloutDevices.position);
      return ok({
        ...recordOf(row),
        sha256: row.sha256,
        size: row.size,
        devices: rows.map((d) => ({
          ...d,
          sentAt: toIsoOrNull(d.sentAt),
          finishedAt: toIsoOrNull(d.finishedAt),
        })),
      });
    },
  );

  /** Moves a rollout from one of `from` to `to`, audited; a rollout in another state is a 409. */
  async function transition(
    request: FastifyRequest,
    id: number,
    from: RolloutState[],
    to: RolloutState,
    refused: string,
  ) {
    const updated = await app.db.transaction(async (tx) => {
      const changed = await rowsOf<{ id: number }>(
        tx,
        sql`update firmware_rollouts set state = ${to}, updated_at = now(),
          finished_at = ${to === 'cancelled' ? sql`now()` : null}
        where id = ${id} and state in ${sql.raw(`(${from.map((s) => `'${s}'`).join(', ')})`)}
        returning id`,
      );
      if (changed.length === 0) return false;
      if (to === 'cancelled')
        await tx.execute(sql`update firmware_rollout_devices set active = false, error = ${firmwareMessages.cancelled},
          updated_at = now() where rollout_id = ${id} and state = 'queued'`);
      await audit(
        request,
        {
          action: to,
          resource: 'firmware-rollout',
          resourceId: id,
          after: { state: rolloutStateLabels[to] },
        },
        tx,
      );
      return true;
    });
    if (!updated) {
      const [exists] = await app.db
        .select({ id: firmwareRollouts.id })
        .from(firmwareRollouts)
        .where(eq(firmwareRollouts.id, id));
      throw exists ? conflict(refused) : notFound(firmwareMessages.rolloutNotFound);
    }
    engine.advance();
  }

  for (const [path, from, to, refused] of [
    [doorOperationEndpoints.rolloutPause, ['running'], 'paused', firmwareMessages.cannotPause],
    [doorOperationEndpoints.rolloutResume, ['paused'], 'running', firmwareMessages.cannotResume],
    [doorOperationEndpoints.rolloutCancel, ['running', 'paused'], 'cancelled', firmwareMessages.cannotCancel],
  ] as const) {
    app.post(
      path,
      {
        config: { permission: FIRMWARE_EDIT_PERMISSION },
        schema: {
          tags,
          summary: `Rollout: ${from.join(' or ')} → ${to}`,
          body: rolloutIdBody,
          response: { 200: envelope(z.null()) },
        },
      },
      async (request) => {
        await transition(request, request.body.id, [...from], to, refused);
        return ok(null);
      },
    );
  }
};
