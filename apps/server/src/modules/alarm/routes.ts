/**
 * 告警记录: the alarms devices raised (protocol v1.1), newest first, with their building, and their
 * Excel export with the same filters; staff acknowledge a row with a note (audited).
 *
 * States: a row is `cleared` once its device said the alarm ended, whatever staff did; else
 * `acknowledged` once staff acknowledged it; else `open`. Acknowledging a cleared row records who
 * and the note and leaves it cleared (the page shows 已确认 beside it); a row is acknowledged once,
 * a second time answers 409 naming who did it and when. Staff with the view code see every
 * building's alarms, as 开门记录 shows every building's door events.
 */
import { and, count, desc, eq, gte, ilike, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ALARM_EDIT_PERMISSION,
  ALARM_VIEW_PERMISSION,
  alarmAcknowledgeBody,
  alarmFieldLabels,
  alarmKindLabels,
  alarmMessages,
  alarmPageQuery,
  alarmQuery,
  alarmRecord,
  alarmStateLabels,
  businessDateTime,
  deviceEndpoints,
  isDayText,
  type AlarmQuery,
} from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { buildings, deviceAlarms } from '../../db/schema.ts';
import type { FastifyRequest } from 'fastify';
import { audit } from '../../lib/audit.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { businessTime, sendExcel, tableBatches, type ExcelColumn } from '../../lib/excel-export.ts';
import { conflict, envelope, notFound, ok, pageAndTotal, pageOf } from '../../lib/http.ts';
import { escapeLike } from '../../lib/like.ts';
import { parseTimeBound, toIso, toIsoOrNull } from '../../lib/time.ts';
import { currentUser } from '../../plugins/auth.ts';

type AlarmRow = typeof deviceAlarms.$inferSelect;

/**
 * The SQL of 告警记录's filters (the query schema has checked every bound parses), within an API
 * key's buildings.
 */
function alarmConditions(q: AlarmQuery, request: FastifyRequest): SQL[] {
  const where: SQL[] = [];
  const scoped = inKeyBuildings(request, deviceAlarms.buildingId);
  if (scoped) where.push(scoped);
  if (q.buildingId) where.push(eq(deviceAlarms.buildingId, q.buildingId));
  if (q.deviceId) where.push(eq(deviceAlarms.deviceId, q.deviceId));
  if (q.sn?.trim()) where.push(ilike(deviceAlarms.sn, `${escapeLike(q.sn.trim())}%`));
  if (q.kind) where.push(eq(deviceAlarms.kind, q.kind));
  if (q.state) where.push(eq(deviceAlarms.state, q.state));
  const from = q.atFrom === undefined ? undefined : parseTimeBound(q.atFrom, false);
  if (from) where.push(gte(deviceAlarms.raisedAt, from));
  const to = q.atTo === undefined ? undefined : parseTimeBound(q.atTo, true);
  // A day ends where the next begins; a time is included.
  if (q.atTo && to)
    where.push(isDayText(q.atTo) ? lt(deviceAlarms.raisedAt, to) : lte(deviceAlarms.raisedAt, to));
  return where;
}

/** The names of these buildings, by id. */
async function buildingNames(db: Executor, ids: readonly (number | null)[]) {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map<number, string>();
  const rows = await db
    .select({ id: buildings.id, name: buildings.name })
    .from(buildings)
    .where(inArray(buildings.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name]));
}

const recordOf = (r: AlarmRow, names: Map<number, string>) => ({
  id: r.id,
  deviceId: r.deviceId,
  sn: r.sn,
  deviceName: r.deviceName,
  buildingId: r.buildingId,
  buildingName: r.buildingId === null ? null : (names.get(r.buildingId) ?? null),
  kind: r.kind,
  state: r.state,
  detail: r.detail,
  raisedAt: toIso(r.raisedAt),
  clearedAt: toIsoOrNull(r.clearedAt),
  acknowledgedAt: toIsoOrNull(r.acknowledgedAt),
  acknowledgedBy: r.acknowledgedBy,
  note: r.note,
});

const alarmColumns = (names: Map<number, string>): ExcelColumn<AlarmRow>[] => [
  { header: '告警时间', value: (r) => businessTime(r.raisedAt), width: 20 },
  { header: '类型', value: (r) => alarmKindLabels[r.kind], width: 14 },
  { header: '状态', value: (r) => alarmStateLabels[r.state], width: 10 },
  { header: '设备', value: (r) => r.deviceName ?? '（已注销）', width: 18 },
  { header: '序列号', value: (r) => r.sn, width: 18 },
  { header: '楼宇', value: (r) => (r.buildingId === null ? null : names.get(r.buildingId)), width: 18 },
  { header: '详情', value: (r) => r.detail, width: 24 },
  { header: '恢复时间', value: (r) => businessTime(r.clearedAt), width: 20 },
  { header: '确认时间', value: (r) => businessTime(r.acknowledgedAt), width: 20 },
  { header: '确认人', value: (r) => r.acknowledgedBy, width: 14 },
  { header: '处理说明', value: (r) => r.note, width: 30 },
];

const tags = ['device'];

const alarmRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    deviceEndpoints.alarmPage,
    {
      config: { permission: ALARM_VIEW_PERMISSION },
      schema: {
        tags,
        summary: '告警记录: alarms devices raised, newest first',
        querystring: alarmPageQuery,
        response: { 200: envelope(pageOf(alarmRecord)) },
      },
    },
    async (request) => {
      const q = request.query;
      const condition = and(...alarmConditions(q, request));
      const page = await pageAndTotal(
        q,
        () =>
          app.db
            .select()
            .from(deviceAlarms)
            .where(condition)
            .orderBy(desc(deviceAlarms.raisedAt), desc(deviceAlarms.id))
            .limit(q.size)
            .offset((q.current - 1) * q.size),
        () => app.db.select({ total: count() }).from(deviceAlarms).where(condition),
      );
      const names = await buildingNames(
        app.db,
        page.records.map((r) => r.buildingId),
      );
      return ok({ ...page, records: page.records.map((r) => recordOf(r, names)) });
    },
  );

  app.get(
    deviceEndpoints.alarmExport,
    {
      config: { permission: ALARM_VIEW_PERMISSION },
      schema: {
        tags,
        summary: '告警记录 as Excel: the filters of its page, every row, streamed',
        querystring: alarmQuery,
      },
    },
    async (request, reply) => {
      // Buildings are few: every name is read once rather than per batch.
      const names = new Map(
        (await app.db.select({ id: buildings.id, name: buildings.name }).from(buildings)).map((b) => [
          b.id,
          b.name,
        ]),
      );
      return sendExcel(reply, {
        title: '告警记录',
        columns: alarmColumns(names),
        rows: tableBatches(app.db, deviceAlarms, alarmConditions(request.query, request)),
      });
    },
  );

  app.post(
    deviceEndpoints.alarmAcknowledge,
    {
      config: { permission: ALARM_EDIT_PERMISSION, fieldLabels: alarmFieldLabels.acknowledge },
      schema: {
        tags,
        summary: 'Acknowledge an alarm with a note (a cleared one stays cleared); once only',
        body: alarmAcknowledgeBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id, note } = request.body;
      await app.db.transaction(async (tx) => {
        // Only a row not yet acknowledged changes: two staff at once acknowledge it once.
        const [row] = await tx
          .update(deviceAlarms)
          .set({
            acknowledgedAt: new Date(),
            acknowledgedById: user.id,
            acknowledgedBy: user.nickname || user.username,
            note,
            state: sql`case when ${deviceAlarms.clearedAt} is null then 'acknowledged' else ${deviceAlarms.state} end`,
          })
          .where(
            and(
              eq(deviceAlarms.id, id),
              isNull(deviceAlarms.acknowledgedAt),
              inKeyBuildings(request, deviceAlarms.buildingId),
            ),
          )
          .returning();
        if (!row) {
          const [known] = await tx
            .select()
            .from(deviceAlarms)
            .where(and(eq(deviceAlarms.id, id), inKeyBuildings(request, deviceAlarms.buildingId)));
          if (!known) throw notFound(alarmMessages.notFound);
          throw conflict(
            alarmMessages.alreadyAcknowledged(
              known.acknowledgedBy,
              businessDateTime(known.acknowledgedAt ?? new Date()),
            ),
          );
        }
        await audit(
          request,
          {
            action: 'acknowledge',
            resource: 'device-alarm',
            resourceId: row.id,
            after: {
              sn: row.sn,
              deviceName: row.deviceName,
              kind: row.kind,
              state: row.state,
              note,
            },
          },
          tx,
        );
      });
      return ok(null);
    },
  );
};

export default alarmRoutes;
