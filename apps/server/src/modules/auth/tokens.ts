/**
 * Opaque tokens: 32 random bytes, base64url. Only their SHA-256 is stored. A sign-in starts a
 * family; refreshing rotates the pair inside it; reuse of a spent refresh token revokes the family.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { UserInfo } from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { authTokens } from '../../db/schema.ts';
import { hashToken, type AuthUser } from '../../lib/sessions.ts';

export const newToken = () => randomBytes(32).toString('base64url');

export interface IssuedPair {
  accessToken: string;
  refreshToken: string;
  familyId: string;
  expiresIn: number;
}

export interface IssueOptions {
  userId: number;
  familyId?: string;
  accessTtl: number;
  refreshTtl: number;
  ip?: string | null;
  userAgent?: string | null;
  now?: Date;
}

/** Stores a new access + refresh pair (a new family unless one is given) and returns the raw tokens. */
export async function issueTokenPair(db: Executor, options: IssueOptions): Promise<IssuedPair> {
  const now = options.now ?? new Date();
  const familyId = options.familyId ?? randomUUID();
  const accessToken = newToken();
  const refreshToken = newToken();
  const common = {
    userId: options.userId,
    familyId,
    createdAt: now,
    ip: options.ip ?? null,
    userAgent: options.userAgent?.slice(0, 512) ?? null,
  };
  await db.insert(authTokens).values([
    {
      ...common,
      kind: 'access',
      tokenHash: hashToken(accessToken),
      expiresAt: new Date(now.getTime() + options.accessTtl * 1000),
    },
    {
      ...common,
      kind: 'refresh',
      tokenHash: hashToken(refreshToken),
      expiresAt: new Date(now.getTime() + options.refreshTtl * 1000),
    },
  ]);
  return { accessToken, refreshToken, familyId, expiresIn: options.accessTtl };
}

const sealedPair = z.object({ accessToken: z.string(), refreshToken: z.string(), expiresIn: z.number() });
type SealedPair = z.output<typeof sealedPair>;

/**
 * The key that seals the pair a refresh token was exchanged for: derived from the raw refresh token
 * (HKDF, not the stored SHA-256), so the database alone never yields a usable token.
 */
const sealKey = (refreshToken: string) =>
  Buffer.from(hkdfSync('sha256', refreshToken, 'cowork-auth', 'refresh-successor', 32));

/** AES-256-GCM of the pair under the old refresh token's key: `iv.ciphertext.tag`, base64url. */
export function sealPair(refreshToken: string, pair: SealedPair): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(refreshToken), iv);
  const { accessToken, refreshToken: next, expiresIn } = pair;
  const body = Buffer.concat([
    cipher.update(JSON.stringify({ accessToken, refreshToken: next, expiresIn })),
    cipher.final(),
  ]);
  return [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
}

/** The pair sealed by sealPair; throws when the token or the sealed text does not match. */
export function openPair(refreshToken: string, sealed: string): SealedPair {
  const [iv, body, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', sealKey(refreshToken), iv);
  decipher.setAuthTag(tag);
  return sealedPair.parse(
    JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')),
  );
}

export async function revokeFamily(db: Executor, familyId: string, now = new Date()) {
  await db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(and(eq(authTokens.familyId, familyId), isNull(authTokens.revokedAt)));
}

/** Ends every session of a user (password change, disabling). */
export async function revokeUserTokens(db: Executor, userId: number, now = new Date()) {
  await db
    .update(authTokens)
    .set({ revokedAt: now })
    .where(and(eq(authTokens.userId, userId), isNull(authTokens.revokedAt)));
}

/** The `userInfo` of the contract, as user-info and the token endpoint answer it. */
export const toUserInfo = (user: AuthUser): UserInfo => ({
  ssoUserId: user.id,
  username: user.username,
  nickname: user.nickname,
  email: user.email,
  avatar: user.avatar,
  roles: user.roleCodes,
  roleNames: user.roleNames,
  permissions: user.permissions,
});
