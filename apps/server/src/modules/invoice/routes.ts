/**
 * Invoices: one function serves an invoice resource (经营发票 and 机场贵宾厅发票): page through
 * crudModule, detail with the orders covered, save (a request for a member's paid orders), issue,
 * reject, check/order-ticket and the save drawer's order options. The writes are in writes.ts,
 * reading one request in records.ts.
 *
 * "An order is invoiced at most once" rests on orders.invoice_id: save claims the orders with one
 * guarded UPDATE and needs every row, so of two requests for one order only one can commit.
 */
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldInvalid, labelsOf, messages, phoneSchema, resourcePermissions } from '@cowork/contract';
import {
  invoice,
  invoiceableOrderStatuses,
  invoiceDetail,
  invoiceIssueBody,
  invoiceOperationPermission,
  invoiceOrder,
  invoicePaths,
  invoiceRejectBody,
  invoiceSaveBody,
  orderTicketCheck,
  tripartiteInvoice,
  type InvoiceResource,
} from '@cowork/contract/resources/invoice';
import { invoices, orders } from '../../db/schema.ts';
import { crudModule, exportRoute } from '../../lib/crud.ts';
import { fieldColumns } from '../../lib/excel-export.ts';
import { badRequest, envelope, notFound, ok, queryText } from '../../lib/http.ts';
import { startingWith } from '../../lib/like.ts';
import { invoiceRecords, orderView } from './records.ts';
import { invoiceWrites } from './writes.ts';

export function invoiceModule(resource: InvoiceResource): FastifyPluginAsyncZod {
  const paths = invoicePaths(resource);
  const permissions = resourcePermissions(resource);
  const fieldLabels = { ...labelsOf(resource), reason: '驳回原因', fileUrl: '发票文件' };
  const tags = [resource.key];
  const orderKinds = [...resource.orderKinds];
  const saveBody = invoiceSaveBody(resource);
  const { ofKind, load, detailOf } = invoiceRecords(resource);
  const { save, issue, reject } = invoiceWrites(resource);

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
