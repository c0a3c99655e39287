import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, endpoints, menuRoutes, REFRESH_TOKEN_TTL_SECONDS } from '@cowork/contract';
import { buildApp } from '../src/app.ts';
import { ConfigError, DEVELOPMENT_ENROL_KEY, loadConfig } from '../src/config.ts';
import { migrationsFolder, type DbHandle } from '../src/db/client.ts';
import { pgliteHandle } from '../src/db/pglite.ts';
import { devices, ssoMenus, ssoRoles, ssoUsers } from '../src/db/schema.ts';
import { verifyPassword } from '../src/lib/password.ts';
import { secretBox } from '../src/lib/secret-box.ts';
import { demoSignIns } from '../src/seed/demo.ts';
import { administratorExists, checkSecretKey, prepareData, StartupError } from '../src/seed/prepare.ts';
import { basicAuth, openTestDatabase, testConfig } from './helper.ts';

describe('config', () => {
  test('defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      nodeEnv: 'development',
      databaseUrl: undefined,
      accessTokenTtl: ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtl: REFRESH_TOKEN_TTL_SECONDS,
      adminClientId: 'admin',
      adminClientSecret: 'admin',
      trustProxy: false,
      databaseConnectTimeoutMs: 1500,
      databaseQueryTimeoutMs: 1500,
      requestTimeoutMs: 60_000,
    });
    expect(path.isAbsolute(config.dataDir)).toBe(true);
    expect(config.dataDir.endsWith(`${path.sep}data`)).toBe(true);
    expect(config.webDist.endsWith(path.join('apps', 'web', 'dist'))).toBe(true);
  });

  test('values are read and converted; empty means unset', () => {
    const config = loadConfig({
      PORT: '3100',
      ACCESS_TOKEN_TTL: '60',
      DATA_DIR: '/tmp/cw',
      DATABASE_URL: 'postgres://u@h:5432/db',
      HOST: '',
    });
    expect(config).toMatchObject({ port: 3100, accessTokenTtl: 60, dataDir: '/tmp/cw', host: '0.0.0.0' });
  });

  test('a wrong value stops start with a message naming the variable', () => {
    const cases: [Record<string, string>, string][] = [
      [{ PORT: 'abc' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ ACCESS_TOKEN_TTL: '-5' }, 'ACCESS_TOKEN_TTL'],
      [{ REFRESH_TOKEN_TTL: '1.5' }, 'REFRESH_TOKEN_TTL'],
      [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
      [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
      [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
      [{ MQTT_URL: 'not a url' }, 'MQTT_URL'],
      [{ DATABASE_CONNECT_TIMEOUT_MS: '0' }, 'DATABASE_CONNECT_TIMEOUT_MS'],
      [{ DATABASE_QUERY_TIMEOUT_MS: 'soon' }, 'DATABASE_QUERY_TIMEOUT_MS'],
      [{ REQUEST_TIMEOUT_MS: '-1' }, 'REQUEST_TIMEOUT_MS'],
      [{ API_DOCS: 'open' }, 'API_DOCS'],
    ];
    for (const [env, name] of cases) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(new RegExp(`\\b${name}\\b`));
    }
  });
});

describe('production settings (issue 26, points 3 and 5)', () => {
  const production = {
    NODE_ENV: 'production',
    SECRET_KEY: 'k'.repeat(64),
    DEVICE_ENROL_KEY: 'e'.repeat(32),
  };

  test('starts with its keys; outside production the convenient defaults stay', () => {
    expect(loadConfig(production)).toMatchObject({ nodeEnv: 'production', deviceEnrolKeyIsDefault: false });
    expect(loadConfig({})).toMatchObject({
      secretKey: undefined,
      deviceEnrolKey: DEVELOPMENT_ENROL_KEY,
      deviceEnrolKeyIsDefault: true,
    });
  });

  test('refuses without SECRET_KEY, saying what to set and how to make one', () => {
    const env = { ...production, SECRET_KEY: '' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(
      /SECRET_KEY is required in production: set the same key .* on every instance \(make one with `openssl rand -base64 48`/,
    );
  });

  test('refuses without DEVICE_ENROL_KEY and with the public development default', () => {
    for (const key of ['', DEVELOPMENT_ENROL_KEY]) {
      expect(() => loadConfig({ ...production, DEVICE_ENROL_KEY: key })).toThrow(
        /DEVICE_ENROL_KEY is required in production and must not be the development default/,
      );
    }
  });

  test('ADMIN_PASSWORD: the staff password rule, and no admin in it', () => {
    for (const weak of ['password', 'Password', '12345678', 'Admin@123', 'my-password-1', 'abcdefghij']) {
      expect(() => loadConfig({ ...production, ADMIN_PASSWORD: weak }), weak).toThrow(
        /ADMIN_PASSWORD is too easy to guess: use 8 to 64 characters mixing/,
      );
    }
    expect(() => loadConfig({ ...production, ADMIN_PASSWORD: 'short' })).toThrow(
      /ADMIN_PASSWORD must be 8 to 64 characters/,
    );
    for (const fine of ['Prod@Pass123', 'Change-me-2026!', 'correct horse battery 9', '共享办公2026'])
      expect(loadConfig({ ...production, ADMIN_PASSWORD: fine }).adminPassword).toBe(fine);
  });

  test('/api/docs is for staff in production unless API_DOCS=public, public elsewhere', () => {
    expect(loadConfig(production).apiDocsPublic).toBe(false);
    expect(loadConfig({ ...production, API_DOCS: 'public' }).apiDocsPublic).toBe(true);
    expect(loadConfig({}).apiDocsPublic).toBe(true);
    expect(loadConfig({ API_DOCS: 'staff' }).apiDocsPublic).toBe(false);
  });
});

describe('migrations', () => {
  test('migrate() names each migration it applied, in order, and none the next time', async () => {
    const handle = pgliteHandle(new PGlite());
    try {
      const journal = JSON.parse(
        readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
      ) as { entries: { tag: string }[] };
      const tags = journal.entries.map((e) => e.tag);
      expect(tags.length).toBeGreaterThan(20);
      expect(await handle.migrate()).toEqual(tags);
      expect(await handle.migrate()).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});

describe('SECRET_KEY against the stored device secrets', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(() => handle?.close());

  test('no device yet: nothing to check; the key they were written with: starts; another: refused', async () => {
    const right = secretBox('r'.repeat(40));
    await checkSecretKey(handle.db, right);
    await handle.db
      .insert(devices)
      .values({ sn: 'KEY-CHECK-1', name: '大堂闸机', secret: right.seal('s3cret') });
    await checkSecretKey(handle.db, right);
    const wrong = checkSecretKey(handle.db, secretBox('w'.repeat(40)));
    await expect(wrong).rejects.toThrow(StartupError);
    await expect(checkSecretKey(handle.db, secretBox('w'.repeat(40)))).rejects.toThrow(
      /^SECRET_KEY does not match the key the stored device secrets were encrypted with\. Set SECRET_KEY to that key/,
    );
  });
});

describe('prepareData', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(() => handle?.close());

  test('production refuses to start without ADMIN_PASSWORD when no administrator exists', async () => {
    await expect(prepareData(handle.db, testConfig({ nodeEnv: 'production' }))).rejects.toThrow(StartupError);
    await expect(prepareData(handle.db, testConfig({ nodeEnv: 'production' }))).rejects.toThrow(
      /ADMIN_PASSWORD/,
    );
  });

  test('production creates only the admin account (超级管理员), never demo data', async () => {
    const config = testConfig({ nodeEnv: 'production', adminPassword: 'Prod@Pass123' });
    expect(await prepareData(handle.db, config)).toEqual({
      seededDemo: false,
      createdAdministrator: true,
      recountedDays: false,
      adminPasswordIgnored: false,
    });
    const users = await handle.db.select().from(ssoUsers);
    expect(users.map((u) => u.username)).toEqual(['admin']);
    const roles = await handle.db.select().from(ssoRoles);
    expect(roles.map((r) => [r.code, r.name, r.permissions])).toEqual([['super_admin', '超级管理员', ['*']]]);
    expect(await administratorExists(handle.db)).toBe(true);

    const app = await buildApp({ config, db: handle.db, logger: false });
    try {
      const res = await app.inject({
        method: 'POST',
        url: endpoints.token,
        headers: { authorization: basicAuth },
        payload: { grant_type: 'password', username: 'admin', password: 'Prod@Pass123' },
      });
      expect(res.statusCode).toBe(200);
      const demoSignIn = await app.inject({
        method: 'POST',
        url: endpoints.token,
        headers: { authorization: basicAuth },
        payload: { grant_type: 'password', username: 'admin', password: 'Admin@123' },
        remoteAddress: '10.60.0.1',
      });
      expect(demoSignIn.statusCode).toBe(400);
    } finally {
      await app.close();
    }

    // Next start: an administrator exists, nothing is created, ADMIN_PASSWORD not needed.
    expect(await prepareData(handle.db, testConfig({ nodeEnv: 'production' }))).toEqual({
      seededDemo: false,
      createdAdministrator: false,
      recountedDays: false,
      adminPasswordIgnored: false,
    });
    expect((await handle.db.select().from(ssoUsers)).length).toBe(1);

    // ADMIN_PASSWORD given again: not used (main.ts logs that), the password unchanged.
    const again = testConfig({ nodeEnv: 'production', adminPassword: 'Other@Pass456' });
    expect(await prepareData(handle.db, again)).toMatchObject({
      createdAdministrator: false,
      adminPasswordIgnored: true,
    });
    const [admin] = await handle.db.select().from(ssoUsers);
    expect(await verifyPassword(admin.passwordHash, 'Prod@Pass123')).toBe(true);
  });

  test('the menu exists in production too', async () => {
    const menus = await handle.db.select().from(ssoMenus).where(eq(ssoMenus.url, '/system/log'));
    expect(menus).toHaveLength(1);
  });
});

describe('demo data', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(() => handle?.close());

  test('loaded into an empty database once, outside production', async () => {
    expect((await prepareData(handle.db, testConfig({ nodeEnv: 'development' }))).seededDemo).toBe(true);
    expect((await prepareData(handle.db, testConfig({ nodeEnv: 'development' }))).seededDemo).toBe(false);
    const users = await handle.db.select().from(ssoUsers).orderBy(ssoUsers.id);
    expect(users.map((u) => [u.username, u.nickname])).toEqual([
      ['admin', '系统管理员'],
      ['yunying', '运营专员'],
      ['caiwu', '财务专员'],
    ]);
    expect(users[0].email).toBe('admin@cowork.example');
    const roles = await handle.db.select().from(ssoRoles).orderBy(ssoRoles.id);
    expect(roles.map((r) => [r.code, r.name])).toEqual([
      ['super_admin', '超级管理员'],
      ['operation', '运营'],
      ['finance', '财务'],
    ]);
  });

  test('menus come from the route table: groups with built routes, their pages and actions', async () => {
    const menus = await handle.db.select().from(ssoMenus).orderBy(ssoMenus.id);
    const group = menus.find((m) => m.type === 'group' && m.url === '/system')!;
    expect(group).toMatchObject({
      name: '系统配置',
      iconUrl: '/file/images/admin/system.svg',
      visible: true,
    });
    const page = menus.find((m) => m.url === '/system/log')!;
    expect(page).toMatchObject({ parentId: group.id, type: 'page', name: '操作日志' });
    const actions = menus.filter((m) => m.parentId === page.id);
    expect(actions.map((a) => [a.type, a.permission])).toEqual([
      ['action', 'system:log:view'],
      ['action', 'system:log:edit'],
      ['action', 'system:log:remove'],
    ]);
    // No menus for screens that are not built.
    const unbuilt = new Set(menuRoutes.filter((r) => !r.built).map((r) => r.path));
    expect(menus.filter((m) => m.url !== null && unbuilt.has(m.url))).toEqual([]);
  });

  test('the demo sign-ins are listed for printing', () => {
    expect(demoSignIns).toEqual([
      { username: 'admin', password: 'Admin@123', role: '超级管理员' },
      { username: 'yunying', password: 'Yunying@123', role: '运营' },
      { username: 'caiwu', password: 'Caiwu@123', role: '财务' },
    ]);
  });
});
