/**
 * Database tables (Drizzle, pg-core). One dialect serves both engines: embedded PGlite and
 * PostgreSQL. Every time is `timestamp with time zone`. Kept free of other imports so drizzle-kit
 * can load it on its own.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
  type ExtraConfigColumn,
} from 'drizzle-orm/pg-core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A text column indexed for `LIKE 'typed%'`: phones and numbers are searched by their first digits
 * (lib/like.ts), and a plain btree serves a prefix only under the C collation, text_pattern_ops under any.
 */
const prefixOps = (column: ExtraConfigColumn) => column.op('text_pattern_ops');

/** createdAt, updatedAt, createdBy, updatedBy of tables staff write. */
const authored = () => ({
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  createdBy: integer('created_by'),
  updatedBy: integer('updated_by'),
});

export const userStatuses = ['enabled', 'disabled'] as const;
export type UserStatus = (typeof userStatuses)[number];

export const ssoUsers = pgTable(
  'sso_users',
  {
    id: serial('id').primaryKey(),
    /** Stored lower-cased; sign-in lower-cases what is typed. */
    username: text('username').notNull(),
    nickname: text('nickname').notNull().default(''),
    email: text('email'),
    phone: text('phone'),
    avatar: text('avatar'),
    passwordHash: text('password_hash').notNull(),
    status: text('status', { enum: userStatuses }).notNull().default('enabled'),
    lastLoginAt: timestamptz('last_login_at'),
    ...authored(),
  },
  (t) => [
    uniqueIndex('sso_users_username_lower_key').on(sql`lower(${t.username})`),
    index('sso_users_phone_prefix_idx').on(prefixOps(t.phone)),
    check('sso_users_status_check', sql`${t.status} in ('enabled', 'disabled')`),
  ],
);

export const ssoRoleGroups = pgTable('sso_role_groups', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  sort: integer('sort').notNull().default(0),
  ...authored(),
});

export const ssoRoles = pgTable(
  'sso_roles',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    code: text('code').notNull(),
    description: text('description'),
    roleGroupId: integer('role_group_id').references(() => ssoRoleGroups.id, { onDelete: 'set null' }),
    /** Permission codes this role grants; `*` grants everything. */
    permissions: text('permissions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    ...authored(),
  },
  (t) => [uniqueIndex('sso_roles_code_key').on(t.code)],
);

export const ssoUserRoles = pgTable(
  'sso_user_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => ssoUsers.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => ssoRoles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('sso_user_roles_role_idx').on(t.roleId)],
);

export const menuTypes = ['group', 'page', 'action'] as const;
export type MenuType = (typeof menuTypes)[number];

export const ssoMenus = pgTable(
  'sso_menus',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id').references((): AnyPgColumn => ssoMenus.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Route path for pages, `/{group}` for groups, empty for actions. */
    url: text('url').notNull().default(''),
    iconUrl: text('icon_url'),
    iconBrightUrl: text('icon_bright_url'),
    sort: integer('sort').notNull().default(0),
    type: text('type', { enum: menuTypes }).notNull(),
    /** Permission code an action menu stands for (`system:log:view`). */
    permission: text('permission'),
    visible: boolean('visible').notNull().default(true),
    ...authored(),
  },
  (t) => [
    index('sso_menus_parent_idx').on(t.parentId),
    check('sso_menus_type_check', sql`${t.type} in ('group', 'page', 'action')`),
  ],
);

export const ssoRoleMenus = pgTable(
  'sso_role_menus',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => ssoRoles.id, { onDelete: 'cascade' }),
    menuId: integer('menu_id')
      .notNull()
      .references(() => ssoMenus.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] }), index('sso_role_menus_menu_idx').on(t.menuId)],
);

export const tokenKinds = ['access', 'refresh'] as const;
export type TokenKind = (typeof tokenKinds)[number];

/** Issued tokens; only the SHA-256 of each token is stored. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => ssoUsers.id, { onDelete: 'cascade' }),
    /** One sign-in and every pair refreshed from it share a family. */
    familyId: uuid('family_id').notNull(),
    kind: text('kind', { enum: tokenKinds }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    /** Set when a refresh token has been exchanged; a second use revokes the family. */
    usedAt: timestamptz('used_at'),
    /**
     * On a spent refresh token: the pair it was exchanged for, AES-GCM encrypted with a key derived
     * from the raw refresh token, so a concurrent refresh within the grace gets the same pair.
     */
    successor: text('successor'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    uniqueIndex('auth_tokens_token_hash_key').on(t.tokenHash),
    index('auth_tokens_user_idx').on(t.userId),
    index('auth_tokens_family_idx').on(t.familyId),
    check('auth_tokens_kind_check', sql`${t.kind} in ('access', 'refresh')`),
  ],
);

/**
 * Sign-in throttling counters (modules/auth/throttle.ts), in the database so restarts and other
 * instances share them. `scope` is pair (account + address), account or address; an attempt is
 * reserved here, in one upsert, before its password is checked.
 */
export const signInCounters = pgTable(
  'sign_in_counters',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** Failures so far, including attempts whose password is being checked right now. */
    failures: integer('failures').notNull(),
    windowStart: timestamptz('window_start').notNull(),
    lastAt: timestamptz('last_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('sign_in_counters_last_at_idx').on(t.lastAt)],
);

/** Addresses an account has signed in from with the right password: they pass the account-wide lock. */
export const signInKnownAddresses = pgTable(
  'sign_in_known_addresses',
  {
    /** Lower-cased username. */
    username: text('username').notNull(),
    address: text('address').notNull(),
    lastSuccessAt: timestamptz('last_success_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.username, t.address] })],
);

/**
 * Request counts per key (@fastify/rate-limit's store, lib/rate-limit-store.ts), shared by every
 * instance on the database. A window starts at a key's first hit and ends at expires_at.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('rate_limit_hits_expires_at_idx').on(t.expiresAt)],
);

export const auditLogs = pgTable(
  'audit_logs',
  {
    id: serial('id').primaryKey(),
    actorId: integer('actor_id').references(() => ssoUsers.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    resource: text('resource').notNull(),
    resourceId: text('resource_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    at: timestamptz('at').notNull().defaultNow(),
  },
  (t) => [
    index('audit_logs_at_idx').on(t.at),
    index('audit_logs_actor_idx').on(t.actorId),
    index('audit_logs_resource_idx').on(t.resource, t.at),
  ],
);

/** 来源配置 (csr-source). */
export const csrSources = pgTable(
  'csr_sources',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    code: text('code').notNull(),
    sort: integer('sort').notNull().default(0),
    published: boolean('published').notNull().default(false),
    ...authored(),
  },
  (t) => [
    uniqueIndex('csr_sources_name_key').on(sql`lower(${t.name})`),
    uniqueIndex('csr_sources_code_key').on(sql`lower(${t.code})`),
  ],
);

/** Files uploaded through oss/upload; the bytes live in the storage driver under `key`. */
export const uploadedFiles = pgTable(
  'uploaded_files',
  {
    id: serial('id').primaryKey(),
    /** Storage key: `YYYYMMDD/{random id}.{checked extension}`, served at /file/uploads/{key}. */
    key: text('key').notNull(),
    /** The name on the uploader's computer, for display only. */
    originalName: text('original_name').notNull(),
    /** Found from the content, not taken from the client. */
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: integer('uploaded_by').references(() => ssoUsers.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('uploaded_files_key_key').on(t.key),
    index('uploaded_files_uploaded_by_idx').on(t.uploadedBy),
    check('uploaded_files_size_check', sql`${t.sizeBytes} >= 0`),
  ],
);

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

/** 数据字典 (dict): codes are lower case (checked on write), so a plain unique key serves items' references. */
export const dicts = pgTable(
  'dicts',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    ...authored(),
  },
  (t) => [
    uniqueIndex('dicts_code_key').on(t.code),
    check('dicts_code_check', sql`${t.code} ~ '^[a-z][a-z0-9_]{1,49}$'`),
  ],
);

/** 字典项: values unique within their dict; a dict's code change follows to its items. */
export const dictItems = pgTable(
  'dict_items',
  {
    id: serial('id').primaryKey(),
    dictCode: text('dict_code')
      .notNull()
      .references(() => dicts.code, { onUpdate: 'cascade', onDelete: 'restrict' }),
    label: text('label').notNull(),
    value: text('value').notNull(),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    ...authored(),
  },
  (t) => [
    uniqueIndex('dict_items_dict_value_key').on(t.dictCode, sql`lower(${t.value})`),
    index('dict_items_dict_sort_idx').on(t.dictCode, t.sort),
  ],
);

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

/** 会员 (user): members sign up in the member app; staff read and correct them here. */
export const members = pgTable(
  'members',
  {
    id: serial('id').primaryKey(),
    /** Mainland mobile number, the member's sign-in; unique. */
    phone: text('phone').notNull(),
    nickname: text('nickname').notNull().default(''),
    avatar: text('avatar'),
    realName: text('real_name'),
    /** Full 18-character resident ID number; answers mask it unless the caller may edit members. */
    idCardNo: text('id_card_no'),
    companyName: text('company_name'),
    /** Where the member came from; a source still used by members cannot be deleted. */
    sourceId: integer('source_id').references(() => csrSources.id, { onDelete: 'restrict' }),
    status: text('status', { enum: userStatuses }).notNull().default('enabled'),
    registeredAt: timestamptz('registered_at').notNull().defaultNow(),
    ...authored(),
  },
  (t) => [
    uniqueIndex('members_phone_key').on(t.phone),
    index('members_phone_prefix_idx').on(prefixOps(t.phone)),
    index('members_source_idx').on(t.sourceId),
    index('members_registered_at_idx').on(t.registeredAt),
    check('members_status_check', sql`${t.status} in ('enabled', 'disabled')`),
  ],
);

export const bannerTypeValues = ['banner', 'news'] as const;

/** 轮播图 and 案例新闻 (type); content is sanitized HTML, used by news. */
export const banners = pgTable(
  'banners',
  {
    id: serial('id').primaryKey(),
    type: text('type', { enum: bannerTypeValues }).notNull(),
    title: text('title').notNull(),
    imageUrl: text('image_url').notNull(),
    linkUrl: text('link_url'),
    summary: text('summary'),
    content: text('content'),
    sort: integer('sort').notNull().default(0),
    published: boolean('published').notNull().default(false),
    startAt: timestamptz('start_at'),
    endAt: timestamptz('end_at'),
    ...authored(),
  },
  (t) => [
    index('banners_type_sort_idx').on(t.type, t.sort),
    check('banners_type_check', sql`${t.type} in ('banner', 'news')`),
    check(
      'banners_window_check',
      sql`${t.endAt} is null or ${t.startAt} is null or ${t.endAt} > ${t.startAt}`,
    ),
  ],
);

export const agreementTypeValues = ['privacy', 'user', 'service'] as const;

/** 隐私政策 / 用户协议 / 服务协议 versions; at most one published per type. */
export const csrAgreements = pgTable(
  'csr_agreements',
  {
    id: serial('id').primaryKey(),
    type: text('type', { enum: agreementTypeValues }).notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    version: text('version').notNull(),
    published: boolean('published').notNull().default(false),
    ...authored(),
  },
  (t) => [
    uniqueIndex('csr_agreements_type_version_key').on(t.type, sql`lower(${t.version})`),
    uniqueIndex('csr_agreements_published_key')
      .on(t.type)
      .where(sql`${t.published}`),
    check('csr_agreements_type_check', sql`${t.type} in ('privacy', 'user', 'service')`),
  ],
);

/**
 * Seeded menus staff removed or re-addressed, by their seed key (`group /system`,
 * `page /system/source`, `action system:source:view`): the start-up menu sync never brings them back.
 */
export const ssoMenuRemovals = pgTable('sso_menu_removals', {
  seedKey: text('seed_key').primaryKey(),
  removedAt: timestamptz('removed_at').notNull().defaultNow(),
  removedBy: integer('removed_by'),
});

// ---- 商户服务, 楼宇管理, 产品管理 ----

/** Integer array column defaulting to empty (ids of referenced rows kept on the record). */
const ids = (name: string) =>
  integer(name)
    .array()
    .notNull()
    .default(sql`'{}'::integer[]`);
const texts = (name: string) =>
  text(name)
    .array()
    .notNull()
    .default(sql`'{}'::text[]`);

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
    ...authored(),
  },
  (t) => [
    uniqueIndex('buildings_name_key').on(sql`lower(${t.name})`),
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
    companyName: text('company_name').notNull(),
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

// ---- 线索管理 (sales leads): 定制场地 and 物业合作, with their follow-up records ----

export const leadStatusValues = ['new', 'following', 'won', 'lost'] as const;
export const leadKindValues = ['site', 'website'] as const;

/** The columns both kinds of lead share; `prefix` names their indexes. */
const leadColumns = () => ({
  id: serial('id').primaryKey(),
  contactName: text('contact_name').notNull(),
  contactPhone: text('contact_phone').notNull(),
  companyName: text('company_name'),
  cityCode: text('city_code'),
  /** A source removed later leaves the lead without one. */
  sourceId: integer('source_id').references(() => csrSources.id, { onDelete: 'set null' }),
  demand: text('demand'),
  status: text('status', { enum: leadStatusValues }).notNull().default('new'),
  /** The staff member following the lead up. */
  ownerId: integer('owner_id').references(() => ssoUsers.id, { onDelete: 'set null' }),
  ...authored(),
});

const leadIndexes = (
  name: string,
  t: {
    contactPhone: ExtraConfigColumn;
    companyName: AnyPgColumn;
    status: AnyPgColumn;
    sourceId: AnyPgColumn;
    ownerId: AnyPgColumn;
    createdAt: AnyPgColumn;
  },
) => [
  index(`${name}_contact_phone_prefix_idx`).on(prefixOps(t.contactPhone)),
  index(`${name}_status_idx`).on(t.status),
  index(`${name}_source_idx`).on(t.sourceId),
  index(`${name}_owner_idx`).on(t.ownerId),
  index(`${name}_created_at_idx`).on(t.createdAt),
  check(`${name}_status_check`, sql.raw(`status in (${leadStatusValues.map((v) => `'${v}'`).join(', ')})`)),
];

/** 定制场地 (csr-capital-site): a company asking for a venue made to measure. */
export const csrCapitalSites = pgTable(
  'csr_capital_sites',
  {
    ...leadColumns(),
    headcount: integer('headcount'),
    areaSqm: doublePrecision('area_sqm'),
    budgetFen: integer('budget_fen'),
    /** The day the venue is wanted, YYYY-MM-DD. */
    expectedDate: text('expected_date'),
  },
  (t) => leadIndexes('csr_capital_sites', t),
);

/** 物业合作 (csr-capital-website): a property owner offering space to run. */
export const csrCapitalWebsites = pgTable(
  'csr_capital_websites',
  {
    ...leadColumns(),
    propertyAddress: text('property_address'),
    propertyAreaSqm: doublePrecision('property_area_sqm'),
  },
  (t) => leadIndexes('csr_capital_websites', t),
);

/** Follow-up records of both kinds of lead; removed with their lead. */
export const csrCapitalRecords = pgTable(
  'csr_capital_records',
  {
    id: serial('id').primaryKey(),
    leadKind: text('lead_kind', { enum: leadKindValues }).notNull(),
    leadId: integer('lead_id').notNull(),
    content: text('content').notNull(),
    nextFollowAt: timestamptz('next_follow_at'),
    createdBy: integer('created_by').references(() => ssoUsers.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('csr_capital_records_lead_idx').on(t.leadKind, t.leadId, t.createdAt),
    check(
      'csr_capital_records_kind_check',
      sql.raw(`lead_kind in (${leadKindValues.map((v) => `'${v}'`).join(', ')})`),
    ),
  ],
);

/**
 * Answers of POSTs sent with an Idempotency-Key (plugins/idempotency.ts): a repeat of the request (a
 * double click, a retry after a lost answer) gets the first answer instead of writing again. The row
 * is written before the handler runs, so it is also the lock between instances; kept 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => ssoUsers.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** sha256 of method, address and body: the same key on another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    /** Null while the first request runs. */
    statusCode: integer('status_code'),
    /** The first answer's body (JSON text). */
    response: text('response'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);

// ---- 智能硬件 (door devices): spaces, devices, commands, the open log ----

export const spaceKindValues = ['building', 'floor', 'room', 'gate'] as const;

/** 物理空间: a tree per building (building → floor → room / gate) that devices are placed in. */
export const spaces = pgTable(
  'spaces',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id').references((): AnyPgColumn => spaces.id, { onDelete: 'restrict' }),
    buildingId: integer('building_id')
      .notNull()
      .references(() => buildings.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    kind: text('kind', { enum: spaceKindValues }).notNull(),
    sort: integer('sort').notNull().default(0),
    /** The bookable room this space is: its paid bookings open the doors of sets holding it. */
    officeStationId: integer('office_station_id').references(() => officeStations.id, {
      onDelete: 'set null',
    }),
    activityStationId: integer('activity_station_id').references(() => activityStations.id, {
      onDelete: 'set null',
    }),
    ...authored(),
  },
  (t) => [
    index('spaces_building_idx').on(t.buildingId),
    index('spaces_office_station_idx').on(t.officeStationId),
    index('spaces_activity_station_idx').on(t.activityStationId),
    index('spaces_parent_idx').on(t.parentId),
    check('spaces_kind_check', sql.raw(`kind in (${spaceKindValues.map((v) => `'${v}'`).join(', ')})`)),
  ],
);

export const deviceStatusValues = ['online', 'offline'] as const;
export const deviceProtocolValues = ['1', '1.1'] as const;

/**
 * A device admin password as kept: SHA-256 for v1 devices, and PBKDF2 with its salt for v1.1 ones
 * (devices/secrets-v11.ts). Entries saved before PBKDF2 have no salt: they cannot be converted
 * without the password, so v1.1 devices are not sent them until staff enter the password again.
 */
export interface StoredAdminPassword {
  id: string;
  sha256: string;
  salt?: string;
  iterations?: number;
  pbkdf2?: string;
}

/**
 * Registered door devices. The device secret is kept only encrypted (AES-256-GCM under SECRET_KEY,
 * lib/secret-box.ts); a reset-config in flight keeps the new one in `pendingSecret` until the device
 * acks with the old one.
 */
export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    sn: text('sn').notNull(),
    name: text('name').notNull(),
    spaceId: integer('space_id').references(() => spaces.id, { onDelete: 'restrict' }),
    model: text('model'),
    vendor: text('vendor'),
    firmware: text('firmware'),
    secret: text('secret').notNull(),
    pendingSecret: text('pending_secret'),
    status: text('status', { enum: deviceStatusValues }).notNull().default('offline'),
    lastSeenAt: timestamptz('last_seen_at'),
    /** Messages dropped as malformed, unsigned, oversized, stale or replayed. */
    droppedCount: integer('dropped_count').notNull().default(0),
    lastDropReason: text('last_drop_reason'),
    /** The id of the last hello answered with a sync: one instance claims each hello. */
    lastHelloId: text('last_hello_id'),
    /** The access state last sent in a `sync`, and the version the device last acked. */
    accessVersion: integer('access_version').notNull().default(0),
    ackedVersion: integer('acked_version').notNull().default(0),
    /** The protocol version of its last hello (`protocol`; absent is 1): v1.1 gets secretBox and PBKDF2. */
    protocol: text('protocol', { enum: deviceProtocolValues }).notNull().default('1'),
    adminPasswords: jsonb('admin_passwords').$type<StoredAdminPassword[]>().notNull().default([]),
    cardRules: jsonb('card_rules')
      .$type<{ cardNo: string; validFrom: number; validTo: number }[]>()
      .notNull()
      .default([]),
    /** sha256 of the access state last sent: a change that leaves it equal sends nothing. */
    accessHash: text('access_hash'),
    /** When an entry of that state ends: the device is re-synced then (a card or booking expiring). */
    nextExpiryAt: timestamptz('next_expiry_at'),
    ...authored(),
  },
  (t) => [
    uniqueIndex('devices_sn_key').on(t.sn),
    index('devices_next_expiry_idx').on(t.nextExpiryAt),
    index('devices_space_idx').on(t.spaceId),
    check('devices_status_check', sql.raw(`status in ('online', 'offline')`)),
    check('devices_protocol_check', sql.raw(`protocol in ('1', '1.1')`)),
  ],
);

/** Devices that said `hello` with the enrolment key and are not registered (novo un-pulled list). */
export const deviceEnrolments = pgTable('device_enrolments', {
  sn: text('sn').primaryKey(),
  model: text('model'),
  vendor: text('vendor'),
  firmware: text('firmware'),
  lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
});

export const deviceCommandStateValues = ['sent', 'acked', 'failed', 'timeout'] as const;

/** Every command sent to a device and its fate; the id is the message id the ack refers to. */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: uuid('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    byUserId: integer('by_user_id'),
    byName: text('by_name'),
    reason: text('reason'),
    state: text('state', { enum: deviceCommandStateValues }).notNull().default('sent'),
    error: text('error'),
    sentAt: timestamptz('sent_at').notNull().defaultNow(),
    answeredAt: timestamptz('answered_at'),
  },
  (t) => [index('device_commands_device_idx').on(t.deviceId, t.sentAt)],
);

export const openMethodValues = ['remote', 'totp', 'card', 'password'] as const;
export const openResultValues = ['success', 'denied'] as const;

/** 开门记录: every signed `door` event, once (its message id is unique). */
export const deviceOpenLogs = pgTable(
  'device_open_logs',
  {
    id: serial('id').primaryKey(),
    messageId: text('message_id').notNull(),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    sn: text('sn').notNull(),
    deviceName: text('device_name'),
    method: text('method', { enum: openMethodValues }).notNull(),
    credential: text('credential'),
    result: text('result', { enum: openResultValues }).notNull(),
    reason: text('reason'),
    /** Who opened: the staff member for remote opening, a member's masked phone, or null. */
    who: text('who'),
    memberId: integer('member_id'),
    at: timestamptz('at').notNull(),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('device_open_logs_message_key').on(t.messageId),
    index('device_open_logs_at_idx').on(t.at),
    index('device_open_logs_device_at_idx').on(t.deviceId, t.at),
  ],
);

/** 门禁联动: a set of devices and the spaces it holds (whose members may open those devices). */
export const deviceSets = pgTable(
  'device_sets',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    remark: text('remark'),
    ...authored(),
  },
  (t) => [uniqueIndex('device_sets_name_lower_key').on(sql`lower(${t.name})`)],
);

export const deviceSetDevices = pgTable(
  'device_set_devices',
  {
    setId: integer('set_id')
      .notNull()
      .references(() => deviceSets.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.setId, t.deviceId] }),
    index('device_set_devices_device_idx').on(t.deviceId),
  ],
);

export const deviceSetSpaces = pgTable(
  'device_set_spaces',
  {
    setId: integer('set_id')
      .notNull()
      .references(() => deviceSets.id, { onDelete: 'cascade' }),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.setId, t.spaceId] }), index('device_set_spaces_space_idx').on(t.spaceId)],
);

export const kreatorGroupStatusValues = ['enabled', 'disabled'] as const;

/** 企业门禁组: a company's staff open the group's devices within validFrom–validTo while enabled. */
export const kreatorUserGroups = pgTable(
  'kreator_user_groups',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    companyName: text('company_name').notNull(),
    buildingId: integer('building_id')
      .notNull()
      .references(() => buildings.id, { onDelete: 'restrict' }),
    validFrom: timestamptz('valid_from').notNull(),
    validTo: timestamptz('valid_to').notNull(),
    status: text('status', { enum: kreatorGroupStatusValues }).notNull().default('enabled'),
    ...authored(),
  },
  (t) => [
    uniqueIndex('kreator_user_groups_name_lower_key').on(sql`lower(${t.name})`),
    check('kreator_user_groups_status_check', sql`${t.status} in ('enabled', 'disabled')`),
    check('kreator_user_groups_valid_check', sql`${t.validTo} > ${t.validFrom}`),
  ],
);

/** A member of an access group (the member with that phone; created with source 企业导入 if new). */
export const kreatorUsers = pgTable(
  'kreator_users',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => kreatorUserGroups.id, { onDelete: 'cascade' }),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    ...authored(),
  },
  (t) => [
    uniqueIndex('kreator_users_group_phone_key').on(t.groupId, t.phone),
    index('kreator_users_member_idx').on(t.memberId),
  ],
);

/** A device an access group's members may open. */
export const kreatorDevices = pgTable(
  'kreator_devices',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => kreatorUserGroups.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    createdBy: integer('created_by'),
  },
  (t) => [
    uniqueIndex('kreator_devices_group_device_key').on(t.groupId, t.deviceId),
    index('kreator_devices_device_idx').on(t.deviceId),
  ],
);
