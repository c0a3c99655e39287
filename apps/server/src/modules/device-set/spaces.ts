/**
 * The spaces a set holds: two pages (the held ones, and the ones it could hold) and holding more or
 * fewer. A held space lets the members who may be in it open the set's devices, so every change
 * re-syncs the set's devices once committed.
 */
import { and, asc, count, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEVICE_SET_EDIT_PERMISSION,
  DEVICE_SET_VIEW_PERMISSION,
  deviceSetEndpoints,
  deviceSetMessages,
  deviceSetSpacePageQuery,
  deviceSetSpaceRecord,
  deviceSetSpacesBody,
} from '@cowork/contract/resources/device-set';
import { activityStations, buildings, deviceSetSpaces, officeStations, spaces } from '../../db/schema.ts';
import { containing } from '../../lib/like.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { envelope, ok, pageOf } from '../../lib/http.ts';
import { spacePathsOf } from '../space/paths.ts';
import { assertAllExist, changeSet, configOf, loadSet, tags } from './change.ts';

export const setSpaceRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The hold / not-hold pages: the same query, inside or outside the set's held spaces. */
  function spacePage(path: string, held: boolean) {
    app.get(
      path,
      {
        config: configOf(DEVICE_SET_VIEW_PERMISSION),
        schema: {
          tags,
          summary: held ? 'The spaces a set holds' : 'The spaces a set could hold',
          querystring: deviceSetSpacePageQuery,
          response: { 200: envelope(pageOf(deviceSetSpaceRecord)) },
        },
      },
      async (request) => {
        const q = request.query;
        await loadSet(app.db, q.id);
        const heldIds = app.db
          .select({ id: deviceSetSpaces.spaceId })
          .from(deviceSetSpaces)
          .where(eq(deviceSetSpaces.setId, q.id));
        const where: SQL[] = [held ? inArray(spaces.id, heldIds) : notInArray(spaces.id, heldIds)];
        if (q.name?.trim()) where.push(containing(spaces.name, q.name.trim()));
        if (q.buildingId) where.push(eq(spaces.buildingId, q.buildingId));
        const condition = and(...where, inKeyBuildings(request, spaces.buildingId));
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
      config: configOf(DEVICE_SET_EDIT_PERMISSION),
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
      await changeSet(request, 'save-space', id, async (tx) => {
        await loadSet(tx, id);
        await assertAllExist(tx, spaceIds, spaces, deviceSetMessages.spacesMissing);
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
      config: configOf(DEVICE_SET_EDIT_PERMISSION),
      schema: {
        tags,
        summary: 'The set no longer holds these spaces',
        body: deviceSetSpacesBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { id, spaceIds } = request.body;
      const n = await changeSet(request, 'remove-space', id, async (tx) => {
        await loadSet(tx, id);
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
