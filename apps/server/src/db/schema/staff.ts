/**
 * Staff and their sign-in: 后台用户, 角色 and their groups, 菜单 (and the seeded menus staff removed),
 * issued tokens and the sign-in throttle.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { authored, prefixOps, timestamptz } from './columns.ts';

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
 * Seeded menus staff removed or re-addressed, by their seed key (`group /system`,
 * `page /system/source`, `action system:source:view`): the start-up menu sync never brings them back.
 */
export const ssoMenuRemovals = pgTable('sso_menu_removals', {
  seedKey: text('seed_key').primaryKey(),
  removedAt: timestamptz('removed_at').notNull().defaultNow(),
  removedBy: integer('removed_by'),
});
