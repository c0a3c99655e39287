/** 来源配置 (csr-source): where members and leads come from (channels such as 官网, 小程序, 地推). */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';

export const source = defineResource({
  key: 'csr-source',
  base: `${prefixes.user}/csr-source`,
  label: '来源',
  permission: 'system:source',
  fields: {
    name: field.text('来源名称', { max: 50, search: 'like', unique: true }),
    code: {
      ...field.text('来源编码', { max: 50, search: 'eq', unique: true }),
      schema: z
        .string({ error: '请填写来源编码' })
        .trim()
        .regex(
          /^[a-z][a-z0-9_-]{1,49}$/,
          '来源编码须以小写字母开头，只含小写字母、数字、- 和 _，长 2 到 50 位',
        ),
      help: '程序使用的唯一编码，如 wechat_mini',
    },
    sort: field.sort(),
    published: field.published(),
  },
  defaultSort: { field: 'sort', order: 'ascend' },
});
