/**
 * 会员 and where they came from (来源配置).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { authored, prefixOps, timestamptz } from './columns.ts';
import { userStatuses } from './staff.ts';

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
