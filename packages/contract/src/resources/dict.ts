/**
 * 数据字典 (dict): named lists of options (行业, 公司规模, …) that selects anywhere read through
 * `dict/key/{code}`. Its items are the dict-item resource (./dict-item.ts).
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';

export const DICT_CODE_PATTERN = /^[a-z][a-z0-9_]{1,49}$/;

export const dict = defineResource({
  key: 'dict',
  base: `${prefixes.basic}/dict`,
  label: '数据字典',
  permission: 'system:dict',
  fields: {
    code: {
      ...field.text('字典编码', { max: 50, search: 'like', unique: true }),
      schema: z
        .string({ error: '请填写字典编码' })
        .trim()
        .regex(DICT_CODE_PATTERN, '字典编码须以小写字母开头，只含小写字母、数字和 _，长 2 到 50 位'),
      help: '程序读取字典时使用的唯一编码，如 company_size',
    },
    name: field.text('字典名称', { max: 50, search: 'like' }),
    description: field.textarea('描述', { max: 500, optional: true, list: true }),
  },
  actions: ['page', 'detail', 'save', 'edit', 'remove'],
});

/** `GET {base}/key/{code}`: the enabled items of a dict in display order, for selects. */
export const dictKeyPath = (code: string) => `${dict.base}/key/${encodeURIComponent(code)}`;
