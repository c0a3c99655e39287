/**
 * Who a token signs in: the token's row, its user and the user's roles, read in one query. The auth
 * plugin (through its session cache) and the sign-in routes both read sessions this way; only the
 * token's SHA-256 is stored, so a look-up hashes the raw token first. An API key (`ck_…`, 接口密钥)
 * is read here too, as a session of its own, so the cache and its invalidation serve both alike.
 */
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { API_KEY_PREFIX, apiKeyActorName } from '@cowork/contract/resources/api-key';
import type { Database, Executor } from '../db/client.ts';
import { apiKeys, authTokens, ssoRoles, ssoUserRoles, ssoUsers, type UserStatus } from '../db/schema.ts';

/** The channel every change to who may do what is announced on (migration 0021's triggers). */
export const AUTH_CHANNEL = 'auth_changed';

/**
 * Announces a change no trigger announces (an API key revoked: its table has none, so its frequent
 * last-use writes stay silent). Sent with the transaction's commit, as the triggers' are.
 */
export async function notifyAuthChanged(tx: Executor, what: string) {
  await tx.execute(sql`select pg_notify(${AUTH_CHANNEL}, ${what})`);
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Who is calling, loaded fresh on every request so role and status changes apply at once. */
export interface AuthUser {
  id: number;
  username: string;
  nickname: string;
  email: string | null;
  avatar: string | null;
  status: UserStatus;
  roleIds: number[];
  roleCodes: string[];
  /** Chinese role names, in the order of roleCodes. */
  roleNames: string[];
  permissions: string[];
  /** Set when the caller is an API key: it acts with its role's codes, in its buildings only. */
  apiKey?: ApiKeyCaller;
}

/** The key behind a call made with one (the staff fields above are then its creator's). */
export interface ApiKeyCaller {
  id: number;
  name: string;
  /** Empty: every building. */
  buildingIds: number[];
  /** Why the key no longer works (its creator was removed or disabled, its role removed); null while it does. */
  unusable: 'owner' | 'role' | null;
}

export interface Session {
  user: AuthUser;
  tokenId: number;
  familyId: string;
  kind: 'access' | 'refresh';
  expiresAt: Date;
  revokedAt: Date | null;
  usedAt: Date | null;
}

interface RoleRow {
  roleId: number | null;
  roleCode: string | null;
  roleName: string | null;
  rolePermissions: string[] | null;
}

/** A user's permission codes are the union of their roles' codes. */
function rolesOf(rows: RoleRow[]) {
  const roles = rows
    .filter((r): r is { roleId: number; roleCode: string; roleName: string; rolePermissions: string[] } =>
      Boolean(r.roleId),
    )
    .sort((a, b) => a.roleCode.localeCompare(b.roleCode));
  return {
    roleIds: roles.map((r) => r.roleId),
    roleCodes: roles.map((r) => r.roleCode),
    roleNames: roles.map((r) => r.roleName),
    permissions: [...new Set(roles.flatMap((r) => r.rolePermissions))].sort(),
  };
}

/** The user and role columns both look-ups read; one row per role held (or one with null role). */
const userColumns = {
  id: ssoUsers.id,
  username: ssoUsers.username,
  nickname: ssoUsers.nickname,
  email: ssoUsers.email,
  avatar: ssoUsers.avatar,
  status: ssoUsers.status,
  roleId: ssoRoles.id,
  roleCode: ssoRoles.code,
  roleName: ssoRoles.name,
  rolePermissions: ssoRoles.permissions,
};

type UserRow = RoleRow & Pick<AuthUser, 'id' | 'username' | 'nickname' | 'email' | 'avatar' | 'status'>;

/** Folds a user's rows (one per role) into the signed-in user. */
function toAuthUser(rows: UserRow[]): AuthUser {
  const { id, username, nickname, email, avatar, status } = rows[0];
  return { id, username, nickname, email, avatar, status, ...rolesOf(rows) };
}

/** One query: the token, its user and the user's roles. Undefined when the token is unknown. */
export async function findSession(db: Database, rawToken: string): Promise<Session | undefined> {
  const rows = await db
    .select({
      ...userColumns,
      tokenId: authTokens.id,
      familyId: authTokens.familyId,
      kind: authTokens.kind,
      expiresAt: authTokens.expiresAt,
      revokedAt: authTokens.revokedAt,
      usedAt: authTokens.usedAt,
    })
    .from(authTokens)
    .innerJoin(ssoUsers, eq(ssoUsers.id, authTokens.userId))
    .leftJoin(ssoUserRoles, eq(ssoUserRoles.userId, ssoUsers.id))
    .leftJoin(ssoRoles, eq(ssoRoles.id, ssoUserRoles.roleId))
    .where(eq(authTokens.tokenHash, hashToken(rawToken)));
  const first = rows[0];
  if (!first) return undefined;
  const { tokenId, familyId, kind, expiresAt, revokedAt, usedAt } = first;
  return { tokenId, familyId, kind, expiresAt, revokedAt, usedAt, user: toAuthUser(rows) };
}

/** Loads a user's profile, roles and permissions by id (sign-in, where there is no token yet). */
export async function loadAuthUser(db: Executor, userId: number): Promise<AuthUser | undefined> {
  const rows = await db
    .select(userColumns)
    .from(ssoUsers)
    .leftJoin(ssoUserRoles, eq(ssoUserRoles.userId, ssoUsers.id))
    .leftJoin(ssoRoles, eq(ssoRoles.id, ssoUserRoles.roleId))
    .where(eq(ssoUsers.id, userId));
  return rows.length > 0 ? toAuthUser(rows) : undefined;
}

/** A time no key expires before: keys without an expiry compare against it like tokens do. */
const NEVER = new Date(8.64e15);

/**
 * The session of an API key: its role's codes (read at each look-up, so a role edit applies once the
 * cache hears of it), acting as the staff member who created it, who answers for it (their id
 * fills the created-by columns, and the audit log names the key beside them). Undefined when unknown.
 */
export async function findApiKeySession(db: Database, rawKey: string): Promise<Session | undefined> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      buildingIds: apiKeys.buildingIds,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      ownerId: ssoUsers.id,
      username: ssoUsers.username,
      email: ssoUsers.email,
      avatar: ssoUsers.avatar,
      status: ssoUsers.status,
      roleId: ssoRoles.id,
      roleCode: ssoRoles.code,
      roleName: ssoRoles.name,
      rolePermissions: ssoRoles.permissions,
    })
    .from(apiKeys)
    .leftJoin(ssoUsers, eq(ssoUsers.id, apiKeys.createdBy))
    .leftJoin(ssoRoles, eq(ssoRoles.id, apiKeys.roleId))
    .where(eq(apiKeys.keyHash, hashToken(rawKey)));
  if (!row) return undefined;
  const owned = row.ownerId !== null && row.status === 'enabled';
  const unusable = !owned ? 'owner' : row.roleId === null ? 'role' : null;
  return {
    tokenId: row.id,
    familyId: `api-key:${row.id}`,
    kind: 'access',
    expiresAt: row.expiresAt ?? NEVER,
    revokedAt: row.revokedAt,
    usedAt: null,
    user: {
      id: row.ownerId ?? 0,
      username: row.username ?? '',
      nickname: apiKeyActorName(row.name),
      email: row.email,
      avatar: row.avatar,
      // The key's own state is checked by the auth plugin (apiKey.unusable); never a disabled login's.
      status: 'enabled',
      ...rolesOf([row]),
      // Nothing but the role's codes, and nothing at all once unusable.
      ...(unusable ? { permissions: [] } : {}),
      apiKey: { id: row.id, name: row.name, buildingIds: row.buildingIds, unusable },
    },
  };
}

/** The session of a bearer token: an API key's (`ck_…`) or a signed-in staff member's. */
export const findBearerSession = (db: Database, raw: string) =>
  raw.startsWith(API_KEY_PREFIX) ? findApiKeySession(db, raw) : findSession(db, raw);
