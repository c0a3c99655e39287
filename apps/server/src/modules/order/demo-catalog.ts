/** What the demo sells, read from the product tables, and each kind's share of the orders. */
import { and, asc, eq, gt } from 'drizzle-orm';
import type { OrderKind } from '@cowork/contract/resources/order';
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
  teamCards,
  userCards,
} from '../../db/schema.ts';

export async function catalog(tx: Executor) {
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
export const kindWeights: Record<OrderKind, number> = {
  'user-card': 22,
  'team-card': 12,
  'office-seat': 14,
  'hall-seat': 10,
  'office-station': 24,
  'activity-station': 6,
  airport: 12,
};

export type Catalog = Awaited<ReturnType<typeof catalog>>;
