import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ssoUser, ssoUserEndpoints, ssoUserMessages } from '@cowork/contract/resources/sso-user';
import { endpoints, type Page } from '@cowork/contract';
import { ssoRoles, ssoUserRoles, ssoUsers } from '../src/db/schema.ts';
import { buildTestApp, callApi, createRole, createUser, demo, userIdOf, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

const base = ssoUser.base;

resourceSuite({
  resource: ssoUser,
  scope: { username: 'suite' },
  samples: [
    {
      username: 'suite_zhang',
      nickname: '张运营',
      password: 'Zhang@2024',
      phone: '13800138001',
      roleIds: [],
    },
    { username: 'suite_li', nickname: '李财务', password: 'Li@202412', email: 'li@cowork.example' },
  ],
  change: { nickname: '张运营主管', phone: '13900139001' },
  invalid: [
    { body: { nickname: '王', password: 'Wang@2024' }, field: 'username' },
    { body: { username: '1abc', nickname: '王', password: 'Wang@2024' }, field: 'username' },
    { body: { username: 'suite_wang', password: 'Wang@2024' }, field: 'nickname' },
    { body: { username: 'suite_wang', nickname: '王' }, field: 'password' },
    { body: { username: 'suite_wang', nickname: '王', password: 'short' }, field: 'password' },
    { body: { username: 'suite_wang', nickname: '王', password: 'x'.repeat(65) }, field: 'password' },
    {
      body: { username: 'suite_wang', nickname: '王', password: 'Wang@2024', phone: '12345' },
      field: 'phone',
    },
    {
      body: { username: 'suite_wang', nickname: '王', password: 'Wang@2024', email: 'no-at' },
      field: 'email',
    },
    {
      body: { username: 'suite_wang', nickname: '王', password: 'Wang@2024', roleIds: [999_999] },
      field: 'roleIds',
    },
  ],
  search: { nickname: '张' },
});

describe('后台用户 rules', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let adminId: number;
  let roles: Record<string, number>;

  const call = <T = unknown>(
    headers: { authorization: string },
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => callApi<T>(t, headers, method, url, payload);
  const create = async (body: object) => {
    const res = await call<{ id: number }>(admin, 'POST', `${base}/save`, body);
    expect(res.status, res.body.msg).toBe(200);
    return res.body.data.id;
  };
  /** A role with exactly these codes, made directly. */
  const makeRole = (code: string, name: string, permissions: string[]) =>
    createRole(t.db, { code, name, permissions });

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
    adminId = await userIdOf(t.db, 'admin');
    roles = Object.fromEntries(
      (await t.db.select({ id: ssoRoles.id, code: ssoRoles.code }).from(ssoRoles)).map((r) => [r.code, r.id]),
    );
  });
  afterAll(() => t?.close());

  test('a new user signs in with the initial password; the hash never leaves the server', async () => {
    const id = await create({
      username: 'Zhou_Yun',
      nickname: '周云',
      password: 'Zhou@2024',
      roleIds: [roles.operation],
    });
    const page = await call<Page<Record<string, unknown>>>(admin, 'GET', `${base}/page?username=zhou`);
    expect(page.body.data.records).toHaveLength(1);
    expect(page.body.data.records[0]).toMatchObject({
      id,
      username: 'zhou_yun',
      roleIds: [roles.operation],
      status: 'enabled',
      lastLoginAt: null,
    });
    const detail = await call(admin, 'GET', `${base}/detail/${id}`);
    for (const answer of [page.raw, detail.raw]) {
      expect(answer).not.toMatch(/passwordHash|password|argon2/i);
    }
    const token = await t.signIn('ZHOU_YUN', 'Zhou@2024');
    expect(token.user_info.roleNames).toEqual(['运营']);
    const after = await call<Record<string, unknown>>(admin, 'GET', `${base}/detail/${id}`);
    expect(after.body.data.lastLoginAt).toMatch(/\+08:00$/);
  });

  test('usernames are unique whatever their case', async () => {
    const res = await call(admin, 'POST', `${base}/save`, {
      username: 'ADMIN',
      nickname: '冒名',
      password: 'Admin@1234',
    });
    expect(res.status).toBe(409);
    expect(res.body.msg).toContain('用户名');
  });

  test('edit never changes the username or the password', async () => {
    const id = await create({ username: 'wu_fixed', nickname: '吴', password: 'Wu@123456' });
    const res = await call<Record<string, unknown>>(admin, 'PUT', `${base}/edit`, {
      id,
      username: 'wu_changed',
      password: 'Other@1234',
      nickname: '吴二',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ username: 'wu_fixed', nickname: '吴二' });
    await t.signIn('wu_fixed', 'Wu@123456');
  });

  test('search by role and by status', async () => {
    const id = await create({
      username: 'role_caiwu2',
      nickname: '财务二',
      password: 'Caiwu@2024',
      roleIds: [roles.finance],
    });
    const byRole = await call<Page<{ id: number }>>(
      admin,
      'GET',
      `${base}/page?roleIds=${roles.finance}&size=100`,
    );
    expect(byRole.body.data.records.map((r) => r.id)).toContain(id);
    expect(byRole.body.data.records.map((r) => r.id)).not.toContain(adminId);
    expect((await call(admin, 'GET', `${base}/page?roleIds=abc`)).status).toBe(400);
    const disabled = await call<Page<{ id: number }>>(admin, 'GET', `${base}/page?status=disabled`);
    expect(disabled.body.data.records.map((r) => r.id)).not.toContain(id);
  });

  test('role-options lists the roles by Chinese name for user:admin:view only', async () => {
    const res = await call<{ value: number; label: string }[]>(admin, 'GET', ssoUserEndpoints.roleOptions);
    expect(res.body.data.map((o) => o.label)).toEqual(expect.arrayContaining(['超级管理员', '运营', '财务']));
    const yunying = await t.auth(...demo.yunying);
    expect((await call(yunying, 'GET', ssoUserEndpoints.roleOptions)).status).toBe(403);
  });

  test('user-id answers id, nickname and username to user:admin:view only', async () => {
    // A username is half of a sign-in: staff who may not see the 后台用户 list cannot enumerate them.
    const yunying = await t.auth(...demo.yunying);
    const refused = await call(yunying, 'GET', `${ssoUserEndpoints.userId}/${adminId}`);
    expect(refused.status).toBe(403);
    expect(refused.body.data).toBeNull();
    await createRole(t.db, {
      code: 'user_id_viewer',
      name: '只看后台用户',
      permissions: ['user:admin:view'],
    });
    await createUser(t.db, {
      username: 'user_id_viewer',
      password: 'Viewer@123',
      roleCodes: ['user_id_viewer'],
    });
    const viewer = await t.auth('user_id_viewer', 'Viewer@123');
    const res = await call(viewer, 'GET', `${ssoUserEndpoints.userId}/${adminId}`);
    expect(res.body.data).toEqual({ id: adminId, nickname: '系统管理员', username: 'admin' });
    expect((await call(viewer, 'GET', `${ssoUserEndpoints.userId}/999999`)).status).toBe(404);
  });

  test('nobody changes their own roles or status, or removes themselves', async () => {
    const ownRoles = await call(admin, 'PUT', `${base}/edit`, { id: adminId, roleIds: [roles.operation] });
    expect(ownRoles.status).toBe(403);
    expect(ownRoles.body.msg).toBe(ssoUserMessages.ownRoles);
    // Sending one's unchanged roles with another change is fine.
    const same = await call(admin, 'PUT', `${base}/edit`, {
      id: adminId,
      roleIds: [roles.super_admin],
      nickname: '管理员',
    });
    expect(same.status, same.body.msg).toBe(200);
    const ownStatus = await call(admin, 'PUT', ssoUserEndpoints.editAccountStatus, {
      id: adminId,
      status: 'disabled',
    });
    expect(ownStatus.status).toBe(403);
    expect(ownStatus.body.msg).toBe(ssoUserMessages.ownStatus);
    const removeSelf = await call(admin, 'DELETE', `${base}/remove/${adminId}`);
    expect(removeSelf.status).toBe(409);
    expect(removeSelf.body.msg).toBe(ssoUserMessages.removeSelf);
    const [row] = await t.db.select().from(ssoUsers).where(eq(ssoUsers.id, adminId));
    expect(row.status).toBe('enabled');
  });

  test('the last enabled 超级管理员 cannot be removed, disabled or lose the role', async () => {
    // root holds `*` through another role, so it may act on admin, the only 超级管理员.
    const rootRole = await makeRole('ops_root', '运维总管', ['*']);
    await create({ username: 'root1', nickname: '运维', password: 'Root1@2024', roleIds: [rootRole] });
    const root = await t.auth('root1', 'Root1@2024');
    for (const [method, url, payload] of [
      ['DELETE', `${base}/remove/${adminId}`],
      ['PUT', ssoUserEndpoints.editAccountStatus, { id: adminId, status: 'disabled' }],
      ['PUT', `${base}/edit`, { id: adminId, roleIds: [rootRole] }],
    ] as const) {
      const res = await call(root, method, url, payload);
      expect(res.status, `${method} ${url}`).toBe(409);
      expect(res.body.msg).toBe(ssoUserMessages.lastSuperAdmin);
    }
    // With a second enabled 超级管理员 the same changes are allowed.
    const bossId = await create({
      username: 'boss2',
      nickname: '副总',
      password: 'Boss2@2024',
      roleIds: [roles.super_admin],
    });
    const batch = await call(root, 'DELETE', `${base}/remove`, { ids: [adminId, bossId] });
    expect(batch.status).toBe(409);
    expect(batch.body.msg).toBe(ssoUserMessages.lastSuperAdmin);
    const off = await call(root, 'PUT', ssoUserEndpoints.editAccountStatus, {
      id: bossId,
      status: 'disabled',
    });
    expect(off.status, off.body.msg).toBe(200);
    // boss2 disabled: admin is the last enabled one again.
    expect((await call(root, 'DELETE', `${base}/remove/${adminId}`)).status).toBe(409);
    expect(
      (await call(root, 'PUT', ssoUserEndpoints.editAccountStatus, { id: bossId, status: 'enabled' })).status,
    ).toBe(200);
    expect((await call(root, 'DELETE', `${base}/remove/${bossId}`)).status).toBe(200);
  });

  test('disabling an account ends its sessions at once; enabling lets it sign in again', async () => {
    const id = await create({
      username: 'qian_off',
      nickname: '钱',
      password: 'Qian@2024',
      roleIds: [roles.operation],
    });
    const token = await t.signIn('qian_off', 'Qian@2024');
    const headers = { authorization: `Bearer ${token.access_token}` };
    expect((await call(headers, 'GET', endpoints.userInfo)).status).toBe(200);
    const off = await call(admin, 'PUT', ssoUserEndpoints.editAccountStatus, { id, status: 'disabled' });
    expect(off.status).toBe(200);
    expect(off.body.msg).toBe(ssoUserMessages.disabled);
    expect((await call(headers, 'GET', endpoints.userInfo)).status).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: `${endpoints.token}?grant_type=refresh_token&refresh_token=${token.refresh_token}&client_id=admin&client_secret=admin`,
    });
    expect(refresh.statusCode).not.toBe(200);
    await expect(t.signIn('qian_off', 'Qian@2024')).rejects.toThrow();
    const page = await call<Page<{ id: number; status: string }>>(
      admin,
      'GET',
      `${base}/page?status=disabled`,
    );
    expect(page.body.data.records.map((r) => r.id)).toContain(id);
    expect(
      (await call(admin, 'PUT', ssoUserEndpoints.editAccountStatus, { id, status: 'enabled' })).status,
    ).toBe(200);
    await t.signIn('qian_off', 'Qian@2024');
    const bad = await call(admin, 'PUT', ssoUserEndpoints.editAccountStatus, { id, status: 'paused' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('状态');
    expect(
      (await call(admin, 'PUT', ssoUserEndpoints.editAccountStatus, { id: 999_999, status: 'enabled' }))
        .status,
    ).toBe(404);
  });

  test('an administrator resets a password; the user signs in with the new one only', async () => {
    const id = await create({ username: 'sun_reset', nickname: '孙', password: 'Sun@20240', roleIds: [] });
    const res = await call(admin, 'POST', endpoints.userEditPassword, {
      ssoUserId: id,
      newPassword: 'NewSun@2025',
    });
    expect(res.status).toBe(200);
    await expect(t.signIn('sun_reset', 'Sun@20240')).rejects.toThrow();
    await t.signIn('sun_reset', 'NewSun@2025');
  });

  test('roles are assigned only within what the assigner holds; accounts holding more are off limits', async () => {
    const viewerRole = await makeRole('user_viewer', '用户查看', ['user:admin:view']);
    const managerRole = await makeRole('user_manager', '用户管理员', [
      'user:admin:view',
      'user:admin:edit',
      'user:admin:remove',
    ]);
    await create({ username: 'viewer1', nickname: '只读', password: 'Viewer@2024', roleIds: [viewerRole] });
    const plainId = await create({ username: 'plain1', nickname: '普通', password: 'Plain@2024' });
    await create({
      username: 'manager1',
      nickname: '主管',
      password: 'Manager@2024',
      roleIds: [managerRole],
    });
    const viewer = await t.auth('viewer1', 'Viewer@2024');
    const manager = await t.auth('manager1', 'Manager@2024');

    // user:admin:view reads but assigns nothing.
    expect((await call(viewer, 'GET', `${base}/page`)).status).toBe(200);
    expect((await call(viewer, 'PUT', `${base}/edit`, { id: plainId, roleIds: [viewerRole] })).status).toBe(
      403,
    );

    // A manager grants roles within their own permissions…
    const grant = await call<{ roleIds: number[] }>(manager, 'PUT', `${base}/edit`, {
      id: plainId,
      roleIds: [viewerRole],
    });
    expect(grant.status, grant.body.msg).toBe(200);
    expect(grant.body.data.roleIds).toEqual([viewerRole]);
    // …but not 超级管理员 or 运营, on edit or save.
    const escalate = await call(manager, 'PUT', `${base}/edit`, {
      id: plainId,
      roleIds: [roles.super_admin],
    });
    expect(escalate.status).toBe(403);
    expect(escalate.body.msg).toBe(ssoUserMessages.grantBeyondOwn('超级管理员'));
    const made = await call(manager, 'POST', `${base}/save`, {
      username: 'sneaky',
      nickname: '越权',
      password: 'Sneaky@2024',
      roleIds: [roles.operation],
    });
    expect(made.status).toBe(403);
    expect(made.body.msg).toBe(ssoUserMessages.grantBeyondOwn('运营'));
    // Nor change their own roles.
    const managerId = await userIdOf(t.db, 'manager1');
    expect((await call(manager, 'PUT', `${base}/edit`, { id: managerId, roleIds: [] })).status).toBe(403);
    // Nor reset, disable, edit or remove an account holding more than they do.
    for (const [method, url, payload] of [
      ['POST', endpoints.userEditPassword, { ssoUserId: adminId, newPassword: 'Taken@2024' }],
      ['PUT', ssoUserEndpoints.editAccountStatus, { id: adminId, status: 'disabled' }],
      ['PUT', `${base}/edit`, { id: adminId, nickname: '被改' }],
      ['DELETE', `${base}/remove/${adminId}`],
    ] as const) {
      const res = await call(manager, method, url, payload);
      expect(res.status, `${method} ${url}`).toBe(403);
    }
    await t.signIn(...demo.admin);
    // The roles actually stored are what the answers said.
    const stored = await t.db.select().from(ssoUserRoles).where(eq(ssoUserRoles.userId, plainId));
    expect(stored.map((r) => r.roleId)).toEqual([viewerRole]);
  });
});
