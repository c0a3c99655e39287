import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { endpoints, type MenuItem } from '@cowork/contract';
import { menu, menuEndpoints, type MenuNode } from '@cowork/contract/resources/sso-menu';
import { role } from '@cowork/contract/resources/sso-role';
import { ssoMenus } from '../src/db/schema.ts';
import { syncMenus } from '../src/seed/menus.ts';
import { buildTestApp, createUser, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

resourceSuite({
  resource: menu,
  samples: [
    { name: '测试分组A', type: 'group', url: '/suite-a', sort: 90 },
    { name: '测试分组B', type: 'group', url: '/suite-b', visible: false },
  ],
  change: { name: '测试分组甲', sort: 91 },
  invalid: [
    { body: { type: 'group', url: '/suite-x' }, field: 'name' },
    { body: { name: '坏类型', type: 'folder', url: '/suite-x' }, field: 'type' },
    { body: { name: '坏地址', type: 'group', url: 'suite x' }, field: 'url' },
    { body: { name: '无地址', type: 'page' }, field: 'url' },
    { body: { name: '坏排序', type: 'group', url: '/suite-x', sort: -1 }, field: 'sort' },
    { body: { name: '无上级', type: 'action', permission: 'suite:x:view' }, field: 'parentId' },
    { body: { name: '坏编码', type: 'group', url: '/suite-x', permission: 'bad code' }, field: 'permission' },
    { body: { name: '坏显示', type: 'group', url: '/suite-x', visible: 'yes' }, field: 'visible' },
  ],
  search: { name: '分组A' },
  scope: { url: '/suite-' },
});

const base = menu.base;
let t: TestApp;
let admin: Record<string, string>;

const call = async <T = unknown>(method: string, url: string, headers = admin, payload?: object) => {
  const res = await t.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: T } };
};
const tree = async () => (await call<MenuNode[]>('GET', menuEndpoints.menus)).body.data;
const flat = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
const find = async (pred: (n: MenuNode) => boolean) => flat(await tree()).find(pred)!;

beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
  admin = await t.auth(...demo.admin);
});
afterAll(() => t?.close());

describe('menus: the whole tree', () => {
  test('groups → pages → actions, hidden entries included', async () => {
    const system = await find((n) => n.type === 'group' && n.url === '/system');
    const source = system.children.find((c) => c.url === '/system/source')!;
    expect(source.type).toBe('page');
    expect(source.children.map((a) => [a.type, a.permission, a.visible])).toEqual([
      ['action', 'system:source:view', false],
      ['action', 'system:source:edit', false],
      ['action', 'system:source:remove', false],
    ]);
    expect(system.children.map((c) => c.url)).toEqual(
      expect.arrayContaining(['/system/menu', '/system/role', '/system/log']),
    );
  });

  test('运营 gets 403; a role that may view 角色权限 reads it too', async () => {
    expect((await call('GET', menuEndpoints.menus, await t.auth(...demo.yunying))).status).toBe(403);
    // A code some action menu carries is granted through that menu.
    const roleView = await find((n) => n.permission === 'system:role:view');
    const created = await call<{ id: number; permissions: string[] }>('POST', role.base + '/save', admin, {
      name: '只读角色管理',
      code: 'role_viewer',
      menuIds: [roleView.id],
      permissions: ['system:role:edit'],
    });
    expect(created.body.data.permissions).toEqual(['system:role:view']);
    expect(created.status, created.body.msg).toBe(200);
    await createUser(t.db, { username: 'roleviewer', password: 'Pass@1234', roleCodes: ['role_viewer'] });
    const viewer = await t.auth('roleviewer', 'Pass@1234');
    expect((await call('GET', menuEndpoints.menus, viewer)).status).toBe(200);
    expect((await call('GET', `${base}/page`, viewer)).status).toBe(403);
  });
});

describe('tree rules', () => {
  test('a page goes under a group, an action under a page, with a code; url and code are unique', async () => {
    const system = await find((n) => n.url === '/system' && n.type === 'group');
    const source = await find((n) => n.url === '/system/source');
    const bad = [
      [{ name: 'x', type: 'page', url: '/x/y', parentId: source.id }, '上级菜单'],
      [{ name: 'x', type: 'action', parentId: system.id, permission: 'x:y:view' }, '上级菜单'],
      [{ name: 'x', type: 'action', parentId: source.id }, '权限编码'],
      [{ name: 'x', type: 'group', url: '/x', parentId: system.id }, '上级菜单'],
      [{ name: 'x', type: 'page', url: '/x/y', parentId: 999999 }, '上级菜单'],
    ] as const;
    for (const [body, label] of bad) {
      const res = await call('POST', `${base}/save`, admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toContain(label);
    }
    const dupUrl = await call('POST', `${base}/save`, admin, {
      name: '重复',
      type: 'page',
      url: '/system/source',
      parentId: system.id,
    });
    expect(dupUrl.status).toBe(409);
    expect(dupUrl.body.msg).toContain('路由地址');
    const dupCode = await call('POST', `${base}/save`, admin, {
      name: '重复',
      type: 'action',
      parentId: source.id,
      permission: 'system:source:view',
    });
    expect(dupCode.status).toBe(409);
    expect(dupCode.body.msg).toContain('权限编码');
    const retype = await call('PUT', `${base}/edit`, admin, { id: system.id, type: 'page' });
    expect(retype.status).toBe(400);
    expect(retype.body.msg).toContain('下级菜单');
  });

  test('a menu with children is not removed (409), nothing goes', async () => {
    const source = await find((n) => n.url === '/system/source');
    const res = await call('DELETE', `${base}/remove/${source.id}`);
    expect(res.status).toBe(409);
    expect(res.body.msg).toContain('3 个下级菜单');
    expect((await find((n) => n.id === source.id)).children).toHaveLength(3);
  });
});

describe('the side menu follows', () => {
  test('rename, hide and sort show in user-tree at the next request', async () => {
    const headers = admin;
    const userTree = async () => (await call<MenuItem[]>('GET', endpoints.menuUserTree, headers)).body.data;
    const system = await find((n) => n.url === '/system' && n.type === 'group');
    const log = system.children.find((c) => c.url === '/system/log')!;

    expect((await call('PUT', `${base}/edit`, admin, { id: log.id, name: '审计日志' })).status).toBe(200);
    const names = (await userTree()).find((g) => g.url === '/system')!.children.map((c) => c.name);
    expect(names).toContain('审计日志');

    const order = [...system.children.map((c) => c.id)].reverse();
    const sorted = await call<MenuNode[]>('PUT', menuEndpoints.sort, admin, {
      parentId: system.id,
      ids: order,
    });
    expect(sorted.status, sorted.body.msg).toBe(200);
    const shown = (await userTree()).find((g) => g.url === '/system')!.children.map((c) => c.id);
    expect(shown).toEqual(order);
    // Not every child, or a child of another parent: 409.
    expect(
      (await call('PUT', menuEndpoints.sort, admin, { parentId: system.id, ids: order.slice(1) })).status,
    ).toBe(409);
    expect((await call('PUT', menuEndpoints.sort, admin, { parentId: null, ids: order })).status).toBe(409);
    expect((await call('PUT', menuEndpoints.sort, admin, { parentId: system.id, ids: [] })).status).toBe(400);

    expect((await call('PUT', `${base}/edit`, admin, { id: log.id, visible: false })).status).toBe(200);
    const after = (await userTree()).find((g) => g.url === '/system')!.children.map((c) => c.id);
    expect(after).not.toContain(log.id);
    expect((await find((n) => n.id === log.id)).visible).toBe(false);
    await call('PUT', `${base}/edit`, admin, { id: log.id, visible: true, name: '操作日志' });
  });
});

describe('removing and re-addressing', () => {
  test('removing an action takes its grant and code from the roles; the user is refused at once', async () => {
    const source = await find((n) => n.url === '/system/source');
    const view = source.children.find((a) => a.permission === 'system:source:view')!;
    const made = await call<{ id: number }>('POST', `${role.base}/save`, admin, {
      name: '来源查看',
      code: 'source_viewer',
      menuIds: [view.id],
    });
    expect(made.status, made.body.msg).toBe(200);
    await createUser(t.db, { username: 'srcviewer', password: 'Pass@1234', roleCodes: ['source_viewer'] });
    const headers = await t.auth('srcviewer', 'Pass@1234');
    expect((await call('GET', '/api/user/admin/v1/csr-source/page', headers)).status).toBe(200);

    // Re-coding the action moves the code in the role.
    expect(
      (await call('PUT', `${base}/edit`, admin, { id: view.id, permission: 'system:source:peek' })).status,
    ).toBe(200);
    let detail = (
      await call<{ permissions: string[]; menuIds: number[] }>(
        'GET',
        `${role.base}/detail/${made.body.data.id}`,
      )
    ).body.data;
    expect(detail.permissions).toEqual(['system:source:peek']);
    expect((await call('GET', '/api/user/admin/v1/csr-source/page', headers)).status).toBe(403);
    await call('PUT', `${base}/edit`, admin, { id: view.id, permission: 'system:source:view' });
    expect((await call('GET', '/api/user/admin/v1/csr-source/page', headers)).status).toBe(200);

    expect((await call('DELETE', `${base}/remove/${view.id}`)).status).toBe(200);
    detail = (
      await call<{ permissions: string[]; menuIds: number[] }>(
        'GET',
        `${role.base}/detail/${made.body.data.id}`,
      )
    ).body.data;
    expect(detail.permissions).toEqual([]);
    expect(detail.menuIds).not.toContain(view.id);
    expect((await call('GET', '/api/user/admin/v1/csr-source/page', headers)).status).toBe(403);
  });

  test('the start-up sync brings back neither a removed nor a re-addressed seeded menu, and keeps a rename', async () => {
    const source = await find((n) => n.url === '/system/source');
    for (const action of source.children) await call('DELETE', `${base}/remove/${action.id}`);
    expect((await call('DELETE', `${base}/remove/${source.id}`)).status).toBe(200);
    const log = await find((n) => n.url === '/system/log');
    await call('PUT', `${base}/edit`, admin, { id: log.id, name: '日志', url: '/system/audit' });
    const before = await t.db.select().from(ssoMenus);

    await syncMenus(t.db);

    const after = await t.db.select().from(ssoMenus);
    expect(after.length).toBe(before.length);
    expect(after.some((m) => m.url === '/system/source' || m.permission === 'system:source:view')).toBe(
      false,
    );
    expect(after.find((m) => m.id === log.id)).toMatchObject({ name: '日志', url: '/system/audit' });
    expect(after.filter((m) => m.url === '/system/log')).toHaveLength(0);
    // The admin's page list is unaffected by the sync: nothing new under 系统配置.
    const [system] = await t.db.select().from(ssoMenus).where(eq(ssoMenus.url, '/system'));
    expect(system).toBeDefined();
  });
});
