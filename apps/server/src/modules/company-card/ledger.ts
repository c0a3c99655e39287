/**
 * A 企业会议卡's money: every change is one guarded UPDATE of the balance and one ledger row in the
 * same transaction, so the balance always equals the ledger's sum and never goes below zero. A
 * debit's UPDATE locks the card's row until commit, so the member's spending this month is read one
 * booking at a time and the monthly cap holds under concurrent bookings too. Used by the bookings'
 * 新建订单 and refund (order module) and by the card's own top-up.
 */
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { businessTimeZone } from '@cowork/contract';
import {
  companyCardMessages as messages,
  type PayingCardOption,
} from '@cowork/contract/resources/company-card';
import type { Executor } from '../../db/client.ts';
import { companyCardLedger, companyCards, members, orders, teamCards } from '../../db/schema.ts';
import { conflict } from '../../lib/http.ts';
import { toIso } from '../../lib/time.ts';

type Card = typeof companyCards.$inferSelect;
type LedgerRow = Omit<typeof companyCardLedger.$inferInsert, 'id' | 'at'>;

/** The start of this calendar month in the business time zone, as SQL. */
const monthStart = () => {
  const zone = sql`${businessTimeZone()}::text`;
  return sql`(date_trunc('month', now() at time zone ${zone}) at time zone ${zone})`;
};

/** A company card's number, made from its id: QY and 8 digits. */
export const companyCardNo = (id: number) => `QY${String(id).padStart(8, '0')}`;

export const actorOf = (request: FastifyRequest) => ({
  byUserId: request.user?.id ?? null,
  byName: request.user?.nickname || request.user?.username || null,
});

export async function companyCardByNo(tx: Executor, cardNo: string): Promise<Card | undefined> {
  const [card] = await tx.select().from(companyCards).where(eq(companyCards.cardNo, cardNo));
  return card;
}

/** What these members spent from the card this month: their paid bookings on it, refunds left out. */
export async function spentThisMonth(tx: Executor, cardId: number, phones: readonly string[]) {
  const spent = new Map(phones.map((p) => [p, 0]));
  if (phones.length === 0) return spent;
  const rows = await tx
    .select({ phone: orders.memberPhone, spentFen: sql<number>`coalesce(sum(${orders.paidFen}), 0)::int` })
    .from(orders)
    .where(
      and(
        eq(orders.companyCardId, cardId),
        inArray(orders.memberPhone, [...phones]),
        inArray(orders.status, ['paid', 'used']),
        sql`${orders.paidAt} >= ${monthStart()}`,
      ),
    )
    .groupBy(orders.memberPhone);
  for (const row of rows) spent.set(row.phone, Number(row.spentFen));
  return spent;
}

/**
 * Takes a booking's amount from the card for this member, or refuses (409) naming why: not listed,
 * disabled, expired, another building, the balance or the monthly cap. Answers the balance left.
 */
export async function debitCompanyCard(
  tx: Executor,
  card: Card,
  charge: { amountFen: number; phone: string; buildingId: number; orderId: number; remark: string },
  actor: ReturnType<typeof actorOf>,
): Promise<number> {
  const { amountFen, phone } = charge;
  if (!card.memberPhones.includes(phone)) throw conflict(messages.notListed(card.cardNo));
  const [product] = await tx
    .select({ buildingIds: teamCards.buildingIds })
    .from(teamCards)
    .where(eq(teamCards.id, card.teamCardId));
  if (product && !product.buildingIds.includes(charge.buildingId))
    throw conflict(messages.otherBuilding(card.cardNo));
  const [taken] = await tx
    .update(companyCards)
    .set({ balanceFen: sql`${companyCards.balanceFen} - ${amountFen}`, updatedAt: new Date() })
    .where(
      and(
        eq(companyCards.id, card.id),
        eq(companyCards.status, 'enabled'),
        gt(companyCards.validUntil, new Date()),
        sql`${companyCards.balanceFen} >= ${amountFen}`,
      ),
    )
    .returning();
  if (!taken) {
    const [now] = await tx.select().from(companyCards).where(eq(companyCards.id, card.id));
    if (now.status !== 'enabled') throw conflict(messages.disabled(card.cardNo));
    if (now.validUntil.getTime() <= Date.now()) throw conflict(messages.expired(card.cardNo));
    throw conflict(messages.balance(card.cardNo, now.balanceFen, amountFen));
  }
  // Under the row's lock: the bookings of this card are counted one at a time.
  if (taken.monthlyCapFen !== null) {
    const spent = (await spentThisMonth(tx, card.id, [phone])).get(phone) ?? 0;
    if (spent + amountFen > taken.monthlyCapFen)
      throw conflict(messages.cap(card.cardNo, taken.monthlyCapFen, spent, amountFen));
  }
  await appendLedger(tx, {
    cardId: card.id,
    kind: 'debit',
    amountFen: -amountFen,
    balanceAfterFen: taken.balanceFen,
    orderId: charge.orderId,
    memberPhone: phone,
    remark: charge.remark,
    ...actor,
  });
  return taken.balanceFen;
}

/** Adds money to a card (a top-up, or a refunded booking's amount); answers the new balance. */
export async function creditCompanyCard(
  tx: Executor,
  cardId: number,
  entry: Omit<LedgerRow, 'cardId' | 'balanceAfterFen'> & { kind: 'top-up' | 'credit' },
): Promise<number> {
  const [card] = await tx
    .update(companyCards)
    .set({ balanceFen: sql`${companyCards.balanceFen} + ${entry.amountFen}`, updatedAt: new Date() })
    .where(eq(companyCards.id, cardId))
    .returning({ balanceFen: companyCards.balanceFen });
  await appendLedger(tx, { ...entry, cardId, balanceAfterFen: card.balanceFen });
  return card.balanceFen;
}

export const appendLedger = (tx: Executor, row: LedgerRow) => tx.insert(companyCardLedger).values(row);

/**
 * The cards a phone can pay a booking with, soonest to expire first: the member's own paid,
 * unexpired meeting cards with money left, then the enabled, unexpired company cards listing the
 * phone with money left (with what the cap leaves this month).
 */
export async function payingCards(db: Executor, phone: string): Promise<PayingCardOption[]> {
  const now = new Date();
  const own = await db
    .select({
      cardNo: orders.cardNo,
      productName: sql<string | null>`${orders.productSnapshot}->>'name'`,
      balanceFen: orders.balanceFen,
      validTo: orders.validTo,
      buildingIds: teamCards.buildingIds,
    })
    .from(orders)
    .innerJoin(members, eq(members.id, orders.memberId))
    .leftJoin(teamCards, eq(teamCards.id, orders.productId))
    .where(
      and(
        eq(members.phone, phone),
        eq(orders.kind, 'team-card'),
        eq(orders.status, 'paid'),
        gt(orders.validTo, now),
        gt(orders.balanceFen, 0),
      ),
    )
    .orderBy(asc(orders.validTo), asc(orders.id));
  const company = await db
    .select({ card: companyCards, buildingIds: teamCards.buildingIds })
    .from(companyCards)
    .leftJoin(teamCards, eq(teamCards.id, companyCards.teamCardId))
    .where(
      and(
        sql`${phone} = any(${companyCards.memberPhones})`,
        eq(companyCards.status, 'enabled'),
        gt(companyCards.validUntil, now),
        gt(companyCards.balanceFen, 0),
      ),
    )
    .orderBy(asc(companyCards.validUntil), asc(companyCards.id));
  const capLeft = async (card: Card) =>
    card.monthlyCapFen === null
      ? null
      : Math.max(0, card.monthlyCapFen - ((await spentThisMonth(db, card.id, [phone])).get(phone) ?? 0));
  return [
    ...own.map((c) => ({
      cardNo: c.cardNo ?? '',
      kind: 'team-card' as const,
      productName: c.productName ?? '会议卡',
      balanceFen: c.balanceFen ?? 0,
      validTo: toIso(c.validTo!),
      buildingIds: c.buildingIds,
      capLeftFen: null,
    })),
    ...(await Promise.all(
      company.map(async ({ card, buildingIds }) => ({
        cardNo: card.cardNo,
        kind: 'company-card' as const,
        productName: `${card.companyName}（企业卡）`,
        balanceFen: card.balanceFen,
        validTo: toIso(card.validUntil),
        buildingIds,
        capLeftFen: await capLeft(card),
      })),
    )),
  ];
}
