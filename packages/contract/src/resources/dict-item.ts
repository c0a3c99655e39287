/** 字典项 (dict/item): one option of a 数据字典; its value is unique within its dict. */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';

export const dictItem = defineResource({
  key: 'dict-item',
  base: `${prefixes.basic}/dict/item`,
  label: '字典项',
  permission: 'system:dict',
  fields: {
    dictCode: { ...field.text('所属字典', { max: 50, search: 'eq' }), help: '所属数据字典的编码' },
    label: field.text('显示名称', { max: 50, search: 'like' }),
    value: {
      ...field.text('字典值', { max: 50, unique: true, uniqueWithin: 'dictCode' }),
      help: '程序保存的值，同一字典内不可重复',
    },
    sort: field.sort(),
    enabled: {
      label: '启用',
      kind: 'boolean',
      schema: z.boolean({ error: '启用必须是是或否' }).default(true),
      search: 'eq',
    },
  },
  actions: ['page', 'detail', 'save', 'edit', 'remove'],
  defaultSort: { field: 'sort', order: 'ascend' },
});
