/**
 * 轮播图, 案例新闻 and the agreements (隐私政策 / 用户协议 / 服务协议).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { authored, timestamptz } from './columns.ts';

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
