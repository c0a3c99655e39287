/**
 * Demo 会员卡 and 会议卡 orders: a few hundred over the last 90 days, bought by the demo members
 * in the cards' buildings, in every status, with the times and timeline events each status implies.
 * Deterministic (a seeded generator), and two multi-row inserts so seeding stays fast.
 */
import type { OrderKind, OrderStatus, PayMethod } from '@cowork/contract/resources/order';
import type { Executor } from '../../db/client.ts';
import { buildings, members, orderEvents, orders, teamCards, userCards } from '../../db/schema.ts';
import { formatOrderNo, reserveOrderIds } from './order-number.ts';

export const after = ['member', 'building', 'user-card', 'team-card'];

const ORDER_COUNT = 360;
const DAY = 86_400_000;
const MINUTE = 60_000;

/** mulberry32: the same demo on every start. */
function generator(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Product {
  kind: OrderKind;
  id: number;
  priceFen: number;
  validDays: number;
  buildingIds: number[];
  snapshot: Record<string, unknown>;
}

type OrderRow = typeof orders.$inferInsert;
type EventRow = typeof orderEvents.$inferInsert;

export default async function seedOrders(tx: Executor) {
  const random = generator(20261121);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const buyers = await tx.select({ id: members.id, phone: members.phone }).from(members);
  const buildingNames = new Map(
    (await tx.select({ id: buildings.id, name: buildings.name }).from(buildings)).map((b) => [b.id, b.name]),
  );
  const products: Product[] = [
    ...(await tx.select().from(userCards)).map((card) => ({
      kind: 'user-card' as const,
      id: card.id,
      priceFen: card.priceFen,
      validDays: card.validDays,
      buildingIds: card.buildingIds,
      snapshot: {
        name: card.name,
        cardType: card.cardType,
        priceFen: card.priceFen,
        validDays: card.validDays,
        times: card.times,
      },
    })),
    ...(await tx.select().from(teamCards)).map((card) => ({
      kind: 'team-card' as const,
      id: card.id,
      priceFen: card.priceFen,
      validDays: card.validDays,
      buildingIds: card.buildingIds,
      snapshot: {
        name: card.name,
        priceFen: card.priceFen,
        faceValueFen: card.faceValueFen,
        validDays: card.validDays,
      },
    })),
  ].filter((p) => p.buildingIds.length > 0);
  if (buyers.length === 0 || products.length === 0) return;

  const now = Date.now();
  const ids = await reserveOrderIds(tx, ORDER_COUNT);
  const orderRows: OrderRow[] = [];
  const eventRows: EventRow[] = [];
  // Oldest first, so ids and order numbers grow with time as they would in production.
  const ages = Array.from({ length: ORDER_COUNT }, () => Math.floor(random() * 90 * DAY)).sort(
    (a, b) => b - a,
  );

  for (const [index, id] of ids.entries()) {
    const product = pick(products);
    const buyer = pick(buyers);
    const buildingId = pick(product.buildingIds);
    const createdAt = new Date(now - ages[index]);
    const ageDays = ages[index] / DAY;
    const roll = random();
    // Unpaid orders older than a day would have been cancelled by then.
    const status: OrderStatus =
      ageDays < 1 && roll < 0.3
        ? 'pending'
        : roll < 0.45
          ? 'paid'
          : roll < 0.7
            ? 'used'
            : roll < 0.85
              ? 'cancelled'
              : 'refunded';
    const quantity = 1;
    const amountFen = product.priceFen * quantity;
    const discountFen = random() < 0.2 ? Math.min(amountFen, pick([1000, 2000, 5000])) : 0;
    const payMethod: PayMethod = pick(['wechat', 'wechat', 'wechat', 'alipay', 'alipay', 'offline']);
    const paid = status === 'paid' || status === 'used' || status === 'refunded';
    const paidAt = paid ? new Date(createdAt.getTime() + (1 + Math.floor(random() * 15)) * MINUTE) : null;
    // Later moves happen after payment but never in the future.
    const later = (from: Date) => new Date(Math.min(now - MINUTE, from.getTime() + random() * 7 * DAY));
    const usedAt = status === 'used' && paidAt ? later(paidAt) : null;
    const refundedAt = status === 'refunded' && paidAt ? later(paidAt) : null;
    const cancelledAt =
      status === 'cancelled'
        ? new Date(createdAt.getTime() + (5 + Math.floor(random() * 60)) * MINUTE)
        : null;
    const orderNo = formatOrderNo(product.kind, id, createdAt);
    const faceValueFen = product.snapshot.faceValueFen as number | undefined;

    orderRows.push({
      id,
      kind: product.kind,
      orderNo,
      memberId: buyer.id,
      memberPhone: buyer.phone,
      productId: product.id,
      productSnapshot: { ...product.snapshot, buildingName: buildingNames.get(buildingId) ?? null },
      buildingId,
      quantity,
      amountFen,
      discountFen,
      paidFen: paid ? amountFen - discountFen : 0,
      payMethod: status === 'pending' || status === 'cancelled' ? null : payMethod,
      status,
      referrerPhone: random() < 0.15 ? pick(buyers).phone : null,
      paidAt,
      usedAt,
      cancelledAt,
      refundedAt,
      cardNo: paid ? `K${orderNo}` : null,
      validFrom: paidAt,
      validTo: paidAt ? new Date(paidAt.getTime() + product.validDays * DAY) : null,
      // A used meeting card has spent part of its face value on rooms.
      balanceFen:
        paid && faceValueFen !== undefined
          ? status === 'used'
            ? Math.floor((faceValueFen * random()) / 100) * 100
            : faceValueFen
          : null,
      createdAt,
      updatedAt: usedAt ?? refundedAt ?? cancelledAt ?? paidAt ?? createdAt,
    });

    eventRows.push({ orderId: id, fromStatus: null, toStatus: 'pending', at: createdAt });
    if (paidAt) eventRows.push({ orderId: id, fromStatus: 'pending', toStatus: 'paid', at: paidAt });
    if (usedAt) eventRows.push({ orderId: id, fromStatus: 'paid', toStatus: 'used', at: usedAt });
    if (refundedAt) {
      eventRows.push({
        orderId: id,
        fromStatus: 'paid',
        toStatus: 'refunded',
        at: refundedAt,
        reason: pick(['会员申请退款：行程变更', '会员申请退款：重复购买', '门店协商退款']),
      });
    }
    if (cancelledAt) {
      eventRows.push({
        orderId: id,
        fromStatus: 'pending',
        toStatus: 'cancelled',
        at: cancelledAt,
        reason: '超时未支付，系统自动取消',
      });
    }
  }

  await tx.insert(orders).values(orderRows);
  await tx.insert(orderEvents).values(eventRows);
}
