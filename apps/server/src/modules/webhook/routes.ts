/**
 * 开放平台 → 推送地址: webhooks and group robots (save, edit, page, remove, rotate the signing
 * secret, send a test), and the delivery log with 重新发送. URLs and secrets are kept sealed
 * (lib/secret-box.ts); our signing secret is answered once, at save and at rotation; the list shows
 * a URL with its credentials hidden (`urlShown`). The worker (worker.ts) runs while the app is up
 * and makes the deliveries.
 */
import { and, count, desc, eq, gte, ilike, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isDayText, type PageQuery } from '@cowork/contract';
import {
  robotSecretKinds,
  WEBHOOK_EDIT_PERMISSION,
  WEBHOOK_REMOVE_PERMISSION,
  WEBHOOK_SECRET_OVERLAP_MS,
  WEBHOOK_URL_HIDDEN,
  WEBHOOK_VIEW_PERMISSION,
  webhookApi,
  webhookDeliveryPageQuery,
  webhookDeliveryRecord,
  webhookEdit,
  webhookFieldLabels,
  webhookIdBody,
  webhookIdParams,
  webhookMessages,
  webhookPageQuery,
  webhookRecord,
  webhookResend,
  webhookResent,
  webhookRotated,
  webhookSave,
  webhookSaved,
  webhookTested,
  type WebhookKind,
} from '@cowork/contract/resources/webhook';
import type { Database, Executor } from '../../db/client.ts';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema.ts';
import { audit, type AuditEntry } from '../../lib/audit.ts';
import { badRequest, conflict, envelope, notFound, ok, pageAndTotal, pageOf } from '../../lib/http.ts';
import { escapeLike } from '../../lib/like.ts';
import { checkOutboundUrl, hideUrlSecrets } from '../../lib/outbound.ts';
import { recordEventRow, WEBHOOK_EVENTS_CHANNEL } from '../../lib/outbox.ts';
import { parseTimeBound, toIso, toIsoOrNull } from '../../lib/time.ts';
import { currentUser } from '../../plugins/auth.ts';
import { closeDisabledAlert } from './disabled-alert.ts';
import { newSigningSecret } from './signing.ts';
import { createWebhookWorker } from './worker.ts';

const tags = ['webhook'];
const fieldLabels = webhookFieldLabels;
const view = { permission: WEBHOOK_VIEW_PERMISSION, fieldLabels };
const edit = { permission: WEBHOOK_EDIT_PERMISSION, fieldLabels };
const remove = { permission: WEBHOOK_REMOVE_PERMISSION, fieldLabels };

type Endpoint = typeof webhookEndpoints.$inferSelect;

/** Wakes every instance's worker once the transaction commits (this one's at once as well). */
const notifyWorkers = sql`select pg_notify(${WEBHOOK_EVENTS_CHANNEL}, '')`;

async function endpointOf(db: Database, id: number): Promise<Endpoint> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  if (!row) throw notFound(webhookMessages.notFound);
  return row;
}

/** A list route's schema: its filters, and a page of its records as the answer. */
const pageSchema = <Q extends z.ZodType, R extends z.ZodType>(
  summary: string,
  querystring: Q,
  record: R,
) => ({
  tags,
  summary,
  querystring,
  response: { 200: envelope(pageOf(record)) },
});

/**
 * A list's answer: `rows` reads the asked page, `total` counts every matching row (only when the
 * page does not tell), and each row becomes its record.
 */
async function listPage<T, R>(
  q: PageQuery,
  rows: (limit: number, offset: number) => Promise<T[]>,
  total: () => Promise<{ total: number }[]>,
  recordOf: (row: T) => R,
) {
  const page = await pageAndTotal(q, () => rows(q.size, (q.current - 1) * q.size), total);
  return ok({ ...page, records: page.records.map(recordOf) });
}

/** What the audit log keeps of an endpoint (and the list shows): never its URL's credentials nor a secret. */
const forAudit = (e: Pick<Endpoint, 'name' | 'urlShown' | 'kind' | 'events' | 'enabled' | 'remark'>) => ({
  name: e.name,
  url: e.urlShown,
  kind: e.kind,
  events: e.events,
  enabled: e.enabled,
  remark: e.remark,
});

const endpointRecordOf = (e: Endpoint) => ({
  id: e.id,
  ...forAudit(e),
  disabledReason: e.disabledReason,
  lastDeliveryAt: toIsoOrNull(e.lastDeliveryAt),
  failing: e.failingSince !== null,
  failingSince: toIsoOrNull(e.failingSince),
  previousSecretUntil:
    e.previousSecretUntil && e.previousSecretUntil > new Date() ? toIso(e.previousSecretUntil) : null,
  createdAt: toIso(e.createdAt),
});

/** Records a change to endpoint `resourceId`, in the change's transaction. */
const auditEndpoint = (
  request: FastifyRequest,
  tx: Executor,
  action: string,
  resourceId: number,
  change: Pick<AuditEntry, 'before' | 'after'>,
) => audit(request, { action, resource: 'webhook', resourceId, ...change }, tx);

/** A write route's schema: its body, and its answer's data. */
const writeSchema = <B extends z.ZodType, A extends z.ZodType>(summary: string, body: B, answer: A) => ({
  tags,
  summary,
  body,
  response: { 200: envelope(answer) },
});

/** The options of an action on one endpoint (edit permission): `{id}` in, `answer` out. */
const actionOptions = <A extends z.ZodType>(summary: string, answer: A) => ({
  config: edit,
  schema: writeSchema(summary, webhookIdBody, answer),
});

/** A robot's signing secret is for 钉钉 and 飞书 only (webhooks are signed with ours). */
function checkRobotSecret(kind: WebhookKind, secret: string | undefined) {
  if (secret && !robotSecretKinds.includes(kind))
    throw badRequest(`${fieldLabels.secret}：${webhookMessages.robotSecretNotUsed}`);
}

/** The URL, refused (400 naming the field) where it may not point: private or metadata addresses. */
async function checkUrl(app: FastifyInstance, url: string) {
  const check = await checkOutboundUrl(url, { allowPrivate: app.config.webhookAllowPrivate });
  if (!check.ok) throw badRequest(`${fieldLabels.url}：${check.reason}`);
}

/** The URL's columns: sealed, and as the list shows it. */
async function urlColumns(app: FastifyInstance, url: string) {
  await checkUrl(app, url);
  return { urlSealed: app.devices.box.seal(url), urlShown: hideUrlSecrets(url) };
}

/**
 * The URL columns of an edit. The list shows `urlShown` (credentials and tokens as ***) and a form
 * sends it back as it got it: then the stored URL stays, so the mask never replaces the real
 * credentials. A URL still holding *** but not the one shown cannot be told from the mask: refused.
 */
async function editedUrlColumns(app: FastifyInstance, url: string, before: Endpoint) {
  if (url !== before.urlShown) {
    if (url.includes(WEBHOOK_URL_HIDDEN))
      throw badRequest(`${fieldLabels.url}：${webhookMessages.urlMasked}`);
    return urlColumns(app, url);
  }
  let stored: string;
  try {
    stored = app.devices.box.open(before.urlSealed);
  } catch {
    throw badRequest(`${fieldLabels.url}：${webhookMessages.urlUnreadable}`);
  }
  // Still checked, as any save is: the address may resolve elsewhere since.
  await checkUrl(app, stored);
  return { urlSealed: before.urlSealed, urlShown: before.urlShown };
}

/** What an edit's `enabled` changes besides: on again is a fresh start; off by staff is no reason of ours. */
function enabledColumns(enabled: boolean, before: Endpoint) {
  if (!enabled) return { disabledReason: null };
  return before.enabled ? {} : { disabledReason: null, failingSince: null };
}

/** The filters of a time range on when deliveries were queued; a day as `atTo` includes the whole day. */
function queuedBetween(atFrom: string | undefined, atTo: string | undefined): SQL[] {
  const where: SQL[] = [];
  const from = atFrom === undefined ? undefined : parseTimeBound(atFrom, false);
  const to = atTo === undefined ? undefined : parseTimeBound(atTo, true);
  if (from && to && from > to) throw badRequest(`${fieldLabels.atTo}：${webhookMessages.rangeReversed}`);
  if (from) where.push(gte(webhookDeliveries.createdAt, from));
  if (atTo && to)
    where.push(isDayText(atTo) ? lt(webhookDeliveries.createdAt, to) : lte(webhookDeliveries.createdAt, to));
  return where;
}

const deliveryRecordOf = ({
  delivery: d,
  endpointName,
  eventId,
}: {
  delivery: typeof webhookDeliveries.$inferSelect;
  endpointName: string;
  eventId: string;
}) => ({
  id: d.id,
  endpointId: d.endpointId,
  endpointName,
  eventId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  lastStatusCode: d.lastStatusCode,
  lastDurationMs: d.lastDurationMs,
  lastAttemptAt: toIsoOrNull(d.lastAttemptAt),
  nextAttemptAt: d.status === 'pending' ? toIso(d.nextAttemptAt) : null,
  lastError: d.lastError,
  answer: d.answer,
  createdAt: toIso(d.createdAt),
});

/** 新建, 编辑, the list and 删除. */
const endpointRoutes: FastifyPluginAsyncZod = async (app) => {
  const box = app.devices.box;

  app.post(
    webhookApi.save,
    {
      config: edit,
      schema: writeSchema(
        '新建推送地址: answers our signing secret, the only time it is shown',
        webhookSave,
        webhookSaved,
      ),
    },
    async (request) => {
      const body = request.body;
      const user = currentUser(request);
      const url = await urlColumns(app, body.url);
      const secret = body.kind === 'webhook' ? newSigningSecret() : null;
      const saved = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(webhookEndpoints)
          .values({
            name: body.name,
            ...url,
            kind: body.kind,
            events: body.events,
            enabled: body.enabled,
            remark: body.remark || null,
            secretSealed: secret === null ? null : box.seal(secret),
            robotSecretSealed: body.secret ? box.seal(body.secret) : null,
            createdBy: user.id,
            updatedBy: user.id,
          })
          .returning();
        await auditEndpoint(request, tx, 'save', row.id, { after: forAudit(row) });
        return row;
      });
      return ok({ id: saved.id, secret });
    },
  );

  app.put(
    webhookApi.edit,
    {
      config: edit,
      schema: writeSchema('编辑推送地址', webhookEdit, z.null()),
    },
    async (request) => {
      const body = request.body;
      const user = currentUser(request);
      const before = await endpointOf(app.db, body.id);
      checkRobotSecret(before.kind, body.secret);
      const url = await editedUrlColumns(app, body.url, before);
      const enabledAgain = body.enabled && !before.enabled;
      await app.db.transaction(async (tx) => {
        const [after] = await tx
          .update(webhookEndpoints)
          .set({
            name: body.name,
            ...url,
            events: body.events,
            enabled: body.enabled,
            remark: body.remark || null,
            ...(body.secret ? { robotSecretSealed: box.seal(body.secret) } : {}),
            ...enabledColumns(body.enabled, before),
            updatedBy: user.id,
            updatedAt: sql`now()`,
          })
          .where(eq(webhookEndpoints.id, body.id))
          .returning();
        if (!after) throw notFound(webhookMessages.notFound);
        if (enabledAgain) {
          // Its queue is sent now.
          await tx
            .update(webhookDeliveries)
            .set({ nextAttemptAt: sql`now()` })
            .where(and(eq(webhookDeliveries.endpointId, body.id), eq(webhookDeliveries.status, 'pending')));
          await closeDisabledAlert(tx, body.id);
          await tx.execute(notifyWorkers);
        }
        await auditEndpoint(request, tx, 'edit', body.id, {
          before: forAudit(before),
          after: forAudit(after),
        });
      });
      return ok(null);
    },
  );

  app.get(
    webhookApi.page,
    { config: view, schema: pageSchema('推送地址列表', webhookPageQuery, webhookRecord) },
    async (request) => {
      const q = request.query;
      const where = and(
        q.name ? ilike(webhookEndpoints.name, `%${escapeLike(q.name)}%`) : undefined,
        q.kind ? eq(webhookEndpoints.kind, q.kind) : undefined,
        q.enabled === undefined ? undefined : eq(webhookEndpoints.enabled, q.enabled),
      );
      return listPage(
        q,
        (limit, offset) =>
          app.db
            .select()
            .from(webhookEndpoints)
            .where(where)
            .orderBy(desc(webhookEndpoints.id))
            .limit(limit)
            .offset(offset),
        () => app.db.select({ total: count() }).from(webhookEndpoints).where(where),
        endpointRecordOf,
      );
    },
  );

  app.delete(
    `${webhookApi.remove}/:id`,
    {
      config: remove,
      schema: {
        tags,
        summary: '删除推送地址 and its delivery log',
        params: webhookIdParams,
        response: { 200: envelope(z.object({ removed: z.number().int() })) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await app.db.transaction(async (tx) => {
        const [row] = await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning();
        if (!row) throw notFound(webhookMessages.notFound);
        await closeDisabledAlert(tx, id);
        await auditEndpoint(request, tx, 'remove', id, { before: forAudit(row) });
      });
      return ok({ removed: 1 });
    },
  );
};

/** 更换签名密钥 and 发送测试. */
const endpointActionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    webhookApi.rotateSecret,
    actionOptions('更换签名密钥: the old one keeps signing beside the new one for 24 h', webhookRotated),
    async (request) => {
      const { id } = request.body;
      const before = await endpointOf(app.db, id);
      if (before.kind !== 'webhook' || before.secretSealed === null)
        throw badRequest(webhookMessages.robotNoSecret);
      const secret = newSigningSecret();
      const until = new Date(Date.now() + WEBHOOK_SECRET_OVERLAP_MS);
      await app.db.transaction(async (tx) => {
        const [row] = await tx
          .update(webhookEndpoints)
          .set({
            secretSealed: app.devices.box.seal(secret),
            previousSecretSealed: sql`${webhookEndpoints.secretSealed}`,
            previousSecretUntil: until,
            updatedBy: currentUser(request).id,
            updatedAt: sql`now()`,
          })
          .where(eq(webhookEndpoints.id, id))
          .returning({ id: webhookEndpoints.id });
        if (!row) throw notFound(webhookMessages.notFound);
        await auditEndpoint(request, tx, 'rotate-secret', id, { after: { previousSecretUntil: until } });
      });
      return ok({ secret });
    },
  );

  app.post(
    webhookApi.test,
    actionOptions('发送测试: a webhook.test event to this endpoint only', webhookTested),
    async (request) => {
      const { id } = request.body;
      const endpoint = await endpointOf(app.db, id);
      if (!endpoint.enabled) throw conflict(webhookMessages.testDisabled);
      const user = currentUser(request);
      const eventId = await app.db.transaction(async (tx) => {
        const event = await recordEventRow(tx, 'webhook.test', {
          endpointId: id,
          endpointName: endpoint.name,
          message: webhookMessages.testMessage,
          sentBy: user.username,
        });
        // Queued here for this endpoint alone: no endpoint subscribes to tests, so the fan-out adds none.
        await tx
          .insert(webhookDeliveries)
          .values({ endpointId: id, eventRowId: event.id, eventType: 'webhook.test' });
        await auditEndpoint(request, tx, 'test', id, { after: { eventId: event.eventId } });
        return event.eventId;
      });
      return ok({ eventId });
    },
  );
};

/** 推送记录 and 重新发送. */
const deliveryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    webhookApi.deliveryPage,
    {
      config: view,
      schema: pageSchema(
        '推送记录: deliveries, newest first',
        webhookDeliveryPageQuery,
        webhookDeliveryRecord,
      ),
    },
    async (request) => {
      const q = request.query;
      const where = and(
        q.endpointId ? eq(webhookDeliveries.endpointId, q.endpointId) : undefined,
        q.eventType ? eq(webhookDeliveries.eventType, q.eventType) : undefined,
        q.status ? eq(webhookDeliveries.status, q.status) : undefined,
        ...queuedBetween(q.atFrom, q.atTo),
      );
      return listPage(
        q,
        (limit, offset) =>
          app.db
            .select({
              delivery: webhookDeliveries,
              endpointName: webhookEndpoints.name,
              eventId: webhookEvents.eventId,
            })
            .from(webhookDeliveries)
            .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
            .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventRowId))
            .where(where)
            .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
            .limit(limit)
            .offset(offset),
        () => app.db.select({ total: count() }).from(webhookDeliveries).where(where),
        deliveryRecordOf,
      );
    },
  );

  app.post(
    webhookApi.deliveryResend,
    {
      config: edit,
      schema: writeSchema(
        '重新发送: chosen deliveries, or every failed one of an endpoint in a time range',
        webhookResend,
        webhookResent,
      ),
    },
    async (request) => {
      const body = request.body;
      const target = body.ids
        ? inArray(webhookDeliveries.id, body.ids)
        : and(
            eq(webhookDeliveries.endpointId, body.endpointId!),
            eq(webhookDeliveries.status, 'failed'),
            ...queuedBetween(body.atFrom, body.atTo),
          );
      if (!body.ids) await endpointOf(app.db, body.endpointId!);
      const queued = await app.db.transaction(async (tx) => {
        // One being attempted right now is left to that attempt: claiming it again would send it twice.
        const rows = await tx
          .update(webhookDeliveries)
          .set({ status: 'pending', nextAttemptAt: sql`now()` })
          .where(
            and(
              target,
              or(isNull(webhookDeliveries.claimedUntil), lt(webhookDeliveries.claimedUntil, sql`now()`)),
            ),
          )
          .returning({ id: webhookDeliveries.id });
        if (rows.length > 0) {
          await audit(
            request,
            {
              action: 'resend',
              resource: 'webhook-delivery',
              after: body.ids ? { ids: rows.map((r) => r.id) } : { ...body, queued: rows.length },
            },
            tx,
          );
          await tx.execute(notifyWorkers);
        }
        return rows.length;
      });
      return ok({ queued });
    },
  );
};

/** The module: its worker, started and stopped with the app, and its routes. */
const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const worker = createWebhookWorker({
    db: app.db,
    box: app.devices.box,
    log: app.log,
    allowPrivate: app.config.webhookAllowPrivate,
    consoleUrl: app.config.publicUrl,
    metrics: app.metrics.webhook,
  });
  app.addHook('onReady', () => worker.start());
  app.addHook('onClose', () => worker.stop());
  await app.register(endpointRoutes);
  await app.register(endpointActionRoutes);
  await app.register(deliveryRoutes);
};

export default webhookRoutes;
