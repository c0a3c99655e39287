/** Demo 轮播图 and 案例新闻 (images under the web app's /demo/), with one window of each state. */
import type { Executor } from '../../db/client.ts';
import { banners } from '../../db/schema.ts';

const DAY = 24 * 60 * 60 * 1000;

export default async function seedBanners(tx: Executor) {
  const now = Date.now();
  const at = (days: number) => new Date(now + days * DAY);
  await tx.insert(banners).values([
    {
      type: 'banner',
      title: '春季工位特惠，首月 8 折',
      imageUrl: '/demo/banner-1.svg',
      linkUrl: '/pages/product/seat',
      summary: '全部楼宇开放工位，新会员首月 8 折。',
      sort: 1,
      published: true,
      startAt: at(-10),
      endAt: at(50),
    },
    {
      type: 'banner',
      title: '会议室按小时预订',
      imageUrl: '/demo/banner-2.svg',
      linkUrl: '/pages/product/meeting-room',
      summary: '最少 1 小时起订，含投影与白板。',
      sort: 2,
      published: true,
    },
    {
      type: 'banner',
      title: '企业会议卡，一卡通用全城',
      imageUrl: '/demo/banner-3.svg',
      linkUrl: 'https://www.example.com/team-card',
      sort: 3,
      published: true,
      startAt: at(7),
      endAt: at(37),
    },
    {
      type: 'banner',
      title: '新楼宇开业：静安中心',
      imageUrl: '/demo/banner-4.svg',
      summary: '开业活动已结束，感谢到场的会员。',
      sort: 4,
      published: false,
      startAt: at(-40),
      endAt: at(-10),
    },
    {
      type: 'news',
      title: '某科技公司 60 人团队整层入驻',
      imageUrl: '/demo/news-1.svg',
      summary: '从选址到入驻只用了两周。',
      content:
        '<h2>从选址到入驻只用了两周</h2><p>这家成立三年的科技公司在团队扩张到 60 人时，选择了我们位于<strong>静安中心</strong>的整层办公空间。</p><ul><li>定制化的工位布局</li><li>独立会议室与电话间</li><li>企业门禁与会议卡统一管理</li></ul><p>“我们只需要带上电脑就能开始工作。”——行政负责人</p>',
      sort: 1,
      published: true,
    },
    {
      type: 'news',
      title: '联合办公社群活动回顾：创业者夜话',
      imageUrl: '/demo/news-2.svg',
      summary: '120 位会员参加，分享融资与招聘经验。',
      content:
        '<p>上周五晚，<strong>120</strong> 位会员参加了本季度的创业者夜话。</p><blockquote>下一期将于下月举行，欢迎在小程序报名。</blockquote>',
      sort: 2,
      published: true,
    },
    {
      type: 'news',
      title: '企业门禁一体化落地案例',
      imageUrl: '/demo/news-3.svg',
      summary: '员工刷手机即可进入楼宇与办公室。',
      linkUrl: 'https://www.example.com/cases/access-control',
      content: '<p>通过企业门禁组，企业管理员可以自行添加和移除员工，离职员工的通行权限即时失效。</p>',
      sort: 3,
      published: false,
    },
  ]);
}
