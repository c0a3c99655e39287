/**
 * 商户分账 (merchant-share-order): a read-only report of each paid order with the merchant of its
 * building, the 分账规则 in force when it was paid, and the share. Share = round(paidFen ×
 * ratioBasisPoints / 10000), rounded once per order (half up, integer fen); the total is the sum
 * of those per-order shares, so it equals the rows to the fen.
 *
 * Which orders count: status paid or used. A refunded order earns no share (the money went back),
 * and pending or cancelled orders were never paid, so none of those appear in the report.
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';
import { idOf, keysOf } from '../validators.ts';
import type { OrderStatus } from './order.ts';
import {
  orderKindOptions,
  siteTypeOfKind,
  siteTypeOptions,
  type OrderKind,
  type SiteType,
} from './product-types.ts';

export { siteTypeOfKind } from './product-types.ts';

/** The order kinds sold as a product type (the reverse of `siteTypeOfKind`). */
export const kindsOfSiteType = (siteType: SiteType): OrderKind[] =>
  keysOf(siteTypeOfKind).filter((kind) => siteTypeOfKind[kind] === siteType);

/** Statuses of orders that earn a share (a refunded order earns none). */
export const sharedOrderStatuses = ['paid', 'used'] as const satisfies readonly OrderStatus[];

/** What a row shows in place of the rule when no rule was in force at payment time. */
export const NO_SHARE_RULE = '无分账规则';

export const merchantShareOrder = defineResource({
  key: 'merchant-share-order',
  base: `${prefixes.merchant}/merchant-share-order`,
  label: '分账订单',
  permission: 'merchant:share',
  actions: ['page'],
  fields: {
    orderNo: field.text('订单号', { max: 32, search: 'prefix' }),
    kind: field.enumeration('订单类型', orderKindOptions),
    siteType: field.enumeration('产品类型', siteTypeOptions, { search: 'eq' }),
    merchantId: {
      ...field.reference('商户', `${prefixes.merchant}/merchant/list`, { search: 'eq' }),
      list: false,
    },
    merchantName: field.text('商户', { optional: true }),
    buildingId: {
      ...field.reference('楼宇', `${prefixes.building}/building/list`, { optional: true, search: 'eq' }),
      list: false,
    },
    buildingName: field.text('楼宇', { optional: true }),
    ruleText: field.text('分账规则', { optional: true }),
    ratioBasisPoints: { ...field.percent('分账比例', { optional: true }), sortable: false },
    paidFen: field.money('实付金额'),
    shareFen: field.money('分账金额'),
    paidAt: {
      ...field.datetime('支付时间', { optional: true }),
      search: 'range' as const,
      sortable: true,
      help: '只统计已支付与已使用的订单；已退款的订单不参与分账',
    },
  },
  defaultSort: { field: 'paidAt', order: 'descend' },
});

/** What `total` answers for the same filters as `page`. */
export const merchantShareTotal = z.object({
  count: z.number().int(),
  paidFen: z.number().int(),
  shareFen: z.number().int(),
});
export type MerchantShareTotal = z.infer<typeof merchantShareTotal>;

/** Endpoint paths beyond page. */
export const merchantShareOrderPaths = {
  siteType: `${merchantShareOrder.base}/site-type`,
  page: `${merchantShareOrder.base}/page`,
  total: `${merchantShareOrder.base}/total`,
  /** The page's filters as Excel: every row, then the total row. */
  export: `${merchantShareOrder.base}/export`,
  /** 结算单: one merchant's paid orders of one month with rule, share and the total, as Excel. */
  statement: `${merchantShareOrder.base}/statement`,
};

/** 结算单 query: the merchant and the month (`2026-11`, business time zone). */
export const settlementQuery = z.object({
  merchantId: idOf('请选择商户'),
  month: z
    .string({ error: '请选择结算月份' })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, '结算月份格式不正确，请按 年-月 选择，如 2026-11'),
});
export const settlementLabels = { merchantId: '商户', month: '结算月份' };
