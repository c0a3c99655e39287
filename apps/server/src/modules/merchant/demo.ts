/** Demo 商户: three operators that run the demo buildings. */
import type { Executor } from '../../db/client.ts';
import { merchants } from '../../db/schema.ts';

export const demoMerchants = [
  {
    name: '氪空间联合办公',
    contactName: '林晓峰',
    contactPhone: '13810012001',
    licenseNo: '91110105MA01ABCD1X',
    bankAccountName: '北京氪空间科技有限公司',
    bankName: '招商银行北京朝阳支行',
    bankAccountNo: '6214830100012001',
    description: '覆盖北京、上海、深圳的联合办公品牌，主打灵活工位与会议室。',
    published: true,
    sort: 1,
  },
  {
    name: '梧桐树办公',
    contactName: '周雨桐',
    contactPhone: '13916022002',
    licenseNo: '91310115MA1H2EFG2Y',
    bankAccountName: '上海梧桐树企业管理有限公司',
    bankName: '中国工商银行上海浦东支行',
    bankAccountNo: '6222021001122002',
    description: '上海本地精品办公空间运营商，擅长企业定制办公。',
    published: true,
    sort: 2,
  },
  {
    name: '南山创客汇',
    contactName: '陈嘉豪',
    contactPhone: '13728033003',
    licenseNo: '91440300MA5FHIJ3Z',
    bankAccountName: '深圳南山创客汇运营有限公司',
    bankName: '中国建设银行深圳南山支行',
    bankAccountNo: '6217003003123003',
    description: '深圳科技园片区的创业孵化与活动场地运营商。',
    published: true,
    sort: 3,
  },
  {
    name: '西湖栖舍',
    contactName: '沈安然',
    contactPhone: '13588044004',
    licenseNo: '91330106MA2KLMN4W',
    bankAccountName: '杭州西湖栖舍文化创意有限公司',
    bankName: '杭州银行西湖支行',
    bankAccountNo: '6223094004124004',
    description: '杭州西湖区的文创办公社区，筹备中，暂未上架。',
    published: false,
    sort: 4,
  },
];

export default async function seedMerchants(tx: Executor) {
  await tx.insert(merchants).values(demoMerchants);
}
