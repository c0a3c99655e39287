/**
 * 订单 and 发票: orders with their product snapshots, day totals, the business calendar, each
 * order's status timeline, and invoices.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { authored, prefixOps, timestamptz } from './columns.ts';
import { ssoUsers } from './staff.ts';
import { members } from './members.ts';
import { buildings } from './buildings.ts';
import { companyCards, teamCardActivities } from './products.ts';

export const orderKindValues = [
  'user-card',
  'team-card',
  'office-seat',
  'hall-seat',
  'office-station',
  'activity-station',
  'airport',
] as const;

export const orderStatusValues = ['pending', 'paid', 'used', 'cancelled', 'refunded'] as const;

export const payMethodValues = ['wechat', 'alipay', 'card', 'offline'] as const;

/**
 * The product as sold (modules/order/snapshot.ts writes one shape per kind): the keys lists and
 * rules read by name, and whatever else the kind keeps, shown as it is in the detail drawer.
 */
export interface ProductSnapshot {
  name?: string | null;
  buildingName?: string | null;
  /** Card kinds: days a card is valid from payment. */
  validDays?: number | null;
  /** Meeting cards: the balance a card starts with. */
  faceValueFen?: number | null;
  /** Airport lounges (snapshotOrderFields). */
  airportCode?: string | null;
  terminal?: string | null;
  loungeName?: string | null;
  [key: string]: unknown;
}

/**
 * Every order of every product (订单管理), told apart by `kind`. `productSnapshot` keeps the
 * product as sold (name, prices, building name), so later product edits never rewrite history.
 * Booking kinds fill startAt/endAt; card kinds fill cardNo, validFrom, validTo (and meeting cards
 * balanceFen).
 */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: orderKindValues }).notNull(),
    /** Readable and unique: kind prefix + Shanghai date + sequence, e.g. UC20261121000123. */
    orderNo: text('order_no').notNull(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'restrict' }),
    memberPhone: text('member_phone').notNull(),
    /** The product's id in its kind's table; no foreign key, as the table depends on the kind. */
    productId: integer('product_id').notNull(),
    productSnapshot: jsonb('product_snapshot').$type<ProductSnapshot>().notNull(),
    buildingId: integer('building_id').references(() => buildings.id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull().default(1),
    amountFen: integer('amount_fen').notNull(),
    discountFen: integer('discount_fen').notNull().default(0),
    paidFen: integer('paid_fen').notNull().default(0),
    payMethod: text('pay_method', { enum: payMethodValues }),
    status: text('status', { enum: orderStatusValues }).notNull().default('pending'),
    referrerPhone: text('referrer_phone'),
    paidAt: timestamptz('paid_at'),
    cancelledAt: timestamptz('cancelled_at'),
    refundedAt: timestamptz('refunded_at'),
    usedAt: timestamptz('used_at'),
    remark: text('remark'),
    startAt: timestamptz('start_at'),
    endAt: timestamptz('end_at'),
    cardNo: text('card_no'),
    validFrom: timestamptz('valid_from'),
    validTo: timestamptz('valid_to'),
    balanceFen: integer('balance_fen'),
    /** The meeting-card order (kind team-card) whose balance paid this booking, if any. */
    cardOrderId: integer('card_order_id').references((): AnyPgColumn => orders.id, { onDelete: 'restrict' }),
    /** The 企业会议卡 that paid a booking (payMethod card), credited back on refund. */
    companyCardId: integer('company_card_id').references((): AnyPgColumn => companyCards.id, {
      onDelete: 'restrict',
    }),
    /** The 会议卡活动 a meeting card was sold in (its price and stock), if any. */
    activityId: integer('activity_id').references((): AnyPgColumn => teamCardActivities.id, {
      onDelete: 'restrict',
    }),
    /** The invoice request covering this order; cleared when that request is rejected. */
    invoiceId: integer('invoice_id').references((): AnyPgColumn => invoices.id, { onDelete: 'set null' }),
    ...authored(),
  },
  (t) => [
    uniqueIndex('orders_order_no_key').on(t.orderNo),
    index('orders_order_no_prefix_idx').on(prefixOps(t.orderNo)),
    // Booking overlap checks look up one room's orders by time.
    index('orders_booking_idx').on(t.kind, t.productId, t.startAt),
    // 首页's meeting-room use reads a month of bookings by start time, index-only.
    index('orders_kind_start_idx').on(t.kind, t.startAt, t.endAt, t.status, t.productId),
    // Lists and sums of paid orders by payment time (商户分账); the columns after paid_at let a sum
    // of revenue by kind read the index alone. (首页 reads order_day_totals instead.)
    index('orders_paid_idx').on(t.paidAt, t.kind, t.status, t.paidFen),
    index('orders_card_order_idx').on(t.cardOrderId),
    index('orders_activity_member_idx').on(t.activityId, t.memberId),
    index('orders_invoice_idx').on(t.invoiceId),
    uniqueIndex('orders_card_no_key').on(t.cardNo),
    // Every list is one kind, newest first; the other filters narrow it.
    // Each order list is one kind, newest first (created_at, then id): its pages walk this, deep
    // ones index-only (lib/crud.ts reads the ids of a deep page first).
    index('orders_kind_created_id_idx').on(t.kind, t.createdAt, t.id),
    index('orders_member_phone_prefix_idx').on(prefixOps(t.memberPhone)),
    index('orders_member_idx').on(t.memberId),
    index('orders_building_idx').on(t.buildingId),
    index('orders_kind_status_idx').on(t.kind, t.status),
    check('orders_amounts_check', sql`${t.amountFen} >= 0 and ${t.discountFen} >= 0 and ${t.paidFen} >= 0`),
    check('orders_balance_check', sql`${t.balanceFen} is null or ${t.balanceFen} >= 0`),
    check('orders_quantity_check', sql`${t.quantity} > 0`),
    check('orders_kind_check', sql.raw(`kind in (${orderKindValues.map((v) => `'${v}'`).join(', ')})`)),
    check('orders_status_check', sql.raw(`status in (${orderStatusValues.map((v) => `'${v}'`).join(', ')})`)),
    check(
      'orders_pay_method_check',
      sql.raw(`pay_method is null or pay_method in (${payMethodValues.map((v) => `'${v}'`).join(', ')})`),
    ),
  ],
);

/**
 * Orders by business day (business_calendar's zone) and kind: how many were created that day, and
 * the revenue paid that day (paid_fen of orders now paid or used, as 首页 and 商户分账 count
 * revenue). Kept by statement triggers on orders in the writing transaction (migrations 0026,
 * 0027), so 首页 reads a month as some thirty rows per kind instead of counting the month's orders.
 */
export const orderDayTotals = pgTable(
  'order_day_totals',
  {
    day: date('day').notNull(),
    kind: text('kind').notNull(),
    createdCount: integer('created_count').notNull().default(0),
    paidFen: bigint('paid_fen', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind] })],
);

/**
 * The business time zone the database's days are counted in (one row): order_day_totals' days
 * follow it. At start the server writes BUSINESS_TIME_ZONE here and, when it changed, counts the
 * totals again (seed/business-calendar.ts).
 */
export const businessCalendar = pgTable(
  'business_calendar',
  {
    id: smallint('id').primaryKey().default(1),
    timeZone: text('time_zone').notNull(),
  },
  (t) => [check('business_calendar_one_row', sql`${t.id} = 1`)],
);

/** The status timeline of an order: one row per move, written in the move's transaction. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** Null for the order's creation. */
    fromStatus: text('from_status', { enum: orderStatusValues }),
    toStatus: text('to_status', { enum: orderStatusValues }).notNull(),
    actorId: integer('actor_id').references(() => ssoUsers.id, { onDelete: 'set null' }),
    reason: text('reason'),
    at: timestamptz('at').notNull().defaultNow(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.at)],
);

export const invoiceKindValues = ['invoice', 'tripartite'] as const;

export const invoiceStatusValues = ['pending', 'issued', 'rejected', 'voided'] as const;

export const invoiceTitleTypeValues = ['personal', 'company'] as const;

export const invoiceTypeValues = ['normal', 'special'] as const;

/**
 * Invoice requests: 经营发票 (kind invoice, the operator's own orders) and 机场贵宾厅发票 (kind
 * tripartite, airport orders). The orders covered point back through orders.invoice_id, which is
 * what makes "an order is invoiced at most once" hold under concurrent requests.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: invoiceKindValues }).notNull(),
    /** The order kind every covered order shares. */
    orderType: text('order_type', { enum: orderKindValues }).notNull(),
    orderNos: jsonb('order_nos').$type<string[]>().notNull(),
    memberPhone: text('member_phone'),
    titleType: text('title_type', { enum: invoiceTitleTypeValues }).notNull(),
    title: text('title').notNull(),
    taxNo: text('tax_no'),
    invoiceType: text('invoice_type', { enum: invoiceTypeValues }).notNull().default('normal'),
    amountFen: integer('amount_fen').notNull(),
    email: text('email'),
    status: text('status', { enum: invoiceStatusValues }).notNull().default('pending'),
    invoiceNo: text('invoice_no'),
    fileUrl: text('file_url'),
    issuedAt: timestamptz('issued_at'),
    rejectReason: text('reject_reason'),
    rejectedAt: timestamptz('rejected_at'),
    remark: text('remark'),
    ...authored(),
  },
  (t) => [
    uniqueIndex('invoices_invoice_no_key').on(t.invoiceNo),
    index('invoices_kind_created_idx').on(t.kind, t.createdAt),
    index('invoices_member_phone_prefix_idx').on(prefixOps(t.memberPhone)),
    index('invoices_kind_status_idx').on(t.kind, t.status),
    check('invoices_amount_check', sql`${t.amountFen} > 0`),
    check('invoices_kind_check', sql.raw(`kind in (${invoiceKindValues.map((v) => `'${v}'`).join(', ')})`)),
    check(
      'invoices_status_check',
      sql.raw(`status in (${invoiceStatusValues.map((v) => `'${v}'`).join(', ')})`),
    ),
  ],
);
