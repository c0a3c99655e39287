/**
 * Demo 机场贵宾厅: a lounge for most demo airports, the busiest priced and on sale, the others
 * waiting for a price; a few airports are left without one so `init` has work to show.
 */
import { asc } from 'drizzle-orm';
import { defaultLoungeName } from '@cowork/contract/resources/airport-product';
import type { Executor } from '../../db/client.ts';
import { airportCodes, airportProducts } from '../../db/schema.ts';

export const after = ['airport-code'];

/** Priced lounges: code → terminal, price in fen and the supplier's SKU. */
const priced: Record<string, { terminal: string; priceFen: number; supplierSku: string }> = {
  PEK: { terminal: 'T3 国内出发', priceFen: 39_800, supplierSku: 'LG-PEK-T3-01' },
  PKX: { terminal: '航站楼 国内出发', priceFen: 36_800, supplierSku: 'LG-PKX-01' },
  PVG: { terminal: 'T2 国内出发', priceFen: 35_800, supplierSku: 'LG-PVG-T2-01' },
  SHA: { terminal: 'T2', priceFen: 29_900, supplierSku: 'LG-SHA-T2-01' },
  CAN: { terminal: 'T2', priceFen: 29_900, supplierSku: 'LG-CAN-T2-01' },
  SZX: { terminal: 'T3', priceFen: 32_800, supplierSku: 'LG-SZX-T3-01' },
  HGH: { terminal: 'T4', priceFen: 26_800, supplierSku: 'LG-HGH-T4-01' },
};

export default async function seedAirportProducts(tx: Executor) {
  const airports = await tx.select().from(airportCodes).orderBy(asc(airportCodes.id));
  await tx.insert(airportProducts).values(
    // The last three airports get their products from 初始化贵宾厅产品.
    airports.slice(0, -3).map((a) => ({
      airportCode: a.code,
      loungeName: defaultLoungeName(a.city, a.airportName),
      terminal: priced[a.code]?.terminal ?? null,
      priceFen: priced[a.code]?.priceFen ?? 0,
      supplierSku: priced[a.code]?.supplierSku ?? null,
      published: a.code in priced,
    })),
  );
}
