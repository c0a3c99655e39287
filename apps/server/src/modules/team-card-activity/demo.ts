/**
 * Demo 会议卡活动: on the first published meeting card, one activity running now and one that ended
 * last month, each with a few paid sales (orders carrying the activity, at its price), so 已售 and
 * 剩余 read true and the orders list shows them.
 */
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { buildings, members, orderEvents, orders, teamCardActivities, teamCards } from '../../db/schema.ts';
import { formatOrderNo, reserveOrderIds } from '../order/order-number.ts';
import { teamCardSnapshot } from '../order/snapshot.ts';

/** Sales are orders: after the demo's own, so order ids keep rising with time. */
export const after = ['team-card', 'member', 'order'];

const DAY = 86_400_000;

export default async function seedTeamCardActivities(tx: Executor) {
  const [card] = await tx
    .select()
    .from(teamCards)
    .where(eq(teamCards.published, true))
    .orderBy(asc(teamCards.id))
    .limit(1);
  if (!card) return;
  const buyers = await tx
    .select({ id: members.id, phone: members.phone })
    .from(members)
    .orderBy(asc(members.id))
    .limit(6);
  const [building] = await tx
    .select({ id: buildings.id, name: buildings.name })
    .from(buildings)
    .where(eq(buildings.id, card.buildingIds[0]));
  const now = Date.now();
  const plans = [
    { title: `${card.name}限时特惠`, startAt: now - 5 * DAY, endAt: now + 25 * DAY, stock: 50, sales: 4 },
    { title: `${card.name}上月秒杀`, startAt: now - 40 * DAY, endAt: now - 33 * DAY, stock: 2, sales: 2 },
  ];
  for (const plan of plans) {
    const discountPriceFen = Math.round((card.priceFen * 0.8) / 100) * 100;
    const sales = buyers.slice(0, plan.sales);
    const [activity] = await tx
      .insert(teamCardActivities)
      .values({
        title: plan.title,
        teamCardId: card.id,
        discountPriceFen,
        startAt: new Date(plan.startAt),
        endAt: new Date(plan.endAt),
        stock: plan.stock,
        sold: sales.length,
        limitPerUser: 1,
        published: true,
      })
      .returning();
    const ids = await reserveOrderIds(tx, sales.length);
    const sold = await tx
      .insert(orders)
      .values(
        sales.map((buyer, i) => {
          const paidAt = new Date(plan.startAt + (i + 1) * 3_600_000);
          const orderNo = formatOrderNo('team-card', ids[i], paidAt);
          return {
            id: ids[i],
            orderNo,
            kind: 'team-card' as const,
            memberId: buyer.id,
            memberPhone: buyer.phone,
            productId: card.id,
            productSnapshot: {
              ...teamCardSnapshot(card, building?.name ?? null),
              activityTitle: activity.title,
            },
            buildingId: building?.id ?? null,
            amountFen: card.priceFen,
            discountFen: card.priceFen - discountPriceFen,
            paidFen: discountPriceFen,
            payMethod: 'offline' as const,
            status: 'paid' as const,
            paidAt,
            createdAt: paidAt,
            cardNo: `K${orderNo}`,
            validFrom: paidAt,
            validTo: new Date(paidAt.getTime() + card.validDays * DAY),
            balanceFen: card.faceValueFen,
            activityId: activity.id,
          };
        }),
      )
      .returning({ id: orders.id, paidAt: orders.paidAt });
    await tx.insert(orderEvents).values(
      sold.map((order) => ({
        orderId: order.id,
        fromStatus: null,
        toStatus: 'paid' as const,
        reason: `会议卡活动“${activity.title}”，线下已收款`,
        at: order.paidAt!,
      })),
    );
  }
}
