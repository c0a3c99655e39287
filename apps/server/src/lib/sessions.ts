/**
 * Who a token signs in: the token's row, its user and the user's roles, read in one query. The auth
 * plugin (through its session cache) and the sign-in routes both read sessions this way; only the
 * token's SHA-256 is stored, so a look-up hashes the raw token first.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { authTokens, ssoRoles, ssoUserRoles, ssoUsers, type UserStatus } from '../db/schema.ts';

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
