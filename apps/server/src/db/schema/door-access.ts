/**
 * Who may open which doors: 门禁联动 (sets of devices and spaces) and 企业门禁组 (a company's staff
 * and the devices they may open).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { authored, inList, texts, timestamptz } from './columns.ts';
import { companies, companyStaff, staffScopeValues } from './companies.ts';
import { members } from './members.ts';
import { buildings } from './buildings.ts';
import { devices, spaces } from './devices.ts';

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

/**
 * 企业门禁组: a company's staff open the group's devices within validFrom–validTo while enabled: all
 * its active staff, those of `departments`, or the chosen people (kreator_users), by `staffScope`.
 * `companyName` is the company's name, kept for the answers that carried it before companies existed.
 */
export const kreatorUserGroups = pgTable(
  'kreator_user_groups',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    companyName: text('company_name').notNull(),
    staffScope: text('staff_scope', { enum: staffScopeValues }).notNull().default('people'),
    departments: texts('departments'),
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
    check('kreator_user_groups_staff_scope_check', inList('staff_scope', staffScopeValues)),
    index('kreator_user_groups_company_idx').on(t.companyId),
  ],
);

/**
 * A person chosen for an access group (staffScope `people`): a row of the company's staff list, its
 * member, name and phone copied for the answers that carried them.
 */
export const kreatorUsers = pgTable(
  'kreator_users',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => kreatorUserGroups.id, { onDelete: 'cascade' }),
    staffId: integer('staff_id')
      .notNull()
      .references(() => companyStaff.id, { onDelete: 'cascade' }),
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
    index('kreator_users_staff_idx').on(t.staffId),
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
