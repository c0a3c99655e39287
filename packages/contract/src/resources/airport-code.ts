/** 机场三字码 (airport-code): IATA codes of the airports whose VIP lounges are sold. */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';

export const AIRPORT_CODE_PATTERN = /^[A-Z]{3}$/;

export const airportCode = defineResource({
  key: 'airport-code',
  base: `${prefixes.tripartite}/airport-code`,
  label: '机场三字码',
  permission: 'system:airport',
  fields: {
    code: {
      ...field.text('三字码', { max: 3, search: 'eq', unique: true, sortable: true }),
      schema: z
        .string({ error: '请填写三字码' })
        .trim()
        .regex(AIRPORT_CODE_PATTERN, '三字码须为三个大写英文字母，如 PEK'),
      help: '国际航协 (IATA) 机场代码，三个大写字母',
    },
    city: field.text('城市', { max: 30, search: 'like' }),
    airportName: field.text('机场名称', { max: 50, search: 'like' }),
  },
  actions: ['page', 'save', 'edit', 'remove'],
  defaultSort: { field: 'code', order: 'ascend' },
});

/** `DELETE {base}/removes` with `{ids}`: the API's name for the batch removal. */
export const airportCodeRemovesPath = `${airportCode.base}/removes`;

/** `GET {base}/code-list`: the configured airports as select options (value is the code). */
export const airportCodeOptionsPath = `${airportCode.base}/code-list`;
export const airportCodeOption = z.object({
  value: z.string(),
  label: z.string(),
  city: z.string(),
  airportName: z.string(),
});
export type AirportCodeOption = z.infer<typeof airportCodeOption>;
