/** Demo 会员卡: day, month and times cards for one building, a city or every demo building. */
import type { Executor } from '../../db/client.ts';
import { userCards } from '../../db/schema.ts';
import { buildingIdsByName } from '../../lib/building-scope.ts';

export const after = ['building'];

const beijing = ['氪空间·望京SOHO', '氪空间·国贸中心', '氪空间·中关村'];
const shanghai = ['梧桐树·陆家嘴', '梧桐树·徐家汇'];
const shenzhen = ['创客汇·科技园', '创客汇·福田CBD'];
const everywhere = [...beijing, ...shanghai, ...shenzhen];

const cards = [
  {
    name: '望京SOHO日卡',
    cardType: 'day',
    validDays: 1,
    priceFen: 8800,
    buildings: ['氪空间·望京SOHO'],
    description: '当日 08:00–22:00 在望京SOHO使用开放工位，含茶水与打印。',
  },
  {
    name: '北京通用日卡',
    cardType: 'day',
    validDays: 1,
    priceFen: 12800,
    buildings: beijing,
    description: '当日可在北京三个空间任选其一使用开放工位。',
  },
  {
    name: '北京通用月卡',
    cardType: 'month',
    validDays: 30,
    priceFen: 159900,
    buildings: beijing,
    description: '30 天内不限次使用北京各空间的开放工位。',
  },
  {
    name: '全国通用月卡',
    cardType: 'month',
    validDays: 30,
    priceFen: 199900,
    buildings: everywhere,
    description: '30 天内不限次使用北京、上海、深圳各空间的开放工位，出差无忧。',
  },
  {
    name: '上海十次卡',
    cardType: 'times',
    validDays: 90,
    times: 10,
    priceFen: 79900,
    buildings: shanghai,
    description: '90 天内可使用 10 次，每次当日有效。',
  },
  {
    name: '深圳十次卡',
    cardType: 'times',
    validDays: 90,
    times: 10,
    priceFen: 69900,
    buildings: shenzhen,
    description: '90 天内可使用 10 次，每次当日有效。',
  },
  {
    name: '全国二十次卡',
    cardType: 'times',
    validDays: 180,
    times: 20,
    priceFen: 149900,
    buildings: everywhere,
    description: '180 天内在任意空间共可使用 20 次。',
  },
  {
    name: '西溪季度卡',
    cardType: 'month',
    validDays: 90,
    priceFen: 399900,
    buildings: ['栖舍·西溪'],
    description: '西溪空间开业后上架。',
    published: false,
  },
] as const;

export default async function seedUserCards(tx: Executor) {
  const rows = [];
  for (const { buildings, ...card } of cards) {
    rows.push({
      times: null,
      published: true,
      ...card,
      buildingIds: await buildingIdsByName(tx, buildings),
    });
  }
  await tx.insert(userCards).values(rows);
}
