/**
 * 会议卡活动: the declaration's CRUD (with publish and saveOrUpdate). The sale itself is in the
 * meeting-card order's save (order/activity-sale.ts). Rules kept here: the window runs forwards,
 * the price never passes the card's, and once the activity has sold its card and price stay, its
 * stock stays at or above what it sold (read under the row's lock, so a sale cannot slip between),
 * and it cannot be removed.
 */
import { eq, sql } from 'drizzle-orm';
import { fieldInvalid, formatYuan } from '@cowork/contract';
import {
  teamCardActivity,
  teamCardActivityMessages as messages,
  type ActivityStatus,
} from '@cowork/contract/resources/team-card-activity';
import { teamCardActivities, teamCards } from '../../db/schema.ts';
import { crudModule, valueAfterWrite } from '../../lib/crud.ts';
import { badRequest, conflict, queryText } from '../../lib/http.ts';

const fields = teamCardActivity.fields;

const statusAt = (startAt: Date, endAt: Date, now: number): ActivityStatus =>
  startAt.getTime() > now ? 'upcoming' : endAt.getTime() > now ? 'running' : 'ended';

export default crudModule({
  resource: teamCardActivity,
  table: teamCardActivities,
  async prepare(values, { tx, existing }) {
    const startAt = valueAfterWrite('startAt', values, existing);
    const endAt = valueAfterWrite('endAt', values, existing);
    if (endAt.getTime() <= startAt.getTime())
      throw badRequest(fieldInvalid(fields.endAt.label, messages.window));
    const teamCardId = valueAfterWrite('teamCardId', values, existing);
    const priceFen = valueAfterWrite('discountPriceFen', values, existing);
    const [card] = await tx
      .select({ priceFen: teamCards.priceFen })
      .from(teamCards)
      .where(eq(teamCards.id, teamCardId));
    if (!card) throw badRequest(fieldInvalid(fields.teamCardId.label, messages.cardMissing));
    if (priceFen > card.priceFen)
      throw badRequest(
        fieldInvalid(fields.discountPriceFen.label, messages.priceAboveCard(formatYuan(card.priceFen))),
      );
    if (existing) {
      // Locked until commit: a sale waits for this edit, and this edit sees every sale before it.
      const [{ sold }] = await tx
        .select({ sold: teamCardActivities.sold })
        .from(teamCardActivities)
        .where(eq(teamCardActivities.id, existing.id))
        .for('update');
      const changes = (key: string) => values[key] !== undefined && values[key] !== existing[key];
      if (sold > 0 && (changes('teamCardId') || changes('discountPriceFen')))
        throw conflict(messages.soldCardFixed(sold));
      const stock = valueAfterWrite('stock', values, existing);
      if (stock < sold) throw conflict(messages.stockBelowSold(sold));
    }
    return values;
  },
  expand: async (rows) => {
    const now = Date.now();
    return rows.map((row) => ({
      ...row,
      remaining: row.stock - row.sold,
      status: statusAt(row.startAt, row.endAt, now),
    }));
  },
  // 活动状态 is the window against now: filtered in SQL.
  where(request) {
    const status = queryText(request, 'status');
    const { startAt, endAt } = teamCardActivities;
    if (status === 'upcoming') return sql`${startAt} > now()`;
    if (status === 'running') return sql`${startAt} <= now() and ${endAt} > now()`;
    if (status === 'ended') return sql`${endAt} <= now()`;
    return undefined;
  },
  async inUse(id, tx) {
    const [row] = await tx
      .select({
        sold: teamCardActivities.sold,
        orders: sql<number>`(select count(*) from orders o where o.activity_id = ${teamCardActivities.id})::int`,
      })
      .from(teamCardActivities)
      .where(eq(teamCardActivities.id, id));
    return row && (row.sold > 0 || Number(row.orders) > 0) ? messages.soldCannotRemove(row.sold) : undefined;
  },
});
