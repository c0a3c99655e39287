/**
 * 接口密钥: a key is shown once and stored as its hash; it acts with its role's codes (a role edit
 * applies), in its buildings only, never on the key, role, user, menu or sign-in endpoints; expired,
 * revoked (on another instance within a second) or unknown keys get 401; past its rate, 429; its
 * writes are audited under its name; nobody mints a key for a role beyond their own codes.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { endpoints, prefixes, resourcePaths, type AuditLogRecord, type Page } from '@cowork/contract';
import {
  API_KEY_EDIT_PERMISSION,
  API_KEY_PATTERN,
  API_KEY_VIEW_PERMISSION,
  apiKeyEndpoints,
  apiKeyMessages,
  type ApiKeyRecord,
} from '@cowork/contract/resources/api-key';
import { source } from '@cowork/contract/resources/source';
import { role as role_ } from '@cowork/contract/resources/sso-role';
import { officeStation } from '@cowork/contract/resources/station';
import { buildApp } from '../src/app.ts';
import { apiKeys, buildings, ssoRoles } from '../src/db/schema.ts';
import { hashToken } from '../src/lib/sessions.ts';
import { buildTestApp, callApi, createRole, createUser, demo, until, type TestApp } from './helper.ts';

/** Small, so the rate test reaches it quickly; each test uses keys of its own. */
const RATE = 25;

let t: TestApp;
let other: Awaited<ReturnType<typeof buildApp>>;
let admin: { authorization: string };
let roleId: number;
const sourcePaths = resourcePaths(source);
const stationPaths = resourcePaths(officeStation);

/** Codes of the role the keys act as: 来源配置 read and write, 会议室 read and write. */
const keyCodes = [
  'system:source:view',
  'system:source:edit',
  'product:meetingRoom:view',
  'product:meetingRoom:edit',
];

let serial = 0;
/** A key made by the admin through the API: its id and bearer header. */
async function mint(body: Record<string, unknown> = {}, by = admin) {
  serial++;
  const name = `测试密钥${serial}`;
  const res = await callApi<{ id: number; key: string }>(t, by, 'POST', apiKeyEndpoints.save, {
    name,
    roleId,
    ...body,
  });
  expect(res.status, res.raw).toBe(200);
  return {
    id: res.body.data.id,
    key: res.body.data.key,
    name: typeof body.name === 'string' ? body.name : name,
    headers: { authorization: `Bearer ${res.body.data.key}` },
  };
}

const get = (app: TestApp['app'], headers: Record<string, string>, url: string) =>
  app.inject({ method: 'GET', url, headers });

beforeAll(async () => {
  t = await buildTestApp({ config: { apiKeyRateLimitPerMinute: RATE } });
  await t.app.ready();
  other = await buildApp({ config: t.config, db: t.db, logger: false });
  await other.ready();
  admin = await t.auth(...demo.admin);
  roleId = await createRole(t.db, { code: 'key_role', name: '接口角色', permissions: keyCodes });
});

afterAll(async () => {
  await other?.close();
  await t?.close();
});

test('a key is shown once: the list shows its prefix, the database its SHA-256 only', async () => {
  const { id, key, name } = await mint();
  expect(key).toMatch(API_KEY_PATTERN);
  const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, id));
  expect(row.keyHash).toBe(hashToken(key));
  expect(JSON.stringify(row)).not.toContain(key);
  const page = await callApi<Page<ApiKeyRecord>>(
    t,
    admin,
    'GET',
    `${apiKeyEndpoints.page}?name=${encodeURIComponent(name)}`,
  );
  expect(page.status).toBe(200);
  expect(page.raw).not.toContain(key);
  expect(page.raw).not.toContain(row.keyHash);
  expect(page.body.data.records).toEqual([
    expect.objectContaining({
      id,
      name,
      roleId,
      roleName: '接口角色',
      prefix: key.slice(0, 9),
      revokedAt: null,
    }),
  ]);
  // The save is audited without the key or its hash.
  const log = await callApi<Page<AuditLogRecord>>(
    t,
    admin,
    'GET',
    `${endpoints.auditLogPage}?resource=api-key&size=100`,
  );
  const entry = log.body.data.records.find((r) => r.resourceId === String(id));
  expect(entry?.action).toBe('save');
  expect(JSON.stringify(entry)).not.toContain(key);
  expect(JSON.stringify(entry)).not.toContain(row.keyHash);
});

test('a key reads and writes with its role’s codes; its writes are audited under its name', async () => {
  const { id, name, headers } = await mint();
  const read = await get(t.app, headers, `${sourcePaths.page}?size=5`);
  expect(read.statusCode, read.body).toBe(200);
  const write = await callApi<{ id: number }>(t, headers, 'POST', sourcePaths.save, {
    name: '接口来源',
    code: 'api_source',
    sort: 1,
    published: true,
  });
  expect(write.status, write.raw).toBe(200);
  const log = await callApi<Page<AuditLogRecord>>(
    t,
    admin,
    'GET',
    `${endpoints.auditLogPage}?resource=csr-source&size=100`,
  );
  const entry = log.body.data.records.find(
    (r) => r.action === 'save' && r.resourceId === String(write.body.data.id),
  );
  expect(entry?.actorName).toBe(`接口密钥：${name}`);
  // Its creator answers for it, named beside it; the key has columns of its own, not a field of the record.
  expect(entry?.actorUsername).toBe('admin');
  expect(entry).toMatchObject({ apiKeyId: id, apiKeyName: name });
  expect(entry?.after).not.toHaveProperty('apiKey');
  // The last use is recorded (off the request's path).
  const used = await until(async () => {
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    return row.lastUsedAt ? row : undefined;
  }, 'the last use');
  expect(used.lastUsedIp).toBe('127.0.0.1');
});

test('a code the role lacks is 403, and a role edit reaches the key within a second', async () => {
  const { headers } = await mint();
  const banners = `${prefixes.basic}/banner/page`;
  const status = async () => (await get(t.app, headers, banners)).statusCode;
  // Read (and cached) before each change, so the change must reach the cache.
  expect(await status()).toBe(403);
  expect((await get(t.app, headers, sourcePaths.page)).statusCode).toBe(200);
  // Written straight into the database, as another instance's 角色权限 would.
  await t.db
    .update(ssoRoles)
    .set({ permissions: [...keyCodes, 'system:banner:view'] })
    .where(eq(ssoRoles.id, roleId));
  await until(async () => (await status()) === 200, 'the granted code', 1_000);
  await t.db.update(ssoRoles).set({ permissions: keyCodes }).where(eq(ssoRoles.id, roleId));
  await until(async () => (await status()) === 403, 'the withdrawn code', 1_000);
});

test('a key limited to buildings sees and acts only there', async () => {
  const all = await t.db.select({ id: buildings.id }).from(buildings).orderBy(buildings.id);
  expect(all.length).toBeGreaterThanOrEqual(2);
  const [mine, theirs] = [all[0].id, all[1].id];
  const one = await mint({ buildingIds: [mine] });
  const page = await callApi<Page<{ buildingId: number }>>(
    t,
    one.headers,
    'GET',
    `${stationPaths.page}?size=100`,
  );
  expect(page.status, page.raw).toBe(200);
  expect(page.body.data.records.length).toBeGreaterThan(0);
  expect(page.body.data.records.every((r) => r.buildingId === mine)).toBe(true);
  // Staff see the other buildings' rooms, so the filter above did something.
  const everyone = await callApi<Page<{ buildingId: number }>>(
    t,
    admin,
    'GET',
    `${stationPaths.page}?size=100`,
  );
  expect(everyone.body.data.records.some((r) => r.buildingId !== mine)).toBe(true);

  const outside = await callApi(t, one.headers, 'GET', `${stationPaths.page}?buildingId=${theirs}`);
  expect(outside.status).toBe(403);
  expect(outside.body.msg).toBe(apiKeyMessages.outsideBuildings);
  const create = await callApi(t, one.headers, 'POST', stationPaths.save, {
    name: '越界会议室',
    buildingId: theirs,
  });
  expect(create.status).toBe(403);
  expect(create.body.msg).toBe(apiKeyMessages.outsideBuildings);

  // A key of two buildings sees both without naming one (api-key-scope.test.ts goes further).
  const two = await mint({ buildingIds: [mine, theirs] });
  const unnamed = await callApi<Page<{ buildingId: number }>>(
    t,
    two.headers,
    'GET',
    `${stationPaths.page}?size=100`,
  );
  expect(unnamed.status, unnamed.raw).toBe(200);
  expect(new Set(unnamed.body.data.records.map((r) => r.buildingId))).toEqual(new Set([mine, theirs]));
  expect((await callApi(t, two.headers, 'GET', `${stationPaths.page}?buildingId=${theirs}`)).status).toBe(
    200,
  );
});

test('a key never reaches the key, role, user, menu or sign-in endpoints, even for a 超级管理员 role', async () => {
  const [superRole] = await t.db
    .select({ id: ssoRoles.id })
    .from(ssoRoles)
    .where(eq(ssoRoles.code, 'super_admin'));
  const { headers } = await mint({ roleId: superRole.id });
  expect((await get(t.app, headers, `${sourcePaths.page}`)).statusCode).toBe(200);
  const calls: [string, string][] = [
    ['GET', apiKeyEndpoints.page],
    ['POST', apiKeyEndpoints.save],
    ['POST', apiKeyEndpoints.revoke],
    ['GET', `${prefixes.user}/sso-role/page`],
    ['GET', `${prefixes.user}/sso-user/page`],
    ['GET', endpoints.userInfo],
    ['POST', endpoints.userEditPassword],
    ['PUT', endpoints.profileEdit],
    ['GET', `${prefixes.user}/sso-menu/page`],
    ['GET', endpoints.menuUserTree],
    ['DELETE', endpoints.logout],
  ];
  for (const [method, url] of calls) {
    const res = await callApi(t, headers, method, url, method === 'GET' ? undefined : {});
    expect(res.status, `${method} ${url}`).toBe(403);
    expect(res.body.msg).toBe(apiKeyMessages.forbiddenEndpoint);
  }
});

test('expired, unknown and malformed keys get 401', async () => {
  // Cached while valid: the expiry is checked on every call, not only when the key is read.
  const { headers } = await mint({ expiresAt: new Date(Date.now() + 1_500).toISOString() });
  expect((await get(t.app, headers, sourcePaths.page)).statusCode).toBe(200);
  const expired = await until(
    async () => {
      const res = await callApi(t, headers, 'GET', sourcePaths.page);
      return res.status === 401 ? res : undefined;
    },
    'the expiry',
    5_000,
  );
  expect(expired.body.msg).toBe(apiKeyMessages.expired);
  const unknown = await callApi(t, { authorization: `Bearer ck_${'A'.repeat(43)}` }, 'GET', sourcePaths.page);
  expect(unknown.status).toBe(401);
  expect(unknown.body.msg).toBe(apiKeyMessages.invalid);
  expect((await callApi(t, { authorization: 'Bearer ck_short' }, 'GET', sourcePaths.page)).status).toBe(401);
});

test('a revoked key is refused at once here and within a second on another instance', async () => {
  const { id, headers } = await mint();
  for (const app of [t.app, other]) {
    expect((await get(app, headers, sourcePaths.page)).statusCode).toBe(200);
    expect((await get(app, headers, sourcePaths.page)).statusCode).toBe(200);
  }
  const revoked = await callApi(t, admin, 'POST', apiKeyEndpoints.revoke, { id });
  expect(revoked.status, revoked.raw).toBe(200);
  const started = Date.now();
  const here = await callApi(t, headers, 'GET', sourcePaths.page);
  expect(here.status).toBe(401);
  expect(here.body.msg).toBe(apiKeyMessages.revokedInUse);
  await until(
    async () => (await get(other, headers, sourcePaths.page)).statusCode === 401,
    'the other instance',
    1_000,
  );
  expect(Date.now() - started).toBeLessThan(1_000);
  const again = await callApi(t, admin, 'POST', apiKeyEndpoints.revoke, { id });
  expect(again.status).toBe(409);
  const page = await callApi<Page<ApiKeyRecord>>(t, admin, 'GET', `${apiKeyEndpoints.page}?size=100`);
  expect(page.body.data.records.find((r) => r.id === id)?.revokedAt).not.toBeNull();
});

test('past its rate a key gets 429, and another key is not slowed', async () => {
  const busy = await mint();
  const calm = await mint();
  const statuses: number[] = [];
  for (let i = 0; i < RATE + 1; i++)
    statuses.push((await get(t.app, busy.headers, sourcePaths.page)).statusCode);
  expect(statuses.slice(0, RATE).every((s) => s === 200)).toBe(true);
  const refused = await callApi(t, busy.headers, 'GET', sourcePaths.page);
  expect(refused.status).toBe(429);
  expect(refused.body.msg).toBe(apiKeyMessages.rateLimited(RATE));
  // Counted in the database: the other instance refuses it too.
  expect((await get(other, busy.headers, sourcePaths.page)).statusCode).toBe(429);
  expect((await get(t.app, calm.headers, sourcePaths.page)).statusCode).toBe(200);
});

test('nobody mints a key for a role granting codes they lack; the role list offers only those they may', async () => {
  await createRole(t.db, {
    code: 'key_minter',
    name: '密钥管理员',
    permissions: [API_KEY_VIEW_PERMISSION, API_KEY_EDIT_PERMISSION, 'system:source:view'],
  });
  await createUser(t.db, { username: 'minter', password: 'Minter@123', roleCodes: ['key_minter'] });
  const minter = await t.auth('minter', 'Minter@123');
  const beyond = await callApi(t, minter, 'POST', apiKeyEndpoints.save, { name: '越权密钥', roleId });
  expect(beyond.status).toBe(403);
  expect(beyond.body.msg).toContain('system:source:edit');
  const narrow = await createRole(t.db, {
    code: 'key_narrow',
    name: '只读来源',
    permissions: ['system:source:view'],
  });
  expect(
    (await callApi(t, minter, 'POST', apiKeyEndpoints.save, { name: '只读密钥', roleId: narrow })).status,
  ).toBe(200);
  const roles = await callApi<{ value: number }[]>(t, minter, 'GET', apiKeyEndpoints.roleList);
  const offered = roles.body.data.map((r) => r.value);
  expect(offered).toContain(narrow);
  expect(offered).not.toContain(roleId);
  // Managing webhooks (system:open:edit) is not minting keys.
  await createRole(t.db, {
    code: 'webhook_only',
    name: '推送管理',
    permissions: ['system:open:view', 'system:open:edit'],
  });
  await createUser(t.db, { username: 'hooker', password: 'Hooker@123', roleCodes: ['webhook_only'] });
  const hooker = await t.auth('hooker', 'Hooker@123');
  expect((await callApi(t, hooker, 'GET', apiKeyEndpoints.page)).status).toBe(403);
  expect(
    (await callApi(t, hooker, 'POST', apiKeyEndpoints.save, { name: '推送密钥', roleId: narrow })).status,
  ).toBe(403);
});

test('bad bodies get 400 naming the field and create nothing', async () => {
  const before = (await t.db.select({ id: apiKeys.id }).from(apiKeys)).length;
  const cases: [Record<string, unknown>, string][] = [
    [{ roleId }, '密钥名称'],
    [{ name: '  ', roleId }, '密钥名称'],
    [{ name: 'x'.repeat(51), roleId }, '密钥名称'],
    [{ name: '无角色' }, '所属角色'],
    [{ name: '坏角色', roleId: 'abc' }, '所属角色'],
    [{ name: '无此角色', roleId: 999_999 }, '所属角色'],
    [{ name: '坏楼宇', roleId, buildingIds: [999_999] }, '限定楼宇'],
    [{ name: '坏时间', roleId, expiresAt: '明天' }, '过期时间'],
    [{ name: '过去', roleId, expiresAt: new Date(Date.now() - 60_000).toISOString() }, '过期时间'],
  ];
  for (const [body, label] of cases) {
    const res = await callApi(t, admin, 'POST', apiKeyEndpoints.save, body);
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(res.body.msg, JSON.stringify(body)).toContain(label);
  }
  const revoke = await callApi(t, admin, 'POST', apiKeyEndpoints.revoke, { id: 'x' });
  expect(revoke.status).toBe(400);
  expect((await callApi(t, admin, 'POST', apiKeyEndpoints.revoke, { id: 999_999 })).status).toBe(404);
  expect((await t.db.select({ id: apiKeys.id }).from(apiKeys)).length).toBe(before);
});

test('a role its live keys use is not removed (409 naming them); its revoked and expired keys go with it', async () => {
  const role = await createRole(t.db, { code: 'key_doomed', name: '待删角色', permissions: keyCodes });
  const live = await mint({ roleId: role, name: '仍在用的密钥' });
  const revoked = await mint({ roleId: role, name: '已吊销的密钥' });
  expect((await callApi(t, admin, 'POST', apiKeyEndpoints.revoke, { id: revoked.id })).status).toBe(200);
  // A write made with a key about to expire: its audit entry outlives the key.
  const expiring = await mint({ roleId: role, expiresAt: new Date(Date.now() + 3_000).toISOString() });
  const write = await callApi<{ id: number }>(t, expiring.headers, 'POST', sourcePaths.save, {
    name: '过期前的来源',
    code: 'expiring_source',
    sort: 1,
    published: true,
  });
  expect(write.status, write.raw).toBe(200);
  const rolePaths = resourcePaths(role_);

  const refused = await callApi(t, admin, 'DELETE', `${rolePaths.remove}/${role}`);
  expect(refused.status).toBe(409);
  // The key not yet expired is live too; the revoked one is not named.
  expect(refused.body.msg).toContain(`接口密钥 2 个（仍在用的密钥、${expiring.name}）`);
  expect(refused.body.msg).toContain('吊销');
  // In a batch the refusal names the role.
  const spare = await createRole(t.db, { code: 'key_spare', name: '无密钥角色', permissions: [] });
  const batch = await callApi(t, admin, 'DELETE', rolePaths.remove, { ids: [spare, role] });
  expect(batch.status).toBe(409);
  expect(batch.body.msg).toContain('角色「待删角色」仍被接口密钥');
  expect(await t.db.select({ id: ssoRoles.id }).from(ssoRoles).where(eq(ssoRoles.id, spare))).toHaveLength(1);
  expect((await t.db.select().from(apiKeys).where(eq(apiKeys.roleId, role))).length).toBe(3);

  expect((await callApi(t, admin, 'POST', apiKeyEndpoints.revoke, { id: live.id })).status).toBe(200);
  await until(
    async () => (await callApi(t, expiring.headers, 'GET', sourcePaths.page)).status === 401,
    'the expiry',
    6_000,
  );
  const removed = await callApi(t, admin, 'DELETE', `${rolePaths.remove}/${role}`);
  expect(removed.status, removed.raw).toBe(200);
  expect(await t.db.select().from(apiKeys).where(eq(apiKeys.roleId, role))).toEqual([]);
  const log = await callApi<Page<AuditLogRecord>>(
    t,
    admin,
    'GET',
    `${endpoints.auditLogPage}?resource=api-key&action=remove&size=100`,
  );
  expect(log.body.data.records.map((r) => Number(r.resourceId)).sort()).toEqual(
    [live.id, revoked.id, expiring.id].sort(),
  );
  const sources = await callApi<Page<AuditLogRecord>>(
    t,
    admin,
    'GET',
    `${endpoints.auditLogPage}?resource=csr-source&size=100`,
  );
  const entry = sources.body.data.records.find((r) => r.resourceId === String(write.body.data.id));
  expect(entry).toMatchObject({
    apiKeyId: null,
    apiKeyName: expiring.name,
    actorName: `接口密钥：${expiring.name}`,
  });
});
