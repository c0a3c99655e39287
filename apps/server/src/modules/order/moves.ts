/**
 * An order's state actions (pay, use, cancel, refund…): one guarded UPDATE each, with what a move
 * does besides the status (a card issued when paid, a meeting card's balance given back, a company
 * card credited, an activity's stock returned), its timeline row and its webhook event.
 */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { formatYuan } from '@cowork/contract';
import {
  orderActions,
  orderStates,
  type OrderAction,
  type OrderResource,
} from '@cowork/contract/resources/order';
import type { Executor } from '../../db/client.ts';
import { orderEvents, orders } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { moveRecord } from '../../lib/state.ts';
import { actorOf, creditCompanyCard } from '../company-card/ledger.ts';
import { staffActor } from '../../device-link/actors.ts';
import { giveBack } from './activity-sale.ts';
import { restoreCard } from './booking.ts';
import { loadOrder, orderDetailOf } from './detail.ts';
import { assertNotInvoiced } from './invoice-guard.ts';
import { recordOrderMoved } from './webhook-events.ts';

type Order = typeof orders.$inferSelect;

/** The column a move stamps with its time. */
const stampOf = {
  paid: 'paidAt',
  used: 'usedAt',
  cancelled: 'cancelledAt',
  refunded: 'refundedAt',
} as const;

/**
 * What paying sets besides the status: the amount paid, and for card orders the card itself
 * (number, validity from the product's validDays, a meeting card's face value as balance).
 * SQL expressions, so the move stays one UPDATE.
 */
export const paySet = (resource: OrderResource) => ({
  paidFen: sql`${orders.amountFen} - ${orders.discountFen}`,
  payMethod: sql`coalesce(${orders.payMethod}, 'offline')`,
  ...(resource.card
    ? {
        cardNo: sql`coalesce(${orders.cardNo}, 'K' || ${orders.orderNo})`,
        validFrom: sql`now()`,
        validTo: sql`now() + coalesce((${orders.productSnapshot} ->> 'validDays')::int, 0) * interval '1 day'`,
        balanceFen:
          resource.kind === 'team-card'
            ? sql`(${orders.productSnapshot} ->> 'faceValueFen')::int`
            : sql`${orders.balanceFen}`,
      }
    : {}),
});

/**
 * What a move needs besides the order's status. `where` joins the move's UPDATE, so it holds under
 * concurrent requests; when the UPDATE finds nothing and the status was right, the first guard
 * whose `holds` fails on the stored order words the 409. Refund's list is where further rules go
 * (e.g. the invoice module's "an order with an invoice cannot be refunded": invoice_id is null).
 */
interface MoveGuard {
  where: SQL;
  holds: (order: Order) => boolean;
  refusal: (tx: Executor, order: Order) => Promise<string>;
}

const faceValueOf = (order: Order) => order.productSnapshot.faceValueFen ?? 0;

/**
 * Refunding a meeting card: only while its balance is untouched (the face value; no booking it
 * paid is still holding money from it, a used one never gives it back). Staff refund the card's
 * bookings first, which restores the balance, then the card; the card's balance becomes 0. So the
 * amount refunded is never more than what is left on the card, and a concurrent booking either
 * takes its balance first (the refund is refused) or finds the card refunded (the booking is).
 */
const untouchedBalance: MoveGuard = {
  where: sql`(${orders.balanceFen} is null or ${orders.balanceFen} >= (${orders.productSnapshot} ->> 'faceValueFen')::int)`,
  holds: (order) => order.balanceFen === null || order.balanceFen >= faceValueOf(order),
  refusal: async (tx, order) => {
    const active = await tx
      .select({ orderNo: orders.orderNo })
      .from(orders)
      .where(and(eq(orders.cardOrderId, order.id), eq(orders.status, 'paid')))
      .orderBy(asc(orders.id))
      .limit(3);
    const holders = active.length
      ? `仍有其支付的预订（${active.map((o) => o.orderNo).join('、')}）未退款，请先退款这些预订`
      : '余额已用于已使用的预订，不能整卡退款';
    return `会议卡 ${order.cardNo ?? order.orderNo} 余额 ${formatYuan(order.balanceFen ?? 0)}，低于面值 ${formatYuan(faceValueOf(order))}：${holders}`;
  },
};

function guardsOf(resource: OrderResource, action: OrderAction): MoveGuard[] {
  if (action === 'refund') return resource.kind === 'team-card' ? [untouchedBalance] : [];
  return [];
}

/**
 * Moves an order (lib/state.ts): one UPDATE guarded by the statuses it may leave and the move's
 * own guards, so of two concurrent moves only one finds the order still movable; the other gets
 * the 409.
 */
export async function moveOrder(
  resource: OrderResource,
  request: FastifyRequest,
  action: OrderAction,
  id: number,
  reason: string | null,
) {
  const { to, from } = orderActions[action];
  const guards = guardsOf(resource, action);
  let movedOrder: Order | undefined;
  const answer = await request.server.db.transaction(async (tx) => {
    if (action === 'refund') await assertNotInvoiced(tx, id);
    const moved = await moveRecord(request, tx, {
      resource: resource.key,
      states: orderStates,
      move: action,
      status: orders.status,
      update: async (leaving) => {
        const [row] = await tx
          .update(orders)
          .set({
            status: to,
            [stampOf[to]]: new Date(),
            ...(to === 'paid' ? paySet(resource) : {}),
            // A refunded meeting card can pay for nothing more.
            ...(to === 'refunded' && resource.kind === 'team-card' ? { balanceFen: sql`0` } : {}),
            updatedAt: new Date(),
            updatedBy: request.user?.id ?? null,
          })
          .where(
            and(
              eq(orders.id, id),
              eq(orders.kind, resource.kind),
              inKeyBuildings(request, orders.buildingId),
              leaving,
              ...guards.map((g) => g.where),
            ),
          )
          .returning();
        return row;
      },
      current: () => loadOrder(resource, tx, id, request),
      refusal: (current) => guards.find((g) => !g.holds(current))?.refusal(tx, current),
      audited: () => ({ reason }),
    });
    // A booking paid from a 企业会议卡 credits the card back, as a ledger row.
    if (to === 'refunded' && moved.companyCardId !== null && moved.paidFen > 0) {
      await creditCompanyCard(tx, moved.companyCardId, {
        kind: 'credit',
        amountFen: moved.paidFen,
        orderId: moved.id,
        memberPhone: moved.memberPhone,
        remark: `退款 ${moved.orderNo}${reason ? `：${reason}` : ''}`,
        ...actorOf(request),
      });
    }
    // A card sold in a 会议卡活动 gives its one back to the stock.
    if (to === 'cancelled' || to === 'refunded') await giveBack(tx, moved);
    // A booking paid from a meeting card gives the amount back to the card in the same transaction.
    if (to === 'refunded' && moved.cardOrderId !== null && moved.payMethod === 'card' && moved.paidFen > 0) {
      const card = await restoreCard(tx, moved.cardOrderId, moved.paidFen);
      await audit(
        request,
        {
          action: 'balance-restore',
          resource: 'team-card-order',
          resourceId: moved.cardOrderId,
          after: {
            bookingOrderNo: moved.orderNo,
            restoredFen: moved.paidFen,
            balanceFen: card?.balanceFen,
          },
        },
        tx,
      );
    }
    // The status before this move: the only one it may leave (each action leaves one).
    await tx.insert(orderEvents).values({
      orderId: id,
      fromStatus: from[0],
      toStatus: to,
      actorId: request.user?.id ?? null,
      reason,
    });
    await recordOrderMoved(tx, moved);
    movedOrder = moved;
    return orderDetailOf(resource, tx, moved);
  });
  if (movedOrder) request.server.devices.orderChanged(movedOrder, staffActor(request));
  return answer;
}
