/**
 * Invoices: one function serves an invoice resource (经营发票 and 机场贵宾厅发票): page through
 * crudModule, detail with the orders covered, save (a request for a member's paid orders), issue,
 * reject, check/order-ticket and the save drawer's order options.
 *
 * "An order is invoiced at most once" rests on orders.invoice_id: save claims the orders with one
 * guarded UPDATE and needs every row, so of two requests for one order only one can commit.
 */
import { startingWith } from '../../lib/like.ts';
import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  fieldInvalid,
  labelsOf,
  messages,
  phoneSchema,
  resourceMessages,
  resourcePermissions,
  UPLOAD_FILE_BASE,
  optionLabel,
} from '@cowork/contract';
import {
  alreadyInvoicedMessage,
  invoice,
  invoiceableOrderStatuses,
  invoiceAmountTooHighMessage,
  invoiceDetail,
  invoiceIssueBody,
  invoiceOperationPermission,
  invoiceOrder,
  invoicePaths,
  invoiceStates,
  type InvoiceMove,
  invoiceRejectBody,
  invoiceSaveBody,
  notInvoiceableMessage,
  orderTicketCheck,
  tripartiteInvoice,
  type InvoiceDetail,
  type InvoiceOrder,
  type InvoiceResource,
  type InvoiceSaveValues,
} from '@cowork/contract/resources/invoice';
import { orderKindOptions } from '@cowork/contract/resources/order';
import type { Executor } from '../../db/client.ts';
import { invoices, orders, uploadedFiles } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { moveRecord } from '../../lib/state.ts';
import { crudModule, exportRoute } from '../../lib/crud.ts';
import { fieldColumns } from '../../lib/excel-export.ts';
import { badRequest, conflict, envelope, forbidden, notFound, ok, queryText } from '../../lib/http.ts';
import { currentUser, hasPermission } from '../../plugins/auth.ts';
import { toIsoOrNull, withIsoTimes } from '../../lib/time.ts';

type Invoice = typeof invoices.$inferSelect;
type Order = typeof orders.$inferSelect;

const kindLabel = (kind: string) => optionLabel(orderKindOptions, kind);

const orderView = (order: Order): InvoiceOrder => ({
  id: order.id,
  orderNo: order.orderNo,
  kind: order.kind,
  paidFen: order.paidFen,
  status: order.status,
  productName: order.productSnapshot.name ?? null,
  paidAt: toIsoOrNull(order.paidAt),
});

/** The storage key of an uploaded file's served address (relative or absolute), if it is one. */
function uploadKeyOf(url: string): string | undefined {
  let path = url;
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return undefined;
    }
  }
  return path.startsWith(`${UPLOAD_FILE_BASE}/`) ? path.slice(UPLOAD_FILE_BASE.length + 1) : undefined;
}

export function invoiceModule(resource: InvoiceResource): FastifyPluginAsyncZod {
  const paths = invoicePaths(resource);
  const permissions = resourcePermissions(resource);
  const fieldLabels = { ...labelsOf(resource), reason: '驳回原因', fileUrl: '发票文件' };
  const tags = [resource.key];
  const ofKind = eq(invoices.kind, resource.kind);
  const orderKinds = [...resource.orderKinds];
  const missing = () => notFound(resourceMessages.notFound(resource));
  const saveBody = invoiceSaveBody(resource);

  /** This kind's requests, after the date-range rule (both ends or neither) and the order filter. */
  function where(request: FastifyRequest) {
    const createdAtFrom = queryText(request, 'createdAtFrom');
    const createdAtTo = queryText(request, 'createdAtTo');
    const orderNo = queryText(request, 'orderNo');
    if (!createdAtFrom !== !createdAtTo) {
      throw badRequest(fieldInvalid(resource.fields.createdAt.label, messages.dateRangeRequired));
    }
    const no = orderNo?.trim();
    // Requests covering an order whose number starts with what was typed: the orders' prefix index
    // finds the numbers, and a request lists at most 50 of them.
    const covering = sql`${invoices.orderNos} ?| array(select ${orders.orderNo} from ${orders} where ${startingWith(orders.orderNo, no ?? '')})`;
    return and(ofKind, no ? covering : undefined);
  }

  const page = crudModule({ resource, table: invoices, where });
  const exportColumns = fieldColumns(resource);

  async function load(db: Executor, id: number): Promise<Invoice> {
    const [row] = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, id), ofKind));
    if (!row) throw missing();
    return row;
  }

  /** The request with the orders it names (by number: a rejected one no longer holds them). */
  async function detailOf(db: Executor, row: Invoice): Promise<InvoiceDetail> {
    const covered = row.orderNos.length
      ? await db.select().from(orders).where(inArray(orders.orderNo, row.orderNos)).orderBy(asc(orders.id))
      : [];
    const detail: InvoiceDetail = { ...withIsoTimes(row), orders: covered.map(orderView) };
    return detail;
  }

  async function save(request: FastifyRequest, body: InvoiceSaveValues) {
    const orderNos = [...new Set(body.orderNos)];
    return request.server.db.transaction(async (tx) => {
      const found = await tx.select().from(orders).where(inArray(orders.orderNo, orderNos));
      const byNo = new Map(found.map((o) => [o.orderNo, o]));
      const absent = orderNos.find((no) => !byNo.has(no));
      if (absent) throw badRequest(fieldInvalid('订单号', `订单 ${absent} 不存在，请核对订单号后重试`));
      const chosen = orderNos.map((no) => byNo.get(no)!);
      for (const order of chosen) {
        if (!orderKinds.includes(order.kind)) {
          throw badRequest(
            fieldInvalid(
              '订单号',
              `订单 ${order.orderNo} 是${kindLabel(order.kind)}订单，不能开具${resource.label}，请到对应的发票页面申请`,
            ),
          );
        }
        if (!invoiceableOrderStatuses.some((status) => status === order.status)) {
          throw badRequest(fieldInvalid('订单号', notInvoiceableMessage(order.orderNo, order.status)));
        }
        if (order.invoiceId !== null) throw conflict(alreadyInvoicedMessage(order.orderNo, order.invoiceId));
      }
      if (new Set(chosen.map((o) => o.kind)).size > 1) {
        throw badRequest(fieldInvalid('订单号', '一张发票只能包含同一类订单，请按订单类型分开申请'));
      }
      if (new Set(chosen.map((o) => o.memberId)).size > 1) {
        throw badRequest(fieldInvalid('订单号', '一张发票只能包含同一会员的订单，请按会员分开申请'));
      }
      const maxFen = chosen.reduce((sum, o) => sum + o.paidFen, 0);
      if (body.amountFen > maxFen) throw badRequest(invoiceAmountTooHighMessage(maxFen));

      const by = request.user?.id ?? null;
      const [created] = await tx
        .insert(invoices)
        .values({
          kind: resource.kind,
          orderType: chosen[0].kind,
          orderNos,
          memberPhone: chosen[0].memberPhone,
          titleType: body.titleType,
          title: body.title,
          taxNo: body.taxNo || null,
          invoiceType: body.invoiceType,
          amountFen: body.amountFen,
          email: body.email || null,
          remark: body.remark || null,
          createdBy: by,
          updatedBy: by,
        })
        .returning();
      // The claim: a concurrent request (or refund) that got to an order first leaves it out here.
      const claimed = await tx
        .update(orders)
        .set({ invoiceId: created.id })
        .where(
          and(
            inArray(
              orders.id,
              chosen.map((o) => o.id),
            ),
            isNull(orders.invoiceId),
            inArray(orders.status, [...invoiceableOrderStatuses]),
          ),
        )
        .returning({ id: orders.id });
      if (claimed.length !== chosen.length) {
        const lost = chosen.find((o) => !claimed.some((c) => c.id === o.id))!;
        const [now] = await tx.select().from(orders).where(eq(orders.id, lost.id));
        throw conflict(
          now && now.invoiceId === null
            ? notInvoiceableMessage(lost.orderNo, now.status)
            : alreadyInvoicedMessage(lost.orderNo, now?.invoiceId),
        );
      }
      await audit(
        request,
        { action: 'save', resource: resource.key, resourceId: created.id, after: created },
        tx,
      );
      return detailOf(tx, created);
    });
  }

  /**
   * Moves a request (lib/state.ts), writing `set` besides the status; `then` runs in the same
   * transaction once the request has moved, before the audit entry that records what it answers.
   */
  function move(
    request: FastifyRequest,
    tx: Executor,
    id: number,
    chosen: InvoiceMove,
    set: Partial<typeof invoices.$inferInsert>,
    then: (moved: Invoice) => Promise<object> = async () => ({}),
  ) {
    let recorded: object = {};
    return moveRecord(request, tx, {
      resource: resource.key,
      states: invoiceStates,
      move: chosen,
      status: invoices.status,
      update: async (leaving) => {
        const [moved] = await tx
          .update(invoices)
          .set({
            ...set,
            status: invoiceStates.moves[chosen].to,
            updatedAt: new Date(),
            updatedBy: request.user?.id ?? null,
          })
          .where(and(eq(invoices.id, id), ofKind, leaving))
          .returning();
        if (moved) recorded = await then(moved);
        return moved;
      },
      current: () => load(tx, id),
      audited: () => recorded,
    });
  }

  async function issue(request: FastifyRequest, body: z.output<typeof invoiceIssueBody>) {
    return request.server.db.transaction(async (tx) => {
      const [clash] = await tx
        .select({ id: invoices.id })
        .from(invoices)
        .where(and(sql`lower(${invoices.invoiceNo}) = lower(${body.invoiceNo})`, ne(invoices.id, body.id)))
        .limit(1);
      if (clash) {
        throw conflict(`发票号码 ${body.invoiceNo} 已被发票申请 #${clash.id} 使用，请核对发票号码后重试`);
      }
      const key = uploadKeyOf(body.fileUrl);
      const [file] = key
        ? await tx
            .select({ contentType: uploadedFiles.contentType })
            .from(uploadedFiles)
            .where(eq(uploadedFiles.key, key))
        : [];
      if (!file || file.contentType !== 'application/pdf') {
        throw badRequest(fieldInvalid('发票文件', '请通过上传按钮上传 PDF 格式的发票文件后重试'));
      }
      const moved = await move(
        request,
        tx,
        body.id,
        'issue',
        { invoiceNo: body.invoiceNo, fileUrl: body.fileUrl, issuedAt: new Date() },
        async (issued) => ({ invoiceNo: issued.invoiceNo, fileUrl: issued.fileUrl }),
      );
      return detailOf(tx, moved);
    });
  }

  async function reject(request: FastifyRequest, body: z.output<typeof invoiceRejectBody>) {
    return request.server.db.transaction(async (tx) => {
      // Rejecting an issued invoice voids it (作废); a pending request is rejected (驳回).
      const { status } = await load(tx, body.id);
      const operation = status === 'issued' ? 'void' : 'issue';
      if (!hasPermission(currentUser(request), invoiceOperationPermission(resource, operation)))
        throw forbidden();
      const moved = await move(
        request,
        tx,
        body.id,
        status === 'issued' ? 'void' : 'reject',
        { rejectReason: body.reason, rejectedAt: new Date() },
        async (rejected) => {
          // The orders are free to be invoiced (or refunded) again.
          const freed = await tx
            .update(orders)
            .set({ invoiceId: null })
            .where(eq(orders.invoiceId, rejected.id))
            .returning({ orderNo: orders.orderNo });
          return { reason: body.reason, freedOrders: freed.map((o) => o.orderNo) };
        },
      );
      return detailOf(tx, moved);
    });
  }

  return async (app: FastifyInstance) => {
    await app.register(page);
    const r = app.withTypeProvider<ZodTypeProvider>();
    const answer = { 200: envelope(invoiceDetail) };
    const orderNoQuery = z.object({
      orderNo: z
        .string({ error: '请填写订单号' })
        .trim()
        .min(1, '请填写订单号')
        .max(32, '订单号最多 32 个字符'),
    });

    exportRoute(app, {
      resource,
      path: paths.export,
      table: invoices,
      columns: exportColumns,
      config: { permission: permissions.view, fieldLabels },
      where,
    });

    r.get(
      `${paths.detail}/:id`,
      {
        config: { permission: permissions.view, fieldLabels },
        schema: {
          tags,
          summary: `${resource.label}详情（含所开订单）`,
          params: z.object({ id: invoiceRejectBody.shape.id }),
          response: answer,
        },
      },
      async (request) => ok(await detailOf(app.db, await load(app.db, request.params.id))),
    );

    r.post(
      paths.save,
      {
        config: { permission: permissions.edit, fieldLabels },
        schema: { tags, summary: `登记${resource.label}开票申请`, body: saveBody, response: answer },
      },
      async (request) => ok(await save(request, request.body)),
    );

    r.put(
      paths.issue,
      {
        config: { permission: invoiceOperationPermission(resource, 'issue'), fieldLabels },
        schema: {
          tags,
          summary: `开票（${resource.label}：发票号码与 PDF 文件）`,
          body: invoiceIssueBody,
          response: answer,
        },
      },
      async (request) => ok(await issue(request, request.body)),
    );

    r.put(
      paths.reject,
      {
        // Either code opens the route; the invoice's state decides which one this call needs.
        config: {
          permission: [
            invoiceOperationPermission(resource, 'issue'),
            invoiceOperationPermission(resource, 'void'),
          ],
          fieldLabels,
        },
        schema: {
          tags,
          summary: `驳回待开票的${resource.label}申请，或作废已开的发票（订单可退款或重新开票）`,
          body: invoiceRejectBody,
          response: answer,
        },
      },
      async (request) => ok(await reject(request, request.body)),
    );

    r.get(
      paths.checkOrder,
      {
        config: { permission: permissions.view, fieldLabels },
        schema: {
          tags,
          summary: `查询订单是否已开${resource.label}`,
          querystring: orderNoQuery,
          response: { 200: envelope(orderTicketCheck) },
        },
      },
      async (request) => {
        const { orderNo } = request.query;
        const [order] = await app.db
          .select({ orderNo: orders.orderNo, invoiceId: orders.invoiceId })
          .from(orders)
          .where(and(eq(orders.orderNo, orderNo), inArray(orders.kind, orderKinds)));
        if (!order) throw notFound(`订单 ${orderNo} 不存在或不能开具${resource.label}，请核对订单号`);
        const [held] = order.invoiceId
          ? await app.db.select().from(invoices).where(eq(invoices.id, order.invoiceId))
          : [];
        return ok({
          orderNo: order.orderNo,
          invoiced: Boolean(held),
          invoice: held
            ? {
                id: held.id,
                status: held.status,
                invoiceNo: held.invoiceNo,
                title: held.title,
                amountFen: held.amountFen,
              }
            : null,
        });
      },
    );

    r.get(
      paths.invoiceableOrders,
      {
        config: { permission: permissions.edit, fieldLabels: { memberPhone: '会员手机号' } },
        schema: {
          tags,
          summary: `会员可开${resource.label}的订单（已支付或已使用、未开票）`,
          querystring: z.object({
            memberPhone: z.string({ error: messages.phoneRequired }).trim().pipe(phoneSchema),
          }),
          response: { 200: envelope(z.array(invoiceOrder)) },
        },
      },
      async (request) => {
        const rows = await app.db
          .select()
          .from(orders)
          .where(
            and(
              eq(orders.memberPhone, request.query.memberPhone),
              inArray(orders.kind, orderKinds),
              inArray(orders.status, [...invoiceableOrderStatuses]),
              isNull(orders.invoiceId),
            ),
          )
          .orderBy(desc(orders.paidAt), desc(orders.id))
          .limit(200);
        return ok(rows.map(orderView));
      },
    );
  };
}

const invoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(invoiceModule(invoice));
  await app.register(invoiceModule(tripartiteInvoice));
};

export default invoiceRoutes;
