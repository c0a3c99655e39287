/** 物业合作 (csr-capital-website): a property owner offering space for the operator to run. */
import { field } from '../resource.ts';
import { defineLead } from './lead.ts';

export const csrCapitalWebsite = defineLead({
  key: 'csr-capital-website',
  kind: 'website',
  label: '物业合作线索',
  permission: 'clue:cooperate',
  fields: {
    propertyAddress: field.text('物业地址', { max: 200, optional: true }),
    propertyAreaSqm: field.decimal('物业面积（㎡）', { min: 0, max: 10_000_000, optional: true }),
  },
});
