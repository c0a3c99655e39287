/**
 * Demo orders as drafts: one order's status moves with their times, events, paid amount and pay
 * method (`draft`), and the drafts of the card, desk and lounge kinds. Bookings: demo-bookings.ts.
 */
import type { OrderKind, OrderStatus, PayMethod } from '@cowork/contract/resources/order';
import { addDays } from '@cowork/contract';
import type { orderEvents, orders } from '../../db/schema.ts';
import type { Catalog } from './demo-catalog.ts';
import { addMonths, atMinute, dayOf, DAY, HOUR, MINUTE, tools, type Random } from './demo-tools.ts';
import { teamCardSnapshot, userCardSnapshot } from './snapshot.ts';

export const HISTORY_DAYS = 365;

export type OrderRow = typeof orders.$inferInsert;
type EventRow = typeof orderEvents.$inferInsert;
export type Buyer = { id: number; phone: string };

/** An order being generated; `cardIndex` points at the meeting card paying a booking. */
export interface Draft {
  row: Omit<OrderRow, 'id' | 'orderNo'>;
  kind: OrderKind;
  createdAt: Date;
  events: Omit<EventRow, 'orderId'>[];
  /** A card order that was paid: it gets a card number (K + order number). */
  hasCard?: boolean;
  paidBy?: TeamCardDraft;
}

export interface TeamCardDraft {
  faceValueFen: number;
  buildingIds: number[];
  buyer: Buyer;
  validFrom: number;
  validTo: number;
  /** Face value minus every booking it paid (refunded ones too, so it never went negative). */
  left: number;
  /** Face value minus its active bookings: the balance stored. */
  balance: number;
  draft?: Draft;
}

const refundReasons = ['会员申请退款：行程变更', '会员申请退款：重复购买', '门店协商退款'];
const bookingRefundReasons = ['会议取消，会员申请退款', '会议改期，会员申请退款', '门店协商退款'];

/**
 * One run of the generator over the catalog: the drafts so far, and what every kind's drafts are
 * made with. Each helper draws from `random` in the order the demo always drew, so a seed gives
 * the same orders.
 */
export function demoRun(random: Random, c: Catalog) {
  const { pick, int, chance } = tools(random);
  const now = Date.now();
  const historyStart = now - HISTORY_DAYS * DAY;
  const drafts: Draft[] = [];
  const buildingName = (id: number | null) => (id === null ? null : (c.buildingNames.get(id) ?? null));

  /** Discount, pay method and referrer, the same for every kind. */
  const money = (amountFen: number, cardPaid = false) => {
    // A coupon takes at most half the price: every paid demo order pays something (and can be invoiced).
    const coupon = !cardPaid && chance(0.18) ? pick([500, 1000, 2000, 5000]) : 0;
    const discountFen = coupon * 2 <= amountFen ? coupon : 0;
    const payMethod: PayMethod = cardPaid
      ? 'card'
      : pick(['wechat', 'wechat', 'wechat', 'alipay', 'alipay', 'offline']);
    return { discountFen, payMethod };
  };

  /**
   * The draft of one order: its status moves stamped at the given times (each after the one
   * before, never in the future), the matching events, paid amount and pay method.
   */
  function draft(
    kind: OrderKind,
    values: Omit<OrderRow, 'id' | 'orderNo' | 'kind' | 'status' | 'createdAt' | 'updatedAt'>,
    createdAt: number,
    status: OrderStatus,
    times: { paidAt?: number; usedAt?: number; refundedAt?: number; cancelledAt?: number },
    cardPaid = false,
  ): Draft {
    const at = (t: number | undefined) => (t === undefined ? null : new Date(Math.min(t, now - MINUTE)));
    const paid = status === 'paid' || status === 'used' || status === 'refunded';
    const paidAt = paid ? at(times.paidAt ?? createdAt + int(1, 15) * MINUTE) : null;
    const usedAt = status === 'used' ? at(times.usedAt) : null;
    const refundedAt = status === 'refunded' ? at(times.refundedAt) : null;
    const cancelledAt =
      status === 'cancelled' ? at(times.cancelledAt ?? createdAt + int(15, 60) * MINUTE) : null;
    const { discountFen, payMethod } = money(values.amountFen, cardPaid);
    const created = new Date(createdAt);
    const events: Draft['events'] = [{ fromStatus: null, toStatus: 'pending', at: created }];
    if (paidAt) events.push({ fromStatus: 'pending', toStatus: 'paid', at: paidAt });
    if (usedAt) events.push({ fromStatus: 'paid', toStatus: 'used', at: usedAt });
    if (refundedAt) {
      events.push({
        fromStatus: 'paid',
        toStatus: 'refunded',
        at: refundedAt,
        reason: pick(
          kind === 'office-station' || kind === 'activity-station' ? bookingRefundReasons : refundReasons,
        ),
      });
    }
    if (cancelledAt) {
      events.push({
        fromStatus: 'pending',
        toStatus: 'cancelled',
        at: cancelledAt,
        reason: '超时未支付，系统自动取消',
      });
    }
    return {
      kind,
      createdAt: created,
      events,
      row: {
        ...values,
        kind,
        status,
        discountFen,
        paidFen: paid ? values.amountFen - discountFen : 0,
        payMethod: paid ? payMethod : null,
        referrerPhone: chance(0.12) ? pick(c.buyers).phone : null,
        paidAt,
        usedAt,
        refundedAt,
        cancelledAt,
        createdAt: created,
        updatedAt: usedAt ?? refundedAt ?? cancelledAt ?? paidAt ?? created,
      },
    };
  }

  /**
   * Pending only for orders of the last day (and never for a booking or period already begun);
   * otherwise the order went on or was cancelled.
   */
  const settledStatus = (
    createdAt: number,
    weights: [OrderStatus, number][],
    mayPend = true,
  ): OrderStatus => {
    if (mayPend && now - createdAt < DAY && chance(0.3)) return 'pending';
    let roll = random() * weights.reduce((s, [, w]) => s + w, 0);
    for (const [status, w] of weights) if ((roll -= w) < 0) return status;
    return weights[0][0];
  };
  const historyTime = () => historyStart + Math.floor(random() * (now - historyStart - MINUTE));

  return {
    random,
    pick,
    int,
    chance,
    c,
    now,
    historyStart,
    drafts,
    buildingName,
    draft,
    settledStatus,
    historyTime,
  };
}

export type DemoRun = ReturnType<typeof demoRun>;

/** `count` 会议卡 orders; returns the paid ones still in status paid, which may pay for bookings. */
export function teamCardDrafts(run: DemoRun, teamCardCount: number): TeamCardDraft[] {
  const { c, pick, int, drafts, buildingName, draft, settledStatus, historyTime } = run;
  const cards: TeamCardDraft[] = [];
  for (let i = 0; i < teamCardCount; i++) {
    const product = pick(c.teamCardRows);
    const buyer = pick(c.buyers);
    const buildingId = pick(product.buildingIds);
    const createdAt = historyTime();
    const status = settledStatus(createdAt, [
      ['paid', 55],
      ['used', 15],
      ['cancelled', 15],
      ['refunded', 15],
    ]);
    const paidAt = createdAt + int(1, 15) * MINUTE;
    const paid = status !== 'pending' && status !== 'cancelled';
    const d = draft(
      'team-card',
      {
        memberId: buyer.id,
        memberPhone: buyer.phone,
        productId: product.id,
        productSnapshot: teamCardSnapshot(product, buildingName(buildingId)),
        buildingId,
        quantity: 1,
        amountFen: product.priceFen,
        validFrom: paid ? new Date(paidAt) : null,
        validTo: paid ? new Date(paidAt + product.validDays * DAY) : null,
        // A refunded card gave its money back: nothing is left to spend.
        balanceFen: paid ? (status === 'refunded' ? 0 : product.faceValueFen) : null,
      },
      createdAt,
      status,
      { paidAt, usedAt: paidAt + int(1, 60) * DAY, refundedAt: paidAt + int(1, 72) * HOUR },
    );
    if (paid) {
      d.hasCard = true;
      const card: TeamCardDraft = {
        faceValueFen: product.faceValueFen,
        buildingIds: product.buildingIds,
        buyer,
        validFrom: paidAt,
        validTo: paidAt + product.validDays * DAY,
        left: product.faceValueFen,
        balance: product.faceValueFen,
        draft: d,
      };
      // Only cards still in status paid pay for rooms (the booking module deducts from those).
      if (status === 'paid') cards.push(card);
    }
    drafts.push(d);
  }
  return cards;
}

/** The orders of the other kinds (会员卡, 工位, 机场贵宾厅), one of `plan`'s kind each. */
export function otherDrafts(run: DemoRun, plan: OrderKind[]) {
  const { random, c, pick, int, chance, now, drafts, buildingName, draft, settledStatus, historyTime } = run;
  for (const kind of plan) {
    // A fifth of desk orders are from the last week, so their periods lie ahead and some stay
    // paid (a year-long spread alone leaves days with no paid 大厅工位 order at all).
    const recentDesk = (kind === 'office-seat' || kind === 'hall-seat') && chance(0.2);
    const createdAt = recentDesk ? now - int(1, 7 * 24 * 60) * MINUTE : historyTime();
    const buyer = pick(c.buyers);
    const who = { memberId: buyer.id, memberPhone: buyer.phone };
    if (kind === 'user-card') {
      const product = pick(c.userCardRows);
      const buildingId = pick(product.buildingIds);
      const status = settledStatus(createdAt, [
        ['paid', 30],
        ['used', 40],
        ['cancelled', 15],
        ['refunded', 15],
      ]);
      const paidAt = createdAt + int(1, 15) * MINUTE;
      const paid = status !== 'pending' && status !== 'cancelled';
      const d = draft(
        kind,
        {
          ...who,
          productId: product.id,
          productSnapshot: userCardSnapshot(product, buildingName(buildingId)),
          buildingId,
          quantity: 1,
          amountFen: product.priceFen,
          validFrom: paid ? new Date(paidAt) : null,
          validTo: paid ? new Date(paidAt + product.validDays * DAY) : null,
        },
        createdAt,
        status,
        {
          paidAt,
          usedAt: paidAt + Math.floor(random() * Math.min(product.validDays, 7) * DAY),
          refundedAt: paidAt + int(1, 72) * HOUR,
        },
      );
      d.hasCard = paid;
      drafts.push(d);
    } else if (kind === 'office-seat' || kind === 'hall-seat') {
      const seat = pick(c.seats[kind]);
      const quantity = seat.unit === 'day' ? int(1, 5) : int(1, 3);
      const paidAt = createdAt + int(1, 15) * MINUTE;
      // The period starts on a later day than the payment.
      const startAt = atMinute(addDays(dayOf(paidAt), int(1, 7)), 0);
      const endAt = seat.unit === 'day' ? startAt + quantity * DAY : addMonths(startAt, quantity);
      const future = startAt > now;
      const status = settledStatus(
        createdAt,
        future
          ? [
              ['paid', 80],
              ['cancelled', 12],
              ['refunded', 8],
            ]
          : [
              ['used', 75],
              ['cancelled', 15],
              ['refunded', 10],
            ],
        future,
      );
      drafts.push(
        draft(
          kind,
          {
            ...who,
            productId: seat.seatId,
            productSnapshot: {
              name: seat.name,
              code: seat.code,
              floor: seat.floor,
              seatType: seat.seatType,
              goodsId: seat.goodsId,
              goodsName: seat.goodsName,
              unit: seat.unit,
              priceFen: seat.priceFen,
              buildingName: buildingName(seat.buildingId),
            },
            buildingId: seat.buildingId,
            quantity,
            amountFen: seat.priceFen * quantity,
            startAt: new Date(startAt),
            endAt: new Date(endAt),
          },
          createdAt,
          status,
          {
            paidAt,
            usedAt: startAt,
            refundedAt: paidAt + Math.floor(random() * Math.max(MINUTE, startAt - paidAt)),
          },
        ),
      );
    } else {
      const { product, airport } = pick(c.lounges);
      const quantity = chance(0.7) ? 1 : int(2, 4);
      const status = settledStatus(createdAt, [
        ['paid', 15],
        ['used', 60],
        ['cancelled', 13],
        ['refunded', 12],
      ]);
      const paidAt = createdAt + int(1, 15) * MINUTE;
      drafts.push(
        draft(
          'airport',
          {
            ...who,
            productId: product.id,
            productSnapshot: {
              name: product.loungeName,
              loungeName: product.loungeName,
              airportCode: product.airportCode,
              airportName: airport.airportName,
              city: airport.city,
              terminal: product.terminal,
              priceFen: product.priceFen,
              supplierSku: product.supplierSku,
            },
            // Lounges are not in a building.
            buildingId: null,
            quantity,
            amountFen: product.priceFen * quantity,
          },
          createdAt,
          status,
          { paidAt, usedAt: paidAt + int(2, 72) * HOUR, refundedAt: paidAt + int(1, 48) * HOUR },
        ),
      );
    }
  }
}
