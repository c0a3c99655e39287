/**
 * Orders (订单管理): one declaration per order resource, all built by `defineOrder` from the same
 * fields, since every kind of order lives in one table and moves through the same states. Staff
 * read orders and move them through explicit actions (pay, use, cancel, refund); they never edit
 * amounts.
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { messages } from '../messages.ts';
import { defineResource, field, recordSchema, type Field, type ResourceDef } from '../resource.ts';
import { phoneSchema } from '../validators.ts';

export const orderStatusOptions = [
  { value: 'pending', label: '待支付' },
  { value: 'paid', label: '已支付' },
  { value: 'used', label: '已使用' },
  { value: 'cancelled', label: '已取消' },
  { value: 'refunded', label: '已退款' },
] as const;
export type OrderStatus = (typeof orderStatusOptions)[number]['value'];

export const payMethodOptions = [
  { value: 'wechat', label: '微信支付' },
  { value: 'alipay', label: '支付宝' },
  { value: 'card', label: '会员卡/余额' },
  { value: 'offline', label: '线下支付' },
] as const;
export type PayMethod = (typeof payMethodOptions)[number]['value'];

/** Kinds of order with the prefix of their order numbers (UC20261121000123). */
export const orderKindOptions = [
  { value: 'user-card', label: '会员卡', prefix: 'UC' },
  { value: 'team-card', label: '会议卡', prefix: 'TC' },
  { value: 'office-seat', label: '办公室工位', prefix: 'OS' },
  { value: 'hall-seat', label: '大厅工位', prefix: 'HS' },
  { value: 'office-station', label: '会议室', prefix: 'MR' },
  { value: 'activity-station', label: '活动场地', prefix: 'AV' },
  { value: 'airport', label: '机场贵宾厅', prefix: 'AP' },
] as const;
export type OrderKind = (typeof orderKindOptions)[number]['value'];

export const orderStatusLabel = (status: string) =>
  orderStatusOptions.find((o) => o.value === status)?.label ?? status;

/** The explicit state actions, each moving an order to one status from the statuses listed. */
export const orderActions = {
  pay: { to: 'paid', from: ['pending'], label: '确认支付' },
  use: { to: 'used', from: ['paid'], label: '核销' },
  cancel: { to: 'cancelled', from: ['pending'], label: '取消订单' },
  refund: { to: 'refunded', from: ['paid'], label: '退款' },
} as const satisfies Record<string, { to: OrderStatus; from: readonly OrderStatus[]; label: string }>;
export type OrderAction = keyof typeof orderActions;

/** The actions open to an order in this status (the buttons the console shows). */
export const actionsFrom = (status: string) =>
  (Object.keys(orderActions) as OrderAction[]).filter((action) =>
    (orderActions[action].from as readonly string[]).includes(status),
  );

/** The 409 of an illegal move, naming both states. */
export const illegalMoveMessage = (from: string, to: string) =>
  `订单当前为「${orderStatusLabel(from)}」，不能改为「${orderStatusLabel(to)}」`;

const orderFields = {
  orderNo: { ...field.text('订单号', { max: 32, search: 'eq' }), form: false },
  memberPhone: { ...field.phone('会员手机号', { search: 'eq' }), form: false },
  productName: { ...field.text('产品名称'), form: false },
  // Airport orders: where the lounge is, from the product as sold (listed by airportOrder only).
  airportCode: { ...field.text('机场', { optional: true }), form: false, list: false },
  terminal: { ...field.text('航站楼', { optional: true }), form: false, list: false },
  loungeName: { ...field.text('贵宾厅', { optional: true }), form: false, list: false },
  buildingId: {
    ...field.reference('楼宇', `${prefixes.building}/building/list`, { optional: true }),
    form: false,
    list: false,
  },
  buildingName: { ...field.text('楼宇'), form: false },
  quantity: { ...field.integer('数量'), form: false, list: false },
  // The period a seat order (or a booking) covers; card lists leave it out.
  startAt: { ...field.datetime('开始时间', { optional: true }), form: false, list: false },
  endAt: { ...field.datetime('结束时间', { optional: true }), form: false, list: false },
  amountFen: { ...field.money('订单金额'), form: false },
  discountFen: { ...field.money('优惠金额'), form: false },
  paidFen: { ...field.money('实付金额'), form: false },
  payMethod: { ...field.enumeration('支付方式', payMethodOptions, { optional: true }), form: false },
  status: { ...field.enumeration('订单状态', orderStatusOptions), form: false },
  referrerPhone: field.phone('推荐人手机号', { optional: true, list: false }),
  cardNo: { ...field.text('卡号', { optional: true }), form: false, list: false },
  validFrom: { ...field.datetime('生效时间', { optional: true }), form: false, list: false },
  validTo: { ...field.datetime('到期时间', { optional: true }), form: false, list: false },
  balanceFen: { ...field.money('余额', { optional: true }), form: false, list: false },
  memberId: { ...field.integer('会员编号'), form: false, list: false },
  productId: { ...field.integer('产品编号'), form: false, list: false },
  remark: { ...field.textarea('备注', { optional: true }), form: false },
  createdAt: {
    label: '下单时间',
    kind: 'datetime' as const,
    schema: z.string().nullish(),
    form: false,
    search: 'range' as const,
    sortable: true,
  },
  paidAt: { ...field.datetime('支付时间', { optional: true }), form: false, sortable: true },
  usedAt: { ...field.datetime('使用时间', { optional: true }), form: false, list: false },
  cancelledAt: { ...field.datetime('取消时间', { optional: true }), form: false, list: false },
  refundedAt: { ...field.datetime('退款时间', { optional: true }), form: false, list: false },
};

export type OrderFields = typeof orderFields;

export interface OrderResource extends ResourceDef<OrderFields> {
  kind: OrderKind;
  /** Card orders answer detail/card-no and show the card number. */
  card: boolean;
  /** Read-only orders (airport) answer page, detail and export only: no moves, no referrer edit. */
  readOnly?: boolean;
}

/** Fields whose value is read from the product snapshot (a key of the same name), not a column. */
export const snapshotOrderFields = ['airportCode', 'terminal', 'loungeName'] as const;

/**
 * An order resource (`user-card-order`) serving one kind of order, under /api/order/admin/v1/
 * unless `prefix` says otherwise. `fields` adjusts how shared fields are listed and searched for
 * this kind (e.g. `{ startAt: { list: true } }`); their values and schemas stay the same.
 */
export function defineOrder(def: {
  key: string;
  kind: OrderKind;
  label: string;
  permission: string;
  card?: boolean;
  prefix?: string;
  readOnly?: boolean;
  fields?: { [K in keyof OrderFields]?: Pick<Field, 'list' | 'search'> };
}): OrderResource {
  const fields = Object.fromEntries(
    Object.entries(orderFields).map(([key, f]) => [key, { ...f, ...def.fields?.[key as keyof OrderFields] }]),
  ) as OrderFields;
  return {
    ...defineResource({
      key: def.key,
      base: `${def.prefix ?? prefixes.order}/${def.key}`,
      label: def.label,
      permission: def.permission,
      actions: ['page'],
      fields,
      defaultSort: { field: 'createdAt', order: 'descend' },
    }),
    kind: def.kind,
    card: def.card ?? false,
    ...(def.readOnly ? { readOnly: true } : {}),
  };
}

export const userCardOrder = defineOrder({
  key: 'user-card-order',
  kind: 'user-card',
  label: '会员卡订单',
  permission: 'order:member',
  card: true,
});

export const teamCardOrder = defineOrder({
  key: 'team-card-order',
  kind: 'team-card',
  label: '会议卡订单',
  permission: 'order:meeting',
  card: true,
});

/** Endpoint paths of an order resource beyond page. */
export const orderPaths = (def: Pick<ResourceDef, 'base'>) => ({
  page: `${def.base}/page`,
  detail: `${def.base}/detail`,
  cardNo: `${def.base}/detail/card-no`,
  editReferrerPhone: `${def.base}/edit-referrer-phone`,
  pay: `${def.base}/pay`,
  use: `${def.base}/use`,
  cancel: `${def.base}/cancel`,
  refund: `${def.base}/refund`,
  /** The .xlsx of every order matching the page's filters (no paging). */
  export: `${def.base}/export`,
});

const orderId = z.coerce
  .number({ error: '订单编号必须是正整数' })
  .int('订单编号必须是正整数')
  .positive('订单编号必须是正整数');

/** Body of pay / use / cancel / refund. */
export const orderActionBody = z.object({
  id: orderId,
  reason: z
    .string({ error: '原因必须是文字' })
    .trim()
    .max(200, '原因最多 200 个字符，请删减后重试')
    .nullish()
    .transform((v) => v || null),
});

/** Body of edit-referrer-phone. */
export const referrerPhoneBody = z.object({
  id: orderId,
  referrerPhone: z.string({ error: messages.phoneRequired }).trim().pipe(phoneSchema),
});

export const orderEvent = z.object({
  id: z.number().int(),
  fromStatus: z.string().nullable(),
  toStatus: z.string(),
  actorName: z.string().nullable(),
  reason: z.string().nullable(),
  at: z.string(),
});
export type OrderEvent = z.infer<typeof orderEvent>;

/** What detail answers: the listed record plus the product as sold and the status timeline. */
export const orderDetail = recordSchema(userCardOrder).extend({
  productSnapshot: z.record(z.string(), z.unknown()),
  events: z.array(orderEvent),
});

/** An order as page answers it (times ISO 8601 with the Shanghai offset). */
export interface OrderRecord {
  id: number;
  orderNo: string;
  memberId: number;
  memberPhone: string;
  productId: number;
  productName: string | null;
  buildingId: number | null;
  buildingName: string | null;
  airportCode: string | null;
  terminal: string | null;
  loungeName: string | null;
  quantity: number;
  startAt: string | null;
  endAt: string | null;
  amountFen: number;
  discountFen: number;
  paidFen: number;
  payMethod: PayMethod | null;
  status: OrderStatus;
  referrerPhone: string | null;
  cardNo: string | null;
  validFrom: string | null;
  validTo: string | null;
  balanceFen: number | null;
  remark: string | null;
  createdAt: string;
  updatedAt: string;
  paidAt: string | null;
  usedAt: string | null;
  cancelledAt: string | null;
  refundedAt: string | null;
}

export type OrderDetail = OrderRecord & {
  productSnapshot: Record<string, unknown>;
  events: OrderEvent[];
};

/** Seat orders cover a booked period of a number of units (days or months of the seat goods). */
const seatOrderFields = {
  quantity: { list: true },
  startAt: { list: true },
  endAt: { list: true },
} as const;

export const officeSeatOrder = defineOrder({
  key: 'office-seat-order',
  kind: 'office-seat',
  label: '办公室工位订单',
  permission: 'order:seat',
  fields: seatOrderFields,
});

export const hallSeatOrder = defineOrder({
  key: 'hall-seat-order',
  kind: 'hall-seat',
  label: '大厅工位订单',
  permission: 'order:seat',
  fields: seatOrderFields,
});

/** The two tabs of 工位订单, in order. */
export const seatOrders = [officeSeatOrder, hallSeatOrder] as const;

/**
 * 机场贵宾厅订单: the spec lists only page and detail for airport orders (the lounge supplier
 * settles them), so they are read-only here plus the Excel export every order list has. They have
 * no building: the airport, terminal and lounge come from the product as sold, and the airport
 * code replaces the building filter.
 */
export const airportOrder = defineOrder({
  key: 'airport-order',
  kind: 'airport',
  label: '机场贵宾厅订单',
  permission: 'order:airport',
  prefix: prefixes.tripartite,
  readOnly: true,
  fields: {
    airportCode: { list: true, search: 'eq' },
    terminal: { list: true },
    loungeName: { list: true },
    buildingId: { search: undefined },
    buildingName: { list: false },
  },
});
