/**
 * Demo 会议室 and 活动场地: two or three meeting rooms in every published demo building, and a
 * venue in several of them, on the building's floors, inside its opening hours, with facilities
 * chosen from the configured ones.
 */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { activityStations, buildingBrightPoints, buildings, officeStations } from '../../db/schema.ts';

export const after = ['building', 'building-bright-points'];

const rooms = [
  { name: '创想厅', capacity: 12, areaSqm: 36, hourPriceFen: 12_000, facilities: 3 },
  { name: '头脑风暴室', capacity: 6, areaSqm: 18.5, hourPriceFen: 6_000, facilities: 2 },
  { name: '远见会议室', capacity: 20, areaSqm: 52, hourPriceFen: 20_000, facilities: 4 },
];

const venues = [
  { name: '星空多功能厅', capacity: 120, areaSqm: 260, hourPriceFen: 80_000 },
  { name: '屋顶花园', capacity: 60, areaSqm: 180, hourPriceFen: 50_000 },
  { name: '路演中心', capacity: 80, areaSqm: 150, hourPriceFen: 60_000 },
];

/** The room's hours: the building's, kept to daytime for buildings open around the clock. */
const hoursOf = (b: { openTime: string | null; closeTime: string | null }) => ({
  openTime: b.openTime && b.openTime !== '00:00' ? b.openTime : '08:00',
  closeTime: b.closeTime && b.closeTime !== '23:59' ? b.closeTime : '22:00',
});

export default async function seedStations(tx: Executor) {
  const published = await tx
    .select()
    .from(buildings)
    .where(eq(buildings.published, true))
    .orderBy(buildings.sort, buildings.id);
  const facilityIds = (
    await tx
      .select({ id: buildingBrightPoints.id })
      .from(buildingBrightPoints)
      .where(and(eq(buildingBrightPoints.kind, 'facility'), eq(buildingBrightPoints.published, true)))
      .orderBy(buildingBrightPoints.sort)
  ).map((f) => f.id);
  const image = (i: number) => [`/demo/meeting-room-${(i % 3) + 1}.svg`];

  await tx.insert(officeStations).values(
    published.flatMap((b, i) =>
      rooms.slice(0, 2 + (i % 2)).map((room, j) => ({
        buildingId: b.id,
        floor: b.floors[j % b.floors.length] ?? null,
        name: room.name,
        capacity: room.capacity,
        areaSqm: room.areaSqm,
        hourPriceFen: room.hourPriceFen,
        minBookingMinutes: j === 2 ? 60 : 30,
        facilityIds: facilityIds.slice(0, room.facilities),
        imageUrls: image(i + j),
        ...hoursOf(b),
        // One room per building waits for its photos before going on sale.
        published: j < 2,
      })),
    ),
  );

  await tx.insert(activityStations).values(
    published
      .filter((_, i) => i % 2 === 0)
      .map((b, i) => {
        const venue = venues[i % venues.length];
        return {
          buildingId: b.id,
          floor: b.floors.at(-1) ?? null,
          ...venue,
          minBookingMinutes: 120,
          facilityIds: facilityIds.slice(0, 5),
          imageUrls: ['/demo/venue-1.svg'],
          ...hoursOf(b),
          published: i < 3,
        };
      }),
  );
}
