/** Demo 定制场地 leads: companies asking for offices, event spaces and training rooms. */
import type { Executor } from '../../db/client.ts';
import { seedLeads, type LeadDemo } from './lead-demo.ts';

/** Sources are looked up by code. */
export const after = ['csr-source'];

const needs = [
  ['独立办公室', 20, 150],
  ['年会场地', 200, 600],
  ['培训教室', 40, 120],
  ['路演活动厅', 120, 300],
  ['项目组临时办公', 12, 80],
] as const;
const companies = [
  '上海星河科技有限公司',
  '北京云帆文化传媒',
  '深圳前海智造科技',
  '杭州青禾网络',
  '成都天府数据服务',
  '上海蓝鲸教育咨询',
  '北京数智未来科技',
  '深圳海岸线设计',
  '杭州拾光影视',
  '成都锦城律师事务所',
];

const leads: LeadDemo[] = Array.from({ length: 20 }, (_, i) => {
  const [need, headcount, areaSqm] = needs[i % needs.length];
  const expected = new Date(Date.now() + (10 + i * 3) * 24 * 3600_000);
  return {
    companyName: `${companies[i % companies.length]}${i >= companies.length ? '（二期）' : ''}`,
    demand: `需要${need}，约 ${headcount} 人，希望交通便利、可开发票`,
    extra: {
      headcount,
      areaSqm,
      budgetFen: headcount * 150_000,
      expectedDate: expected.toISOString().slice(0, 10),
    },
  };
});

export default async function seedSiteLeads(tx: Executor) {
  await seedLeads(tx, 'site', leads);
}
