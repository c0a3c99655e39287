/**
 * Demo orders of every kind over the last 365 days, bought by demo members from the demo products:
 * 会员卡 and 会议卡 (card number and validity; a meeting card's balance is its face value minus the
 * active bookings it paid), 工位 for a period of days or months, 会议室 and 活动场地 bookings laid
 * one after another per room inside its opening hours (never overlapping, at least its minimum
 * length; some paid by a meeting card of the same member), and 机场贵宾厅 without a building. Each
 * order has the times and timeline events its status implies. Deterministic (a seeded generator)
 * and fast: multi-row inserts in batches.
 *
 * How many: DEMO_ORDERS (default 3000) when the demo is loaded; `npm run seed:demo -- --orders N`
 * adds N more to an existing demo (apps/server/src/seed/cli.ts).
 */
import { and, asc, eq, getTableColumns, getTableName, gt, inArray, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { OrderKind, OrderStatus, PayMethod } from '@cowork/contract/resources/order';
import { addDays, businessDateTime, businessDay, businessInstant, keysOf } from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import {
  activityStations,
  airportCodes,
  airportProducts,
  buildings,
  hallSeatGoods,
  hallSeats,
  members,
  officeSeatGoods,
  officeSeats,
  officeStations,
  orderEvents,
  orders,
  teamCards,
  userCards,
} from '../../db/schema.ts';
import { formatOrderNo, reserveOrderIds } from './order-number.ts';
import { stationSnapshot, teamCardSnapshot, userCardSnapshot } from './snapshot.ts';
import { propertyOf } from '../../lib/unknown.ts';

export const after = ['member', 'building', 'user-card', 'team-card', 'seat', 'station', 'airport-product'];

export const DEFAULT_DEMO_ORDERS = 3000;
/** Orders per member the seed keeps to at most, adding members when asked for more orders. */
const ORDERS_PER_MEMBER = 100;
/** Rows per INSERT (the orders table has ~30 columns; PostgreSQL takes 65 535 parameters). */
const BATCH = 1000;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;
const HISTORY_DAYS = 365;
/** Bookings are made up to two weeks ahead, so some start after today. */
const AHEAD_DAYS = 14;
/** Active bookings hold their room's time; cancelled and refunded ones freed it. */
const ACTIVE: readonly OrderStatus[] = ['pending', 'paid', 'used'];

/** The order count of the demo: DEMO_ORDERS, a whole number, default 3000. */
export function demoOrderCount(env: Record<string, string | undefined> = process.env): number {
  const raw = env.DEMO_ORDERS?.trim();
  if (raw === undefined || raw === '') return DEFAULT_DEMO_ORDERS;
  if (!/^\d+$/.test(raw)) {
    throw new Error(`DEMO_ORDERS must be a whole number of demo orders (0 or more), not "${raw}"`);
  }
  return Number(raw);
}

/** Set by the seed:demo command to print progress while the demo is loaded. */
export const demoOrderProgress: { report?: (done: number, total: number) => void } = {};

/** mulberry32: the same demo on every start. */
export function generator(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
type Random = ReturnType<typeof generator>;

const tools = (random: Random) => ({
  pick: <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)],
  /** A whole number from `min` to `max`, both included. */
  int: (min: number, max: number) => min + Math.floor(random() * (max - min + 1)),
  chance: (p: number) => random() < p,
});

/** The business day (contract time.ts) holding `at`. */
const dayOf = (at: number) => businessDay(new Date(at));
const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};
/** The instant `minutes` after midnight of a business day. */
const atMinute = (day: string, minutes: number) =>
  businessInstant(day, new Date(minutes * MINUTE).toISOString().slice(11, 16)).getTime();
/** `at` plus whole calendar months, counted in the business time zone. */
function addMonths(at: number, months: number) {
  const [day, time] = businessDateTime(new Date(at)).split(' ');
  const moved = new Date(`${day}T00:00:00Z`);
  moved.setUTCMonth(moved.getUTCMonth() + months);
  return businessInstant(moved.toISOString().slice(0, 10), time).getTime();
}

/**
 * One multi-row INSERT of `rows` handed over as a single JSON parameter (jsonb_to_recordset):
 * several times faster than a statement with a parameter per value, whose building alone takes
 * longer than PGlite takes to store the rows.
 */
async function insertRows<T extends PgTable>(tx: Executor, table: T, rows: T['$inferInsert'][]) {
  if (rows.length === 0) return;
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const columns = getTableColumns(table);
  const defined = keys.map((key) => {
    const column = columns[key];
    return { key, name: column.name, type: column.getSQLType().replace(/^serial$/, 'integer') };
  });
  const records = rows.map((row) =>
    Object.fromEntries(defined.map(({ key, name }) => [name, propertyOf(row, key) ?? null])),
  );
  const names = sql.raw(defined.map((c) => `"${c.name}"`).join(', '));
  const types = sql.raw(defined.map((c) => `"${c.name}" ${c.type}`).join(', '));
  await tx.execute(
    sql`insert into ${sql.identifier(getTableName(table))} (${names}) select ${names} from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(${types})`,
  );
}

type OrderRow = typeof orders.$inferInsert;
type EventRow = typeof orderEvents.$inferInsert;
type Buyer = { id: number; phone: string };

/** An order being generated; `cardIndex` points at the meeting card paying a booking. */
interface Draft {
  row: Omit<OrderRow, 'id' | 'orderNo'>;
  kind: OrderKind;
  createdAt: Date;
  events: Omit<EventRow, 'orderId'>[];
  /** A card order that was paid: it gets a card number (K + order number). */
  hasCard?: boolean;
  paidBy?: TeamCardDraft;
}

interface TeamCardDraft {
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
const surnames = [
  ...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤',
];
const givenChars = [
  ...'伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍建红鹏宇浩然子涵欣怡梓轩一诺思雨晨阳佳琪俊文博雅婷天佑嘉怡',
];
const phonePrefixes = [
  '135',
  '136',
  '137',
  '138',
  '139',
  '150',
  '151',
  '152',
  '157',
  '158',
  '159',
  '177',
  '182',
  '183',
  '187',
  '188',
  '199',
];

/**
 * Makes sure there is a member for every ORDERS_PER_MEMBER orders of `count`, adding members with
 * generated phones and names registered over the last two years. Returns how many were added.
 */
export async function addDemoMembers(tx: Executor, count: number, random: Random): Promise<number> {
  const existing = await tx.select({ phone: members.phone }).from(members);
  const wanted = Math.ceil(count / ORDERS_PER_MEMBER) - existing.length;
  if (wanted <= 0) return 0;
  const { pick, int } = tools(random);
  const taken = new Set(existing.map((m) => m.phone));
  const now = Date.now();
  const rows: (typeof members.$inferInsert)[] = [];
  while (rows.length < wanted) {
    const phone = `${pick(phonePrefixes)}${String(int(0, 99_999_999)).padStart(8, '0')}`;
    if (taken.has(phone)) continue;
    taken.add(phone);
    const name = pick(surnames) + pick(givenChars) + (random() < 0.6 ? pick(givenChars) : '');
    rows.push({
      phone,
      nickname: name,
      realName: random() < 0.5 ? name : null,
      registeredAt: new Date(now - int(30, 730) * DAY - int(0, 600) * MINUTE),
    });
  }
  for (let i = 0; i < rows.length; i += BATCH) await insertRows(tx, members, rows.slice(i, i + BATCH));
  return rows.length;
}

/** What the demo sells, read from the product tables. */
async function catalog(tx: Executor) {
  const buyers = await tx
    .select({ id: members.id, phone: members.phone })
    .from(members)
    .orderBy(asc(members.id));
  const buildingNames = new Map(
    (await tx.select({ id: buildings.id, name: buildings.name }).from(buildings)).map((b) => [b.id, b.name]),
  );
  const userCardRows = (await tx.select().from(userCards).where(eq(userCards.published, true))).filter(
    (c) => c.buildingIds.length > 0,
  );
  const teamCardRows = (await tx.select().from(teamCards).where(eq(teamCards.published, true))).filter(
    (c) => c.buildingIds.length > 0,
  );
  const seatsOf = async (kind: 'office-seat' | 'hall-seat') => {
    // Both seat tables have one shape; typed as the office one so one query serves both.
    const [seats, goods]: [typeof officeSeats, typeof officeSeatGoods] =
      kind === 'office-seat' ? [officeSeats, officeSeatGoods] : [hallSeats, hallSeatGoods];
    return tx
      .select({
        seatId: seats.id,
        name: seats.name,
        code: seats.code,
        floor: seats.floor,
        seatType: seats.seatType,
        buildingId: seats.buildingId,
        goodsId: goods.id,
        goodsName: goods.name,
        unit: goods.unit,
        priceFen: goods.priceFen,
      })
      .from(goods)
      .innerJoin(seats, eq(seats.id, goods.seatId))
      .where(and(eq(seats.published, true), eq(seats.status, 'enabled'), eq(goods.enabled, true)))
      .orderBy(asc(goods.id));
  };
  const roomsOf = async (kind: 'office-station' | 'activity-station') => {
    const table = kind === 'office-station' ? officeStations : activityStations;
    return (await tx.select().from(table).where(eq(table.published, true)).orderBy(asc(table.id))).map(
      (room) => ({
        kind,
        room,
      }),
    );
  };
  const lounges = await tx
    .select({ product: airportProducts, airport: airportCodes })
    .from(airportProducts)
    .innerJoin(airportCodes, eq(airportCodes.code, airportProducts.airportCode))
    .where(and(eq(airportProducts.published, true), gt(airportProducts.priceFen, 0)))
    .orderBy(asc(airportProducts.id));
  return {
    buyers,
    buildingNames,
    userCardRows,
    teamCardRows,
    seats: { 'office-seat': await seatsOf('office-seat'), 'hall-seat': await seatsOf('hall-seat') },
    rooms: [...(await roomsOf('office-station')), ...(await roomsOf('activity-station'))],
    lounges,
  };
}

/** Share of each kind among the orders generated (bookings may take fewer when rooms are full). */
const kindWeights: Record<OrderKind, number> = {
  'user-card': 22,
  'team-card': 12,
  'office-seat': 14,
  'hall-seat': 10,
  'office-station': 24,
  'activity-station': 6,
  airport: 12,
};

export interface AddedOrders {
  orders: number;
  events: number;
  byKind: Record<string, number>;
}

/**
 * Adds `count` demo orders (with their events) to whatever demo data the database holds: bookings
 * go into time the rooms' existing active bookings leave free. Returns what was written.
 */
export async function addDemoOrders(
  tx: Executor,
  options: { count: number; seed?: number; onProgress?: (done: number, total: number) => void },
): Promise<AddedOrders> {
  const { count } = options;
  const none = { orders: 0, events: 0, byKind: {} };
  if (count <= 0) return none;
  const random = generator(options.seed ?? 20261121);
  const { pick, int, chance } = tools(random);
  await addDemoMembers(tx, count, random);
  const c = await catalog(tx);
  if (c.buyers.length === 0) return none;

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

  // ---- bookings first: rooms have limited time, so they decide how many they take ----
  const weightOf = (kind: OrderKind, available: boolean) => (available ? kindWeights[kind] : 0);
  const available: Record<OrderKind, boolean> = {
    'user-card': c.userCardRows.length > 0,
    'team-card': c.teamCardRows.length > 0,
    'office-seat': c.seats['office-seat'].length > 0,
    'hall-seat': c.seats['hall-seat'].length > 0,
    'office-station': c.rooms.some((r) => r.kind === 'office-station'),
    'activity-station': c.rooms.some((r) => r.kind === 'activity-station'),
    airport: c.lounges.length > 0,
  };
  const kinds = keysOf(kindWeights);
  const totalWeight = kinds.reduce((s, k) => s + weightOf(k, available[k]), 0);
  if (totalWeight === 0) return none;
  const wantedOf = (kind: OrderKind, of: number, weightSum: number) =>
    Math.floor((of * weightOf(kind, available[kind])) / weightSum);

  // Meeting cards are generated before bookings so bookings can be paid with them.
  const teamCardCount = wantedOf('team-card', count, totalWeight);
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
  const cardsByBuilding = new Map<number, TeamCardDraft[]>();
  for (const card of cards) {
    for (const id of card.buildingIds) cardsByBuilding.set(id, [...(cardsByBuilding.get(id) ?? []), card]);
  }

  // Existing active bookings per room keep their time (a second run of seed:demo).
  const taken = new Map<string, [number, number][]>();
  if (c.rooms.length > 0) {
    const existing = await tx
      .select({
        kind: orders.kind,
        productId: orders.productId,
        startAt: orders.startAt,
        endAt: orders.endAt,
      })
      .from(orders)
      .where(
        and(
          inArray(orders.kind, ['office-station', 'activity-station']),
          inArray(orders.status, [...ACTIVE]),
          gt(orders.endAt, new Date(historyStart)),
        ),
      );
    for (const b of existing) {
      if (!b.startAt || !b.endAt) continue;
      const key = `${b.kind}:${b.productId}`;
      taken.set(key, [...(taken.get(key) ?? []), [b.startAt.getTime(), b.endAt.getTime()]]);
    }
  }

  // From the second whole day of the year, so every booking was made (and paid) before it starts.
  const firstDay = addDays(dayOf(historyStart), 2);
  const days = HISTORY_DAYS + AHEAD_DAYS - 1;
  for (const bookingKind of ['office-station', 'activity-station'] as const) {
    const rooms = c.rooms.filter((r) => r.kind === bookingKind);
    const wanted = wantedOf(bookingKind, count, totalWeight);
    if (rooms.length === 0 || wanted === 0) continue;
    // Each room gets its share, spread over the days at random, laid out one after another.
    for (const [roomIndex, { room }] of rooms.entries()) {
      const share = Math.floor(wanted / rooms.length) + (roomIndex < wanted % rooms.length ? 1 : 0);
      const open = minutesOf(room.openTime);
      const close = minutesOf(room.closeTime);
      const minimum = Math.max(30, Math.ceil(room.minBookingMinutes / 30) * 30);
      const perDayCapacity = Math.floor((close - open) / minimum);
      if (perDayCapacity <= 0) continue;
      const perDay = new Array<number>(days).fill(0);
      for (let i = 0; i < share; i++) perDay[int(0, days - 1)]++;
      const busy = taken.get(`${bookingKind}:${room.id}`) ?? [];
      const snapshot = stationSnapshot(room, buildingName(room.buildingId));
      for (let day = 0; day < days; day++) {
        const k = Math.min(perDay[day], perDayCapacity);
        const dayText = addDays(firstDay, day);
        let cursor = open;
        for (let i = 0; i < k; i++) {
          // Leave room for the bookings still to place this day.
          const latestStart = close - (k - i) * minimum;
          if (cursor > latestStart) break;
          const start = cursor + 30 * int(0, Math.min(4, Math.floor((latestStart - cursor) / 30)));
          const longest = close - start - (k - i - 1) * minimum;
          const extra = bookingKind === 'activity-station' ? 8 : 4;
          const end = start + minimum + 30 * int(0, Math.min(extra, Math.floor((longest - minimum) / 30)));
          cursor = end;
          const startAt = atMinute(dayText, start);
          const endAt = atMinute(dayText, end);
          if (busy.some(([s, e]) => s < endAt && startAt < e)) continue;
          drafts.push(booking(bookingKind, room, snapshot, startAt, endAt));
        }
      }
    }
  }

  /** One booking of a room; some meeting-room bookings are paid with a meeting card. */
  function booking(
    kind: 'office-station' | 'activity-station',
    room: typeof officeStations.$inferSelect,
    snapshot: Record<string, unknown>,
    startAt: number,
    endAt: number,
  ): Draft {
    // Booked from a few hours to ten days ahead, within the demo's year and never in the future.
    const lead = chance(0.4) ? int(1, 24) * HOUR : int(1, 10) * DAY;
    // A booking whose lead would place it in the future was made some time in the last two weeks
    // (not all in the last hours, which would crowd today's numbers).
    const wanted = startAt - lead;
    const createdAt =
      wanted < now - 5 * MINUTE ? Math.max(historyStart, wanted) : now - int(5, 14 * 24 * 60) * MINUTE;
    const amountFen = Math.round((room.hourPriceFen * (endAt - startAt)) / HOUR);
    const future = startAt > now;
    const paidAt = createdAt + int(1, 10) * MINUTE;
    const times = {
      paidAt,
      usedAt: startAt + int(0, 10) * MINUTE,
      refundedAt: paidAt + Math.floor(random() * Math.max(MINUTE, Math.min(startAt, now) - paidAt)),
    };
    const base = {
      productId: room.id,
      productSnapshot: snapshot,
      buildingId: room.buildingId,
      quantity: 1,
      amountFen,
      startAt: new Date(startAt),
      endAt: new Date(endAt),
    };
    // A meeting card of the buyer, valid in this building when paying, with enough left on it.
    if (kind === 'office-station' && paidAt < startAt && chance(0.3)) {
      const candidates = cardsByBuilding.get(room.buildingId) ?? [];
      for (let tries = 0; tries < 12 && candidates.length > 0; tries++) {
        const card = pick(candidates);
        if (card.validFrom > createdAt || paidAt >= card.validTo || card.left < amountFen) continue;
        const status: OrderStatus = future ? 'paid' : chance(0.9) ? 'used' : 'refunded';
        const d = draft(
          kind,
          { ...base, memberId: card.buyer.id, memberPhone: card.buyer.phone },
          createdAt,
          status,
          times,
          true,
        );
        card.left -= amountFen;
        if (status !== 'refunded') card.balance -= amountFen;
        d.paidBy = card;
        return d;
      }
    }
    const buyer = pick(c.buyers);
    const status = settledStatus(
      createdAt,
      future
        ? [
            ['paid', 75],
            ['cancelled', 13],
            ['refunded', 12],
          ]
        : [
            ['used', 72],
            ['paid', 6],
            ['cancelled', 12],
            ['refunded', 10],
          ],
      future,
    );
    return draft(kind, { ...base, memberId: buyer.id, memberPhone: buyer.phone }, createdAt, status, times);
  }

  // ---- the other kinds share what the bookings left ----
  const rest = count - drafts.length;
  const restKinds = kinds.filter((k) => !['team-card', 'office-station', 'activity-station'].includes(k));
  const restWeight = restKinds.reduce((s, k) => s + weightOf(k, available[k]), 0);
  const plan: OrderKind[] = [];
  for (const kind of restKinds)
    plan.push(...new Array<OrderKind>(wantedOf(kind, rest, restWeight || 1)).fill(kind));
  // Rounding leftovers (or kinds with nothing to sell) go to the first kind there is a product of.
  const fallback = restKinds.find((k) => available[k]);
  while (fallback && plan.length < rest) plan.push(fallback);

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

  // Cards' balances after the bookings they paid.
  for (const card of cards) card.draft!.row.balanceFen = card.balance;

  // Oldest first, so ids and order numbers grow with time as they would in production; a card is
  // paid before any booking it pays for, so it is inserted (and referable) first.
  drafts.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const ids = await reserveOrderIds(tx, drafts.length);
  const idOf = new Map<Draft, number>(drafts.map((d, i) => [d, ids[i]]));
  let events = 0;
  const byKind: Record<string, number> = {};
  for (let from = 0; from < drafts.length; from += BATCH) {
    const batch = drafts.slice(from, from + BATCH);
    const rows: OrderRow[] = batch.map((d) => {
      const id = idOf.get(d)!;
      const orderNo = formatOrderNo(d.kind, id, d.createdAt);
      byKind[d.kind] = (byKind[d.kind] ?? 0) + 1;
      return {
        ...d.row,
        id,
        orderNo,
        cardNo: d.hasCard ? `K${orderNo}` : null,
        cardOrderId: d.paidBy ? idOf.get(d.paidBy.draft!)! : null,
      };
    });
    await insertRows(tx, orders, rows);
    const eventRows = batch.flatMap((d) => d.events.map((e) => ({ ...e, orderId: idOf.get(d)! })));
    await insertRows(tx, orderEvents, eventRows);
    events += eventRows.length;
    options.onProgress?.(Math.min(from + BATCH, drafts.length), drafts.length);
  }
  return { orders: drafts.length, events, byKind };
}

export default async function seedOrders(tx: Executor) {
  await addDemoOrders(tx, { count: demoOrderCount(), onProgress: demoOrderProgress.report });
}
