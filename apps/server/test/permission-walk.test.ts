/**
 * The permission walk: every route the app registers (read from its route catalogue, so routes
 * added later are covered without editing this file) is checked for what each caller gets.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EMERGENCY_PERMISSION, messages } from '@cowork/contract';
import { API_KEY_EDIT_PERMISSION, API_KEY_VIEW_PERMISSION } from '@cowork/contract/resources/api-key';
import type { RouteEntry } from '../src/plugins/auth.ts';
import { buildTestApp, createRole, createUser, demo, expiredAuth, type TestApp } from './helper.ts';

/** Codes that are not a screen's view/edit/remove: 紧急模式, and 接口密钥's under 开放平台. */
const rightsOfTheirOwn = [EMERGENCY_PERMISSION, API_KEY_VIEW_PERMISSION, API_KEY_EDIT_PERMISSION];

let t: TestApp;
let noRole: { authorization: string };
let expired: { authorization: string };
let admin: { authorization: string };

beforeAll(async () => {
  t = await buildTestApp();
  const id = await createUser(t.db, { username: 'walker', password: 'Walker@123' });
  noRole = await t.auth('walker', 'Walker@123');
  expired = { authorization: (await expiredAuth(t.db, id)).authorization };
  admin = await t.auth(...demo.admin);
});
afterAll(() => t?.close());

/** A concrete address for a route pattern: path parameters become `id` (1), wildcards x. */
const concrete = (url: string, id = '1') => url.replace(/:[^/]+/g, id).replace(/\*/g, 'x');

const call = (route: RouteEntry, headers: Record<string, string> = {}, id?: string) =>
  t.app.inject({
    method: route.method as 'GET',
    url: concrete(route.url, id),
    headers,
    ...(['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) ? { payload: {} } : {}),
  });

const label = (route: RouteEntry) => `${route.method} ${route.url}`;
const catalogue = () => t.app.routeCatalogue.filter((r) => r.url.startsWith('/api/'));

test('the catalogue lists the API and every route declares its access', () => {
  const urls = catalogue().map(label);
  expect(urls).toEqual(
    expect.arrayContaining([
      'POST /api/auth/oauth/token',
      'GET /api/user/admin/v1/sso-user/user-info',
      'GET /api/user/admin/v1/audit-log/page',
    ]),
  );
  for (const route of t.app.routeCatalogue) {
    expect(['public', 'auth', 'permission']).toContain(route.access);
    if (route.access !== 'permission') expect(route.permissions, label(route)).toEqual([]);
    else {
      expect(route.permissions.length, label(route)).toBeGreaterThan(0);
      expect(route.permission, label(route)).toBe(route.permissions[0]);
      // A screen's code (`group:leaf:action`), or a right of its own the role screen lists by name.
      for (const code of route.permissions)
        if (!rightsOfTheirOwn.includes(code))
          expect(code, label(route)).toMatch(/^[a-z]+:[a-zA-Z]+:[a-z]+$|^\*$/);
    }
  }
  // Anything public is meant to be: a new public route must be added here on purpose.
  expect(
    catalogue()
      .filter((r) => r.access === 'public')
      .map(label)
      .sort(),
  ).toEqual(
    [
      'GET /api/health',
      'GET /api/ready',
      'POST /api/auth/oauth/token',
      // A firmware file for a device holding a link the server signed (checked in the route).
      'GET /api/hardware/admin/v1/firmware/download',
    ].sort(),
  );
});

describe('every non-public route', () => {
  test('without a token: 401', async () => {
    for (const route of catalogue().filter((r) => r.access !== 'public')) {
      const res = await call(route);
      expect(res.statusCode, label(route)).toBe(401);
      expect(res.json(), label(route)).toEqual({ code: 401, msg: messages.unauthorized, data: null });
    }
  });

  test('with an empty bearer or an unknown token: 401', async () => {
    for (const route of catalogue().filter((r) => r.access !== 'public')) {
      for (const authorization of ['Bearer ', 'Bearer unknown-token']) {
        expect((await call(route, { authorization })).statusCode, label(route)).toBe(401);
      }
    }
  });

  test('with an expired access token: 424', async () => {
    for (const route of catalogue().filter((r) => r.access !== 'public')) {
      const res = await call(route, expired);
      expect(res.statusCode, label(route)).toBe(424);
      expect(res.json().msg, label(route)).toBe(messages.tokenExpired);
    }
  });
});

describe('every route with a permission code', () => {
  test('a signed-in user holding no role: 403', async () => {
    const guarded = catalogue().filter((r) => r.access === 'permission');
    expect(guarded.length).toBeGreaterThan(0);
    for (const route of guarded) {
      const res = await call(route, noRole);
      expect(res.statusCode, label(route)).toBe(403);
      expect(res.json(), label(route)).toEqual({ code: 403, msg: messages.noPermission, data: null });
    }
  });

  test('a route declaring several codes opens to a holder of any one of them, alone', async () => {
    const several = catalogue().filter((r) => r.permissions.length > 1);
    expect(several.map(label)).toContain('GET /api/user/admin/v1/sso-menu/menus');
    const codes = [...new Set(several.flatMap((r) => r.permissions))];
    const holders = new Map<string, { authorization: string }>();
    for (const [i, code] of codes.entries()) {
      await createRole(t.db, { code: `walk_any_${i}`, name: `只有 ${code}`, permissions: [code] });
      await createUser(t.db, {
        username: `walk_any_${i}`,
        password: 'Walker@123',
        roleCodes: [`walk_any_${i}`],
      });
      holders.set(code, await t.auth(`walk_any_${i}`, 'Walker@123'));
    }
    // An id no record has: a route may refuse a record itself (a banner to a news editor).
    for (const route of several) {
      for (const code of route.permissions) {
        const status = (await call(route, holders.get(code), '999999')).statusCode;
        expect([401, 403, 424], `${label(route)} as a holder of ${code}`).not.toContain(status);
      }
    }
  });

  test('超级管理员 (`*`) passes the check', async () => {
    for (const route of catalogue().filter((r) => r.access === 'permission')) {
      expect([401, 403, 424], label(route)).not.toContain((await call(route, admin)).statusCode);
    }
  });
});
