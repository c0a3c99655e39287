/**
 * An order's webhook events (开放平台), recorded in the transaction that writes the order: paid,
 * cancelled and refunded as it moves (the pay action, or 新建订单 sold as paid), and for a room's
 * booking its creation and its end (cancelled or refunded, which frees the room).
 */
import { maskPhone } from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import type { orders } from '../../db/schema.ts';
import { recordEvents, type RecordedEvent } from '../../lib/outbox.ts';
import { toIso, toIsoOrNull } from '../../lib/time.ts';
import { bookingKinds } from './booking.ts';

type Order = typeof orders.$inferSelect;

const orderData = (o: Order) => ({
  orderId: o.id,
  orderNo: o.orderNo,
  kind: o.kind,
  status: o.status,
  memberId: o.memberId,
  phone: maskPhone(o.memberPhone),
  productId: o.productId,
  productName: o.productSnapshot.name ?? '',
  buildingId: o.buildingId,
  buildingName: o.productSnapshot.buildingName ?? null,
  quantity: o.quantity,
  amountFen: o.amountFen,
  discountFen: o.discountFen,
  paidFen: o.paidFen,
  payMethod: o.payMethod,
  startAt: toIsoOrNull(o.startAt),
  endAt: toIsoOrNull(o.endAt),
});

/** A room's booking as webhooks see it; undefined for an order of another kind. */
function bookingData(o: Order) {
  const kind = bookingKinds.find((k) => k === o.kind);
  if (!kind || !o.startAt || !o.endAt) return undefined;
  return {
    orderId: o.id,
    orderNo: o.orderNo,
    kind,
    memberId: o.memberId,
    phone: maskPhone(o.memberPhone),
    roomId: o.productId,
    roomName: o.productSnapshot.name ?? '',
    buildingId: o.buildingId,
    buildingName: o.productSnapshot.buildingName ?? null,
    startAt: toIso(o.startAt),
    endAt: toIso(o.endAt),
    amountFen: o.amountFen,
    paidFen: o.paidFen,
  };
}

/** The events of the status an order has just moved to (using it records none). */
function movedEvents(o: Order): RecordedEvent[] {
  const booking = bookingData(o);
  const at = o.cancelledAt ?? o.refundedAt;
  const freed: RecordedEvent[] =
    booking && at && (o.status === 'cancelled' || o.status === 'refunded')
      ? [{ type: 'booking.cancelled', data: { ...booking, status: o.status, cancelledAt: toIso(at) } }]
      : [];
  if (o.status === 'paid' && o.paidAt)
    return [{ type: 'order.paid', data: { ...orderData(o), paidAt: toIso(o.paidAt) } }];
  if (o.status === 'cancelled' && o.cancelledAt)
    return [
      { type: 'order.cancelled', data: { ...orderData(o), cancelledAt: toIso(o.cancelledAt) } },
      ...freed,
    ];
  if (o.status === 'refunded' && o.refundedAt)
    return [{ type: 'order.refunded', data: { ...orderData(o), refundedAt: toIso(o.refundedAt) } }, ...freed];
  return [];
}

/** An order just moved (pay, cancel, refund): its events, in the move's transaction. */
export const recordOrderMoved = (tx: Executor, order: Order) => recordEvents(tx, movedEvents(order));

/** An order just created (新建订单): a booking's creation, and its payment when sold as paid. */
export async function recordOrderCreated(tx: Executor, order: Order) {
  const booking = bookingData(order);
  const status = order.status === 'paid' ? 'paid' : 'pending';
  await recordEvents(tx, [
    ...(booking
      ? [
          {
            type: 'booking.created',
            data: { ...booking, status, createdAt: toIso(order.createdAt) },
          } as const,
        ]
      : []),
    ...movedEvents(order),
  ]);
}
