/**
 * 开放平台 → 推送地址: webhooks and group robots (save, edit, page, remove, rotate the signing
 * secret, send a test), and the delivery log with 重新发送. URLs and secrets are kept sealed
 * (lib/secret-box.ts); our signing secret is answered once, at save and at rotation. The worker
 * (worker.ts) runs while the app is up and makes the deliveries.
 */
import { and, count, desc, eq, gte, ilike, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isDayText } from '@cowork/contract';
import {
  robotSecretKinds,
  WEBHOOK_EDIT_PERMISSION,
  WEBHOOK_REMOVE_PERMISSION,
  WEBHOOK_SECRET_OVERLAP_MS,
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
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
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

type Endpoint = typeof webhookEndpoints.$inferSelect;

/** What the audit log keeps of an endpoint: never its URL's credentials nor a secret. */
const forAudit = (e: Pick<Endpoint, 'name' | 'urlShown' | 'kind' | 'events' | 'enabled' | 'remark'>) => ({
  name: e.name,
  url: e.urlShown,
  kind: e.kind,
  events: e.events,
  enabled: e.enabled,
  remark: e.remark,
});

const recordOf = (e: Endpoint) => ({
  id: e.id,
  name: e.name,
  url: e.urlShown,
  kind: e.kind,
  events: e.events,
  enabled: e.enabled,
  remark: e.remark,
  disabledReason: e.disabledReason,
  lastDeliveryAt: toIsoOrNull(e.lastDeliveryAt),
  failing: e.failingSince !== null,
  failingSince: toIsoOrNull(e.failingSince),
  previousSecretUntil:
    e.previousSecretUntil && e.previousSecretUntil > new Date() ? toIso(e.previousSecretUntil) : null,
  createdAt: toIso(e.createdAt),
});

/** A robot's signing secret is for 钉钉 and 飞书 only (webhooks are signed with ours). */
function checkRobotSecret(kind: WebhookKind, secret: string | undefined) {
  if (secret && !robotSecretKinds.includes(kind))
    throw badRequest(`${fieldLabels.secret}：${webhookMessages.robotSecretNotUsed}`);
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

/** Wakes every instance's worker once the transaction commits (this one's at once as well). */
const notifyWorkers = sql`select pg_notify(${WEBHOOK_EVENTS_CHANNEL}, '')`;

const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const box = app.devices.box;
  const worker = createWebhookWorker({
    db: app.db,
    box,
    log: app.log,
    allowPrivate: app.config.webhookAllowPrivate,
    consoleUrl: app.config.publicUrl,
  });
  app.addHook('onReady', () => worker.start());
  app.addHook('onClose', () => worker.stop());

  /** The URL, refused (400 naming the field) where it may not point: private or metadata addresses. */
  async function checkedUrl(url: string) {
    const check = await checkOutboundUrl(url, { allowPrivate: app.config.webhookAllowPrivate });
    if (!check.ok) throw badRequest(`${fieldLabels.url}：${check.reason}`);
    return { urlSealed: box.seal(url), urlShown: hideUrlSecrets(url) };
  }

  async function endpointOf(id: number) {
    const [row] = await app.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    if (!row) throw notFound(webhookMessages.notFound);
    return row;
  }

  app.post(
    webhookApi.save,
    {
      config: edit,
      schema: {
        tags,
        summary: '新建推送地址: answers our signing secret, the only time it is shown',
        body: webhookSave,
        response: { 200: envelope(webhookSaved) },
      },
    },
    async (request) => {
      const body = request.body;
      const user = currentUser(request);
      const url = await checkedUrl(body.url);
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
        await audit(
          request,
          { action: 'save', resource: 'webhook', resourceId: row.id, after: forAudit(row) },
          tx,
        );
        return row;
      });
      return ok({ id: saved.id, secret });
    },
  );

  app.put(
    webhookApi.edit,
    {
      config: edit,
      schema: { tags, summary: '编辑推送地址', body: webhookEdit, response: { 200: envelope(z.null()) } },
    },
    async (request) => {
      const body = request.body;
      const user = currentUser(request);
      const before = await endpointOf(body.id);
      checkRobotSecret(before.kind, body.secret);
      const url = await checkedUrl(body.url);
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
            // On again: a fresh start, its queue sent now. Off by staff: no reason of the console's.
            ...(body.enabled
              ? enabledAgain
                ? { disabledReason: null, failingSince: null }
                : {}
              : { disabledReason: null }),
            updatedBy: user.id,
            updatedAt: sql`now()`,
          })
          .where(eq(webhookEndpoints.id, body.id))
          .returning();
        if (!after) throw notFound(webhookMessages.notFound);
        if (enabledAgain) {
          await tx
            .update(webhookDeliveries)
            .set({ nextAttemptAt: sql`now()` })
            .where(and(eq(webhookDeliveries.endpointId, body.id), eq(webhookDeliveries.status, 'pending')));
          await closeDisabledAlert(tx, body.id);
          await tx.execute(notifyWorkers);
        }
        await audit(
          request,
          {
            action: 'edit',
            resource: 'webhook',
            resourceId: body.id,
            before: forAudit(before),
            after: forAudit(after),
          },
          tx,
        );
      });
      return ok(null);
    },
  );

  app.get(
    webhookApi.page,
    {
      config: view,
      schema: {
        tags,
        summary: '推送地址列表',
        querystring: webhookPageQuery,
        response: { 200: envelope(pageOf(webhookRecord)) },
      },
    },
    async (request) => {
      const q = request.query;
      const where = and(
        q.name ? ilike(webhookEndpoints.name, `%${escapeLike(q.name)}%`) : undefined,
        q.kind ? eq(webhookEndpoints.kind, q.kind) : undefined,
        q.enabled === undefined ? undefined : eq(webhookEndpoints.enabled, q.enabled),
      );
      const page = await pageAndTotal(
        q,
        () =>
          app.db
            .select()
            .from(webhookEndpoints)
            .where(where)
            .orderBy(desc(webhookEndpoints.id))
            .limit(q.size)
            .offset((q.current - 1) * q.size),
        () => app.db.select({ total: count() }).from(webhookEndpoints).where(where),
      );
      return ok({ ...page, records: page.records.map(recordOf) });
    },
  );

  app.delete(
    `${webhookApi.remove}/:id`,
    {
      config: { permission: WEBHOOK_REMOVE_PERMISSION, fieldLabels },
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
        await audit(
          request,
          { action: 'remove', resource: 'webhook', resourceId: id, before: forAudit(row) },
          tx,
        );
      });
      return ok({ removed: 1 });
    },
  );

  app.post(
    webhookApi.rotateSecret,
    {
      config: edit,
      schema: {
        tags,
        summary: '更换签名密钥: the old one keeps signing beside the new one for 24 h',
        body: webhookIdBody,
        response: { 200: envelope(webhookRotated) },
      },
    },
    async (request) => {
      const { id } = request.body;
      const before = await endpointOf(id);
      if (before.kind !== 'webhook' || before.secretSealed === null)
        throw badRequest(webhookMessages.robotNoSecret);
      const secret = newSigningSecret();
      const until = new Date(Date.now() + WEBHOOK_SECRET_OVERLAP_MS);
      await app.db.transaction(async (tx) => {
        const [row] = await tx
          .update(webhookEndpoints)
          .set({
            secretSealed: box.seal(secret),
            previousSecretSealed: sql`${webhookEndpoints.secretSealed}`,
            previousSecretUntil: until,
            updatedBy: currentUser(request).id,
            updatedAt: sql`now()`,
          })
          .where(eq(webhookEndpoints.id, id))
          .returning({ id: webhookEndpoints.id });
        if (!row) throw notFound(webhookMessages.notFound);
        await audit(
          request,
          {
            action: 'rotate-secret',
            resource: 'webhook',
            resourceId: id,
            after: { previousSecretUntil: until },
          },
          tx,
        );
      });
      return ok({ secret });
    },
  );

  app.post(
    webhookApi.test,
    {
      config: edit,
      schema: {
        tags,
        summary: '发送测试: a webhook.test event to this endpoint only',
        body: webhookIdBody,
        response: { 200: envelope(webhookTested) },
      },
    },
    async (request) => {
      const { id } = request.body;
      const endpoint = await endpointOf(id);
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
        await audit(
          request,
          { action: 'test', resource: 'webhook', resourceId: id, after: { eventId: event.eventId } },
          tx,
        );
        return event.eventId;
      });
      return ok({ eventId });
    },
  );

  app.get(
    webhookApi.deliveryPage,
    {
      config: view,
      schema: {
        tags,
        summary: '推送记录: deliveries, newest first',
        querystring: webhookDeliveryPageQuery,
        response: { 200: envelope(pageOf(webhookDeliveryRecord)) },
      },
    },
    async (request) => {
      const q = request.query;
      const where = and(
        q.endpointId ? eq(webhookDeliveries.endpointId, q.endpointId) : undefined,
        q.eventType ? eq(webhookDeliveries.eventType, q.eventType) : undefined,
        q.status ? eq(webhookDeliveries.status, q.status) : undefined,
        ...queuedBetween(q.atFrom, q.atTo),
      );
      const page = await pageAndTotal(
        q,
        () =>
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
            .limit(q.size)
            .offset((q.current - 1) * q.size),
        () => app.db.select({ total: count() }).from(webhookDeliveries).where(where),
      );
      return ok({
        ...page,
        records: page.records.map(({ delivery: d, endpointName, eventId }) => ({
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
        })),
      });
    },
  );

  app.post(
    webhookApi.deliveryResend,
    {
      config: edit,
      schema: {
        tags,
        summary: '重新发送: chosen deliveries, or every failed one of an endpoint in a time range',
        body: webhookResend,
        response: { 200: envelope(webhookResent) },
      },
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
      if (!body.ids) await endpointOf(body.endpointId!);
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

export default webhookRoutes;
