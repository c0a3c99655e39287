/**
 * 开门记录: every door event the devices reported, newest first, and its Excel export with the same
 * filters; a member is found by phone, or by name, phone or company (`keyword`). Its own permission (hardware:log:view) lets staff read it without managing devices;
 * device view opens it too.
 */
import { and, count, desc, eq, gte, ilike, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DEVICE_VIEW_PERMISSION,
  deviceEndpoints,
  isDayText,
  maskPhone,
  OPEN_LOG_VIEW_PERMISSION,
  openLogPageQuery,
  openLogQuery,
  openLogRecord,
  openMethodLabels,
  openResultLabels,
  type OpenLogQuery,
} from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { deviceOpenLogs, devices } from '../../db/schema.ts';
import type { FastifyRequest } from 'fastify';
import { deviceInKeyBuildings } from '../../lib/building-scope.ts';
import { envelope, ok, pageAndTotal, pageOf } from '../../lib/http.ts';
import { parseTimeBound, toIso } from '../../lib/time.ts';
import { tableBatches, sendExcel, businessTime, type ExcelColumn } from '../../lib/excel-export.ts';
import { escapeLike } from '../../lib/like.ts';
import { isPhoneKeyword, membersMatching } from '../../lib/member-keyword.ts';
import { spacePathsOf } from '../space/paths.ts';

type OpenLogRow = typeof deviceOpenLogs.$inferSelect;

/**
 * What the open log shows as the credential: a card's or code's last characters. A remote opening
 * has none (its device repeats the staff username it was sent, which is no credential): `who` names
 * the staff member instead.
 */
const credentialOf = (r: Pick<OpenLogRow, 'method' | 'credential'>) =>
  r.method === 'remote' ? null : r.credential;

const openLogColumns: ExcelColumn<OpenLogRow>[] = [
  { header: '时间', value: (r) => businessTime(r.at), width: 20 },
  { header: '设备', value: (r) => r.deviceName ?? '（已注销）', width: 18 },
  { header: '序列号', value: (r) => r.sn, width: 18 },
  { header: '方式', value: (r) => openMethodLabels[r.method], width: 10 },
  { header: '凭证', value: (r) => (credentialOf(r) ? `****${credentialOf(r)}` : null), width: 10 },
  { header: '结果', value: (r) => openResultLabels[r.result], width: 8 },
  { header: '原因', value: (r) => r.reason, width: 20 },
  { header: '开门人', value: (r) => r.who, width: 16 },
];

/** A member's phone: eleven digits match that member, fewer any masked phone holding them. */
const phoneCondition = (phone: string) =>
  phone.length === 11 ? eq(deviceOpenLogs.who, maskPhone(phone)) : ilike(deviceOpenLogs.who, `%${phone}%`);

/**
 * The events of the members a keyword names (a phone, a name or a company): by member where the
 * event names one, else by the masked phone it shows. Digits also match as the phone filter does.
 */
function keywordCondition(keyword: string): SQL {
  const found = membersMatching(keyword);
  const byMember = sql`(${deviceOpenLogs.memberId} in (${found}) or ${deviceOpenLogs.who} in (
    select left(m.phone, 3) || '****' || right(m.phone, 4) from members m where m.id in (${found})))`;
  return isPhoneKeyword(keyword) ? sql`(${byMember} or ${phoneCondition(keyword)})` : byMember;
}

/**
 * The SQL of the open log's filters (the query schema has checked every bound parses), within an
 * API key's buildings.
 */
function openLogConditions(q: OpenLogQuery, request: FastifyRequest): SQL[] {
  const where: SQL[] = [];
  const scoped = deviceInKeyBuildings(request, deviceOpenLogs.deviceId);
  if (scoped) where.push(scoped);
  if (q.deviceId) where.push(eq(deviceOpenLogs.deviceId, q.deviceId));
  if (q.sn?.trim()) where.push(ilike(deviceOpenLogs.sn, `${escapeLike(q.sn.trim())}%`));
  if (q.method) where.push(eq(deviceOpenLogs.method, q.method));
  if (q.result) where.push(eq(deviceOpenLogs.result, q.result));
  const from = q.atFrom === undefined ? undefined : parseTimeBound(q.atFrom, false);
  if (from) where.push(gte(deviceOpenLogs.at, from));
  const to = q.atTo === undefined ? undefined : parseTimeBound(q.atTo, true);
  // A day ends where the next begins; a time is included.
  if (q.atTo && to) where.push(isDayText(q.atTo) ? lt(deviceOpenLogs.at, to) : lte(deviceOpenLogs.at, to));
  if (q.phone) where.push(phoneCondition(q.phone));
  if (q.keyword) where.push(keywordCondition(q.keyword));
  if (q.spaceId)
    where.push(sql`${deviceOpenLogs.deviceId} in (
      with recursive tree(id) as (
        select ${q.spaceId}::int union all select s.id from spaces s join tree on s.parent_id = tree.id
      )
      select d.id from devices d join tree on d.space_id = tree.id)`);
  if (q.buildingId)
    where.push(sql`${deviceOpenLogs.deviceId} in (
      select d.id from devices d join spaces s on s.id = d.space_id where s.building_id = ${q.buildingId})`);
  return where;
}

/** Where each of these devices is now (`楼宇 / 空间`), by device id; unplaced and removed ones are absent. */
async function devicePlaces(db: Executor, deviceIds: readonly (number | null)[]) {
  const ids = [...new Set(deviceIds.filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map<number, string>();
  const placed = await db
    .select({ id: devices.id, spaceId: devices.spaceId })
    .from(devices)
    .where(inArray(devices.id, ids));
  const paths = await spacePathsOf(
    db,
    placed.map((d) => d.spaceId),
  );
  return new Map(
    placed.flatMap((d) => {
      const path = d.spaceId === null ? undefined : paths.get(d.spaceId)?.path;
      return path ? [[d.id, path] as const] : [];
    }),
  );
}

const tags = ['device'];
const permission = [OPEN_LOG_VIEW_PERMISSION, DEVICE_VIEW_PERMISSION];

const openLogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    deviceEndpoints.openLogPage,
    {
      config: { permission },
      schema: {
        tags,
        summary: '开门记录: door events, newest first',
        querystring: openLogPageQuery,
        response: { 200: envelope(pageOf(openLogRecord)) },
      },
    },
    async (request) => {
      const q = request.query;
      const condition = and(...openLogConditions(q, request));
      const page = await pageAndTotal(
        q,
        () =>
          app.db
            .select()
            .from(deviceOpenLogs)
            .where(condition)
            .orderBy(desc(deviceOpenLogs.at), desc(deviceOpenLogs.id))
            .limit(q.size)
            .offset((q.current - 1) * q.size),
        () => app.db.select({ total: count() }).from(deviceOpenLogs).where(condition),
      );
      // Where each device is (楼宇 / 空间): every building has its 大堂闸机.
      const places = await devicePlaces(
        app.db,
        page.records.map((r) => r.deviceId),
      );
      return ok({
        ...page,
        records: page.records.map((r) => ({
          id: r.id,
          deviceId: r.deviceId,
          sn: r.sn,
          deviceName: r.deviceName,
          spacePath: (r.deviceId && places.get(r.deviceId)) || null,
          method: r.method,
          credential: credentialOf(r),
          result: r.result,
          reason: r.reason,
          who: r.who,
          at: toIso(r.at),
        })),
      });
    },
  );

  app.get(
    deviceEndpoints.openLogExport,
    {
      config: { permission },
      schema: {
        tags,
        summary: '开门记录 as Excel: the filters of its page, every row, streamed',
        querystring: openLogQuery,
      },
    },
    async (request, reply) =>
      sendExcel(reply, {
        title: '开门记录',
        columns: openLogColumns,
        rows: tableBatches(app.db, deviceOpenLogs, openLogConditions(request.query, request)),
      }),
  );
};

export default openLogRoutes;
