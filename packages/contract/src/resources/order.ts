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
import { blankAsNull, idOf, keysOf, phoneSchema } from '../validators.ts';
import { defineStates } from '../states.ts';
import type { OrderKind } from './product-types.ts';

/**
 * An order's statuses and the explicit moves between them: each moves an order from one status to
 * another; `label` names the button and its dialog, `confirm` the dialog's OK button.
 */
export const orderStates = defineStates({
  noun: '订单',
  statuses: [
    { value: 'pending', label: '待支付', color: 'gold' },
    { value: 'paid', label: '已支付', color: 'blue' },
    { value: 'used', label: '已使用', color: 'green' },
    { value: 'cancelled', label: '已取消', color: 'default' },
    { value: 'refunded', label: '已退款', color: 'red' },
  ],
  moves: {
    pay: { to: 'paid', from: ['pending'], label: '确认支付', confirm: '确认已收款' },
    use: { to: 'used', from: ['paid'], label: '核销', confirm: '确认核销' },
    cancel: { to: 'cancelled', from: ['pending'], label: '取消订单', confirm: '确认取消订单', danger: true },
    refund: { to: 'refunded', from: ['paid'], label: '退款', confirm: '确认退款', danger: true },
  },
});
export const orderStatusOptions = orderStates.statuses;
export type OrderStatus = (typeof orderStatusOptions)[number]['value'];

export const payMethodOptions = [
  { value: 'wechat', label: '微信支付' },
  { value: 'alipay', label: '支付宝' },
  { value: 'card', label: '会员卡/余额' },
  { value: 'offline', label: '线下支付' },
] as const;
export type PayMethod = (typeof payMethodOptions)[number]['value'];

export { orderKindOptions, type OrderKind } from './product-types.ts';

export const orderStatusLabel = orderStates.labelOf;
export const orderActions = orderStates.moves;
export type OrderAction = keyof typeof orderActions;

/**
 * The code that lets staff make this move on this kind of order: each move has its own, so a role
 * (前台) may take payments without refunding them. The role screen lists them under the order page.
 */
export const orderActionPermission = (resource: Pick<ResourceDef, 'permission'>, action: OrderAction) =>
  `${resource.permission}:${action}`;

const orderFields = {
  orderNo: { ...field.text('订单号', { max: 32, search: 'prefix' }), form: false },
  memberPhone: { ...field.phone('会员手机号', { search: 'prefix' }), form: false },
  productName: { ...field.text('产品名称'), form: false },
  // Early in the row: with the periods of seat orders the list is wider than a 1440 px screen.
  status: { ...field.enumeration('订单状态', orderStatusOptions), form: false },
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
  referrerPhone: field.phone('推荐人手机号', { optional: true, list: false }),
  cardNo: { ...field.text('卡号', { optional: true }), form: false, list: false },
  validFrom: { ...field.datetime('生效时间', { optional: true }), form: false, list: false },
  validTo: { ...field.datetime('到期时间', { optional: true }), form: false, list: false },
  balanceFen: { ...field.money('余额', { optional: true }), form: false, list: false },
  /** The meeting-card order whose balance paid this booking. */
  cardOrderId: { ...field.integer('支付会议卡订单', { optional: true }), form: false, list: false },
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
  /** Bookings of a room (startAt/endAt, overlap and opening-hour rules, payable by meeting card). */
  booking: boolean;
  /** Staff create orders of this kind (offline sales): `POST {base}/save`. */
  save: boolean;
}

/** Fields whose value is read from the product snapshot (a key of the same name), not a column. */
export const snapshotOrderFields = ['airportCode', 'terminal', 'loungeName'] as const;

/** How one kind of order lists, searches and sorts the shared fields. */
type OrderFieldChoices = { [K in keyof OrderFields]?: Pick<Field, 'list' | 'search' | 'sortable'> };

/** Sets a shared field's list/search/sort choices for one kind; its value and schema stay. */
const chooseFor = <K extends keyof OrderFields>(
  fields: OrderFields,
  key: K,
  choice: OrderFieldChoices[K],
) => {
  fields[key] = { ...fields[key], ...choice };
};

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
  booking?: boolean;
  save?: boolean;
  fields?: OrderFieldChoices;
}): OrderResource {
  const fields = { ...orderFields };
  const choices = def.fields ?? {};
  for (const key of keysOf(choices)) chooseFor(fields, key, choices[key]);
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
    booking: def.booking ?? false,
    save: def.save ?? false,
  };
}

export const userCardOrder = defineOrder({
  key: 'user-card-order',
  kind: 'user-card',
  label: '会员卡订单',
  permission: 'order:member',
  card: true,
  save: true,
});

export const teamCardOrder = defineOrder({
  key: 'team-card-order',
  kind: 'team-card',
  label: '会议卡订单',
  permission: 'order:meeting',
  card: true,
  save: true,
});

/** Bookings list, sort and filter by the period booked (首页's utilisation opens that filter). */
const bookingOrderFields = {
  startAt: { list: true, sortable: true, search: 'range' },
  endAt: { list: true },
} as const;

export const officeStationOrder = defineOrder({
  key: 'office-station-order',
  kind: 'office-station',
  label: '会议室订单',
  permission: 'order:meetingRoom',
  booking: true,
  save: true,
  fields: bookingOrderFields,
});

export const activityStationOrder = defineOrder({
  key: 'activity-station-order',
  kind: 'activity-station',
  label: '活动场地订单',
  permission: 'order:activityVenue',
  booking: true,
  save: true,
  fields: bookingOrderFields,
});

/** The declaration each booking menu route manages (/order/meetingRoom and /order/activityVenue share a page). */
export const stationOrderOfPath: Record<string, OrderResource> = {
  '/order/meetingRoom': officeStationOrder,
  '/order/activityVenue': activityStationOrder,
};

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
  /** Back-office order creation (offline sales), for resources with `save`. */
  save: `${def.base}/save`,
  /** The products staff may sell through save (published), with their buildings and prices. */
  products: `${def.base}/save/products`,
  /** Bookings: the member's meeting cards that can pay, with their balances (新建订单's card list). */
  cards: `${def.base}/save/cards`,
  /** Meeting cards: the 会议卡活动 selling a card now, with their price and what is left. */
  activities: `${def.base}/save/activities`,
  /** Bookings: the live bookings of a building's rooms over a few days (the booking calendar). */
  calendar: `${def.base}/calendar`,
});

const orderId = idOf('订单编号必须是正整数');

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

const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label}必须是文字` })
    .trim()
    .max(max, `${label}最多 ${max} 个字符，请删减后重试`)
    .nullish()
    .transform((v) => v || null);

const positiveId = (label: string) => idOf(`请选择${label}`);

const moment = (label: string) =>
  z.iso
    .datetime({ offset: true, error: `${label}格式不正确，请选择日期和时间` })
    .transform((value) => new Date(value));

/** How staff record an offline sale's payment: cash/transfer at the desk, or a meeting card's balance. */
export const savePayMethodOptions = [
  { value: 'offline', label: '线下支付' },
  { value: 'card', label: '会议卡余额' },
] as const;

/** Labels of the save body's fields, for 400 messages naming them. */
export const orderSaveLabels = {
  memberPhone: '会员手机号',
  productId: '产品',
  buildingId: '楼宇',
  referrerPhone: '推荐人手机号',
  remark: '备注',
  payMethod: '支付方式',
  paid: '是否已收款',
  startAt: '预订开始时间',
  endAt: '预订结束时间',
  cardNo: '会议卡卡号',
  activityId: '会议卡活动',
};

/**
 * Body of `POST {base}/save`: a sale recorded by staff. Card orders name the building the card is
 * sold in (one of the card's buildings); bookings take the room's building and add the times, and
 * may be paid from a meeting card of the same member (cardNo), which is always paid at once.
 */
const memberPhone = z
  .string({ error: '请填写会员手机号' })
  .trim()
  .min(1, '请填写会员手机号')
  .pipe(phoneSchema);

export function orderSaveBody(def: Pick<OrderResource, 'booking' | 'kind'>) {
  return z
    .object({
      memberPhone,
      productId: positiveId('产品'),
      buildingId: positiveId('楼宇').nullish(),
      referrerPhone: blankAsNull(phoneSchema),
      remark: optionalText('备注', 500),
      payMethod: z.enum(def.booking ? ['offline', 'card'] : ['offline'], {
        error: def.booking
          ? '请选择支付方式（线下支付或会议卡余额）'
          : '请选择支付方式（后台下单只支持线下支付）',
      }),
      paid: z.boolean({ error: '请选择是否已收款' }).default(false),
      startAt: def.booking ? moment('预订开始时间') : z.never({ error: '该订单没有预订时间' }).optional(),
      endAt: def.booking ? moment('预订结束时间') : z.never({ error: '该订单没有预订时间' }).optional(),
      cardNo: optionalText('会议卡卡号', 40),
      // A meeting card sold in a 会议卡活动: the activity's price, from its stock.
      activityId:
        def.kind === 'team-card'
          ? positiveId('会议卡活动').nullish()
          : z.never({ error: '只有会议卡订单可以参加会议卡活动' }).optional(),
    })
    .superRefine((body, ctx) => {
      if (body.payMethod === 'card' && !body.cardNo) {
        ctx.addIssue({ code: 'custom', path: ['cardNo'], message: '用会议卡支付时请填写会议卡卡号' });
      }
    });
}
export type OrderSaveBody = z.output<ReturnType<typeof orderSaveBody>>;

/** The query of `{base}/save/cards`: whose cards. */
export const memberCardsQuery = z.object({ memberPhone });

/**
 * One card of `{base}/save/cards` (the same answer as team-card-sale/find-list-by-phone): the
 * member's own meeting cards and the company cards listing the phone. The server checks it again
 * when the booking is saved.
 */
export { payingCardOption, type PayingCardOption } from './company-card.ts';

/** Days the booking calendar shows at most (a week). */
const CALENDAR_MAX_DAYS = 7;
const calendarDay = (label: string) =>
  z
    .string({ error: `请选择${label}` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label}格式不正确，请选择日期`)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), `${label}不是有效的日期`);

/** The query of `{base}/calendar`: one building, from one business day to another (inclusive). */
export const calendarQuery = z
  .object({ buildingId: positiveId('楼宇'), from: calendarDay('开始日期'), to: calendarDay('结束日期') })
  .refine((q) => q.to >= q.from, { path: ['to'], message: '结束日期不能早于开始日期' })
  .refine(
    (q) =>
      Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`) < CALENDAR_MAX_DAYS * 86_400_000,
    { path: ['to'], message: `日历一次最多显示 ${CALENDAR_MAX_DAYS} 天` },
  );

/** A booking holding a room's time (pending, paid or used), as the calendar draws it. */
export const calendarBooking = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  productId: z.number().int(),
  /** ISO 8601 with the business time zone's offset. */
  startAt: z.string(),
  endAt: z.string(),
  status: z.string(),
  memberPhone: z.string(),
});
export type CalendarBooking = z.infer<typeof calendarBooking>;

/** The query of `{base}/save/activities`: which card. */
export const cardActivitiesQuery = z.object({ productId: positiveId('产品') });

/** A 会议卡活动 selling the card now (published, within its window, not sold out). */
export const cardActivityOption = z.object({
  value: z.number().int(),
  label: z.string(),
  discountPriceFen: z.number().int(),
  remaining: z.number().int(),
  limitPerUser: z.number().int(),
  /** ISO 8601 with the business time zone's offset. */
  endAt: z.string(),
});
export type CardActivityOption = z.infer<typeof cardActivityOption>;

/** One option of `{base}/save/products`. */
export const orderProductOption = z.object({
  value: z.number().int(),
  label: z.string(),
  /** Where it sells: a room's one building, a card's buildings. */
  buildingIds: z.array(z.number().int()),
  /** Card price, or a room's price per hour. */
  priceFen: z.number().int(),
  /** Rooms only: opening hours ('HH:mm') and the shortest booking. */
  openTime: z.string().nullable(),
  closeTime: z.string().nullable(),
  minBookingMinutes: z.number().int().nullable(),
});
export type OrderProductOption = z.infer<typeof orderProductOption>;

/** A booking as a meeting card's detail lists it (the card paid it). */
const cardBooking = z.object({
  id: z.number().int(),
  kind: z.string(),
  orderNo: z.string(),
  productName: z.string().nullable(),
  startAt: z.string().nullable(),
  endAt: z.string().nullable(),
  paidFen: z.number().int(),
  status: z.string(),
});
export type CardBooking = z.infer<typeof cardBooking>;

const orderEvent = z.object({
  id: z.number().int(),
  fromStatus: z.string().nullable(),
  toStatus: z.string(),
  actorName: z.string().nullable(),
  reason: z.string().nullable(),
  at: z.string(),
});
type OrderEvent = z.infer<typeof orderEvent>;

/** What detail answers: the listed record plus the product as sold and the status timeline. */
export const orderDetail = recordSchema(userCardOrder).extend({
  productSnapshot: z.record(z.string(), z.unknown()),
  events: z.array(orderEvent),
  /** A booking paid from a meeting card: that card. */
  paidByCard: z
    .object({ id: z.number().int(), orderNo: z.string(), cardNo: z.string().nullable() })
    .nullish(),
  /** A meeting card: the bookings it paid, newest first. */
  cardBookings: z.array(cardBooking).nullish(),
});

/** An order as page answers it (times ISO 8601 with the business time zone's offset). */
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
  cardOrderId: number | null;
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
  paidByCard?: { id: number; orderNo: string; cardNo: string | null } | null;
  cardBookings?: CardBooking[] | null;
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
 * 机场贵宾厅订单: the API offers only page and detail for airport orders (the lounge supplier
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

/** The order lists staff move through their states (all but the read-only airport orders), in menu order. */
export const writableOrders = [
  userCardOrder,
  teamCardOrder,
  officeSeatOrder,
  hallSeatOrder,
  officeStationOrder,
  activityStationOrder,
] as const;

/** Every order list. */
export const orderResources = [...writableOrders, airportOrder] as const;

/** The 409 of a booking overlapping another one of the same room. */
export const bookingClashMessage = (orderNo: string, times: string) =>
  `该时段已被订单 ${orderNo}（${times}）预订，同一场地的预订时间不能重叠，请选择其他时段`;
