/**
 * An invoice request as the routes read it: one of this resource's kind by id (404 otherwise), and
 * its detail with the orders it names.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { optionLabel, resourceMessages } from '@cowork/contract';
import type { InvoiceDetail, InvoiceOrder, InvoiceResource } from '@cowork/contract/resources/invoice';
import { orderKindOptions } from '@cowork/contract/resources/order';
import type { Executor } from '../../db/client.ts';
import { invoices, orders } from '../../db/schema.ts';
import { notFound } from '../../lib/http.ts';
import { toIsoOrNull, withIsoTimes } from '../../lib/time.ts';

export type Invoice = typeof invoices.$inferSelect;
type Order = typeof orders.$inferSelect;

export const kindLabel = (kind: string) => optionLabel(orderKindOptions, kind);

export const orderView = (order: Order): InvoiceOrder => ({
  id: order.id,
  orderNo: order.orderNo,
  kind: order.kind,
  paidFen: order.paidFen,
  status: order.status,
  productName: order.productSnapshot.name ?? null,
  paidAt: toIsoOrNull(order.paidAt),
});

export function invoiceRecords(resource: InvoiceResource) {
  const ofKind = eq(invoices.kind, resource.kind);

  async function load(db: Executor, id: number): Promise<Invoice> {
    const [row] = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, id), ofKind));
    if (!row) throw notFound(resourceMessages.notFound(resource));
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

  return { ofKind, load, detailOf };
}
