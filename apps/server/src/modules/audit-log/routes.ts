/**
 * GET audit-log/page: the 操作日志 screen, newest first (also a company's 操作记录, `companyId`);
 * GET audit-log/actors: its 操作人 options.
 */
import { and, asc, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  actorLabel,
  AUDIT_LOG_PERMISSION,
  auditLogQuery,
  auditLogRecord,
  endpoints,
  fieldInvalid,
  fieldLabels,
  listOption,
  messages,
} from '@cowork/contract';
import { apiKeyActorName } from '@cowork/contract/resources/api-key';
import { auditLogs, ssoUsers } from '../../db/schema.ts';
import { badRequest, envelope, ok, pageAndTotal, pageOf } from '../../lib/http.ts';
import { parseTimeBound, toIso } from '../../lib/time.ts';

/**
 * A company's 操作记录: the company's own entries, and those of its staff, access groups and cards,
 * whose rows carry its id (before or after the change), and of its groups' chosen people.
 */
function ofCompany(id: number): SQL {
  const key = String(id);
  const carries = (field: string) =>
    sql`(${auditLogs.after}->>${field} = ${key} or ${auditLogs.before}->>${field} = ${key})`;
  return sql`((${auditLogs.resource} = 'company' and ${auditLogs.resourceId} = ${key})
    or (${auditLogs.resource} in ('company-staff', 'kreator-user-group', 'company-card') and ${carries('companyId')})
    or (${auditLogs.resource} = 'kreator-user' and coalesce(${auditLogs.after}->>'groupId', ${auditLogs.before}->>'groupId')
      in (select g.id::text from kreator_user_groups g where g.company_id = ${id})))`;
}

export const auditLogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    endpoints.auditLogPage,
    {
      config: { permission: AUDIT_LOG_PERMISSION },
      schema: {
        tags: ['audit-log'],
        summary: 'Audit log page, filtered by actor, resource, action and time',
        querystring: auditLogQuery,
        response: { 200: envelope(pageOf(auditLogRecord)) },
      },
    },
    async (request) => {
      const q = request.query;
      const where: SQL[] = [];
      if (q.actorId !== undefined) where.push(eq(auditLogs.actorId, q.actorId));
      if (q.resource) where.push(eq(auditLogs.resource, q.resource));
      if (q.action) where.push(eq(auditLogs.action, q.action));
      if (q.companyId !== undefined) where.push(ofCompany(q.companyId));
      for (const [key, endOfDay] of [
        ['from', false],
        ['to', true],
      ] as const) {
        const value = q[key];
        if (!value) continue;
        const bound = parseTimeBound(value, endOfDay);
        if (!bound) throw badRequest(fieldInvalid(fieldLabels[key], messages.timeInvalid));
        where.push(key === 'from' ? gte(auditLogs.at, bound) : lt(auditLogs.at, bound));
      }
      const condition = where.length > 0 ? and(...where) : undefined;

      const page = await pageAndTotal(
        q,
        () =>
          app.db
            .select({
              id: auditLogs.id,
              actorId: auditLogs.actorId,
              actorNickname: ssoUsers.nickname,
              actorUsername: ssoUsers.username,
              apiKeyId: auditLogs.apiKeyId,
              apiKeyName: auditLogs.apiKeyName,
              action: auditLogs.action,
              resource: auditLogs.resource,
              resourceId: auditLogs.resourceId,
              before: auditLogs.before,
              after: auditLogs.after,
              ip: auditLogs.ip,
              at: auditLogs.at,
            })
            .from(auditLogs)
            .leftJoin(ssoUsers, eq(ssoUsers.id, auditLogs.actorId))
            .where(condition)
            .orderBy(desc(auditLogs.at), desc(auditLogs.id))
            .limit(q.size)
            .offset((q.current - 1) * q.size),
        () => app.db.select({ total: count() }).from(auditLogs).where(condition),
      );
      return ok({
        ...page,
        records: page.records.map(({ actorNickname, at, ...row }) => ({
          ...row,
          // A write made with an API key is named after the key, its creator beside it.
          actorName:
            row.apiKeyName !== null
              ? apiKeyActorName(row.apiKeyName)
              : actorNickname || row.actorUsername || null,
          at: toIso(at),
        })),
      });
    },
  );

  app.get(
    endpoints.auditLogActors,
    {
      config: { permission: AUDIT_LOG_PERMISSION },
      schema: {
        tags: ['audit-log'],
        summary: '操作人选项：在操作日志中出现过的后台用户',
        response: { 200: envelope(z.array(listOption)) },
      },
    },
    async () => {
      const rows = await app.db
        .selectDistinct({ value: ssoUsers.id, nickname: ssoUsers.nickname, username: ssoUsers.username })
        .from(auditLogs)
        .innerJoin(ssoUsers, eq(ssoUsers.id, auditLogs.actorId))
        .orderBy(asc(ssoUsers.username));
      return ok(
        rows.map(({ value, nickname, username }) => ({ value, label: actorLabel(nickname, username) })),
      );
    },
  );
};

export default auditLogRoutes;
