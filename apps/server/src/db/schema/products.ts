/**
 * 产品管理: 会员卡, 会议卡 and its activities, 企业卡 and its ledger, 工位, 会议室 and 活动场地,
 * 机场贵宾厅 and the airport codes they are sold at.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { authored, ids, inList, texts, timestamptz } from './columns.ts';
import { companies, staffScopeValues } from './companies.ts';
import { userStatuses } from './staff.ts';
import { buildings } from './buildings.ts';

/** 机场三字码 (airport-code). */
export const airportCodes = pgTable(
  'airport_codes',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    city: text('city').notNull(),
    airportName: text('airport_name').notNull(),
    ...authored(),
  },
  (t) => [
    uniqueIndex('airport_codes_code_key').on(sql`lower(${t.code})`),
    check('airport_codes_code_check', sql`${t.code} ~ '^[A-Z]{3}$'`),
  ],
);

export const userCardTypeValues = ['day', 'month', 'times'] as const;

/** 会员卡 (user-card): day, month or times passes valid in the listed buildings. */
export const userCards = pgTable(
  'user_cards',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    cardType: text('card_type', { enum: userCardTypeValues }).notNull(),
    validDays: integer('valid_days').notNull(),
    /** Entries of a times card; null for day and month cards. */
    times: integer('times'),
    priceFen: integer('price_fen').notNull(),
    buildingIds: ids('building_ids'),
    description: text('description'),
    published: boolean('published').notNull().default(false),
    ...authored(),
  },
  // crud.ts answers a taken name with a friendly 409; the index holds it under concurrent saves.
  (t) => [uniqueIndex('user_cards_name_lower_key').on(sql`lower(${t.name})`)],
);

/** 会议卡 (team-card): a stored-value card spent on meeting rooms in the listed buildings. */
export const teamCards = pgTable(
  'team_cards',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    faceValueFen: integer('face_value_fen').notNull(),
    priceFen: integer('price_fen').notNull(),
    validDays: integer('valid_days').notNull(),
    buildingIds: ids('building_ids'),
    published: boolean('published').notNull().default(false),
    ...authored(),
  },
  (t) => [uniqueIndex('team_cards_name_lower_key').on(sql`lower(${t.name})`)],
);

/**
 * 会议卡活动: a meeting card sold at a discount price within a window from a limited stock. `sold`
 * is taken by one guarded UPDATE per sale and given back by a cancel or refund; the CHECK holds
 * sold within 0…stock whatever races.
 */
export const teamCardActivities = pgTable(
  'team_card_activities',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    teamCardId: integer('team_card_id')
      .notNull()
      .references(() => teamCards.id, { onDelete: 'restrict' }),
    discountPriceFen: integer('discount_price_fen').notNull(),
    startAt: timestamptz('start_at').notNull(),
    endAt: timestamptz('end_at').notNull(),
    stock: integer('stock').notNull(),
    sold: integer('sold').notNull().default(0),
    limitPerUser: integer('limit_per_user').notNull(),
    published: boolean('published').notNull().default(false),
    ...authored(),
  },
  (t) => [
    index('team_card_activities_card_idx').on(t.teamCardId),
    check('team_card_activities_sold_check', sql`${t.sold} >= 0 and ${t.sold} <= ${t.stock}`),
    check('team_card_activities_window_check', sql`${t.endAt} > ${t.startAt}`),
  ],
);

export const companyCardStatusValues = ['enabled', 'disabled'] as const;

/**
 * 企业会议卡: a company's balance its listed staff spend on bookings. The balance only moves with a
 * ledger row in the same transaction; the CHECK keeps it from going below zero whatever races.
 */
export const companyCards = pgTable(
  'company_cards',
  {
    id: serial('id').primaryKey(),
    cardNo: text('card_no').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    /** The company's name, kept for the answers that carried it before companies existed. */
    companyName: text('company_name').notNull(),
    /** Who may pay with the card: all active staff, those of `departments`, or `memberPhones`. */
    staffScope: text('staff_scope', { enum: staffScopeValues }).notNull().default('people'),
    departments: texts('departments'),
    teamCardId: integer('team_card_id')
      .notNull()
      .references(() => teamCards.id, { onDelete: 'restrict' }),
    balanceFen: integer('balance_fen').notNull().default(0),
    memberPhones: texts('member_phones'),
    monthlyCapFen: integer('monthly_cap_fen'),
    validUntil: timestamptz('valid_until').notNull(),
    status: text('status', { enum: companyCardStatusValues }).notNull().default('enabled'),
    ...authored(),
  },
  (t) => [
    uniqueIndex('company_cards_card_no_key').on(t.cardNo),
    index('company_cards_member_phones_idx').using('gin', t.memberPhones),
    check('company_cards_balance_check', sql`${t.balanceFen} >= 0`),
    check('company_cards_status_check', sql`${t.status} in ('enabled', 'disabled')`),
    check('company_cards_staff_scope_check', inList('staff_scope', staffScopeValues)),
    index('company_cards_company_idx').on(t.companyId),
  ],
);

export const ledgerKindValues = ['top-up', 'debit', 'credit'] as const;

/** Every change of a company card's balance: who, why, by how much and what it left. */
export const companyCardLedger = pgTable(
  'company_card_ledger',
  {
    id: serial('id').primaryKey(),
    cardId: integer('card_id')
      .notNull()
      .references(() => companyCards.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ledgerKindValues }).notNull(),
    /** Signed: top-ups and credits add, debits take. */
    amountFen: integer('amount_fen').notNull(),
    balanceAfterFen: integer('balance_after_fen').notNull(),
    orderId: integer('order_id'),
    memberPhone: text('member_phone'),
    remark: text('remark'),
    byUserId: integer('by_user_id'),
    byName: text('by_name'),
    at: timestamptz('at').notNull().defaultNow(),
  },
  (t) => [
    index('company_card_ledger_card_idx').on(t.cardId, t.id),
    index('company_card_ledger_member_idx').on(t.cardId, t.memberPhone, t.at),
    check('company_card_ledger_kind_check', sql`${t.kind} in ('top-up', 'debit', 'credit')`),
  ],
);

export const seatTypeValues = ['fixed', 'flexible'] as const;

export const seatGoodsUnitValues = ['day', 'month'] as const;

/** 工位: office seats and hall seats share one shape in two tables, each with its seat goods. */
function seatTables(name: 'office' | 'hall') {
  const seats = pgTable(
    `${name}_seats`,
    {
      id: serial('id').primaryKey(),
      buildingId: integer('building_id')
        .notNull()
        .references(() => buildings.id, { onDelete: 'restrict' }),
      floor: text('floor'),
      code: text('code').notNull(),
      name: text('name').notNull(),
      seatType: text('seat_type', { enum: seatTypeValues }).notNull(),
      dayPriceFen: integer('day_price_fen'),
      monthPriceFen: integer('month_price_fen'),
      status: text('status', { enum: userStatuses }).notNull().default('enabled'),
      published: boolean('published').notNull().default(false),
      ...authored(),
    },
    (t) => [uniqueIndex(`${name}_seats_building_code_key`).on(t.buildingId, sql`lower(${t.code})`)],
  );
  const goods = pgTable(
    `${name}_seat_goods`,
    {
      id: serial('id').primaryKey(),
      seatId: integer('seat_id')
        .notNull()
        .references(() => seats.id, { onDelete: 'cascade' }),
      name: text('name').notNull(),
      priceFen: integer('price_fen').notNull(),
      unit: text('unit', { enum: seatGoodsUnitValues }).notNull(),
      stock: integer('stock').notNull().default(0),
      enabled: boolean('enabled').notNull().default(true),
      ...authored(),
    },
    (t) => [index(`${name}_seat_goods_seat_idx`).on(t.seatId)],
  );
  return { seats, goods };
}

export const { seats: officeSeats, goods: officeSeatGoods } = seatTables('office');

export const { seats: hallSeats, goods: hallSeatGoods } = seatTables('hall');

/** 会议室 (office-station) and 活动场地 (activity-station): one shape in two tables. */
function stationTable(name: 'office' | 'activity') {
  return pgTable(
    `${name}_stations`,
    {
      id: serial('id').primaryKey(),
      buildingId: integer('building_id')
        .notNull()
        .references(() => buildings.id, { onDelete: 'restrict' }),
      floor: text('floor'),
      name: text('name').notNull(),
      capacity: integer('capacity').notNull(),
      areaSqm: doublePrecision('area_sqm'),
      facilityIds: ids('facility_ids'),
      imageUrls: texts('image_urls'),
      hourPriceFen: integer('hour_price_fen').notNull(),
      minBookingMinutes: integer('min_booking_minutes').notNull().default(60),
      openTime: text('open_time').notNull(),
      closeTime: text('close_time').notNull(),
      published: boolean('published').notNull().default(false),
      ...authored(),
    },
    (t) => [uniqueIndex(`${name}_stations_building_name_key`).on(t.buildingId, sql`lower(${t.name})`)],
  );
}

export const officeStations = stationTable('office');

export const activityStations = stationTable('activity');

/** 机场贵宾厅 (airport-product): lounges sold per airport (airport-code). */
export const airportProducts = pgTable(
  'airport_products',
  {
    id: serial('id').primaryKey(),
    airportCode: text('airport_code').notNull(),
    terminal: text('terminal'),
    loungeName: text('lounge_name').notNull(),
    priceFen: integer('price_fen').notNull(),
    supplierSku: text('supplier_sku'),
    published: boolean('published').notNull().default(false),
    ...authored(),
  },
  (t) => [index('airport_products_code_idx').on(t.airportCode)],
);
