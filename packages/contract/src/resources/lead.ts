/**
 * 线索管理 (sales leads): what 定制场地 (csr-capital-site) and 物业合作 (csr-capital-website) share —
 * contact, company, city, source, demand, status and owner — and their follow-up records
 * (`save-record`; the detail answers the lead with its records, newest first).
 */
import { z } from 'zod';
import { blankAsNull, idOf } from '../validators.ts';
import { CITY_CODE_PATTERN } from '../area.ts';
import { prefixes } from '../endpoints.ts';
import { defineResource, field, type Fields, type ResourceDef } from '../resource.ts';

const leadStatusOptions = [
  { value: 'new', label: '新线索', color: 'blue' },
  { value: 'following', label: '跟进中', color: 'gold' },
  { value: 'won', label: '已成交', color: 'green' },
  { value: 'lost', label: '已流失', color: 'default' },
] as const;
export type LeadStatus = (typeof leadStatusOptions)[number]['value'];

/** The two kinds of lead, as the records table names them. */
export type LeadKind = 'site' | 'website';

/** 后台用户 as select options (`{value, label}` by nickname), for the 负责人 of a lead. */
export const staffListEndpoint = `${prefixes.user}/sso-user/list`;

const cityInvalid = '请选择城市（6 位地级行政区划代码，如 310100）';

/** Computed by the server for answers (names, not codes); never written. */
const shown = (label: string) => ({
  label,
  kind: 'text' as const,
  schema: z.string().nullish(),
  form: false,
});

const leadFields = {
  contactName: field.text('联系人', { max: 30 }),
  contactPhone: field.phone('联系电话', { search: 'prefix' }),
  companyName: field.text('公司名称', { max: 100, optional: true, search: 'like' }),
  cityCode: {
    ...field.text('城市', { max: 6, optional: true, list: false }),
    schema: z
      .string({ error: cityInvalid })
      .trim()
      .nullish()
      .transform((v) => (v === '' ? null : v))
      .pipe(z.string().regex(CITY_CODE_PATTERN, cityInvalid).nullish()),
  },
  /** 上海市, 深圳市: the name of cityCode. */
  cityName: shown('城市'),
  sourceId: field.reference('来源', `${prefixes.user}/csr-source/list`, { optional: true }),
  demand: field.textarea('需求描述', { max: 1000, optional: true }),
  status: {
    ...field.enumeration('状态', leadStatusOptions),
    schema: z.enum(['new', 'following', 'won', 'lost'], { error: '请选择状态' }).default('new'),
  },
  ownerId: field.reference('负责人', staffListEndpoint, { optional: true }),
  createdAt: {
    label: '创建时间',
    kind: 'datetime' as const,
    schema: z.string().nullish(),
    form: false,
    search: 'range' as const,
    sortable: true,
  },
};

/** A lead resource of one kind: the shared fields and the kind's own before 状态. */
export function defineLead<const F extends Fields>(def: {
  key: string;
  kind: LeadKind;
  label: string;
  permission: string;
  fields: F;
}) {
  const { contactName, contactPhone, companyName, cityCode, cityName, sourceId, demand, ...rest } =
    leadFields;
  return {
    ...defineResource({
      key: def.key,
      base: `${prefixes.user}/${def.key}`,
      label: def.label,
      permission: def.permission,
      actions: ['page', 'detail', 'save', 'edit', 'remove'],
      fields: {
        contactName,
        contactPhone,
        companyName,
        cityCode,
        cityName,
        sourceId,
        demand,
        ...def.fields,
        ...rest,
      },
      defaultSort: { field: 'createdAt', order: 'descend' },
    }),
    kind: def.kind,
  };
}

export type LeadResource = ResourceDef & { kind: LeadKind };

/** `POST {base}/save-record` path of a lead resource. */
export const saveRecordPath = (lead: Pick<ResourceDef, 'base'>) => `${lead.base}/save-record`;

const nextFollowInvalid = '下次跟进时间格式不正确，请选择日期和时间';

/** Body of save-record: a follow-up of the lead `id`. */
export const saveRecordBody = z.object({
  id: idOf('线索编号必须是正整数'),
  content: z
    .string({ error: '请填写跟进内容' })
    .trim()
    .min(1, '请填写跟进内容')
    .max(500, '跟进内容最多 500 个字符，请删减后重试'),
  nextFollowAt: blankAsNull(z.iso.datetime({ offset: true, error: nextFollowInvalid })),
});

/** Labels of save-record's fields, so a 400 names them. */
export const saveRecordLabels = { id: '线索编号', content: '跟进内容', nextFollowAt: '下次跟进时间' };

/** One follow-up record as the detail answers it. */
export const leadRecord = z.object({
  id: z.number().int(),
  content: z.string(),
  nextFollowAt: z.string().nullable(),
  /** The nickname of who wrote it (null once that account is gone). */
  by: z.string().nullable(),
  at: z.string(),
});
export type LeadRecord = z.infer<typeof leadRecord>;
