/** 定制场地 (csr-capital-site): a company asking for a venue made to measure, with its budget and date. */
import { blankAsNull } from '../validators.ts';
import { z } from 'zod';
import { field } from '../resource.ts';
import { defineLead } from './lead.ts';

export const csrCapitalSite = defineLead({
  key: 'csr-capital-site',
  kind: 'site',
  label: '定制场地线索',
  permission: 'clue:place',
  fields: {
    headcount: field.integer('人数', { min: 1, max: 100_000, optional: true }),
    areaSqm: field.decimal('面积（㎡）', { min: 0, max: 1_000_000, optional: true }),
    budgetFen: field.money('预算', { optional: true }),
    expectedDate: {
      label: '期望入驻日期',
      kind: 'date' as const,
      schema: blankAsNull(
        z
          .string({ error: '期望入驻日期格式不正确，请选择日期' })
          .regex(/^\d{4}-\d{2}-\d{2}$/, '期望入驻日期格式不正确，请选择日期'),
      ),
    },
  },
});
