/**
 * A 企业会议卡's money: every change is one guarded UPDATE of the balance and one ledger row in the
 * same transaction, so the balance always equals the ledger's sum and never goes below zero. A
 * debit's UPDATE locks the card's row until commit, so the member's spending this month is read one
 * booking at a time and the monthly cap holds under concurrent bookings too. Used by the bookings'
 * 新建订单 and refund (order module) and by the card's own top-up.
 *
 * Who may pay with a card is one predicate (`openToPhone`): an active staff member of the card's
 * company whom its scope takes; the cards a phone can pay with and the debit both ask it.
 */
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { businessTimeZone } from '@cowork/contract';
import {
  companyCardMessages as messages,
  type PayingCardOption,
} from '@cowork/contract/resources/company-card';
import { rowsOf, type Executor } from '../../db/client.ts';
import { companyCardLedger, companyCards, members, orders, teamCards } from '../../db/schema.ts';
import { conflict } from '../../lib/http.ts';
import { cardTakesStaff } from '../../lib/staff-scope.ts';
import { toIso } from '../../lib/time.ts';

type Card = typeof companyCards.$inferSelect;
type LedgerRow = Omit<typeof companyCardLedger.$inferInsert, 'id' | 'at'>;

/** The start of this calendar month in the business time zone, as SQL. */
const monthStart = () => {
  const zone = sql`${businessTimeZone()}::text`;
  return sql`(date_trunc('month', now() at time zone ${zone}) at time zone ${zone})`;
};

/** Whether the company card (the row of company_cards in the query) may be paid with by this phone. */
const openToPhone = (phone: string) =>
  sql`exists (select 1 from company_staff s where s.phone = ${phone} and ${cardTakesStaff('company_cards', 's')})`;

/** The phones of the staff a card is open to now, in the order of the staff list. */
export async function cardStaffPhones(tx: Executor, cardId: number): Promise<string[]> {
  const rows = await rowsOf<{ phone: string }>(
    tx,
    sql`select s.phone from company_cards join company_staff s on ${cardTakesStaff('company_cards', 's')}
      where company_cards.id = ${cardId} order by s.id`,
  );
  return rows.map((r) => r.phone);
}

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
 * Takes a booking's amount from the card for this member, or refuses (409) naming why: not open to
 * them (not among the staff it takes, or left), disabled, expired, another building, the balance or
 * the monthly cap. Answers the balance left.
 */
export async function debitCompanyCard(
  tx: Executor,
  card: Card,
  charge: { amountFen: number; phone: string; buildingId: number; orderId: number; remark: string },
  actor: ReturnType<typeof actorOf>,
): Promise<number> {
  const { amountFen, phone } = charge;
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
        openToPhone(phone),
        eq(companyCards.status, 'enabled'),
        gt(companyCards.validUntil, new Date()),
        sql`${companyCards.balanceFen} >= ${amountFen}`,
      ),
    )
    .returning();
  if (!taken) {
    const [open] = await tx
      .select({ id: companyCards.id })
      .from(companyCards)
      .where(and(eq(companyCards.id, card.id), openToPhone(phone)));
    if (!open) throw conflict(messages.notListed(card.cardNo));
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
 * unexpired meeting cards with money left, then the enabled, unexpired company cards open to the
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
        openToPhone(phone),
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
