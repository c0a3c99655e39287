/**
 * Selling a meeting card in a 会议卡活动: one guarded UPDATE takes one from the stock (published,
 * within its window, for this card, not sold out), so concurrent sales never oversell. That UPDATE
 * locks the activity's row until commit, so the member's count read after it is counted one sale
 * at a time: a member never passes the limit either. A refused sale says why (409, or 400 for an
 * activity that does not exist or sells another card). A cancelled or refunded order gives its one
 * back (`giveBack`).
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { fieldInvalid } from '@cowork/contract';
import { teamCardActivityMessages as messages } from '@cowork/contract/resources/team-card-activity';
import { orderSaveLabels, type CardActivityOption } from '@cowork/contract/resources/order';
import type { Executor } from '../../db/client.ts';
import { orders, teamCardActivities } from '../../db/schema.ts';
import { badRequest, conflict } from '../../lib/http.ts';
import { toIso } from '../../lib/time.ts';

/** The statuses of an order that holds its one of the stock. */
const holding = ['pending', 'paid', 'used'] as const;

/** An activity selling now: published, within its window, not sold out. */
const onSale = (now: Date) => [
  eq(teamCardActivities.published, true),
  sql`${teamCardActivities.startAt} <= ${now.toISOString()}::timestamptz`,
  sql`${teamCardActivities.endAt} > ${now.toISOString()}::timestamptz`,
  sql`${teamCardActivities.sold} < ${teamCardActivities.stock}`,
];

export async function takeActivityStock(
  tx: Executor,
  sale: { activityId: number; teamCardId: number; memberId: number; now: Date },
) {
  const { activityId, teamCardId, memberId, now } = sale;
  const [taken] = await tx
    .update(teamCardActivities)
    .set({ sold: sql`${teamCardActivities.sold} + 1` })
    .where(
      and(
        eq(teamCardActivities.id, activityId),
        eq(teamCardActivities.teamCardId, teamCardId),
        ...onSale(now),
      ),
    )
    .returning();
  if (!taken) {
    const [activity] = await tx
      .select()
      .from(teamCardActivities)
      .where(eq(teamCardActivities.id, activityId));
    if (!activity) throw badRequest(fieldInvalid(orderSaveLabels.activityId, messages.notFound));
    if (activity.teamCardId !== teamCardId)
      throw badRequest(fieldInvalid(orderSaveLabels.activityId, messages.otherCard(activity.title)));
    if (!activity.published) throw conflict(messages.unpublished(activity.title));
    if (activity.startAt > now)
      throw conflict(
        messages.notStarted(activity.title, toIso(activity.startAt).slice(0, 16).replace('T', ' ')),
      );
    if (activity.endAt <= now) throw conflict(messages.ended(activity.title));
    throw conflict(messages.soldOut(activity.title));
  }
  const [{ bought }] = await tx
    .select({ bought: count() })
    .from(orders)
    .where(
      and(
        eq(orders.activityId, activityId),
        eq(orders.memberId, memberId),
        inArray(orders.status, [...holding]),
      ),
    );
  if (bought >= taken.limitPerUser) throw conflict(messages.limitReached(taken.title, taken.limitPerUser));
  return taken;
}

/** An order sold in an activity was cancelled or refunded: its one goes back to the stock. */
export async function giveBack(tx: Executor, order: { activityId: number | null }) {
  if (order.activityId === null) return;
  await tx
    .update(teamCardActivities)
    .set({ sold: sql`${teamCardActivities.sold} - 1` })
    .where(eq(teamCardActivities.id, order.activityId));
}

/** The activities selling this card now, soonest to end first (新建订单's list; the sale checks again). */
export async function sellingActivities(db: Executor, teamCardId: number): Promise<CardActivityOption[]> {
  const rows = await db
    .select()
    .from(teamCardActivities)
    .where(and(eq(teamCardActivities.teamCardId, teamCardId), ...onSale(new Date())))
    .orderBy(asc(teamCardActivities.endAt));
  return rows.map((a) => ({
    value: a.id,
    label: a.title,
    discountPriceFen: a.discountPriceFen,
    remaining: a.stock - a.sold,
    limitPerUser: a.limitPerUser,
    endAt: toIso(a.endAt),
  }));
}
