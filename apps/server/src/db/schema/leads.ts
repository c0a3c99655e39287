/**
 * 线索管理 (sales leads): 定制场地 and 物业合作, with their follow-up records.
 */
import { sql } from 'drizzle-orm';
import {
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  serial,
  text,
  type AnyPgColumn,
  type ExtraConfigColumn,
} from 'drizzle-orm/pg-core';
import { authored, prefixOps, timestamptz } from './columns.ts';
import { ssoUsers } from './staff.ts';
import { csrSources } from './members.ts';

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
