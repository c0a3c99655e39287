import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq, getTableName, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  endpoints,
  fieldInvalid,
  MENU_ICON_BASE,
  menuGroups,
  menuRoutes,
  messages,
  uploadEndpoints,
} from '@cowork/contract';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/client.ts';
import { checkLabels } from '../src/db/check-labels.ts';
import * as schema from '../src/db/schema.ts';
import { members, ssoUsers } from '../src/db/schema.ts';
import { buildTestApp, demo, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

/** A logger that keeps its lines, to check what reaches the log. */
function captureLogger(level = 'info') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: { level, stream } };
}

describe('probes', () => {
  test('health is open and live', async () => {
    const res = await t.app.inject({ url: endpoints.health });
    expect(res.statusCode).toBe(200);
    // The version of apps/server/package.json; no commit, as the sources (not a build) run here.
    const { version } = JSON.parse(await fs.readFile(new URL('../package.json', import.meta.url), 'utf8'));
    expect(res.json()).toEqual({ code: 200, msg: messages.ok, data: { status: 'up', version, mqtt: 'up' } });
  });

  test('ready runs a query on the database', async () => {
    const res = await t.app.inject({ url: endpoints.ready });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ status: 'ready' });
  });

  test('ready answers 503 when the database fails', async () => {
    const broken = { execute: () => Promise.reject(new Error('connection refused')) } as unknown as Database;
    const app = await buildApp({ config: t.config, db: broken, logger: false });
    try {
      const res = await app.inject({ url: endpoints.ready });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: 503, msg: messages.databaseUnavailable, data: null });
    } finally {
      await app.close();
    }
  });
});

describe('envelope and errors', () => {
  test('an unknown /api route is a 404 envelope, whatever the method', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['POST', '/api/user/admin/v1/nope/save'],
      ['PUT', endpoints.health],
      ['GET', '/api'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { accept: 'text/html' } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ code: 404, msg: messages.routeNotFound, data: null });
    }
  });

  test("a malformed %-escape in the path is a 400 envelope, not the framework's own body", async () => {
    for (const url of ['/api/user/admin/v1/sso-user/detail/%E0%A4%A', '/api/x%zz', '/login%zz']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ code: 400, msg: messages.badUrl, data: null });
    }
  });

  test('malformed JSON and unsupported content types are enveloped', async () => {
    const admin = await t.auth(...demo.admin);
    const bad = await t.app.inject({
      method: 'POST',
      url: endpoints.userEditPassword,
      headers: { ...admin, 'content-type': 'application/json' },
      payload: '{"newPassword":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 400, msg: messages.badRequest, data: null });
    const xml = await t.app.inject({
      method: 'POST',
      url: endpoints.userEditPassword,
      headers: { ...admin, 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual({ code: 415, msg: messages.unsupportedMediaType, data: null });
  });

  test('a value a CHECK constraint refuses is a 400 naming the field, and nothing is written', async () => {
    const app = await buildApp({ config: t.config, db: t.db, logger: false });
    const [member] = await t.db.select().from(members).limit(1);
    app.post('/api/test/check', { config: { public: true } }, async () => {
      await t.db
        .update(members)
        .set({ status: 'bogus' as 'enabled' })
        .where(eq(members.id, member.id));
      return 'unreachable';
    });
    try {
      const res = await app.inject({ method: 'POST', url: '/api/test/check' });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(fieldInvalid('会员状态', messages.valueNotAllowed));
      const [after] = await t.db.select().from(members).where(eq(members.id, member.id));
      expect(after.status).toBe(member.status);
    } finally {
      await app.close();
    }
  });

  test('every CHECK constraint of the schema has the label its 400 names', () => {
    const checks = Object.values(schema as Record<string, unknown>)
      .filter((value): value is PgTable => is(value, PgTable))
      .flatMap((table) => getTableConfig(table).checks.map((c) => `${getTableName(table)}: ${c.name}`));
    expect(checks.length).toBeGreaterThan(20);
    const unlabelled = checks.filter((entry) => !checkLabels[entry.split(': ')[1]]);
    expect(unlabelled).toEqual([]);
  });

  test('a 500 carries no stack trace or SQL, and the log has the details', async () => {
    const { lines, logger } = captureLogger('error');
    const app = await buildApp({ config: t.config, db: t.db, logger });
    app.get('/api/test/boom', { config: { public: true } }, async () => {
      await t.db.execute(sql`select secret_column from no_such_table`);
      return 'unreachable';
    });
    try {
      const res = await app.inject({ url: '/api/test/boom' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ code: 500, msg: messages.serverError, data: null });
      expect(res.body).not.toMatch(/no_such_table|secret_column|select|stack|\.ts:/i);
      expect(lines.join('')).toContain('no_such_table');
    } finally {
      await app.close();
    }
  });

  test('a unique-key violation is a 409 envelope without SQL', async () => {
    const app = await buildApp({ config: t.config, db: t.db, logger: false });
    app.post('/api/test/duplicate', { config: { public: true } }, async () => {
      await t.db.insert(ssoUsers).values({ username: 'ADMIN', passwordHash: 'x' });
      return 'unreachable';
    });
    try {
      const res = await app.inject({ method: 'POST', url: '/api/test/duplicate' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ code: 409, msg: messages.conflict, data: null });
    } finally {
      await app.close();
    }
  });

  test('a route without an access declaration is refused at registration', async () => {
    const app = await buildApp({ config: t.config, db: t.db, logger: false });
    try {
      expect(() => app.get('/api/test/undeclared', async () => 'x')).toThrow(/must declare/);
      expect(() =>
        app.get(
          '/api/test/twice',
          { config: { public: true, permission: 'system:log:view' } },
          async () => 'x',
        ),
      ).toThrow(/must declare/);
    } finally {
      await app.close();
    }
  });
});

describe('API docs', () => {
  test('OpenAPI document from the zod schemas, open without a token', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        endpoints.token,
        endpoints.userInfo,
        endpoints.userEditPassword,
        endpoints.auditLogPage,
      ]),
    );
    const editBody =
      doc.paths[endpoints.userEditPassword].post.requestBody.content['application/json'].schema;
    expect(editBody.required).toEqual(expect.arrayContaining(['newPassword', 'ssoUserId']));
    // Signed-in JSON POSTs say they honour Idempotency-Key; the token endpoint and uploads do not.
    const headerNames = (operation: { parameters?: { in: string; name: string }[] }) =>
      (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());
    expect(headerNames(doc.paths[endpoints.userEditPassword].post)).toContain('idempotency-key');
    expect(headerNames(doc.paths[endpoints.token].post)).not.toContain('idempotency-key');
    expect(headerNames(doc.paths[uploadEndpoints.upload].post)).not.toContain('idempotency-key');
    // Every $ref points at a component that exists (the menu tree is recursive).
    const refs = [...res.body.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toContain('MenuItem');
    for (const ref of refs) expect(doc.components.schemas, ref).toHaveProperty(ref);
    const ui = await t.app.inject({ url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });
});

const execFileAsync = promisify(execFile);
const bigScript = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, name: `行${i}` })))};`;

describe('web build', () => {
  let dist: string;
  let web: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(path.join(dist, 'index.html'), '<!doctype html><title>控制台</title>');
    await fs.writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    // What scripts/compress-dist.mjs writes beside an asset.
    const big = path.join(dist, 'assets', 'vendor-def456.js');
    await fs.writeFile(big, bigScript);
    await execFileAsync(process.execPath, [path.resolve('scripts/compress-dist.mjs'), dist]);
    await fs.writeFile(path.join(dist, 'favicon.svg'), '<svg/>');
    await fs.writeFile(path.join(os.tmpdir(), 'cowork-outside.txt'), 'secret');
    web = await buildApp({ config: { ...t.config, webDist: dist }, db: t.db, logger: false });
  });
  afterAll(async () => {
    await web?.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  test('/ and page addresses get index.html, never cached', async () => {
    for (const url of ['/', '/system/log', '/login?url=%2Fsystem%2Flog', '/no/such/page']) {
      const res = await web.inject({ url, headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('控制台');
    }
  });

  test('files are served; hashed assets are cached for a year', async () => {
    const asset = await web.inject({ url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toMatch(/max-age=31536000/);
    expect(asset.headers['cache-control']).toMatch(/immutable/);
    expect((await web.inject({ url: '/favicon.svg' })).statusCode).toBe(200);
  });

  test('assets go precompressed as the browser accepts: brotli, else gzip, else as they are', async () => {
    const url = '/assets/vendor-def456.js';
    const br = await web.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toMatch(/max-age=31536000.*immutable|immutable.*max-age=31536000/);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bigScript);
    const gz = await web.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(bigScript);
    const plain = await web.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(bigScript);
    expect(br.rawPayload.length).toBeLessThan(bigScript.length / 5);
  });

  test('every answer carries the security headers; the page’s policy allows no inline script', async () => {
    for (const url of ['/', '/assets/index-abc123.js', endpoints.health]) {
      const res = await web.inject({ url, headers: { accept: 'text/html' } });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("object-src 'none'");
      expect(csp, url).toMatch(/script-src 'self'(;|$)/);
      // No TLS in front unless TRUST_PROXY says so.
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
    const proxied = await buildApp({
      config: { ...t.config, webDist: dist, trustProxy: ['127.0.0.1'] },
      db: t.db,
      logger: false,
    });
    try {
      const res = await proxied.inject({ url: '/' });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    } finally {
      await proxied.close();
    }
  });

  test('API answers above 1 KB are compressed when the client accepts it; small ones are not', async () => {
    const headers = await t.auth(...demo.admin);
    const big = await web.inject({
      url: `${endpoints.menuUserTree}`,
      headers: { ...headers, 'accept-encoding': 'br, gzip' },
    });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(big.rawPayload).toString()).code).toBe(200);
    const small = await web.inject({ url: endpoints.health, headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    const none = await web.inject({ url: endpoints.menuUserTree, headers });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.json().code).toBe(200);
  });

  test('no fallback for missing files asked without html, nor for /api', async () => {
    expect((await web.inject({ url: '/assets/missing.js', headers: { accept: '*/*' } })).statusCode).toBe(
      404,
    );
    const api = await web.inject({ url: '/api/nope', headers: { accept: 'text/html' } });
    expect(api.statusCode).toBe(404);
    expect(api.json().msg).toBe(messages.routeNotFound);
    expect((await web.inject({ url: endpoints.health })).json().data.status).toBe('up');
  });

  test('nothing outside the build is reachable', async () => {
    for (const url of [
      '/../cowork-outside.txt',
      '/%2e%2e/cowork-outside.txt',
      '/assets/..%2f..%2fcowork-outside.txt',
    ]) {
      const res = await web.inject({ url, headers: { accept: '*/*' } });
      expect(res.body, url).not.toContain('secret');
    }
  });

  test('without a build the API still serves, and a warning is logged', async () => {
    const { lines, logger } = captureLogger('warn');
    const app = await buildApp({ config: { ...t.config, webDist: '/nonexistent/dist' }, db: t.db, logger });
    try {
      await app.ready();
      expect(lines.join('')).toMatch(/web build not found/);
      expect((await app.inject({ url: endpoints.health })).statusCode).toBe(200);
      const page = await app.inject({ url: '/system/log', headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe('menu icons', () => {
  const keys = [
    ...menuGroups.map((g) => [g.key, g.name]),
    ...menuRoutes.map((r) => [r.path.slice(1).replace('/', '-'), r.pageTitle]),
  ];

  test('every group and route has a normal and a bright SVG, cached long, open without a token', async () => {
    for (const [key, name] of keys) {
      for (const variant of ['', '-bright']) {
        const res = await t.app.inject({ url: `${MENU_ICON_BASE}/${key}${variant}.svg` });
        expect(res.statusCode, `${key}${variant}`).toBe(200);
        expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
        expect(res.headers['cache-control']).toMatch(/max-age=31536000/);
        expect(res.body).toContain('<svg');
        expect(res.body).toContain(`>${[...name][0]}</text>`);
        expect(res.body).toContain(variant ? '#1677ff' : '#8c8c8c');
      }
    }
  });

  test('unknown keys are 404', async () => {
    for (const file of ['nope.svg', 'system.png', 'system-bright-bright.svg', '..%2Fsystem.svg']) {
      expect((await t.app.inject({ url: `${MENU_ICON_BASE}/${file}` })).statusCode, file).toBe(404);
    }
  });
});
