/**
 * Demo invoice requests: a few dozen 经营发票 over the demo's paid and used orders, and a few
 * 机场贵宾厅发票 over airport orders, in all three statuses. Consistent with the rule the API
 * keeps: a pending or issued request holds its orders (orders.invoice_id), a rejected or voided one does not.
 */
import { and, asc, gt, inArray, isNull } from 'drizzle-orm';
import { invoice, tripartiteInvoice, type InvoiceResource } from '@cowork/contract/resources/invoice';
import type { Executor } from '../../db/client.ts';
import { invoices, orders } from '../../db/schema.ts';

export const after = ['order'];

const DAY = 86_400_000;
const MINUTE = 60_000;
/** Served by the console (apps/web/public/demo). */
const SAMPLE_PDF = '/demo/invoice-sample.pdf';

const companies = [
  { title: '北京星河科技有限公司', taxNo: '91110105MA01ABCD1X' },
  { title: '上海云帆文化传媒有限公司', taxNo: '91310115MA1HXYZ23K' },
  { title: '深圳前海智联咨询有限公司', taxNo: '91440300MA5EQW8Y7P' },
  { title: '杭州青禾网络科技有限公司', taxNo: '91330106MA2CJK5L0R' },
];

/**
 * Requests over the oldest eligible orders, one or two orders of one kind and one member each,
 * cycling pending → issued → rejected; every fifth leaves the latest orders free to invoice.
 */
async function seedKind(tx: Executor, resource: InvoiceResource, wanted: number, serial: { next: number }) {
  const eligible = await tx
    .select()
    .from(orders)
    .where(
      and(
        inArray(orders.kind, [...resource.orderKinds]),
        inArray(orders.status, ['paid', 'used']),
        gt(orders.paidFen, 0),
        isNull(orders.invoiceId),
      ),
    )
    .orderBy(asc(orders.paidAt), asc(orders.id));
  // Leave the newer half for staff to invoice in the demo.
  const pool = eligible.slice(0, Math.floor(eligible.length / 2));
  const used = new Set<number>();
  const now = Date.now();
  let made = 0;
  for (const first of pool) {
    if (made >= wanted) break;
    if (used.has(first.id)) continue;
    const partner =
      made % 4 === 1
        ? pool.find(
            (o) =>
              !used.has(o.id) && o.id !== first.id && o.memberId === first.memberId && o.kind === first.kind,
          )
        : undefined;
    const covered = partner ? [first, partner] : [first];
    covered.forEach((o) => used.add(o.id));
    // Now and then an issued invoice was voided later (红字发票 issued, orders freed).
    const status = made % 7 === 5 ? 'voided' : (['pending', 'issued', 'rejected'] as const)[made % 3];
    const issued = status === 'issued' || status === 'voided';
    const company = made % 2 === 0 ? companies[made % companies.length] : undefined;
    const paidTotal = covered.reduce((sum, o) => sum + o.paidFen, 0);
    const createdAt = new Date(Math.min(now - MINUTE, (first.paidAt ?? first.createdAt).getTime() + DAY));
    const handledAt = new Date(Math.min(now - MINUTE, createdAt.getTime() + 2 * DAY));
    serial.next += 1;
    const [row] = await tx
      .insert(invoices)
      .values({
        kind: resource.kind,
        orderType: first.kind,
        orderNos: covered.map((o) => o.orderNo),
        memberPhone: first.memberPhone,
        titleType: company ? 'company' : 'personal',
        title: company?.title ?? `个人（${first.memberPhone.slice(-4)}）`,
        taxNo: company?.taxNo ?? null,
        invoiceType: company && made % 4 === 0 ? 'special' : 'normal',
        // A few ask for less than was paid (part of the amount invoiced elsewhere).
        amountFen: made % 5 === 3 ? Math.max(1, Math.floor(paidTotal / 2)) : paidTotal,
        email: `invoice${serial.next}@example.com`,
        status,
        invoiceNo: issued ? `2611200000${String(10_000_000 + serial.next)}` : null,
        fileUrl: issued ? SAMPLE_PDF : null,
        issuedAt: issued ? handledAt : null,
        rejectReason:
          status === 'rejected'
            ? '发票抬头与税号不一致，请会员核对后重新申请'
            : status === 'voided'
              ? '会员退款，已开具红字发票'
              : null,
        rejectedAt: status === 'rejected' || status === 'voided' ? handledAt : null,
        createdAt,
        updatedAt: status === 'pending' ? createdAt : handledAt,
      })
      .returning({ id: invoices.id });
    if (status === 'pending' || status === 'issued') {
      await tx
        .update(orders)
        .set({ invoiceId: row.id })
        .where(
          inArray(
            orders.id,
            covered.map((o) => o.id),
          ),
        );
    }
    made += 1;
  }
}

export default async function seedInvoices(tx: Executor) {
  const serial = { next: 0 };
  await seedKind(tx, invoice, 36, serial);
  await seedKind(tx, tripartiteInvoice, 6, serial);
}
