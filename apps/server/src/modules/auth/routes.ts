/**
 * POST /api/auth/oauth/token (password and refresh_token grants; no envelope on success) and
 * DELETE|POST /api/auth/oauth/logout.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  endpoints,
  fieldInvalid,
  fieldLabels,
  messages,
  tokenResponse,
  type TokenResponse,
} from '@cowork/contract';
import { authTokens, ssoUsers } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { AppError, badRequest, envelope, ok, unauthorized } from '../../lib/http.ts';
import { verifyPassword } from '../../lib/password.ts';
import { currentUser } from '../../plugins/auth.ts';
import {
  clearAccountFailures,
  countFailures,
  failureDelayMs,
  isLockedOut,
  recordFailure,
} from './throttle.ts';
import {
  findSession,
  issueTokenPair,
  loadAuthUser,
  revokeFamily,
  toUserInfo,
  type AuthUser,
} from './tokens.ts';

/** Parameters may come as a form body, a JSON body or the query string; unknown keys are dropped. */
const tokenParams = z.object({
  grant_type: z.string().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  refresh_token: z.string().optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  scope: z.string().optional(),
});
type TokenParams = z.infer<typeof tokenParams>;

const digest = (s: string) => createHash('sha256').update(s).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/** Client credentials from HTTP Basic (RFC 6749 2.3.1, form-encoded parts) or from the parameters. */
function clientCredentials(request: FastifyRequest, params: TokenParams) {
  const header = request.headers.authorization;
  const basic = header ? /^Basic\s+(\S+)$/i.exec(header) : null;
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    try {
      return {
        id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
        secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
      };
    } catch {
      return undefined;
    }
  }
  if (params.client_id === undefined || params.client_secret === undefined) return undefined;
  return { id: params.client_id, secret: params.client_secret };
}

const isBlank = (v: string | undefined): v is undefined => v === undefined || v.trim() === '';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, db } = app;

  async function answer(request: FastifyRequest, user: AuthUser, familyId?: string): Promise<TokenResponse> {
    const pair = await issueTokenPair(db, {
      userId: user.id,
      familyId,
      accessTtl: config.accessTokenTtl,
      refreshTtl: config.refreshTokenTtl,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    return {
      access_token: pair.accessToken,
      refresh_token: pair.refreshToken,
      token_type: 'bearer',
      expires_in: pair.expiresIn,
      user_info: toUserInfo(user),
    };
  }

  async function passwordGrant(request: FastifyRequest, params: TokenParams): Promise<TokenResponse> {
    if (isBlank(params.username))
      throw badRequest(fieldInvalid(fieldLabels.username, messages.usernameRequired));
    if (params.password === undefined || params.password === '') {
      throw badRequest(fieldInvalid(fieldLabels.password, messages.passwordRequired));
    }
    const account = params.username.trim().toLowerCase();
    const counts = await countFailures(db, account, request.ip);
    if (isLockedOut(counts)) throw new AppError(429, messages.tooManyAttempts);

    const [found] = await db
      .select({ id: ssoUsers.id, passwordHash: ssoUsers.passwordHash, status: ssoUsers.status })
      .from(ssoUsers)
      .where(sql`lower(${ssoUsers.username}) = ${account}`);
    // Unknown users are checked against a dummy hash: same answer, same time.
    const valid = await verifyPassword(found?.passwordHash, params.password);
    if (!found || !valid) {
      await recordFailure(db, account, request.ip);
      await sleep(failureDelayMs(counts.account + 1));
      throw badRequest(messages.badCredentials);
    }
    // Told only to someone who knows the password.
    if (found.status !== 'enabled') throw badRequest(messages.accountDisabled);

    await clearAccountFailures(db, account);
    await db.update(ssoUsers).set({ lastLoginAt: new Date() }).where(eq(ssoUsers.id, found.id));
    const user = await loadAuthUser(db, found.id);
    if (!user) throw badRequest(messages.badCredentials);
    const response = await answer(request, user);
    await audit(request, { action: 'sign-in', resource: 'auth', resourceId: user.id, actorId: user.id });
    return response;
  }

  async function refreshGrant(request: FastifyRequest, params: TokenParams): Promise<TokenResponse> {
    if (isBlank(params.refresh_token)) throw unauthorized(messages.refreshInvalid);
    const session = await findSession(db, params.refresh_token);
    if (!session || session.kind !== 'refresh') throw unauthorized(messages.refreshInvalid);
    if (session.usedAt || session.revokedAt) {
      // A spent refresh token shown again: someone holds a copy. End the whole family.
      await revokeFamily(db, session.familyId);
      await audit(request, {
        action: 'refresh-reuse',
        resource: 'auth',
        resourceId: session.user.id,
        actorId: session.user.id,
      });
      throw unauthorized(messages.refreshInvalid);
    }
    if (session.expiresAt.getTime() <= Date.now()) throw unauthorized(messages.refreshInvalid);
    if (session.user.status !== 'enabled') throw unauthorized(messages.accountDisabled);

    const rotated = await db.transaction(async (tx) => {
      const now = new Date();
      // Conditional update: of two concurrent refreshes with one token only one wins.
      const spent = await tx
        .update(authTokens)
        .set({ usedAt: now })
        .where(
          and(eq(authTokens.id, session.tokenId), isNull(authTokens.usedAt), isNull(authTokens.revokedAt)),
        )
        .returning({ id: authTokens.id });
      if (spent.length === 0) return false;
      await tx
        .update(authTokens)
        .set({ revokedAt: now })
        .where(
          and(
            eq(authTokens.familyId, session.familyId),
            eq(authTokens.kind, 'access'),
            isNull(authTokens.revokedAt),
          ),
        );
      return true;
    });
    if (!rotated) {
      await revokeFamily(db, session.familyId);
      throw unauthorized(messages.refreshInvalid);
    }
    return answer(request, session.user, session.familyId);
  }

  app.post(
    endpoints.token,
    {
      config: {
        public: true,
        rateLimit: { max: config.tokenRateLimitPerMinute, timeWindow: 60_000 },
      },
      schema: {
        tags: ['auth'],
        summary: 'Sign in (grant_type=password) or refresh (grant_type=refresh_token)',
        description:
          'Parameters as form body, JSON body or query string; client credentials as HTTP Basic or ' +
          'client_id/client_secret. Answers without the envelope; errors use it.',
        security: [],
        querystring: tokenParams,
        body: tokenParams.nullish(),
        response: { 200: tokenResponse },
      },
    },
    async (request, reply) => {
      const params: TokenParams = { ...request.query, ...(request.body ?? {}) };
      const client = clientCredentials(request, params);
      if (
        !client ||
        !sameSecret(client.id, config.adminClientId) ||
        !sameSecret(client.secret, config.adminClientSecret)
      ) {
        throw unauthorized(messages.badClient);
      }
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      if (params.grant_type === 'password') return passwordGrant(request, params);
      if (params.grant_type === 'refresh_token') return refreshGrant(request, params);
      throw badRequest(messages.badGrant);
    },
  );

  const logout = {
    config: { auth: true },
    schema: {
      tags: ['auth'],
      summary: "Sign out: revokes the caller's access and refresh tokens",
      response: { 200: envelope(z.null()) },
    },
  } as const;
  const logoutHandler = async (request: FastifyRequest) => {
    const user = currentUser(request);
    if (request.sessionFamilyId) await revokeFamily(db, request.sessionFamilyId);
    await audit(request, { action: 'logout', resource: 'auth', resourceId: user.id });
    return ok(null);
  };
  app.delete(endpoints.logout, logout, logoutHandler);
  app.post(endpoints.logout, logout, logoutHandler);
};

export default authRoutes;
