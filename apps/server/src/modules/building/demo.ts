/**
 * Demo 楼宇: eight buildings in four cities with real area codes (GB/T 2260), coordinates, floors,
 * facilities and house rules chosen from their configuration.
 */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { buildingBrightPoints, buildingRules, buildings, merchants } from '../../db/schema.ts';

export const after = ['merchant', 'building-bright-points', 'building-rule'];

const floorsFrom = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${from + i}F`);

export const demoBuildings = [
  {
    merchant: '氪空间联合办公',
    name: '氪空间·望京SOHO',
    provinceCode: '110000',
    cityCode: '110100',
    regionCode: '110105',
    address: '望京街10号望京SOHO塔3 B座',
    longitude: 116.481,
    latitude: 39.9962,
    floors: floorsFrom(8, 12),
    openTime: '08:00',
    closeTime: '22:00',
    phone: '01064701001',
  },
  {
    merchant: '氪空间联合办公',
    name: '氪空间·国贸中心',
    provinceCode: '110000',
    cityCode: '110100',
    regionCode: '110105',
    address: '建国门外大街1号国贸写字楼2座',
    longitude: 116.4609,
    latitude: 39.9087,
    floors: floorsFrom(15, 18),
    openTime: '00:00',
    closeTime: '23:59',
    phone: '01065051002',
  },
  {
    merchant: '氪空间联合办公',
    name: '氪空间·中关村',
    provinceCode: '110000',
    cityCode: '110100',
    regionCode: '110108',
    address: '中关村大街27号中关村大厦',
    longitude: 116.3165,
    latitude: 39.9834,
    floors: floorsFrom(5, 7),
    openTime: '08:30',
    closeTime: '21:30',
    phone: '01062561003',
  },
  {
    merchant: '梧桐树办公',
    name: '梧桐树·陆家嘴',
    provinceCode: '310000',
    cityCode: '310100',
    regionCode: '310115',
    address: '世纪大道100号环球金融中心',
    longitude: 121.5074,
    latitude: 31.2352,
    floors: floorsFrom(30, 33),
    openTime: '08:00',
    closeTime: '22:00',
    phone: '02168771004',
  },
  {
    merchant: '梧桐树办公',
    name: '梧桐树·徐家汇',
    provinceCode: '310000',
    cityCode: '310100',
    regionCode: '310104',
    address: '虹桥路1号港汇恒隆广场办公楼一座',
    longitude: 121.4371,
    latitude: 31.1951,
    floors: floorsFrom(20, 22),
    openTime: '08:30',
    closeTime: '21:00',
    phone: '02164071005',
  },
  {
    merchant: '南山创客汇',
    name: '创客汇·科技园',
    provinceCode: '440000',
    cityCode: '440300',
    regionCode: '440305',
    address: '科苑南路3099号中国储能大厦',
    longitude: 113.9448,
    latitude: 22.5293,
    floors: floorsFrom(10, 14),
    openTime: '00:00',
    closeTime: '23:59',
    phone: '075586001006',
  },
  {
    merchant: '南山创客汇',
    name: '创客汇·福田CBD',
    provinceCode: '440000',
    cityCode: '440300',
    regionCode: '440304',
    address: '福华三路88号财富大厦',
    longitude: 114.0579,
    latitude: 22.5362,
    floors: floorsFrom(25, 27),
    openTime: '08:00',
    closeTime: '22:00',
    phone: '075583001007',
  },
  {
    merchant: '西湖栖舍',
    name: '栖舍·西溪',
    provinceCode: '330000',
    cityCode: '330100',
    regionCode: '330106',
    address: '文二西路738号西溪乐谷',
    longitude: 120.0826,
    latitude: 30.2793,
    floors: floorsFrom(1, 3),
    openTime: '09:00',
    closeTime: '20:00',
    phone: '057188001008',
    published: false,
  },
];

export default async function seedBuildings(tx: Executor) {
  const merchantIds = new Map(
    (await tx.select({ id: merchants.id, name: merchants.name }).from(merchants)).map((m) => [m.name, m.id]),
  );
  const facilityIds = (
    await tx
      .select({ id: buildingBrightPoints.id })
      .from(buildingBrightPoints)
      .where(eq(buildingBrightPoints.published, true))
  ).map((p) => p.id);
  const ruleIds = (
    await tx.select({ id: buildingRules.id }).from(buildingRules).where(eq(buildingRules.published, true))
  ).map((r) => r.id);
  await tx.insert(buildings).values(
    demoBuildings.map(({ merchant, ...building }, i) => ({
      ...building,
      merchantId: merchantIds.get(merchant)!,
      // Each building offers a different mix of what is configured.
      brightPointIds: facilityIds.filter((_, j) => (i + j) % 3 !== 0),
      ruleIds: ruleIds.filter((_, j) => (i + j) % 2 === 0),
      description: `${building.name}位于${building.address}，提供开放工位、独立办公室和会议室。`,
      published: building.published ?? true,
      sort: i + 1,
    })),
  );
}
