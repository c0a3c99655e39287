/**
 * POST /api/auth/oauth/token (password and refresh_token grants; no envelope on success) and
 * DELETE|POST /api/auth/oauth/logout.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  endpoints,
  fieldInvalid,
  fieldLabels,
  messages,
  REFRESH_REUSE_GRACE_SECONDS,
  tokenResponse,
  type TokenResponse,
} from '@cowork/contract';
import { authTokens, ssoUsers } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, envelope, ok, unauthorized } from '../../lib/http.ts';
import { verifyPassword } from '../../lib/password.ts';
import { findSession, loadAuthUser, type AuthUser } from '../../lib/sessions.ts';
import { currentUser } from '../../plugins/auth.ts';
import { throttledCheck } from './throttle.ts';
import { issueTokenPair, openPair, revokeFamily, sealPair, toUserInfo, type IssuedPair } from './tokens.ts';

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

  const respond = (user: AuthUser, pair: Pick<IssuedPair, 'accessToken' | 'refreshToken' | 'expiresIn'>) => ({
    access_token: pair.accessToken,
    refresh_token: pair.refreshToken,
    token_type: 'bearer' as const,
    expires_in: pair.expiresIn,
    user_info: toUserInfo(user),
  });

  const pairOptions = (request: FastifyRequest) => ({
    accessTtl: config.accessTokenTtl,
    refreshTtl: config.refreshTokenTtl,
    ip: request.ip,
    userAgent: request.headers['user-agent'],
  });

  async function passwordGrant(
    request: FastifyRequest,
    reply: FastifyReply,
    params: TokenParams,
  ): Promise<TokenResponse> {
    if (isBlank(params.username))
      throw badRequest(fieldInvalid(fieldLabels.username, messages.usernameRequired));
    const password = params.password;
    if (password === undefined || password === '') {
      throw badRequest(fieldInvalid(fieldLabels.password, messages.passwordRequired));
    }
    const account = params.username.trim().toLowerCase();
    const [found] = await db
      .select({ id: ssoUsers.id, passwordHash: ssoUsers.passwordHash, status: ssoUsers.status })
      .from(ssoUsers)
      .where(sql`lower(${ssoUsers.username}) = ${account}`);
    // Unknown users are checked against a dummy hash: same answer, same time, same throttling.
    const valid = await throttledCheck(request, reply, account, () =>
      verifyPassword(found?.passwordHash, password),
    );
    if (!found || !valid) throw badRequest(messages.badCredentials);
    // Told only to someone who knows the password.
    if (found.status !== 'enabled') throw badRequest(messages.accountDisabled);

    await db.update(ssoUsers).set({ lastLoginAt: new Date() }).where(eq(ssoUsers.id, found.id));
    const user = await loadAuthUser(db, found.id);
    if (!user) throw badRequest(messages.badCredentials);
    const pair = await issueTokenPair(db, { userId: user.id, ...pairOptions(request) });
    await audit(request, { action: 'sign-in', resource: 'auth', resourceId: user.id, actorId: user.id });
    return respond(user, pair);
  }

  /**
   * Rotates a refresh token under its row lock. A spent token shown again within
   * REFRESH_REUSE_GRACE_SECONDS of its rotation (two tabs refreshing at once) gets the pair it was
   * exchanged for, decrypted with a key only the raw token gives; later, it is a stolen copy and
   * ends the whole family.
   */
  async function refreshGrant(request: FastifyRequest, params: TokenParams): Promise<TokenResponse> {
    const token = params.refresh_token;
    if (isBlank(token)) throw unauthorized(messages.refreshInvalid);
    const session = await findSession(db, token);
    if (!session || session.kind !== 'refresh') throw unauthorized(messages.refreshInvalid);
    const { user, familyId, tokenId } = session;

    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx
        .select({
          usedAt: authTokens.usedAt,
          revokedAt: authTokens.revokedAt,
          expiresAt: authTokens.expiresAt,
          successor: authTokens.successor,
        })
        .from(authTokens)
        .where(eq(authTokens.id, tokenId))
        .for('update');
      if (!row) return { kind: 'invalid' } as const;
      if (user.status !== 'enabled') return { kind: 'disabled' } as const;
      const now = new Date();
      if (row.usedAt && !row.revokedAt && row.successor) {
        if (now.getTime() - row.usedAt.getTime() <= REFRESH_REUSE_GRACE_SECONDS * 1000) {
          return { kind: 'issued', pair: openPair(token, row.successor) } as const;
        }
      }
      if (row.usedAt || row.revokedAt) return { kind: 'reuse' } as const;
      if (row.expiresAt.getTime() <= now.getTime()) return { kind: 'invalid' } as const;

      // The access tokens issued before the new pair stop working.
      await tx
        .update(authTokens)
        .set({ revokedAt: now })
        .where(
          and(eq(authTokens.familyId, familyId), eq(authTokens.kind, 'access'), isNull(authTokens.revokedAt)),
        );
      const pair = await issueTokenPair(tx, { userId: user.id, familyId, now, ...pairOptions(request) });
      await tx
        .update(authTokens)
        .set({ usedAt: now, successor: sealPair(token, pair) })
        .where(eq(authTokens.id, tokenId));
      return { kind: 'issued', pair } as const;
    });

    if (outcome.kind === 'issued') return respond(user, outcome.pair);
    if (outcome.kind === 'disabled') throw unauthorized(messages.accountDisabled);
    if (outcome.kind === 'reuse') {
      // A spent refresh token shown again after the grace: someone holds a copy. End the family.
      await revokeFamily(db, familyId);
      await audit(request, {
        action: 'refresh-reuse',
        resource: 'auth',
        resourceId: user.id,
        actorId: user.id,
      });
    }
    throw unauthorized(messages.refreshInvalid);
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
      if (params.grant_type === 'password') return passwordGrant(request, reply, params);
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
