/**
 * 分账规则 (merchant-share): the share of a product type's sales a merchant receives over a period.
 * Periods of one merchant and one product type never overlap; the end is exclusive and may be
 * left open (长期有效).
 */
import { prefixes } from '../endpoints.ts';
import { defineResource, field, formatPercent, optionLabel } from '../resource.ts';
import { businessDateTime } from '../time.ts';
import { siteTypeOptions } from './product-types.ts';

export { siteTypeOptions, type SiteType } from './product-types.ts';

const siteTypeLabel = (value: string) => optionLabel(siteTypeOptions, value);

export const merchantShare = defineResource({
  key: 'merchant-share',
  base: `${prefixes.merchant}/merchant-share`,
  label: '分账规则',
  permission: 'merchant:rule',
  actions: ['page', 'detail', 'save', 'edit', 'remove'],
  fields: {
    merchantId: field.reference('商户', `${prefixes.merchant}/merchant/list`),
    siteType: field.enumeration('产品类型', siteTypeOptions),
    ratioBasisPoints: field.percent('分账比例', { help: '0–100%，最多两位小数' }),
    effectiveFrom: field.datetime('生效时间', { sortable: true, list: false }),
    effectiveTo: field.datetime('失效时间', {
      optional: true,
      list: false,
      help: '不填则长期有效；须晚于生效时间，到该时间起不再适用',
    }),
  },
  defaultSort: { field: 'effectiveFrom', order: 'descend' },
});

/** A moment as its business day (`2026-01-01`), with the time when it is not midnight. */
function businessMoment(value: string | Date): string {
  const [day, time] = businessDateTime(value).split(' ');
  const hhmm = time.slice(0, 5);
  return hhmm === '00:00' ? day : `${day} ${hhmm}`;
}

/** `2026-01-01 起长期有效` or `2025-01-01 至 2026-01-01` (the end exclusive). */
export function shareWindowText(from: string | Date, to: string | Date | null | undefined): string {
  return to ? `${businessMoment(from)} 至 ${businessMoment(to)}` : `${businessMoment(from)} 起长期有效`;
}

/** `#4（会议室 15.00%，2026-01-01 起长期有效）`: how a rule is named in messages. */
export function shareRuleText(rule: {
  id: number;
  siteType: string;
  ratioBasisPoints: number;
  effectiveFrom: string | Date;
  effectiveTo: string | Date | null;
}): string {
  return `#${rule.id}（${siteTypeLabel(rule.siteType)} ${formatPercent(rule.ratioBasisPoints)}，${shareWindowText(rule.effectiveFrom, rule.effectiveTo)}）`;
}
