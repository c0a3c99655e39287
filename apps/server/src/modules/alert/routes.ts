/**
 * 告警通知 (the header's bell): the alerts a staff member may see (the kinds their permissions
 * cover), newest first with their read flag and the unread count, and marking them read. The
 * rules (rules.ts) run every few seconds on each instance while the app is up; the console polls
 * the list, so a new alert reaches it within the rules' period plus the console's.
 */
import { and, count, desc, eq, gt, inArray, isNull, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ALERT_CLOSED_KEPT_MS,
  ALERT_PERMISSIONS,
  alertEndpoints,
  alertKindsFor,
  alertList,
  alertListQuery,
  alertReadBody,
  alertReadResult,
} from '@cowork/contract';
import { alertReads, alerts } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { envelope, notFound, ok } from '../../lib/http.ts';
import { toIso, toIsoOrNull } from '../../lib/time.ts';
import { currentUser } from '../../plugins/auth.ts';
import { evaluateAlerts, rulesMemory } from './rules.ts';

/** How often each instance runs the rules. */
export const ALERT_EVALUATE_MS = 2_000;

const tags = ['alert'];
const permission = ALERT_PERMISSIONS;

/**
 * The alerts a caller sees: kinds their permissions cover, open or closed within a day (and, for an
 * API key limited to buildings, those of its buildings).
 */
function visible(request: FastifyRequest, now: Date): SQL | undefined {
  const kinds = alertKindsFor(currentUser(request).permissions);
  return and(
    inArray(alerts.kind, kinds),
    or(isNull(alerts.closedAt), gt(alerts.closedAt, new Date(now.getTime() - ALERT_CLOSED_KEPT_MS))),
    inKeyBuildings(request, alerts.buildingId),
  );
}

const unreadBy = (userId: number) =>
  notExists(
    sql`(select 1 from ${alertReads} where ${alertReads.alertId} = ${alerts.id} and ${alertReads.userId} = ${userId})`,
  );

const alertRoutes: FastifyPluginAsyncZod = async (app) => {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const memory = rulesMemory();
  let busy = false;
  const round = () => {
    // A slow database: the next round waits for this one rather than piling up behind it.
    if (busy) return running;
    busy = true;
    running = evaluateAlerts(app.db, new Date(), memory)
      .catch((error: unknown) => app.log.warn({ err: error }, 'alert rules failed'))
      .finally(() => {
        busy = false;
      });
    return running;
  };
  app.addHook('onReady', () => {
    timer = setInterval(() => void round(), ALERT_EVALUATE_MS).unref();
    void round();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });

  app.get(
    alertEndpoints.list,
    {
      config: { permission },
      schema: {
        tags,
        summary: '告警通知: the alerts the caller sees, newest first, and how many are unread',
        querystring: alertListQuery,
        response: { 200: envelope(alertList) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const where = visible(request, new Date());
      const [rows, [unread]] = await Promise.all([
        app.db
          .select({
            alert: alerts,
            read: sql<boolean>`exists (select 1 from ${alertReads} where ${alertReads.alertId} = ${alerts.id} and ${alertReads.userId} = ${user.id})`,
          })
          .from(alerts)
          .where(where)
          .orderBy(desc(alerts.raisedAt), desc(alerts.id))
          .limit(request.query.size),
        app.db
          .select({ n: count() })
          .from(alerts)
          .where(and(where, unreadBy(user.id))),
      ]);
      return ok({
        records: rows.map(({ alert: a, read }) => ({
          id: a.id,
          kind: a.kind,
          buildingId: a.buildingId,
          deviceId: a.deviceId,
          title: a.title,
          detail: a.detail,
          link: a.link,
          count: a.count,
          raisedAt: toIso(a.raisedAt),
          updatedAt: toIso(a.updatedAt),
          closedAt: toIsoOrNull(a.closedAt),
          read: Boolean(read),
        })),
        unread: unread?.n ?? 0,
      });
    },
  );

  app.post(
    alertEndpoints.read,
    {
      config: { permission },
      schema: {
        tags,
        summary: 'Marks one alert read by the caller',
        body: alertReadBody,
        response: { 200: envelope(alertReadResult) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = request.body;
      const [alert] = await app.db
        .select({ id: alerts.id, title: alerts.title })
        .from(alerts)
        .where(and(eq(alerts.id, id), visible(request, new Date())));
      if (!alert) throw notFound('这条告警通知不存在或已过期，请刷新通知列表');
      const marked = await app.db
        .insert(alertReads)
        .values({ alertId: id, userId: user.id })
        .onConflictDoNothing()
        .returning({ alertId: alertReads.alertId });
      if (marked.length > 0)
        await audit(request, {
          action: 'read',
          resource: 'alert',
          resourceId: id,
          after: { title: alert.title },
        });
      return ok({ marked: marked.length });
    },
  );

  app.post(
    alertEndpoints.readAll,
    {
      config: { permission },
      schema: {
        tags,
        summary: 'Marks every alert the caller sees read',
        response: { 200: envelope(alertReadResult) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const marked = await app.db
        .insert(alertReads)
        .select(
          app.db
            .select({
              alertId: alerts.id,
              userId: sql<number>`${user.id}::int`.as('user_id'),
              readAt: sql<Date>`now()`.as('read_at'),
            })
            .from(alerts)
            .where(and(visible(request, new Date()), unreadBy(user.id))),
        )
        .onConflictDoNothing()
        .returning({ alertId: alertReads.alertId });
      if (marked.length > 0)
        await audit(request, {
          action: 'read-all',
          resource: 'alert',
          after: { alertIds: marked.map((m) => m.alertId) },
        });
      return ok({ marked: marked.length });
    },
  );
};

export default alertRoutes;
