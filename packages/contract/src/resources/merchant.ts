/** 商户管理 (merchant): the operators that run buildings and receive a share of their sales. */
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';

export const merchant = defineResource({
  key: 'merchant',
  base: `${prefixes.merchant}/merchant`,
  label: '商户',
  permission: 'merchant:brand',
  fields: {
    name: field.text('商户名称', { max: 50, search: 'like', unique: true }),
    logoUrl: field.image('商户Logo'),
    contactName: field.text('联系人', { max: 30, optional: true, search: 'like' }),
    contactPhone: field.phone('联系电话', { optional: true, search: 'eq' }),
    licenseNo: field.text('统一社会信用代码', { max: 30, optional: true, list: false }),
    bankAccountName: field.text('开户名', { max: 100, optional: true, list: false }),
    bankName: field.text('开户行', { max: 100, optional: true, list: false }),
    bankAccountNo: field.text('银行账号', { max: 40, optional: true }),
    description: field.textarea('简介', { max: 500, optional: true }),
    sort: field.sort(),
    published: field.published(),
  },
  defaultSort: { field: 'sort', order: 'ascend' },
});
