/**
 * Database tables (Drizzle, pg-core). One dialect serves both engines: embedded PGlite and
 * PostgreSQL. Every time is `timestamp with time zone`. Kept free of other imports so drizzle-kit
 * can load it on its own.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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

/** Failed sign-ins, kept in the database so a restart does not reset throttling. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: serial('id').primaryKey(),
    /** Lower-cased username as typed (the account may not exist). */
    username: text('username').notNull(),
    ip: text('ip').notNull(),
    at: timestamptz('at').notNull().defaultNow(),
  },
  (t) => [
    index('login_failures_username_at_idx').on(t.username, t.at),
    index('login_failures_ip_at_idx').on(t.ip, t.at),
  ],
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
