/**
 * 会员 (user): members sign up in the member app, so the console only reads and corrects them
 * (no save or remove). ID-card numbers are masked in lists; the detail shows them in full only to
 * staff who may edit members.
 */
import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../constants.ts';
import { prefixes } from '../endpoints.ts';
import { messages } from '../messages.ts';
import { defineResource, field } from '../resource.ts';
import { idCardSchema } from '../validators.ts';

const memberStatusOptions = [
  { value: 'enabled', label: '正常' },
  { value: 'disabled', label: '已停用' },
] as const;

const base = `${prefixes.user}/user`;

export const memberEndpoints = {
  /** GET `?ids=1,2` (at most a page's worth): id → `{id, nickname, phone}`, for user:member:view. */
  usernames: `${base}/user-ids/username`,
} as const;

/** 18 characters: 17 digits and a digit or X (the shared ID-card rule plus its character set). */
const memberIdCardSchema = idCardSchema
  .transform((v) => v.toUpperCase())
  .pipe(z.string().regex(/^\d{17}[\dX]$/, messages.idCardInvalid));

export const member = defineResource({
  key: 'user',
  base,
  label: '会员',
  permission: 'user:member',
  actions: ['page', 'detail', 'edit'],
  fields: {
    phone: { ...field.phone('手机号', { search: 'prefix', unique: true }), form: false },
    nickname: field.text('昵称', { max: 50, search: 'like' }),
    avatar: field.image('头像', { form: false, list: false }),
    realName: field.text('真实姓名', { max: 30, optional: true }),
    idCardNo: {
      label: '身份证号',
      kind: 'text',
      schema: z
        .string({ error: messages.idCardInvalid })
        .trim()
        .nullish()
        .transform((v) => (v === '' ? null : v))
        .pipe(memberIdCardSchema.nullish()),
      help: '18 位居民身份证号，末位可以是 X',
      mask: maskIdCard,
    },
    companyName: field.text('公司名称', { max: 100, optional: true, search: 'like' }),
    sourceId: field.reference('来源', `${prefixes.user}/csr-source/list`, { optional: true }),
    status: field.enumeration('状态', memberStatusOptions),
    registeredAt: {
      label: '注册时间',
      kind: 'datetime',
      schema: z.string().nullish(),
      form: false,
      search: 'range',
      sortable: true,
    },
  },
  defaultSort: { field: 'registeredAt', order: 'descend' },
});

/** `110105199001010021` → `110105********0021`: region code and the last four stay readable. */
export function maskIdCard(value: string | null | undefined): string | null {
  if (!value) return value ?? null;
  return value.length === 18
    ? `${value.slice(0, 6)}${'*'.repeat(8)}${value.slice(-4)}`
    : '*'.repeat(value.length);
}

/** Query and answer of user-ids/username. */
export const memberIdsQuery = z.object({
  ids: z
    .string({ error: '请提供会员编号' })
    .regex(/^\d+(,\d+)*$/, '会员编号须是以逗号分隔的正整数，如 1,2')
    .transform((v) => [...new Set(v.split(',').map(Number))])
    // One page of a list at most: a lookup is not a way to read the members in bulk.
    .refine((ids) => ids.length <= MAX_PAGE_SIZE, `一次最多查询 ${MAX_PAGE_SIZE} 个会员，请分批查询`),
});
export const memberBrief = z.object({ id: z.number().int(), nickname: z.string(), phone: z.string() });
