import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from '@cowork/contract';
import { menuEndpoints, type MenuNode } from '@cowork/contract/resources/sso-menu';
import {
  role,
  roleEndpoints,
  type ApiResource,
  type RoleGroupRecord,
} from '@cowork/contract/resources/sso-role';
import { refreshDemoRoles } from '../src/seed/demo.ts';
import { syncMenus } from '../src/seed/menus.ts';
import { buildTestApp, createUser, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

resourceSuite({
  resource: role,
  samples: [
    { name: '测试前台', code: 'suite_front', description: '前台接待' },
    { name: '测试客服', code: 'suite_service', permissions: [] },
  ],
  change: { name: '测试前台主管', description: '负责前台' },
  invalid: [
    { body: { code: 'suite_x' }, field: 'name' },
    { body: { name: '坏编码', code: 'Bad Code' }, field: 'code' },
    { body: { name: '坏权限', code: 'suite_x', permissions: ['bad code'] }, field: 'permissions' },
    { body: { name: '坏菜单', code: 'suite_x', menuIds: ['x'] }, field: 'menuIds' },
    { body: { name: '坏分组', code: 'suite_x', roleGroupId: 'abc' }, field: 'roleGroupId' },
    { body: { name: '不存在的菜单', code: 'suite_x', menuIds: [999999] }, field: 'menuIds' },
  ],
  search: { name: '前台' },
  scope: { name: '测试' },
});

type Role = {
  id: number;
  name: string;
  code: string;
  menuIds: number[];
  permissions: string[];
  userCount: number;
};

let t: TestApp;
let admin: Record<string, string>;
const call = async <T = unknown>(method: string, url: string, headers = admin, payload?: object) => {
  const res = await t.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: T } };
};
const flat = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
let menus: MenuNode[];
const action = (code: string) => menus.find((m) => m.permission === code)!;
const sourcePage = '/api/user/admin/v1/csr-source/page';

beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
  admin = await t.auth(...demo.admin);
  menus = flat((await call<MenuNode[]>('GET', menuEndpoints.menus)).body.data);
});
afterAll(() => t?.close());

describe('grants', () => {
  test('detail carries the menus (with their parents) and the codes of the checked actions', async () => {
    const view = action('system:source:view');
    const res = await call<Role>('POST', `${role.base}/save`, admin, {
      name: '来源只读',
      code: 'source_reader',
      menuIds: [view.id],
      // The code of a screen whose menu is not checked: a role's codes follow its menus.
      permissions: ['enterprise:accessControl:view'],
    });
    expect(res.status, res.body.msg).toBe(200);
    const detail = (await call<Role>('GET', `${role.base}/detail/${res.body.data.id}`)).body.data;
    const page = menus.find((m) => m.id === view.parentId)!;
    expect(detail.menuIds.sort()).toEqual([view.id, page.id, page.parentId!].sort());
    expect(detail.permissions).toEqual(['system:source:view']);
    expect(detail.userCount).toBe(0);
  });

  test('a grant lets the users call at the next request; a revoke refuses them again', async () => {
    const made = await call<Role>('POST', `${role.base}/save`, admin, { name: '待授权', code: 'to_grant' });
    await createUser(t.db, { username: 'granted', password: 'Pass@1234', roleCodes: ['to_grant'] });
    const headers = await t.auth('granted', 'Pass@1234');
    expect((await call('GET', sourcePage, headers)).status).toBe(403);

    const view = action('system:source:view');
    const grant = await call<Role>('PUT', `${role.base}/edit`, admin, {
      id: made.body.data.id,
      menuIds: [view.id],
    });
    expect(grant.body.data.permissions).toEqual(['system:source:view']);
    expect((await call('GET', sourcePage, headers)).status).toBe(200);
    const tree = await call<{ name: string; children: { name: string }[] }[]>(
      'GET',
      '/api/user/admin/v1/sso-menu/user-tree',
      headers,
    );
    expect(tree.body.data).toEqual([
      expect.objectContaining({
        name: '系统配置',
        children: [expect.objectContaining({ name: '来源配置' })],
      }),
    ]);

    await call('PUT', `${role.base}/edit`, admin, { id: made.body.data.id, menuIds: [], permissions: [] });
    expect((await call('GET', sourcePage, headers)).status).toBe(403);
  });

  test('nobody grants a code they do not hold', async () => {
    const roleCodes = ['system:role:view', 'system:role:edit'].map((c) => action(c).id);
    await call('POST', `${role.base}/save`, admin, {
      name: '角色管理员',
      code: 'role_admin',
      menuIds: roleCodes,
    });
    await createUser(t.db, { username: 'roleadmin', password: 'Pass@1234', roleCodes: ['role_admin'] });
    const headers = await t.auth('roleadmin', 'Pass@1234');
    const res = await call('POST', `${role.base}/save`, headers, {
      name: '越权',
      code: 'escalate',
      menuIds: [action('system:source:edit').id],
    });
    expect(res.status).toBe(403);
    expect(res.body.msg).toContain('system:source:edit');
    const fine = await call('POST', `${role.base}/save`, headers, {
      name: '角色查看',
      code: 'role_view_only',
      menuIds: [action('system:role:view').id],
    });
    expect(fine.status, fine.body.msg).toBe(200);
  });
});

describe('removal and 超级管理员', () => {
  test('a role users hold is not removed (409 with how many); 超级管理员 never', async () => {
    const roles = (await call<Page<Role>>('GET', `${role.base}/page?size=100`)).body.data.records;
    const operation = roles.find((r) => r.code === 'operation')!;
    expect(operation.userCount).toBe(1);
    const res = await call('DELETE', `${role.base}/remove/${operation.id}`);
    expect(res.status).toBe(409);
    expect(res.body.msg).toContain('1 个用户');
    const superAdmin = roles.find((r) => r.code === 'super_admin')!;
    const removed = await call('DELETE', `${role.base}/remove/${superAdmin.id}`);
    expect(removed.status).toBe(409);
    expect(removed.body.msg).toContain('超级管理员');
    const narrowed = await call('PUT', `${role.base}/edit`, admin, { id: superAdmin.id, permissions: [] });
    expect(narrowed.status).toBe(409);
    const renamed = await call<Role>('PUT', `${role.base}/edit`, admin, {
      id: superAdmin.id,
      description: '全部权限',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.permissions).toEqual(['*']);
  });

  test('a restart does not undo a revoke from a demo role', async () => {
    const roles = (await call<Page<Role>>('GET', `${role.base}/page?size=100`)).body.data.records;
    const operation = roles.find((r) => r.code === 'operation')!;
    const kept = operation.permissions.filter((c) => c !== 'product:member:view');
    await call('PUT', `${role.base}/edit`, admin, { id: operation.id, permissions: kept });
    await syncMenus(t.db);
    await refreshDemoRoles(t.db);
    const detail = (await call<Role>('GET', `${role.base}/detail/${operation.id}`)).body.data;
    expect(detail.permissions).not.toContain('product:member:view');
  });
});

describe('role groups', () => {
  test('save, rename, list with counts, 409 on a duplicate or a group in use, remove', async () => {
    const made = await call<RoleGroupRecord>('POST', roleEndpoints.saveRoleGroup, admin, {
      name: '门店',
      sort: 2,
    });
    expect(made.status, made.body.msg).toBe(200);
    const id = made.body.data.id;
    expect((await call('POST', roleEndpoints.saveRoleGroup, admin, { name: '门店' })).status).toBe(409);
    expect((await call('POST', roleEndpoints.saveRoleGroup, admin, { name: '' })).body.msg).toContain(
      '分组名称',
    );
    const renamed = await call<RoleGroupRecord>('POST', roleEndpoints.saveRoleGroup, admin, {
      id,
      name: '门店运营',
      sort: 1,
    });
    expect(renamed.body.data).toMatchObject({ id, name: '门店运营', label: '门店运营', value: id });
    expect((await call('POST', roleEndpoints.saveRoleGroup, admin, { id: 999999, name: '无' })).status).toBe(
      404,
    );

    const member = await call<Role>('POST', `${role.base}/save`, admin, {
      name: '店长',
      code: 'store_mgr',
      roleGroupId: id,
    });
    const list = (await call<RoleGroupRecord[]>('GET', roleEndpoints.roleGroupList)).body.data;
    expect(list.find((g) => g.id === id)?.roleCount).toBe(1);
    const used = await call('DELETE', `${roleEndpoints.removeRoleGroup}/${id}`);
    expect(used.status).toBe(409);
    expect(used.body.msg).toContain('1 个角色');

    await call('PUT', `${role.base}/edit`, admin, { id: member.body.data.id, roleGroupId: null });
    expect((await call('DELETE', `${roleEndpoints.removeRoleGroup}/${id}`)).status).toBe(200);
    expect((await call('DELETE', `${roleEndpoints.removeRoleGroup}/${id}`)).status).toBe(404);
    expect((await call('GET', roleEndpoints.roleGroupList, await t.auth(...demo.yunying))).status).toBe(403);
  });
});

describe('sso-resources: the route catalogue', () => {
  test('every real route with its code, searchable by code or path', async () => {
    const all = await call<Page<ApiResource>>('GET', `${roleEndpoints.resourcesPage}?size=100`);
    expect(all.status).toBe(200);
    expect(all.body.data.total).toBe(
      t.app.routeCatalogue.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs')).length,
    );
    const found = await call<Page<ApiResource>>(
      'GET',
      `${roleEndpoints.resourcesPage}?keyword=SYSTEM:SOURCE:VIEW`,
    );
    expect(found.body.data.records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          method: 'GET',
          path: sourcePage,
          code: 'system:source:view',
          name: '来源配置 · 查看',
          // The route's own summary, read from the API docs.
          summary: '来源分页列表',
        }),
      ]),
    );
    expect(found.body.data.records.every((r) => r.code === 'system:source:view')).toBe(true);
    const byPath = await call<Page<ApiResource>>(
      'GET',
      `${roleEndpoints.resourcesPage}?keyword=sso-role/remove-role-group&method=DELETE`,
    );
    expect(byPath.body.data.records).toEqual([
      expect.objectContaining({ code: 'system:role:remove', path: `${roleEndpoints.removeRoleGroup}/:id` }),
    ]);
    // A route any of several codes opens lists them all, and is found by each.
    const menus = await call<Page<ApiResource>>(
      'GET',
      `${roleEndpoints.resourcesPage}?keyword=sso-menu/menus&method=GET`,
    );
    expect(menus.body.data.records).toEqual([
      expect.objectContaining({
        codes: ['system:menu:view', 'system:role:view'],
        code: 'system:menu:view | system:role:view',
        name: '菜单配置 · 查看 或 角色权限 · 查看',
      }),
    ]);
    const byCode = await call<Page<ApiResource>>(
      'GET',
      `${roleEndpoints.resourcesPage}?keyword=system:role:view`,
    );
    expect(byCode.body.data.records.map((r) => r.path)).toContain(menuEndpoints.menus);
    expect((await call('GET', `${roleEndpoints.resourcesPage}?method=FETCH`)).body.msg).toContain('请求方法');
    expect((await call('GET', roleEndpoints.resourcesPage, await t.auth(...demo.caiwu))).status).toBe(403);
  });
});
