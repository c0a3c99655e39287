/**
 * 商户管理 (merchant): the operators that run buildings and receive a share of their sales. Bank
 * account numbers leave the server masked (`maskBankAccount`) unless the caller may edit merchants.
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';

const bankAccountInvalid = '银行账号只能是 8–30 位数字，请核对后重新填写';

export const merchant = defineResource({
  key: 'merchant',
  base: `${prefixes.merchant}/merchant`,
  label: '商户',
  permission: 'merchant:brand',
  fields: {
    name: field.text('商户名称', { max: 50, search: 'like', unique: true }),
    logoUrl: field.image('商户Logo', { help: '建议使用正方形图片，不超过 2 MB' }),
    contactName: field.text('联系人', { max: 30, optional: true, search: 'like' }),
    contactPhone: field.phone('联系电话', { optional: true, search: 'prefix' }),
    licenseNo: field.text('统一社会信用代码', { max: 30, optional: true, list: false }),
    bankAccountName: field.text('开户名', { max: 100, optional: true, list: false }),
    bankName: field.text('开户行', { max: 100, optional: true, list: false }),
    bankAccountNo: {
      ...field.text('银行账号', { optional: true }),
      schema: z
        .string({ error: bankAccountInvalid })
        .trim()
        .nullish()
        .transform((v) => (v === '' ? null : v))
        .pipe(
          z
            .string()
            .regex(/^\d{8,30}$/, bankAccountInvalid)
            .nullish(),
        ),
      help: '8–30 位数字；只有可编辑商户的人员能看到完整账号',
      mask: maskBankAccount,
    },
    description: field.textarea('简介', { max: 500, optional: true }),
    sort: field.sort(),
    published: field.published(),
  },
  defaultSort: { field: 'sort', order: 'ascend' },
});

/** `6214830100012001` → `************2001`: only the last four digits stay readable. */
export function maskBankAccount(value: string | null | undefined): string | null {
  if (!value) return value ?? null;
  return `${'*'.repeat(Math.max(value.length - 4, 0))}${value.slice(-4)}`;
}
