/** Demo 数据字典: options the member and lead screens use (行业, 公司规模, 工位类型, 需求面积). */
import type { Executor } from '../../db/client.ts';
import { dictItems, dicts } from '../../db/schema.ts';

const demoDicts: { code: string; name: string; description: string; items: [string, string][] }[] = [
  {
    code: 'industry',
    name: '行业',
    description: '会员与线索所属行业',
    items: [
      ['互联网/IT', 'internet'],
      ['金融', 'finance'],
      ['文化传媒', 'media'],
      ['教育培训', 'education'],
      ['咨询服务', 'consulting'],
      ['电子商务', 'ecommerce'],
      ['生物医药', 'biomedicine'],
      ['其他', 'other'],
    ],
  },
  {
    code: 'company_size',
    name: '公司规模',
    description: '企业客户的员工人数区间',
    items: [
      ['1-10 人', '1_10'],
      ['11-50 人', '11_50'],
      ['51-200 人', '51_200'],
      ['201-500 人', '201_500'],
      ['500 人以上', '500_plus'],
    ],
  },
  {
    code: 'desk_type',
    name: '工位类型',
    description: '定制场地线索的意向工位类型',
    items: [
      ['开放工位', 'hot_desk'],
      ['固定工位', 'fixed_desk'],
      ['独立办公室', 'private_office'],
      ['整层定制', 'whole_floor'],
    ],
  },
];

export default async function seedDicts(tx: Executor) {
  await tx
    .insert(dicts)
    .values(demoDicts.map(({ code, name, description }) => ({ code, name, description })));
  await tx
    .insert(dictItems)
    .values(
      demoDicts.flatMap(({ code, items }) =>
        items.map(([label, value], i) => ({ dictCode: code, label, value, sort: i + 1, enabled: true })),
      ),
    );
}
