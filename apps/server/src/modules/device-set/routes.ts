/**
 * 门禁联动 (device-set): the calls packages/contract/src/resources/device-set.ts describes. Every
 * write that changes which devices a set has or which spaces it holds re-syncs the devices it
 * touched (before and after) once it has committed; a device whose access did not change is sent
 * nothing (devices/link.ts compares the state's hash).
 *
 * Permissions: hardware:map:view reads, :edit writes, :remove deletes a set.
 */
import { and, asc, count, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import { containing } from '../../lib/like.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idOf } from '@cowork/contract';
import {
  DEVICE_SET_EDIT_PERMISSION,
  DEVICE_SET_REMOVE_PERMISSION,
  DEVICE_SET_VIEW_PERMISSION,
  deviceSetEditBody,
  deviceSetFieldLabels as fieldLabels,
  deviceSetEndpoints,
  deviceSetMessages,
  deviceSetRelationBody,
  deviceSetSaveBody,
  deviceSetSpacesBody,
} from '@cowork/contract/resources/device-set';
import { sqlState, type Executor } from '../../db/client.ts';
import {
  activityStations,
  buildings,
  deviceSetDevices,
  deviceSetSpaces,
  deviceSets,
  devices,
  officeStations,
  spaces,
} from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, conflict, envelope, notFound, ok, pageOf } from '../../lib/http.ts';
import { toIso } from '../../lib/time.ts';
import { deviceRecord, deviceRecords, pageParams } from '../device/records.ts';
import { spacePathsOf } from '../space/paths.ts';
import { textOf } from '../../lib/unknown.ts';
import { staffActor } from '../../devices/actors.ts';

const tags = ['device-set'];
const resource = 'device-set';

const setRecord = z.object({
  id: z.number(),
  name: z.string(),
  remark: z.string().nullable(),
  deviceCount: z.number(),
  spaceCount: z.number(),
  updatedAt: z.string(),
});

const spaceRecord = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.string(),
  buildingId: z.number(),
  buildingName: z.string().nullable(),
  parentName: z.string().nullable(),
  /** `楼宇 / 上级空间 / 空间`: every building has its 大堂闸机. */
  path: z.string(),
  stationName: z.string().nullable(),
});

const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';

export const deviceSetRoutes: FastifyPluginAsyncZod = async (app) => {
  async function load(db: Executor, id: number) {
    const [row] = await db.select().from(deviceSets).where(eq(deviceSets.id, id));
    if (!row) throw notFound(deviceSetMessages.notFound);
    return row;
  }

  const devicesOf = async (db: Executor, setId: number) =>
    (
      await db
        .select({ id: deviceSetDevices.deviceId })
        .from(deviceSetDevices)
        .where(eq(deviceSetDevices.setId, setId))
    ).map((r) => r.id);

  async function assertExist(
    db: Executor,
    ids: readonly number[],
    table: typeof devices | typeof spaces,
    message: string,
  ) {
    if (ids.length === 0) return;
    const [{ n }] = await db
      .select({ n: count() })
      .from(table)
      .where(inArray(table.id, [...ids]));
    if (n !== new Set(ids).size) throw badRequest(message);
  }

  /** A set's writes: in one transaction, audited, and re-syncing what they touched once committed. */
  async function change<T>(
    request: Parameters<typeof audit>[0],
    action: string,
    setId: number | undefined,
    work: (
      tx: Executor,
    ) => Promise<{ id: number; answer: T; before?: unknown; after?: unknown; deviceIds?: number[] }>,
  ): Promise<T> {
    let touched: number[] = [];
    const answer = await app.db
      .transaction(async (tx) => {
        const before = setId ? await devicesOf(tx, setId) : [];
        const result = await work(tx);
        const after = await devicesOf(tx, result.id);
        touched = [...new Set([...before, ...after, ...(result.deviceIds ?? [])])];
        await audit(
          request,
          {
            action,
            resource,
            resourceId: result.id,
            before: result.before ?? null,
            after: result.after ?? null,
          },
          tx,
        );
        return result.answer;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error))
          throw conflict(deviceSetMessages.nameTaken(textOf(request.body, 'name') ?? ''));
        throw error;
      });
    void app.devices.accessChanged({ deviceIds: touched }, staffActor(request));
    return answer;
  }

  app.get(
    deviceSetEndpoints.list,
    {
      config: { permission: DEVICE_SET_VIEW_PERMISSION, fieldLabels },
      schema: {
        tags,
        summary: 'Every device set with how many devices and spaces it has',
        querystring: z.object({ name: z.string().max(50).optional() }),
        response: { 200: envelope(z.array(setRecord)) },
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
      config: { permission: DEVICE_SET_VIEW_PERMISSION, fieldLabels },
      schema: {
        tags,
        summary: 'One device set with its devices (status and sync state)',
        params: z.object({ id: idOf('门禁联动编号必须是正整数') }),
        response: { 200: envelope(setRecord.extend({ devices: z.array(deviceRecord) })) },
      },
    },
    async (request) => {
      const set = await load(app.db, request.params.id);
      const ids = await devicesOf(app.db, set.id);
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
      config: { permission: DEVICE_SET_EDIT_PERMISSION, fieldLabels },
      schema: {
        tags,
        summary: 'A new device set, with its devices',
        body: deviceSetSaveBody,
        response: { 200: envelope(z.object({ id: z.number() })) },
      },
    },
    async (request) => {
      const { name, remark, deviceIds } = request.body;
      const id = await change(request, 'save', undefined, async (tx) => {
        await assertExist(tx, deviceIds, devices, deviceSetMessages.devicesMissing);
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
      config: { permission: DEVICE_SET_EDIT_PERMISSION, fieldLabels },
      schema: {
        tags,
        summary: "A set's name and remark",
        body: deviceSetEditBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { id, name, remark } = request.body;
      await change(request, 'edit', id, async (tx) => {
        const before = await load(tx, id);
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
      config: { permission: DEVICE_SET_REMOVE_PERMISSION, fieldLabels },
      schema: {
        tags,
        summary: 'Removes a set: its devices lose the access it gave',
        params: z.object({ id: idOf('门禁联动编号必须是正整数') }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { id } = request.params;
      let removed: number[] = [];
      await app.db.transaction(async (tx) => {
        const before = await load(tx, id);
        removed = await devicesOf(tx, id);
        await tx.delete(deviceSets).where(eq(deviceSets.id, id));
        await audit(
          request,
          { action: 'remove', resource, resourceId: id, before: { name: before.name, deviceIds: removed } },
          tx,
        );
      });
      void app.devices.accessChanged({ deviceIds: removed }, staffActor(request));
      return ok(null, deviceSetMessages.removed);
    },
  );

  app.post(
    deviceSetEndpoints.editRelation,
    {
      config: { permission: DEVICE_SET_EDIT_PERMISSION, fieldLabels },
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
      await change(request, 'edit-relation', id, async (tx) => {
        await load(tx, id);
        await assertExist(tx, deviceIds, devices, deviceSetMessages.devicesMissing);
        const before = await devicesOf(tx, id);
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
      config: { permission: DEVICE_SET_EDIT_PERMISSION, fieldLabels },
      schema: {
        tags,
        summary: 'Takes these devices out of a set',
        body: deviceSetRelationBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { id, deviceIds } = request.body;
      const n = await change(request, 'remove-relation', id, async (tx) => {
        await load(tx, id);
        const gone = deviceIds.length
          ? await tx
              .delete(deviceSetDevices)
              .where(and(eq(deviceSetDevices.setId, id), inArray(deviceSetDevices.deviceId, deviceIds)))
              .returning({ id: deviceSetDevices.deviceId })
          : [];
        return {
          id,
          answer: gone.length,
          before: { deviceIds: gone.map((g) => g.id) },
          deviceIds: gone.map((g) => g.id),
        };
      });
      return ok(null, deviceSetMessages.devicesRemoved(n));
    },
  );

  /** The hold / not-hold pages: the same query, inside or outside the set's held spaces. */
  function spacePage(path: string, held: boolean) {
    app.get(
      path,
      {
        config: { permission: DEVICE_SET_VIEW_PERMISSION, fieldLabels },
        schema: {
          tags,
          summary: held ? 'The spaces a set holds' : 'The spaces a set could hold',
          querystring: z.object({
            id: idOf('门禁联动编号必须是正整数'),
            ...pageParams,
            name: z.string().max(50).optional(),
            buildingId: idOf('楼宇编号必须是正整数').optional(),
          }),
          response: { 200: envelope(pageOf(spaceRecord)) },
        },
      },
      async (request) => {
        const q = request.query;
        await load(app.db, q.id);
        const heldIds = app.db
          .select({ id: deviceSetSpaces.spaceId })
          .from(deviceSetSpaces)
          .where(eq(deviceSetSpaces.setId, q.id));
        const where: SQL[] = [held ? inArray(spaces.id, heldIds) : notInArray(spaces.id, heldIds)];
        if (q.name?.trim()) where.push(containing(spaces.name, q.name.trim()));
        if (q.buildingId) where.push(eq(spaces.buildingId, q.buildingId));
        const condition = and(...where);
        const parent = sql<string | null>`(select p.name from spaces p where p.id = ${spaces.parentId})`;
        const [rows, [{ total }]] = await Promise.all([
          app.db
            .select({
              id: spaces.id,
              name: spaces.name,
              kind: spaces.kind,
              buildingId: spaces.buildingId,
              buildingName: buildings.name,
              parentName: parent,
              officeStation: officeStations.name,
              activityStation: activityStations.name,
            })
            .from(spaces)
            .leftJoin(buildings, eq(buildings.id, spaces.buildingId))
            .leftJoin(officeStations, eq(officeStations.id, spaces.officeStationId))
            .leftJoin(activityStations, eq(activityStations.id, spaces.activityStationId))
            .where(condition)
            .orderBy(asc(spaces.buildingId), asc(spaces.sort), asc(spaces.id))
            .limit(q.size)
            .offset((q.current - 1) * q.size),
          app.db.select({ total: count() }).from(spaces).where(condition),
        ]);
        const paths = await spacePathsOf(
          app.db,
          rows.map((r) => r.id),
        );
        return ok({
          records: rows.map(({ officeStation, activityStation, ...r }) => ({
            ...r,
            path: paths.get(r.id)?.path ?? r.name,
            stationName: officeStation ?? activityStation ?? null,
          })),
          total,
          current: q.current,
          size: q.size,
        });
      },
    );
  }
  spacePage(deviceSetEndpoints.holdSpacePage, true);
  spacePage(deviceSetEndpoints.notHoldSpacePage, false);

  app.post(
    deviceSetEndpoints.saveSpace,
    {
      config: { permission: DEVICE_SET_EDIT_PERMISSION, fieldLabels },
      schema: {
        tags,
        summary: 'The set holds these spaces too',
        body: deviceSetSpacesBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { id } = request.body;
      const spaceIds = [...new Set(request.body.spaceIds)];
      await change(request, 'save-space', id, async (tx) => {
        await load(tx, id);
        await assertExist(tx, spaceIds, spaces, deviceSetMessages.spacesMissing);
        await tx
          .insert(deviceSetSpaces)
          .values(spaceIds.map((spaceId) => ({ setId: id, spaceId })))
          .onConflictDoNothing();
        return { id, answer: null, after: { spaceIds } };
      });
      return ok(null, deviceSetMessages.spacesHeld(spaceIds.length));
    },
  );

  app.post(
    deviceSetEndpoints.removeSpace,
    {
      config: { permission: DEVICE_SET_EDIT_PERMISSION, fieldLabels },
      schema: {
        tags,
        summary: 'The set no longer holds these spaces',
        body: deviceSetSpacesBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { id, spaceIds } = request.body;
      const n = await change(request, 'remove-space', id, async (tx) => {
        await load(tx, id);
        const gone = await tx
          .delete(deviceSetSpaces)
          .where(and(eq(deviceSetSpaces.setId, id), inArray(deviceSetSpaces.spaceId, spaceIds)))
          .returning({ id: deviceSetSpaces.spaceId });
        return { id, answer: gone.length, before: { spaceIds: gone.map((g) => g.id) } };
      });
      return ok(null, deviceSetMessages.spacesReleased(n));
    },
  );
};

export default deviceSetRoutes;
