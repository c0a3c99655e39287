/**
 * Finding 2: nobody grants a permission code they do not hold, on any path that changes what a role
 * grants. A user with only 菜单配置 rights re-coded an action menu their own role held and so gained
 * `user:admin:edit`; now every such path answers 403 and changes nothing, and 超级管理员 never
 * picks up stray codes.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { grantBeyondOwnMessage, resourcePermissions, USER_MANAGE_PERMISSION } from '@cowork/contract';
import { menu, menuEndpoints, type MenuNode } from '@cowork/contract/resources/sso-menu';
import { role } from '@cowork/contract/resources/sso-role';
import { ssoUser, ssoUserMessages } from '@cowork/contract/resources/sso-user';
import { ssoMenus, ssoRoleMenus, ssoRoles } from '../../src/db/schema.ts';
import { buildTestApp, callApi, createRole, createUser, demo, type TestApp } from '../helper.ts';

let t: TestApp;
let admin: Record<string, string>;

const flat = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
const menus = async () => flat((await callApi<MenuNode[]>(t, admin, 'GET', menuEndpoints.menus)).body.data);
const codesOfRole = async (id: number) =>
  (await t.db.select({ p: ssoRoles.permissions }).from(ssoRoles).where(eq(ssoRoles.id, id)))[0].p;

/** A user whose one role grants exactly these codes and holds these menus. */
async function userWith(name: string, permissions: string[], menuIds: number[] = []) {
  const roleId = await createRole(t.db, { code: name, name, permissions });
  if (menuIds.length) await t.db.insert(ssoRoleMenus).values(menuIds.map((menuId) => ({ roleId, menuId })));
  await createUser(t.db, { username: name, password: 'Pass@1234', roleCodes: [name] });
  return { roleId, headers: await t.auth(name, 'Pass@1234') };
}

beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
  admin = await t.auth(...demo.admin);
});
afterAll(() => t?.close());

describe('menu editor', () => {
  test('re-coding an action their role holds to a code they lack: 403, nothing changes', async () => {
    const sourceView = (await menus()).find((m) => m.permission === 'system:source:view')!;
    const menuRights = resourcePermissions(menu);
    const editor = await userWith(
      'menu_editor',
      [menuRights.view, menuRights.edit, 'system:source:view'],
      [sourceView.id],
    );

    // The attack: move the code off the 后台用户 action (only 超级管理员 holds that, so nothing is
    // granted and it passes), then re-code an action of one's own role to it.
    const userEdit = (await menus()).find((m) => m.permission === USER_MANAGE_PERMISSION)!;
    const moved = await callApi(t, editor.headers, 'PUT', `${menu.base}/edit`, {
      id: userEdit.id,
      permission: 'user:admin:edit-moved',
    });
    expect(moved.status, moved.raw).toBe(200);
    const res = await callApi(t, editor.headers, 'PUT', `${menu.base}/edit`, {
      id: sourceView.id,
      permission: USER_MANAGE_PERMISSION,
    });
    expect(res.status, res.raw).toBe(403);
    expect(res.body.msg).toBe(grantBeyondOwnMessage([USER_MANAGE_PERMISSION]));
    // Rolled back: the menu keeps its code, the role gained nothing, creating staff stays refused.
    const [row] = await t.db.select().from(ssoMenus).where(eq(ssoMenus.id, sourceView.id));
    expect(row.permission).toBe('system:source:view');
    expect(await codesOfRole(editor.roleId)).not.toContain(USER_MANAGE_PERMISSION);
    const create = await callApi(t, editor.headers, 'POST', `${ssoUser.base}/save`, {
      username: 'made_by_editor',
      nickname: '越权',
      password: 'Pass@1234',
      roleIds: [],
    });
    expect(create.status).toBe(403);

    // Turning a page their role holds into an action carrying a foreign code is the same grant.
    const sourcePage = (await menus()).find((m) => m.url === '/system/source')!;
    await t.db.insert(ssoRoleMenus).values({ roleId: editor.roleId, menuId: sourcePage.id });
    const free = await callApi<{ id: number }>(t, admin, 'POST', `${menu.base}/save`, {
      name: '空页面',
      type: 'page',
      url: '/system/escalation-empty',
      parentId: sourcePage.parentId,
    });
    expect(free.status, free.raw).toBe(200);
    await t.db.insert(ssoRoleMenus).values({ roleId: editor.roleId, menuId: free.body.data.id });
    const retype = await callApi(t, editor.headers, 'PUT', `${menu.base}/edit`, {
      id: free.body.data.id,
      type: 'action',
      parentId: sourcePage.id,
      permission: USER_MANAGE_PERMISSION,
    });
    expect(retype.status, retype.raw).toBe(403);
    expect(await codesOfRole(editor.roleId)).not.toContain(USER_MANAGE_PERMISSION);
    await callApi(t, admin, 'PUT', `${menu.base}/edit`, {
      id: userEdit.id,
      permission: USER_MANAGE_PERMISSION,
    });
  });

  test('a code they hold moves in the roles as before', async () => {
    const sourceEdit = (await menus()).find((m) => m.permission === 'system:source:edit')!;
    const menuRights = resourcePermissions(menu);
    const editor = await userWith(
      'menu_keeper',
      [menuRights.view, menuRights.edit, 'system:source:edit', 'system:source:change'],
      [sourceEdit.id],
    );
    const res = await callApi(t, editor.headers, 'PUT', `${menu.base}/edit`, {
      id: sourceEdit.id,
      permission: 'system:source:change',
    });
    expect(res.status, res.raw).toBe(200);
    expect(await codesOfRole(editor.roleId)).toContain('system:source:change');
    await callApi(t, admin, 'PUT', `${menu.base}/edit`, {
      id: sourceEdit.id,
      permission: 'system:source:edit',
    });
  });

  test('超级管理员 keeps exactly `*` when an action it holds is re-coded', async () => {
    const logView = (await menus()).find((m) => m.permission?.startsWith('system:log'))!;
    const [superRole] = await t.db.select().from(ssoRoles).where(eq(ssoRoles.code, 'super_admin'));
    const held = await t.db.select().from(ssoRoleMenus).where(eq(ssoRoleMenus.roleId, superRole.id));
    if (!held.some((h) => h.menuId === logView.id))
      await t.db.insert(ssoRoleMenus).values({ roleId: superRole.id, menuId: logView.id });
    const res = await callApi(t, admin, 'PUT', `${menu.base}/edit`, {
      id: logView.id,
      permission: 'system:log:stray',
    });
    expect(res.status, res.raw).toBe(200);
    expect(await codesOfRole(superRole.id)).toEqual(['*']);
    await callApi(t, admin, 'PUT', `${menu.base}/edit`, { id: logView.id, permission: logView.permission });
  });
});

describe('role editor and user manager', () => {
  test('a role editor adding a code they lack to a role: 403 naming it', async () => {
    const rights = resourcePermissions(role);
    const editor = await userWith('role_editor', [rights.view, rights.edit]);
    const target = await createRole(t.db, { code: 'plain_role', name: '普通角色', permissions: [] });
    const res = await callApi(t, editor.headers, 'PUT', `${role.base}/edit`, {
      id: target,
      permissions: [USER_MANAGE_PERMISSION],
    });
    expect(res.status, res.raw).toBe(403);
    expect(res.body.msg).toBe(grantBeyondOwnMessage([USER_MANAGE_PERMISSION]));
    expect(await codesOfRole(target)).toEqual([]);
  });

  test('a user manager assigning a role beyond their own: 403 naming the role', async () => {
    const rights = resourcePermissions(ssoUser);
    const manager = await userWith('user_manager', [rights.view, rights.edit]);
    const [superRole] = await t.db.select().from(ssoRoles).where(eq(ssoRoles.code, 'super_admin'));
    const res = await callApi(t, manager.headers, 'POST', `${ssoUser.base}/save`, {
      username: 'would_be_super',
      nickname: '越权',
      password: 'Pass@1234',
      roleIds: [superRole.id],
    });
    expect(res.status, res.raw).toBe(403);
    expect(res.body.msg).toBe(ssoUserMessages.grantBeyondOwn(superRole.name));
  });
});
