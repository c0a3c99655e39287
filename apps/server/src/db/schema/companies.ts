/**
 * 企业 (companies) and their staff lists. A company's access groups (kreator_user_groups) and
 * meeting-card pools (company_cards) reference it and take their people from its staff list: all
 * active staff, the active staff of chosen departments, or chosen people. A member who leaves
 * (status `left`) drops out of all three kinds at once, because every reader joins the staff row's
 * status (device-link/access.ts, company-card ledger).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { authored, ids, inList, prefixOps, timestamptz } from './columns.ts';
import { members } from './members.ts';

export const companyStatusValues = ['enabled', 'disabled'] as const;

export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** 统一社会信用代码 (18 characters, check digit verified); unknown for companies made from old names. */
    creditCode: text('credit_code'),
    contactName: text('contact_name'),
    contactPhone: text('contact_phone'),
    /** Buildings where the company has space. */
    buildingIds: ids('building_ids'),
    /** Contract period (生效 / 到期); open when null. */
    validFrom: timestamptz('valid_from'),
    validTo: timestamptz('valid_to'),
    status: text('status', { enum: companyStatusValues }).notNull().default('enabled'),
    /** What 开票 prefills for the company. */
    invoiceTitle: text('invoice_title'),
    taxNo: text('tax_no'),
    logo: text('logo'),
    remark: text('remark'),
    ...authored(),
  },
  (t) => [
    uniqueIndex('companies_name_lower_key').on(sql`lower(${t.name})`),
    uniqueIndex('companies_credit_code_key').on(t.creditCode),
    index('companies_building_ids_idx').using('gin', t.buildingIds),
    check('companies_status_check', inList('status', companyStatusValues)),
    check(
      'companies_valid_check',
      sql`${t.validTo} is null or ${t.validFrom} is null or ${t.validTo} > ${t.validFrom}`,
    ),
  ],
);

export const companyStaffStatusValues = ['active', 'left'] as const;

/** 企业员工: one row per member and company; the member is found or created by phone. */
export const companyStaff = pgTable(
  'company_staff',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    department: text('department'),
    status: text('status', { enum: companyStaffStatusValues }).notNull().default('active'),
    joinedAt: timestamptz('joined_at').notNull().defaultNow(),
    leftAt: timestamptz('left_at'),
    ...authored(),
  },
  (t) => [
    uniqueIndex('company_staff_company_member_key').on(t.companyId, t.memberId),
    index('company_staff_company_status_idx').on(t.companyId, t.status, t.department),
    index('company_staff_member_idx').on(t.memberId),
    index('company_staff_phone_prefix_idx').on(prefixOps(t.phone)),
    check('company_staff_status_check', inList('status', companyStaffStatusValues)),
  ],
);

/** Whom an access group or a card pool takes from its company's active staff. */
export const staffScopeValues = ['all', 'departments', 'people'] as const;
