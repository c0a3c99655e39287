/**
 * The products 新建订单 may sell (`GET {base}/save/products`): the published rooms of a booking kind,
 * each with its building and the hours it may be booked, or the published cards of a card kind.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { OrderProductOption } from '@cowork/contract/resources/order';
import type { Executor } from '../../db/client.ts';
import { buildings, teamCards, userCards } from '../../db/schema.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { bookableHours, stationTables, type BookingKind } from './booking.ts';

export const cardTables = { 'user-card': userCards, 'team-card': teamCards } as const;
type CardKind = keyof typeof cardTables;

/**
 * Published products of this kind with where they sell; a room's label names its building. An API
 * key limited to buildings is offered only what sells in them (what its 新建订单 accepts).
 */
export async function saleProducts(
  db: Executor,
  request: FastifyRequest,
  bookingKind: BookingKind | undefined,
  cardKind: CardKind | undefined,
): Promise<OrderProductOption[]> {
  const buildingRows = await db
    .select({
      id: buildings.id,
      name: buildings.name,
      openTime: buildings.openTime,
      closeTime: buildings.closeTime,
    })
    .from(buildings);
  const names = new Map(buildingRows.map((b) => [b.id, b.name]));
  const hoursOf = new Map(buildingRows.map((b) => [b.id, b]));
  if (bookingKind) {
    const table = stationTables[bookingKind];
    const rows = await db
      .select()
      .from(table)
      .where(and(eq(table.published, true), inKeyBuildings(request, table.buildingId)))
      .orderBy(asc(table.buildingId), asc(table.id));
    return rows.map((s) => ({
      value: s.id,
      label: `${names.get(s.buildingId) ?? ''} · ${s.name}`,
      buildingIds: [s.buildingId],
      priceFen: s.hourPriceFen,
      // The hours a booking may use: the room's, within its building's (booking.ts lockStation).
      ...bookableHours(s, hoursOf.get(s.buildingId)),
      minBookingMinutes: s.minBookingMinutes,
    }));
  }
  if (!cardKind) return [];
  const table = cardTables[cardKind];
  const rows = await db
    .select({ id: table.id, name: table.name, priceFen: table.priceFen, buildingIds: table.buildingIds })
    .from(table)
    .where(and(eq(table.published, true), inKeyBuildings(request, table.buildingIds)))
    .orderBy(asc(table.id));
  return rows.map((c) => ({
    value: c.id,
    label: c.name,
    buildingIds: c.buildingIds,
    priceFen: c.priceFen,
    openTime: null,
    closeTime: null,
    minBookingMinutes: null,
  }));
}
