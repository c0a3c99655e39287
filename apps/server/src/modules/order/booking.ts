/**
 * The rules of a room booking (会议室、活动场地): inside the room's opening hours on one business
 * day (contract time.ts), on the quarter hour, at least the room's shortest booking, never in the past, and never
 * overlapping another live booking of the same room. And the meeting card that may pay for it:
 * one guarded UPDATE deducts its balance, a refund of the booking restores it.
 *
 * Concurrency: save locks the room's row (SELECT … FOR UPDATE) before looking for clashes, so two
 * bookings of one room are checked one after the other; the card's balance moves only through
 * single UPDATEs whose WHERE re-checks it, so it never goes below zero (orders_balance_check backs it).
 */
import { and, asc, desc, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import {
  businessDateTime,
  businessInstant,
  fieldInvalid,
  formatYuan,
  maskPhone,
  nextDay,
} from '@cowork/contract';
import { BOOKING_STEP_MINUTES } from '@cowork/contract/resources/station';
import { bookingClashMessage, orderSaveLabels, type CalendarBooking } from '@cowork/contract/resources/order';
import type { Executor } from '../../db/client.ts';
import { activityStations, buildings, officeStations, orders } from '../../db/schema.ts';
import { badRequest, conflict } from '../../lib/http.ts';
import { toIso } from '../../lib/time.ts';

/** The kinds of order that book a room for a time (resource.booking). */
export const bookingKinds = ['office-station', 'activity-station'] as const;
export type BookingKind = (typeof bookingKinds)[number];
export const stationTables = { 'office-station': officeStations, 'activity-station': activityStations };
type Station = typeof officeStations.$inferSelect;

/** Statuses holding a room's time: a pending booking keeps its slot until it is cancelled. */
export const liveBookingStatuses = ['pending', 'paid', 'used'] as const;

const MINUTE_MS = 60_000;

/** 'YYYY-MM-DD HH:mm' in the business time zone. */
const wallClock = (at: Date) => businessDateTime(at).slice(0, 16);

/** `2026-11-22 10:00–12:00` (the end's day is named only when it differs). */
export function bookingTimes(startAt: Date, endAt: Date): string {
  const [start, end] = [wallClock(startAt), wallClock(endAt)];
  return `${start}–${end.slice(0, 10) === start.slice(0, 10) ? end.slice(11) : end}`;
}

/** Minutes of a wall-clock 'HH:mm' from midnight: a booking's hours compare with the room's so. */
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const minuteOfDay = (at: Date) => minutesOf(wallClock(at).slice(11));

/**
 * Locks the room's row for the rest of the transaction and answers it (404-like 400 when missing),
 * its hours narrowed to its building's: a room saved before the building's hours changed is
 * bookable only while both are open.
 */
export async function lockStation(tx: Executor, kind: BookingKind, id: number): Promise<Station | undefined> {
  const table = stationTables[kind];
  const [station] = await tx.select().from(table).where(eq(table.id, id)).for('update');
  if (!station) return undefined;
  const [building] = await tx
    .select({ openTime: buildings.openTime, closeTime: buildings.closeTime })
    .from(buildings)
    .where(eq(buildings.id, station.buildingId));
  return { ...station, ...bookableHours(station, building) };
}

type Hours = { openTime: string | null; closeTime: string | null };

/** A room's hours narrowed to its building's ('HH:mm' strings order like the times they name). */
export function bookableHours(room: { openTime: string; closeTime: string }, building: Hours | undefined) {
  return {
    openTime: building?.openTime && building.openTime > room.openTime ? building.openTime : room.openTime,
    closeTime:
      building?.closeTime && building.closeTime < room.closeTime ? building.closeTime : room.closeTime,
  };
}

/** 400 naming the field when the times break the room's rules. */
export function checkBookingTimes(station: Station, startAt: Date, endAt: Date, now = new Date()) {
  const { startAt: startLabel, endAt: endLabel } = orderSaveLabels;
  if (endAt.getTime() <= startAt.getTime()) {
    throw badRequest(fieldInvalid(endLabel, '须晚于预订开始时间，请重新选择'));
  }
  for (const [label, at] of [
    [startLabel, startAt],
    [endLabel, endAt],
  ] as const) {
    if (at.getTime() % (BOOKING_STEP_MINUTES * MINUTE_MS) !== 0) {
      throw badRequest(
        fieldInvalid(label, `须在整刻钟（每 ${BOOKING_STEP_MINUTES} 分钟，如 10:00、10:15），请重新选择`),
      );
    }
  }
  if (startAt.getTime() < now.getTime()) {
    throw badRequest(fieldInvalid(startLabel, '不能早于当前时间，请选择之后的时段'));
  }
  const minutes = (endAt.getTime() - startAt.getTime()) / MINUTE_MS;
  if (minutes < station.minBookingMinutes) {
    throw badRequest(
      fieldInvalid(
        endLabel,
        `该场地最短预订 ${station.minBookingMinutes} 分钟，本次只有 ${minutes} 分钟，请延长预订`,
      ),
    );
  }
  const sameDay = wallClock(startAt).slice(0, 10) === wallClock(endAt).slice(0, 10);
  const hours = `${station.openTime}–${station.closeTime}`;
  if (
    !sameDay ||
    minuteOfDay(startAt) < minutesOf(station.openTime) ||
    minuteOfDay(endAt) > minutesOf(station.closeTime)
  ) {
    throw badRequest(
      fieldInvalid(
        startLabel,
        `须在场地与所在楼宇都开放的时间 ${hours} 内且在同一天（本次 ${bookingTimes(startAt, endAt)}），请重新选择`,
      ),
    );
  }
}

/** 409 naming the clashing booking when another live one of this room overlaps [startAt, endAt). */
export async function checkNoClash(
  tx: Executor,
  booking: { kind: BookingKind; productId: number; startAt: Date; endAt: Date; exceptId?: number },
) {
  const [clash] = await tx
    .select({ orderNo: orders.orderNo, startAt: orders.startAt, endAt: orders.endAt })
    .from(orders)
    .where(
      and(
        eq(orders.kind, booking.kind),
        eq(orders.productId, booking.productId),
        inArray(orders.status, [...liveBookingStatuses]),
        // Half-open intervals: one ending at 10:00 and the next starting at 10:00 do not clash.
        lt(orders.startAt, booking.endAt),
        gt(orders.endAt, booking.startAt),
        booking.exceptId === undefined ? undefined : ne(orders.id, booking.exceptId),
      ),
    )
    .orderBy(desc(orders.startAt))
    .limit(1);
  if (clash) throw conflict(bookingClashMessage(clash.orderNo, bookingTimes(clash.startAt!, clash.endAt!)));
}

/** Booking price: the hourly price for the booked minutes, rounded to the fen once. */
export const bookingPriceFen = (hourPriceFen: number, startAt: Date, endAt: Date) =>
  Math.round((hourPriceFen * (endAt.getTime() - startAt.getTime())) / (60 * MINUTE_MS));

/**
 * Takes `amountFen` from a paid, unexpired meeting card in one UPDATE whose WHERE re-checks the
 * balance, so concurrent bookings can never spend more than the card holds; 409 when it cannot.
 */
export async function deductCard(
  tx: Executor,
  card: { id: number; cardNo: string | null },
  amountFen: number,
) {
  const [taken] = await tx
    .update(orders)
    .set({ balanceFen: sql`${orders.balanceFen} - ${amountFen}`, updatedAt: new Date() })
    .where(
      and(
        eq(orders.id, card.id),
        eq(orders.status, 'paid'),
        sql`${orders.balanceFen} >= ${amountFen}`,
        sql`${orders.validTo} > now()`,
      ),
    )
    .returning({ balanceFen: orders.balanceFen });
  if (taken) return taken.balanceFen!;
  const [now] = await tx
    .select({ balanceFen: orders.balanceFen, status: orders.status })
    .from(orders)
    .where(eq(orders.id, card.id));
  if (now?.status !== 'paid') {
    throw conflict(`会议卡 ${card.cardNo ?? ''} 已不可用（当前不是已支付状态），请换用其他支付方式`);
  }
  throw conflict(
    `会议卡余额不足：卡 ${card.cardNo ?? ''} 余额 ${formatYuan(now.balanceFen ?? 0)}，本次预订需 ${formatYuan(amountFen)}，请换用线下支付或其他会议卡`,
  );
}

/** Gives a refunded booking's amount back to the meeting card that paid it; answers the new balance. */
export async function restoreCard(tx: Executor, cardOrderId: number, amountFen: number) {
  const [card] = await tx
    .update(orders)
    .set({ balanceFen: sql`coalesce(${orders.balanceFen}, 0) + ${amountFen}`, updatedAt: new Date() })
    .where(eq(orders.id, cardOrderId))
    .returning({ balanceFen: orders.balanceFen, orderNo: orders.orderNo });
  return card;
}

/**
 * The live bookings (pending, paid, used) of a building's rooms of one kind that overlap the
 * business days from–to, earliest first: what the booking calendar draws as busy.
 */
export async function calendarBookings(
  db: Executor,
  kind: BookingKind,
  range: { buildingId: number; from: string; to: string },
): Promise<CalendarBooking[]> {
  const start = businessInstant(range.from);
  const end = businessInstant(nextDay(range.to));
  const rows = await db
    .select({
      id: orders.id,
      orderNo: orders.orderNo,
      productId: orders.productId,
      startAt: orders.startAt,
      endAt: orders.endAt,
      status: orders.status,
      memberPhone: orders.memberPhone,
    })
    .from(orders)
    .where(
      and(
        eq(orders.kind, kind),
        eq(orders.buildingId, range.buildingId),
        inArray(orders.status, [...liveBookingStatuses]),
        lt(orders.startAt, end),
        gt(orders.endAt, start),
      ),
    )
    .orderBy(asc(orders.startAt));
  return rows.map((row) => ({
    ...row,
    startAt: toIso(row.startAt!),
    endAt: toIso(row.endAt!),
    memberPhone: maskPhone(row.memberPhone),
  }));
}
