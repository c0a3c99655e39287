/**
 * The product as sold, kept on the order (`product_snapshot`): one shape per kind, written by
 * 新建订单 and by the demo alike, and read by the detail drawer and the lists.
 */
import type { activityStations, officeStations, teamCards, userCards } from '../../db/schema.ts';

type Station = typeof officeStations.$inferSelect | typeof activityStations.$inferSelect;

export const userCardSnapshot = (card: typeof userCards.$inferSelect, buildingName: string | null) => ({
  name: card.name,
  cardType: card.cardType,
  priceFen: card.priceFen,
  validDays: card.validDays,
  times: card.times,
  buildingName,
});

export const teamCardSnapshot = (card: typeof teamCards.$inferSelect, buildingName: string | null) => ({
  name: card.name,
  priceFen: card.priceFen,
  faceValueFen: card.faceValueFen,
  validDays: card.validDays,
  buildingName,
});

export const stationSnapshot = (room: Station, buildingName: string | null) => ({
  name: room.name,
  floor: room.floor,
  capacity: room.capacity,
  hourPriceFen: room.hourPriceFen,
  minBookingMinutes: room.minBookingMinutes,
  openTime: room.openTime,
  closeTime: room.closeTime,
  buildingName,
});
