/**
 * 机场贵宾厅 (airport-product): one lounge product per configured airport (机场三字码). `init`
 * creates the missing ones unpublished at ¥0; staff then set prices and publish. There is no
 * save or remove: products come from init. A product priced ¥0 cannot be published.
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';
import { AIRPORT_CODE_PATTERN } from './airport-code.ts';

export const airportProduct = defineResource({
  key: 'airport-product',
  base: `${prefixes.tripartite}/airport-product`,
  label: '机场贵宾厅',
  permission: 'product:airport',
  fields: {
    airportCode: {
      ...field.text('机场', { max: 3, search: 'eq', sortable: true }),
      schema: z
        .string({ error: '请选择机场' })
        .trim()
        .regex(AIRPORT_CODE_PATTERN, '机场须是三个大写字母的三字码，如 PEK'),
      help: '从「机场三字码」中配置的机场选择',
    },
    // Read from the airport's 机场三字码 record, shown next to the code.
    airportCity: { ...field.text('城市'), form: false },
    airportName: { ...field.text('机场名称'), form: false },
    terminal: field.text('航站楼', { max: 30, optional: true, help: '如 T3、T2 国内出发' }),
    loungeName: field.text('贵宾厅名称', { max: 50, search: 'like' }),
    priceFen: field.money('价格', { help: '价格为 ¥0.00 时不能上架' }),
    supplierSku: field.text('供应商SKU', { max: 50, optional: true }),
    published: field.published(),
  },
  actions: ['page', 'detail', 'edit', 'editPublished'],
  titleField: 'loungeName',
  defaultSort: { field: 'airportCode', order: 'ascend' },
});

/** `POST {base}/init`: creates the missing products; answers how many with a message saying so. */
export const airportProductInitPath = `${airportProduct.base}/init`;
export const airportProductInitAnswer = z.object({ created: z.number().int() });

export const airportProductMessages = {
  initialized: (n: number) =>
    n > 0 ? `已为 ${n} 个机场生成贵宾厅产品，请补充价格后上架` : '所有机场都已有贵宾厅产品，无需生成',
  unpriced: '价格：价格为 ¥0.00 的贵宾厅不能上架，请先设置价格',
  unknownAirport: '机场：所选机场不在机场三字码中，请先在「机场三字码」中添加或重新选择',
};

/** The lounge name init gives an airport: `北京首都国际机场贵宾厅`, the city added when the name lacks it. */
export const defaultLoungeName = (city: string, airportName: string) =>
  `${airportName.startsWith(city) ? '' : city}${airportName}贵宾厅`;
