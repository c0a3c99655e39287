/** Demo 会议卡: stored-value cards from 200 to 5000 yuan, sold at or below their face value. */
import type { Executor } from '../../db/client.ts';
import { teamCards } from '../../db/schema.ts';
import { buildingIdsByName } from '../../lib/building-scope.ts';

export const after = ['building'];

const beijing = ['氪空间·望京SOHO', '氪空间·国贸中心', '氪空间·中关村'];
const shanghai = ['梧桐树·陆家嘴', '梧桐树·徐家汇'];
const shenzhen = ['创客汇·科技园', '创客汇·福田CBD'];
const everywhere = [...beijing, ...shanghai, ...shenzhen, '栖舍·西溪'];

const cards = [
  { name: '500元会议卡', faceValueFen: 50000, priceFen: 48000, validDays: 180, buildings: beijing },
  { name: '1000元会议卡', faceValueFen: 100000, priceFen: 92000, validDays: 365, buildings: everywhere },
  { name: '2000元会议卡', faceValueFen: 200000, priceFen: 176000, validDays: 365, buildings: everywhere },
  { name: '上海300元会议卡', faceValueFen: 30000, priceFen: 30000, validDays: 90, buildings: shanghai },
  { name: '深圳新会员体验卡', faceValueFen: 20000, priceFen: 9900, validDays: 30, buildings: shenzhen },
  {
    name: '5000元企业会议卡',
    faceValueFen: 500000,
    priceFen: 420000,
    validDays: 365,
    buildings: everywhere,
    published: false,
  },
];

export default async function seedTeamCards(tx: Executor) {
  const rows = [];
  for (const { buildings, ...card } of cards) {
    rows.push({ published: true, ...card, buildingIds: await buildingIdsByName(tx, buildings) });
  }
  await tx.insert(teamCards).values(rows);
}
