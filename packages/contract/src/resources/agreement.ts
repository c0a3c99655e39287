/**
 * 隐私协议 (csr-agreement): the texts members accept (隐私政策, 用户协议, 服务协议), kept as
 * versions. At most one version of each type is published (the one members see); publishing one
 * unpublishes the others of its type, and a published version cannot be removed.
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';

const agreementTypes = [
  { value: 'privacy', label: '隐私政策' },
  { value: 'user', label: '用户协议' },
  { value: 'service', label: '服务协议' },
] as const;
export type AgreementType = (typeof agreementTypes)[number]['value'];

export const agreement = defineResource({
  key: 'csr-agreement',
  base: `${prefixes.user}/csr-agreement`,
  label: '协议',
  permission: 'system:agreement',
  actions: ['page', 'detail', 'save', 'edit', 'editPublished', 'remove'],
  fields: {
    type: field.enumeration('协议类型', agreementTypes),
    title: field.text('标题', { max: 100, search: 'like' }),
    version: {
      ...field.text('版本号', { max: 20, search: 'eq', unique: true, uniqueWithin: 'type' }),
      schema: z
        .string({ error: '请填写版本号' })
        .trim()
        .regex(/^v\d{1,4}(\.\d{1,4}){0,2}$/i, '版本号须形如 v1、v1.2 或 v1.2.3'),
      help: '同一协议类型下不能重复，如 v1.2',
    },
    content: field.richtext('协议内容'),
    published: {
      ...field.published(),
      help: '每种协议只能发布一个版本：发布本版本会下架同类型的其他版本',
    },
  },
  titleField: 'title',
  defaultSort: { field: 'type', order: 'ascend' },
});
