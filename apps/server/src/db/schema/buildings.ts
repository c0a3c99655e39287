/**
 * 楼宇管理 and 商户服务: buildings, their charge persons, rules and facilities, the merchants that run
 * them and the merchants' shares of sales.
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
import { authored, ids, prefixOps, texts, timestamptz } from './columns.ts';

/** 设施配置 (building-bright-points): highlights and facilities a building shows; names unique per kind. */
export const brightPointKinds = ['highlight', 'facility'] as const;

export const buildingBrightPoints = pgTable(
  'building_bright_points',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: brightPointKinds }).notNull(),
    name: text('name').notNull(),
    iconUrl: text('icon_url'),
    sort: integer('sort').notNull().default(0),
    published: boolean('published').notNull().default(false),
    ...authored(),
  },
  (t) => [
    uniqueIndex('building_bright_points_kind_name_key').on(t.kind, sql`lower(${t.name})`),
    index('building_bright_points_kind_sort_idx').on(t.kind, t.sort),
    check('building_bright_points_kind_check', sql`${t.kind} in ('highlight', 'facility')`),
  ],
);

/** 行为项配置 (building-rule). */
export const buildingRules = pgTable(
  'building_rules',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    iconUrl: text('icon_url'),
    description: text('description'),
    sort: integer('sort').notNull().default(0),
    published: boolean('published').notNull().default(false),
    ...authored(),
  },
  (t) => [uniqueIndex('building_rules_name_key').on(sql`lower(${t.name})`)],
);

/** 商户管理 (merchant): the companies that run buildings and take a share of their sales. */
export const merchants = pgTable(
  'merchants',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    logoUrl: text('logo_url'),
    contactName: text('contact_name'),
    contactPhone: text('contact_phone'),
    licenseNo: text('license_no'),
    bankAccountName: text('bank_account_name'),
    bankName: text('bank_name'),
    /** Full account number; answers mask it unless the caller may edit merchants. */
    bankAccountNo: text('bank_account_no'),
    description: text('description'),
    published: boolean('published').notNull().default(false),
    sort: integer('sort').notNull().default(0),
    ...authored(),
  },
  (t) => [
    uniqueIndex('merchants_name_key').on(sql`lower(${t.name})`),
    index('merchants_contact_phone_prefix_idx').on(prefixOps(t.contactPhone)),
  ],
);

export const siteTypeValues = [
  'member-card',
  'meeting-card',
  'office-seat',
  'hall-seat',
  'meeting-room',
  'activity-venue',
  'airport',
] as const;

/** 分账规则 (merchant-share): a merchant's share of one product type over a period; periods never overlap. */
export const merchantShares = pgTable(
  'merchant_shares',
  {
    id: serial('id').primaryKey(),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'restrict' }),
    siteType: text('site_type', { enum: siteTypeValues }).notNull(),
    /** 0–10000 = 0.00 %–100.00 %. */
    ratioBasisPoints: integer('ratio_basis_points').notNull(),
    effectiveFrom: timestamptz('effective_from').notNull(),
    /** Exclusive end; null = open-ended. */
    effectiveTo: timestamptz('effective_to'),
    ...authored(),
  },
  (t) => [
    index('merchant_shares_merchant_type_idx').on(t.merchantId, t.siteType, t.effectiveFrom),
    check('merchant_shares_ratio_check', sql`${t.ratioBasisPoints} between 0 and 10000`),
    check(
      'merchant_shares_window_check',
      sql`${t.effectiveTo} is null or ${t.effectiveTo} > ${t.effectiveFrom}`,
    ),
  ],
);

/** 楼宇列表 (building). Times of day are 'HH:mm' text; coordinates are WGS-84 degrees. */
export const buildings = pgTable(
  'buildings',
  {
    id: serial('id').primaryKey(),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    provinceCode: text('province_code').notNull(),
    cityCode: text('city_code').notNull(),
    regionCode: text('region_code'),
    address: text('address').notNull(),
    longitude: doublePrecision('longitude'),
    latitude: doublePrecision('latitude'),
    floors: texts('floors'),
    coverUrl: text('cover_url'),
    imageUrls: texts('image_urls'),
    brightPointIds: ids('bright_point_ids'),
    ruleIds: ids('rule_ids'),
    openTime: text('open_time'),
    closeTime: text('close_time'),
    phone: text('phone'),
    description: text('description'),
    published: boolean('published').notNull().default(false),
    sort: integer('sort').notNull().default(0),
    /** Door devices: their offline lease (hours, 1–168) and the minutes offline before an alert. */
    deviceLeaseHours: integer('device_lease_hours').notNull().default(24),
    offlineAlertMinutes: integer('offline_alert_minutes').notNull().default(5),
    ...authored(),
  },
  (t) => [
    uniqueIndex('buildings_name_key').on(sql`lower(${t.name})`),
    check('buildings_device_lease_hours_check', sql`device_lease_hours between 1 and 168`),
    check('buildings_offline_alert_minutes_check', sql`offline_alert_minutes between 1 and 1440`),
    index('buildings_merchant_idx').on(t.merchantId),
    index('buildings_city_idx').on(t.cityCode),
  ],
);

/** 楼宇负责人 (building-charge-person). */
export const buildingChargePersons = pgTable(
  'building_charge_persons',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    email: text('email'),
    buildingIds: ids('building_ids'),
    /** Shown to members as the buildings' contact (spec: edit-published for every building resource). */
    published: boolean('published').notNull().default(false),
    ...authored(),
  },
  (t) => [index('building_charge_persons_phone_prefix_idx').on(prefixOps(t.phone))],
);
