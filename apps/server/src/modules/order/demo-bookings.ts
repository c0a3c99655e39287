/**
 * Demo bookings of 会议室 and 活动场地: laid one after another per room inside its opening hours,
 * never overlapping each other or the bookings already stored, at least the room's minimum length;
 * some paid by a meeting card of the same member.
 */
import { and, gt, inArray } from 'drizzle-orm';
import { addDays } from '@cowork/contract';
import type { OrderKind, OrderStatus } from '@cowork/contract/resources/order';
import type { Executor } from '../../db/client.ts';
import { orders, type officeStations } from '../../db/schema.ts';
import { HISTORY_DAYS, type DemoRun, type Draft, type TeamCardDraft } from './demo-drafts.ts';
import { atMinute, dayOf, DAY, HOUR, MINUTE, minutesOf } from './demo-tools.ts';
import { stationSnapshot } from './snapshot.ts';

/** Bookings are made up to two weeks ahead, so some start after today. */
const AHEAD_DAYS = 14;
/** Active bookings hold their room's time; cancelled and refunded ones freed it. */
const ACTIVE: readonly OrderStatus[] = ['pending', 'paid', 'used'];

/** The time the rooms' active bookings already hold, by `kind:roomId`. */
async function bookedTimes(tx: Executor, { c, historyStart }: DemoRun) {
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
  return taken;
}

/**
 * Each booking kind's `wanted` bookings, shared among its rooms and spread over the days at random;
 * `cards` (the meeting cards still paid) pay for some.
 */
export async function bookingDrafts(
  tx: Executor,
  run: DemoRun,
  wantedOf: (kind: OrderKind) => number,
  cards: TeamCardDraft[],
) {
  const { c, int, drafts, buildingName, historyStart } = run;
  const cardsByBuilding = new Map<number, TeamCardDraft[]>();
  for (const card of cards) {
    for (const id of card.buildingIds) cardsByBuilding.set(id, [...(cardsByBuilding.get(id) ?? []), card]);
  }
  const taken = await bookedTimes(tx, run);

  // From the second whole day of the year, so every booking was made (and paid) before it starts.
  const firstDay = addDays(dayOf(historyStart), 2);
  const days = HISTORY_DAYS + AHEAD_DAYS - 1;
  for (const bookingKind of ['office-station', 'activity-station'] as const) {
    const rooms = c.rooms.filter((r) => r.kind === bookingKind);
    const wanted = wantedOf(bookingKind);
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
          drafts.push(booking(run, cardsByBuilding, bookingKind, room, snapshot, startAt, endAt));
        }
      }
    }
  }
}

/** One booking of a room; some meeting-room bookings are paid with a meeting card. */
function booking(
  run: DemoRun,
  cardsByBuilding: Map<number, TeamCardDraft[]>,
  kind: 'office-station' | 'activity-station',
  room: typeof officeStations.$inferSelect,
  snapshot: Record<string, unknown>,
  startAt: number,
  endAt: number,
): Draft {
  const { random, c, pick, int, chance, now, historyStart, draft, settledStatus } = run;
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
