/** Demo 来源: the channels a Chinese coworking operator typically tracks. */
import type { Executor } from '../../db/client.ts';
import { csrSources } from '../../db/schema.ts';

export default async function seedSources(tx: Executor) {
  await tx.insert(csrSources).values([
    { name: '官网', code: 'website', sort: 1, published: true },
    { name: '微信小程序', code: 'wechat_mini', sort: 2, published: true },
    { name: '大众点评', code: 'dianping', sort: 3, published: true },
    { name: '地推活动', code: 'ground', sort: 4, published: true },
    { name: '老客户推荐', code: 'referral', sort: 5, published: true },
    { name: '渠道合作伙伴', code: 'partner', sort: 6, published: false },
  ]);
}
