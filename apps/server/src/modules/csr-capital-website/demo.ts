/** Demo 物业合作 leads: owners of office floors and buildings offering them to run. */
import type { Executor } from '../../db/client.ts';
import { seedLeads, type LeadDemo } from '../csr-capital-site/lead-demo.ts';

/** Sources are looked up by code. */
export const after = ['csr-source'];

const properties = [
  ['上海陆家嘴置业有限公司', '上海市浦东新区世纪大道 88 号 12 层', 2400],
  ['北京望京物业管理有限公司', '北京市朝阳区望京街 10 号 B 座', 5200],
  ['深圳南山产业园运营公司', '深圳市南山区科技园中区 6 栋', 8000],
  ['杭州滨江商务楼宇公司', '杭州市滨江区江南大道 3688 号', 3600],
  ['成都高新置业有限公司', '成都市高新区天府大道中段 1268 号', 4500],
] as const;

const leads: LeadDemo[] = Array.from({ length: 20 }, (_, i) => {
  const [company, address, area] = properties[i % properties.length];
  const round = Math.floor(i / properties.length);
  return {
    companyName: round ? `${company}（第 ${round + 1} 处物业）` : company,
    demand: round % 2 ? '整层招商，希望联营分成' : '空置楼层寻求联合办公运营方，可接受租金加分成',
    extra: { propertyAddress: address, propertyAreaSqm: area + round * 500 },
  };
});

export default async function seedWebsiteLeads(tx: Executor) {
  await seedLeads(tx, 'website', leads);
}
