/** Demo 会员: thirty members of a Shanghai/Beijing/Shenzhen coworking operator, with valid ID numbers. */
import { inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { csrSources, members } from '../../db/schema.ts';

/** Their sources are looked up by code, so the 来源 demo rows go first. */
export const after = ['csr-source'];

/** The check character of a resident ID number (GB 11643). */
function withCheckDigit(first17: string): string {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((s, d, i) => s + Number(d) * weights[i], 0);
  return first17 + '10X98765432'[sum % 11];
}

// [nickname, real name, phone, region code, birth date, sequence, company, source code, status, days ago]
type Demo = [string, string | null, string, string, string, string, string | null, string, 'enabled' | 'disabled', number];
const rows: Demo[] = [
  ['小林', '林晓峰', '13812345601', '310104', '19900312', '051', '上海云启信息科技有限公司', 'wechat_mini', 'enabled', 2],
  ['Echo', '陈思雨', '13912345602', '310115', '19950708', '062', '上海几何设计工作室', 'website', 'enabled', 5],
  ['阿杰', '王俊杰', '15012345603', '110105', '19880921', '073', '北京星河互娱科技有限公司', 'dianping', 'enabled', 9],
  ['Grace', '张雅婷', '15112345604', '440305', '19930115', '084', '深圳前海蓝鲸跨境电商有限公司', 'referral', 'enabled', 12],
  ['大鹏', '刘鹏', '15212345605', '330106', '19851103', '015', '杭州远帆咨询有限公司', 'ground', 'enabled', 15],
  ['豆豆', '赵欣怡', '15312345606', '320102', '19970427', '026', null, 'wechat_mini', 'enabled', 18],
  ['Kevin', '孙凯文', '15512345607', '310106', '19910619', '037', '上海凯文律师事务所', 'website', 'enabled', 21],
  ['木子', '李沐阳', '15612345608', '510107', '19940830', '048', '成都木子文化传媒有限公司', 'dianping', 'enabled', 24],
  ['Luna', '周璐', '15712345609', '110108', '19960214', '059', '北京月光影视制作有限公司', 'referral', 'enabled', 28],
  ['老吴', '吴建国', '15812345610', '310110', '19780505', '011', '上海吴氏贸易有限公司', 'ground', 'disabled', 33],
  ['橙子', '郑晨', '15912345611', '440106', '19920918', '022', '广州橙光教育科技有限公司', 'wechat_mini', 'enabled', 37],
  ['Mia', '冯米娅', '17712345612', '310101', '19990101', '033', null, 'website', 'enabled', 41],
  ['阿强', '何志强', '18012345613', '350203', '19870722', '044', '厦门鹭岛物流有限公司', 'dianping', 'enabled', 46],
  ['一帆', '许一帆', '18112345614', '310112', '19951212', '055', '上海一帆风顺网络科技有限公司', 'partner', 'enabled', 52],
  ['Coco', '高可可', '18212345615', '420106', '19980605', '066', '武汉可可甜品连锁有限公司', 'referral', 'enabled', 58],
  ['思远', '罗思远', '18312345616', '110101', '19890403', '077', '北京思远投资管理有限公司', 'website', 'enabled', 64],
  ['小鱼', '梁瑜', '18412345617', '440304', '19960909', '088', '深圳游鱼软件有限公司', 'wechat_mini', 'enabled', 71],
  ['Tony', '宋涛', '18512345618', '310105', '19830317', '019', '上海托尼美学设计有限公司', 'ground', 'enabled', 79],
  ['晴天', '唐晴', '18612345619', '330110', '19971028', '020', null, 'dianping', 'enabled', 86],
  ['阿May', '韩美', '18712345620', '320583', '19940220', '031', '昆山美好电子有限公司', 'referral', 'disabled', 94],
  ['石头', '曹磊', '18812345621', '370102', '19860612', '042', '济南磐石建筑设计院', 'website', 'enabled', 103],
  ['Vivian', '彭薇', '18912345622', '310107', '19930707', '053', '上海薇光市场营销有限公司', 'wechat_mini', 'enabled', 112],
  ['阿光', '邓光明', '13012345623', '440103', '19810130', '064', '广州光明餐饮管理有限公司', 'ground', 'enabled', 121],
  ['安安', '谢安琪', '13112345624', '500103', '19990815', '075', null, 'dianping', 'enabled', 133],
  ['Leo', '潘立昂', '13212345625', '310113', '19920526', '086', '上海立昂数据服务有限公司', 'partner', 'enabled', 146],
  ['小满', '蒋小满', '13312345626', '610113', '19980321', '017', '西安小满茶饮有限公司', 'referral', 'enabled', 160],
  ['阿宁', '沈宁', '13512345627', '310109', '19901111', '028', '上海宁静心理咨询有限公司', 'website', 'enabled', 175],
  ['Jason', '蔡家声', '13612345628', '110106', '19840909', '039', '北京家声音乐文化有限公司', 'wechat_mini', 'enabled', 191],
  ['花花', null, '13712345629', '', '', '', null, 'dianping', 'enabled', 208],
  ['远方', null, '13812345630', '', '', '', null, 'ground', 'enabled', 226],
];

export default async function seedMembers(tx: Executor) {
  const codes = [...new Set(rows.map((r) => r[7]))];
  const sources = await tx
    .select({ id: csrSources.id, code: csrSources.code })
    .from(csrSources)
    .where(inArray(csrSources.code, codes));
  const sourceId = new Map(sources.map((s) => [s.code, s.id]));
  const now = Date.now();
  await tx.insert(members).values(
    rows.map(([nickname, realName, phone, region, birth, sequence, companyName, source, status, daysAgo]) => ({
      phone,
      nickname,
      realName,
      idCardNo: region ? withCheckDigit(`${region}${birth}${sequence}`) : null,
      companyName,
      sourceId: sourceId.get(source) ?? null,
      status,
      // Spread over the last months, at a plausible hour of the day.
      registeredAt: new Date(now - daysAgo * 86_400_000 - ((daysAgo * 37) % 600) * 60_000),
    })),
  );
}
