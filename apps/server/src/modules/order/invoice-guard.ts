/**
 * Refunds and invoices: an order covered by a pending or issued invoice request must not be
 * refunded (the money would go back while the invoice stands). orders.invoice_id is set exactly
 * while such a request covers the order (rejecting clears it).
 */
import { eq } from 'drizzle-orm';
import { invoicedRefundMessage } from '@cowork/contract/resources/invoice';
import type { Executor } from '../../db/client.ts';
import { invoices, orders } from '../../db/schema.ts';
import { conflict } from '../../lib/http.ts';

/**
 * Throws the 409 when the order has an invoice. Call it in the refund's transaction before the
 * move: the row lock makes a concurrent invoice request for the order either commit first (and be
 * seen here) or wait for the refund and then find the order no longer paid.
 */
export async function assertNotInvoiced(tx: Executor, orderId: number): Promise<void> {
  const [order] = await tx
    .select({ orderNo: orders.orderNo, invoiceId: orders.invoiceId })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for('update');
  if (!order?.invoiceId) return;
  const [invoice] = await tx
    .select({ id: invoices.id, status: invoices.status })
    .from(invoices)
    .where(eq(invoices.id, order.invoiceId));
  if (invoice) throw conflict(invoicedRefundMessage(order.orderNo, invoice.id, invoice.status));
}
