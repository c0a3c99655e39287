import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN_CLIENT_ID,
  ADMIN_CLIENT_SECRET,
  endpoints,
  messages,
  REFRESH_REUSE_GRACE_SECONDS,
  type TokenResponse,
} from '@cowork/contract';
import { authTokens, ssoUsers } from '../src/db/schema.ts';
import { hashToken } from '../src/lib/sessions.ts';
import { buildApp } from '../src/app.ts';
import { basicAuth, buildTestApp, demo, expiredAuth, userIdOf, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const userInfo = (token: string) => t.app.inject({ url: endpoints.userInfo, headers: bearer(token) });
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('password grant', () => {
  test('form body with Basic client answers the token response without envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: endpoints.token,
      headers: { authorization: basicAuth, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ grant_type: 'password', username: 'admin', password: 'Admin@123' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<TokenResponse>();
    expect(body).not.toHaveProperty('code');
    expect(body.token_type).toBe('bearer');
    expect(body.expires_in).toBe(t.config.accessTokenTtl);
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user_info).toMatchObject({
      username: 'admin',
      nickname: '系统管理员',
      email: 'admin@cowork.example',
      roles: ['super_admin'],
      roleNames: ['超级管理员'],
      permissions: ['*'],
    });
    expect((await userInfo(body.access_token)).statusCode).toBe(200);
  });

  test('only the SHA-256 of a token is stored', async () => {
    const body = await t.signIn(...demo.caiwu);
    const rows = await t.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.tokenHash, hashToken(body.access_token)));
    expect(rows).toHaveLength(1);
    const raw = await t.db.select({ hash: authTokens.tokenHash }).from(authTokens);
    expect(raw.map((r) => r.hash)).not.toContain(body.access_token);
  });

  test('JSON body with client in parameters', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: endpoints.token,
      payload: {
        grant_type: 'password',
        username: 'yunying',
        password: 'Yunying@123',
        client_id: ADMIN_CLIENT_ID,
        client_secret: ADMIN_CLIENT_SECRET,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<TokenResponse>().user_info.roles).toEqual(['operation']);
  });

  test('query string only', async () => {
    const query = form({
      grant_type: 'password',
      username: 'caiwu',
      password: 'Caiwu@123',
      client_id: ADMIN_CLIENT_ID,
      client_secret: ADMIN_CLIENT_SECRET,
    });
    const res = await t.app.inject({ method: 'POST', url: `${endpoints.token}?${query}` });
    expect(res.statusCode).toBe(200);
    expect(res.json<TokenResponse>().user_info.username).toBe('caiwu');
  });

  test('the username is case-insensitive; the password is taken as typed', async () => {
    expect((await t.signIn('ADMIN', 'Admin@123')).user_info.username).toBe('admin');
    const res = await t.app.inject({
      method: 'POST',
      url: endpoints.token,
      headers: { authorization: basicAuth },
      payload: { grant_type: 'password', username: 'admin', password: ' Admin@123' },
      remoteAddress: '10.9.9.9',
    });
    expect(res.statusCode).toBe(400);
  });

  test('wrong password and unknown user answer identically', async () => {
    const attempt = (username: string, remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: endpoints.token,
        headers: { authorization: basicAuth },
        payload: { grant_type: 'password', username, password: 'Wrong@123' },
        remoteAddress,
      });
    const wrong = await attempt('caiwu', '10.0.0.1');
    const unknown = await attempt('nobody-here', '10.0.0.2');
    expect(wrong.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrong.body).toBe(unknown.body);
    expect(wrong.json()).toEqual({ code: 400, msg: messages.badCredentials, data: null });
  });

  test('a bad client is refused with 401, whatever the user', async () => {
    const viaBasic = await t.app.inject({
      method: 'POST',
      url: endpoints.token,
      headers: { authorization: `Basic ${Buffer.from('admin:nope').toString('base64')}` },
      payload: { grant_type: 'password', username: 'admin', password: 'Admin@123' },
    });
    expect(viaBasic.statusCode).toBe(401);
    expect(viaBasic.json()).toEqual({ code: 401, msg: messages.badClient, data: null });
    const missing = await t.app.inject({
      method: 'POST',
      url: endpoints.token,
      payload: { grant_type: 'password', username: 'admin', password: 'Admin@123' },
    });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().msg).toBe(messages.badClient);
    const wrongId = await t.app.inject({
      method: 'POST',
      url: endpoints.token,
      payload: {
        grant_type: 'password',
        username: 'admin',
        password: 'Admin@123',
        client_id: 'web',
        client_secret: 'admin',
      },
    });
    expect(wrongId.statusCode).toBe(401);
  });

  test('an unsupported grant type is a 400 envelope', async () => {
    for (const grant of ['client_credentials', undefined]) {
      const res = await t.app.inject({
        method: 'POST',
        url: endpoints.token,
        headers: { authorization: basicAuth },
        payload: grant ? { grant_type: grant } : {},
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 400, msg: messages.badGrant, data: null });
    }
  });

  test('missing username or password names the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: endpoints.token,
      headers: { authorization: basicAuth },
      payload: { grant_type: 'password', password: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(`用户名：${messages.usernameRequired}`);
    const noPassword = await t.app.inject({
      method: 'POST',
      url: endpoints.token,
      headers: { authorization: basicAuth },
      payload: { grant_type: 'password', username: 'admin' },
    });
    expect(noPassword.json().msg).toBe(`密码：${messages.passwordRequired}`);
  });

  test('sign-in is audited and updates lastLoginAt', async () => {
    const { user_info } = await t.signIn(...demo.yunying);
    const [user] = await t.db.select().from(ssoUsers).where(eq(ssoUsers.id, user_info.ssoUserId));
    expect(user.lastLoginAt).toBeInstanceOf(Date);
    const admin = await t.auth(...demo.admin);
    const page = await t.app.inject({
      url: `${endpoints.auditLogPage}?action=sign-in&actorId=${user_info.ssoUserId}`,
      headers: admin,
    });
    expect(page.json().data.total).toBeGreaterThan(0);
  });
});

describe('bearer check', () => {
  test('missing header, empty Bearer, unknown token: 401', async () => {
    for (const headers of [{}, { authorization: '' }, { authorization: 'Bearer ' }, bearer('not-a-token')]) {
      const res = await t.app.inject({ url: endpoints.userInfo, headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 401, msg: messages.unauthorized, data: null });
    }
  });

  test('a refresh token is not an access token', async () => {
    const { refresh_token } = await t.signIn(...demo.caiwu);
    expect((await userInfo(refresh_token)).statusCode).toBe(401);
  });

  test('an expired access token answers 424', async () => {
    const { authorization } = await expiredAuth(t.db, await userIdOf(t.db, 'caiwu'));
    const res = await t.app.inject({ url: endpoints.userInfo, headers: { authorization } });
    expect(res.statusCode).toBe(424);
    expect(res.json()).toEqual({ code: 424, msg: messages.tokenExpired, data: null });
  });

  test('an access TTL from config is honoured (a 1-second token expires)', async () => {
    const short = await buildApp({ config: { ...t.config, accessTokenTtl: 1 }, db: t.db, logger: false });
    try {
      const res = await short.inject({
        method: 'POST',
        url: endpoints.token,
        headers: { authorization: basicAuth },
        payload: { grant_type: 'password', username: 'caiwu', password: 'Caiwu@123' },
      });
      const { access_token, expires_in } = res.json<TokenResponse>();
      expect(expires_in).toBe(1);
      await new Promise((r) => setTimeout(r, 1100));
      expect((await userInfo(access_token)).statusCode).toBe(424);
    } finally {
      await short.close();
    }
  });

  test('disabling a user stops their tokens at once', async () => {
    const { access_token, refresh_token, user_info } = await t.signIn(...demo.caiwu);
    await t.db.update(ssoUsers).set({ status: 'disabled' }).where(eq(ssoUsers.id, user_info.ssoUserId));
    try {
      const res = await userInfo(access_token);
      expect(res.statusCode).toBe(401);
      expect(res.json().msg).toBe(messages.accountDisabled);
      const refreshed = await refresh(refresh_token);
      expect(refreshed.statusCode).toBe(401);
      const signIn = await t.app.inject({
        method: 'POST',
        url: endpoints.token,
        headers: { authorization: basicAuth },
        payload: { grant_type: 'password', username: 'caiwu', password: 'Caiwu@123' },
      });
      expect(signIn.statusCode).toBe(400);
      expect(signIn.json().msg).toBe(messages.accountDisabled);
    } finally {
      await t.db.update(ssoUsers).set({ status: 'enabled' }).where(eq(ssoUsers.id, user_info.ssoUserId));
    }
  });
});

const refresh = (refreshToken: string, viaQuery = true) =>
  viaQuery
    ? t.app.inject({
        method: 'POST',
        url: `${endpoints.token}?${form({
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: ADMIN_CLIENT_ID,
          client_secret: ADMIN_CLIENT_SECRET,
        })}`,
      })
    : t.app.inject({
        method: 'POST',
        url: endpoints.token,
        headers: { authorization: basicAuth },
        payload: { grant_type: 'refresh_token', refresh_token: refreshToken },
      });

describe('refresh', () => {
  test('rotates: new pair works, old access and old refresh stop', async () => {
    const first = await t.signIn(...demo.yunying);
    const res = await refresh(first.refresh_token);
    expect(res.statusCode).toBe(200);
    const second = res.json<TokenResponse>();
    expect(second.user_info.username).toBe('yunying');
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await userInfo(second.access_token)).statusCode).toBe(200);
    expect((await userInfo(first.access_token)).statusCode).toBe(401);
    const [stored] = await t.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.tokenHash, hashToken(first.refresh_token)));
    expect(stored.usedAt).toBeInstanceOf(Date);
    const [next] = await t.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.tokenHash, hashToken(second.refresh_token)));
    expect(next.familyId).toBe(stored.familyId);
  });

  test('an expired access token can be refreshed (the 424 path)', async () => {
    const { authorization, refreshToken } = await expiredAuth(t.db, await userIdOf(t.db, 'yunying'));
    expect((await t.app.inject({ url: endpoints.userInfo, headers: { authorization } })).statusCode).toBe(
      424,
    );
    const res = await refresh(refreshToken, false);
    expect(res.statusCode).toBe(200);
    expect((await userInfo(res.json<TokenResponse>().access_token)).statusCode).toBe(200);
  });

  test('reusing a spent refresh token after the grace revokes the whole family', async () => {
    const first = await t.signIn(...demo.yunying);
    const second = (await refresh(first.refresh_token)).json<TokenResponse>();
    // Past REFRESH_REUSE_GRACE_SECONDS (security/refresh.test.ts covers the grace itself).
    await t.db
      .update(authTokens)
      .set({ usedAt: new Date(Date.now() - (REFRESH_REUSE_GRACE_SECONDS + 1) * 1000) })
      .where(eq(authTokens.tokenHash, hashToken(first.refresh_token)));
    const reuse = await refresh(first.refresh_token);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({ code: 401, msg: messages.refreshInvalid, data: null });
    expect((await userInfo(second.access_token)).statusCode).toBe(401);
    expect((await refresh(second.refresh_token)).statusCode).toBe(401);
  });

  test('unknown, missing or access tokens are refused with 401', async () => {
    const { access_token } = await t.signIn(...demo.yunying);
    for (const token of ['nope', access_token, '']) {
      const res = await refresh(token, false);
      expect(res.statusCode).toBe(401);
      expect(res.json().msg).toBe(messages.refreshInvalid);
    }
  });

  test('an expired refresh token is refused', async () => {
    const short = await buildApp({ config: { ...t.config, refreshTokenTtl: 1 }, db: t.db, logger: false });
    try {
      const res = await short.inject({
        method: 'POST',
        url: endpoints.token,
        headers: { authorization: basicAuth },
        payload: { grant_type: 'password', username: 'caiwu', password: 'Caiwu@123' },
      });
      await new Promise((r) => setTimeout(r, 1100));
      expect((await refresh(res.json<TokenResponse>().refresh_token, false)).statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe('logout', () => {
  test('DELETE revokes access and refresh of the session, other sessions stay', async () => {
    const session = await t.signIn(...demo.caiwu);
    const other = await t.signIn(...demo.caiwu);
    const res = await t.app.inject({
      method: 'DELETE',
      url: endpoints.logout,
      headers: bearer(session.access_token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, msg: messages.ok, data: null });
    expect((await userInfo(session.access_token)).statusCode).toBe(401);
    expect((await refresh(session.refresh_token)).statusCode).toBe(401);
    expect((await userInfo(other.access_token)).statusCode).toBe(200);
  });

  test('POST is accepted too; without a token it is 401', async () => {
    const session = await t.signIn(...demo.caiwu);
    const res = await t.app.inject({
      method: 'POST',
      url: endpoints.logout,
      headers: bearer(session.access_token),
    });
    expect(res.statusCode).toBe(200);
    expect((await userInfo(session.access_token)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: endpoints.logout })).statusCode).toBe(401);
  });

  test('a JSON content type with no body is accepted', async () => {
    const session = await t.signIn(...demo.caiwu);
    const res = await t.app.inject({
      method: 'DELETE',
      url: endpoints.logout,
      headers: { ...bearer(session.access_token), 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
  });

  test('logout is audited', async () => {
    const admin = await t.auth(...demo.admin);
    const page = await t.app.inject({ url: `${endpoints.auditLogPage}?action=logout`, headers: admin });
    expect(page.json().data.total).toBeGreaterThanOrEqual(2);
  });
});
