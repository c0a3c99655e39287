/**
 * Demo 工位: in each published demo building, office seats (A区/B区) on its first floors and a few
 * hall seats in the lobby, each sold as a day and a month package.
 */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { buildings, hallSeatGoods, hallSeats, officeSeatGoods, officeSeats } from '../../db/schema.ts';

export const after = ['building'];

/** The published demo buildings that get seats, looked up by name. */
const demoBuildingNames = ['氪空间·望京SOHO', '氪空间·国贸中心', '梧桐树·陆家嘴', '创客汇·科技园'];

type SeatRow = typeof officeSeats.$inferInsert;

function officeRows(buildingId: number, floors: string[]): SeatRow[] {
  const rows: SeatRow[] = [];
  for (const [zone, floor] of [
    ['A区', floors[0]],
    ['B区', floors[1] ?? floors[0]],
  ] as const) {
    for (let n = 1; n <= 4; n++) {
      const fixed = n <= 2;
      rows.push({
        buildingId,
        floor,
        code: `${zone}-${String(n).padStart(2, '0')}`,
        name: fixed ? `${zone}靠窗固定工位${n}` : `${zone}灵活工位${n}`,
        seatType: fixed ? 'fixed' : 'flexible',
        dayPriceFen: fixed ? null : 8800,
        monthPriceFen: fixed ? 150000 : 120000,
        status: 'enabled',
        published: n !== 4,
      });
    }
  }
  return rows;
}

function hallRows(buildingId: number, floors: string[]): SeatRow[] {
  return [1, 2, 3].map((n) => ({
    buildingId,
    floor: floors[0],
    code: `大厅-${String(n).padStart(2, '0')}`,
    name: `大厅共享工位${n}`,
    seatType: 'flexible',
    dayPriceFen: 5800,
    monthPriceFen: n === 3 ? null : 88000,
    status: n === 3 ? 'disabled' : 'enabled',
    published: n !== 3,
  }));
}

/** A day package and a month package for each price the seat has. */
const goodsOf = (seat: { id: number; dayPriceFen: number | null; monthPriceFen: number | null }) => [
  ...(seat.dayPriceFen !== null
    ? [{ seatId: seat.id, name: '日租套餐', priceFen: seat.dayPriceFen, unit: 'day' as const, stock: 30 }]
    : []),
  ...(seat.monthPriceFen !== null
    ? [{ seatId: seat.id, name: '包月套餐', priceFen: seat.monthPriceFen, unit: 'month' as const, stock: 5 }]
    : []),
];

export default async function seedSeats(tx: Executor) {
  for (const name of demoBuildingNames) {
    const [building] = await tx
      .select({ id: buildings.id, floors: buildings.floors })
      .from(buildings)
      .where(eq(buildings.name, name));
    if (!building) continue;
    for (const [seats, goods, rows] of [
      [officeSeats, officeSeatGoods, officeRows(building.id, building.floors)],
      [hallSeats, hallSeatGoods, hallRows(building.id, building.floors)],
    ] as const) {
      const saved = await tx.insert(seats).values(rows).returning();
      await tx.insert(goods).values(saved.flatMap(goodsOf));
    }
  }
}
