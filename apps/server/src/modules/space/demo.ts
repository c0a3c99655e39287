/**
 * Demo 物理空间: in each of the first three published buildings, a lobby gate, its first two floors,
 * and under them a room for each of the building's meeting rooms and venues (linked to it, so their
 * bookings open doors) and a floor gate. The demo door devices (device-link/demo.ts) are placed here.
 */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { activityStations, buildings, officeStations, spaces } from '../../db/schema.ts';

export const after = ['building', 'station'];

export default async function seedSpaces(tx: Executor) {
  const published = await tx
    .select()
    .from(buildings)
    .where(eq(buildings.published, true))
    .orderBy(buildings.sort, buildings.id)
    .limit(3);
  for (const building of published) {
    const add = async (values: Omit<typeof spaces.$inferInsert, 'buildingId'>) =>
      (
        await tx
          .insert(spaces)
          .values({ buildingId: building.id, ...values })
          .returning({ id: spaces.id })
      )[0].id;
    await add({ name: '大堂闸机', kind: 'gate', sort: 0 });
    const floorNames = building.floors.length ? building.floors.slice(0, 2) : ['1F'];
    const floors: { name: string; id: number }[] = [];
    for (const [i, name] of floorNames.entries())
      floors.push({ name, id: await add({ name, kind: 'floor', sort: i + 1 }) });
    const floorOf = (name: string | null) => floors.find((f) => f.name === name) ?? floors[0];
    for (const floor of floors)
      await add({ name: `${floor.name} 门禁`, kind: 'gate', parentId: floor.id, sort: 0 });
    const rooms = await tx.select().from(officeStations).where(eq(officeStations.buildingId, building.id));
    for (const [i, room] of rooms.entries())
      await add({
        name: room.name,
        kind: 'room',
        parentId: floorOf(room.floor).id,
        officeStationId: room.id,
        sort: i + 1,
      });
    const venues = await tx
      .select()
      .from(activityStations)
      .where(eq(activityStations.buildingId, building.id));
    for (const [i, venue] of venues.entries())
      await add({
        name: venue.name,
        kind: 'room',
        parentId: floorOf(venue.floor).id,
        activityStationId: venue.id,
        sort: rooms.length + i + 1,
      });
  }
}
