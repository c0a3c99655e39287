/**
 * The writes of an invoice request: save (a request for a member's paid orders, claiming them),
 * issue (the invoice number and its PDF) and reject (驳回 a pending request, 作废 an issued one),
 * each in one transaction with its audit entry.
 */
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { fieldInvalid, maskPhone, UPLOAD_FILE_BASE } from '@cowork/contract';
import {
  alreadyInvoicedMessage,
  invoiceableOrderStatuses,
  invoiceAmountTooHighMessage,
  invoiceIssueBody,
  invoiceOperationPermission,
  invoiceRejectBody,
  invoiceStates,
  notInvoiceableMessage,
  type InvoiceMove,
  type InvoiceResource,
  type InvoiceSaveValues,
} from '@cowork/contract/resources/invoice';
import type { Executor } from '../../db/client.ts';
import { invoices, orders, uploadedFiles } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, conflict, forbidden } from '../../lib/http.ts';
import { recordEvent } from '../../lib/outbox.ts';
import { moveRecord } from '../../lib/state.ts';
import { toIso } from '../../lib/time.ts';
import { currentUser, hasPermission } from '../../plugins/auth.ts';
import { invoiceRecords, kindLabel, type Invoice } from './records.ts';

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

/** What invoice.issued and invoice.rejected tell of a request (the member's phone masked, no email). */
const invoiceData = (row: Invoice) => ({
  invoiceId: row.id,
  kind: row.kind,
  orderType: row.orderType,
  orderNos: row.orderNos,
  phone: row.memberPhone === null ? null : maskPhone(row.memberPhone),
  titleType: row.titleType,
  title: row.title,
  taxNo: row.taxNo,
  invoiceType: row.invoiceType,
  amountFen: row.amountFen,
});

export function invoiceWrites(resource: InvoiceResource) {
  const { ofKind, load, detailOf } = invoiceRecords(resource);
  const orderKinds = [...resource.orderKinds];

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
      await recordEvent(tx, 'invoice.issued', {
        ...invoiceData(moved),
        invoiceNo: body.invoiceNo,
        fileUrl: moved.fileUrl,
        issuedAt: toIso(moved.issuedAt ?? new Date()),
      });
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
      // 作废 (an issued invoice voided) has no event of its own in the catalogue.
      if (moved.status === 'rejected')
        await recordEvent(tx, 'invoice.rejected', {
          ...invoiceData(moved),
          rejectReason: body.reason,
          rejectedAt: toIso(moved.rejectedAt ?? new Date()),
        });
      return detailOf(tx, moved);
    });
  }

  return { save, issue, reject };
}
