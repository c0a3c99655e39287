/**
 * /api/docs (issue 26, point 10): in production (API_DOCS unset) the page, its assets and the OpenAPI
 * document are for signed-in staff only: a browser shows them with the console's `access_token`
 * cookie, a script with its bearer token. API_DOCS=public, and every environment but production,
 * serve them to anyone.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DOCS_SIGN_IN } from '../src/plugins/swagger.ts';
import { buildTestApp, type TestApp } from './helper.ts';

const paths = ['/api/docs', '/api/docs/json', '/api/docs/yaml', '/api/docs/static/swagger-initializer.js'];

describe('/api/docs for staff only (production default)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp({ config: { apiDocsPublic: false }, demoRows: false });
    token = (await t.signIn('admin', 'Admin@123')).access_token;
  });
  afterAll(() => t?.close());

  test('anyone else gets 401 saying to sign in first', async () => {
    for (const url of paths) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json(), url).toMatchObject({ msg: DOCS_SIGN_IN });
      const forged = await t.app.inject({ url, headers: { cookie: 'access_token=not-a-token' } });
      expect(forged.statusCode, url).toBe(401);
    }
  });

  test('the console cookie (a browser) or a bearer token (a script) opens them', async () => {
    for (const url of paths) {
      const byCookie = await t.app.inject({ url, headers: { cookie: `theme=x; access_token=${token}` } });
      expect(byCookie.statusCode, url).toBe(200);
      const byBearer = await t.app.inject({ url, headers: { authorization: `Bearer ${token}` } });
      expect(byBearer.statusCode, url).toBe(200);
    }
    const doc = await t.app.inject({ url: '/api/docs/json', headers: { authorization: `Bearer ${token}` } });
    expect(doc.json()).toMatchObject({ openapi: '3.1.0' });
  });
});

describe('/api/docs public (API_DOCS=public, or not production)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { apiDocsPublic: true }, seed: false });
  });
  afterAll(() => t?.close());

  test('served without signing in', async () => {
    for (const url of paths) expect((await t.app.inject({ url })).statusCode, url).toBe(200);
  });
});
