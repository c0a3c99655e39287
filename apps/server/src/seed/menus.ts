/**
 * The menu comes from the contract's route table: a group menu per group that has a built screen,
 * a page menu per built screen, and under each page the action menus of its permission codes.
 * syncMenus adds what is missing and never touches menus staff have edited; a seeded menu staff
 * removed (or gave another address or code) is remembered in sso_menu_removals and not brought back.
 */
import {
  menuGroups,
  menuRoutes,
  permissionOf,
  permissionPrefixOf,
  type ConsoleRoute,
} from '@cowork/contract';
import { operationsByPrefix } from '@cowork/contract/resources/operations';
import { arrayContains, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { ssoMenuRemovals, ssoMenus, ssoRoleMenus, ssoRoles } from '../db/schema.ts';
import { iconKeyOfRoute, iconUrls } from '../modules/menu-icons/icons.ts';

export const permissionActions = ['view', 'edit', 'remove'] as const;
export type PermissionAction = (typeof permissionActions)[number];
const actionNames: Record<PermissionAction, string> = { view: '查看', edit: '编辑', remove: '删除' };

/** What syncMenus knows a menu by: `group /system`, `page /system/source`, `action system:source:view`. */
export const seedKeyOf = (menu: { type: string; url: string; permission: string | null }) =>
  menu.type === 'action' ? `action ${menu.permission ?? ''}` : `${menu.type} ${menu.url}`;

export const builtRoutes = (): ConsoleRoute[] => menuRoutes.filter((r) => r.built);

/** Inserts the group, page and action menus of every built route that are not there yet. */
export async function syncMenus(db: Executor) {
  const existing = await db
    .select({ id: ssoMenus.id, type: ssoMenus.type, url: ssoMenus.url, permission: ssoMenus.permission })
    .from(ssoMenus);
  const byUrl = new Map(existing.filter((m) => m.type !== 'action').map((m) => [`${m.type} ${m.url}`, m.id]));
  const actions = new Set(existing.filter((m) => m.type === 'action').map((m) => m.permission));
  const removed = new Set((await db.select().from(ssoMenuRemovals)).map((r) => r.seedKey));

  const insertOne = async (values: typeof ssoMenus.$inferInsert) => {
    const [row] = await db.insert(ssoMenus).values(values).returning({ id: ssoMenus.id });
    return row.id;
  };

  for (const group of menuGroups) {
    const routes = builtRoutes().filter((r) => r.group === group.key);
    if (routes.length === 0) continue;
    const groupUrl = `/${group.key}`;
    const pending = routes.filter((r) => !byUrl.has(`page ${r.path}`) && !removed.has(`page ${r.path}`));
    let groupId = byUrl.get(`group ${groupUrl}`);
    // A removed group comes back only to hold a screen built since.
    if (groupId === undefined && removed.has(`group ${groupUrl}`) && pending.length === 0) continue;
    groupId ??= await insertOne({
      name: group.name,
      url: groupUrl,
      type: 'group',
      sort: group.sort,
      ...iconUrls(group.key),
    });
    for (const route of routes) {
      let pageId = byUrl.get(`page ${route.path}`);
      if (pageId === undefined && removed.has(`page ${route.path}`)) continue;
      pageId ??= await insertOne({
        parentId: groupId,
        name: route.pageTitle,
        url: route.path,
        type: 'page',
        sort: route.sort,
        ...iconUrls(iconKeyOfRoute(route)),
      });
      for (const [index, action] of permissionActions.entries()) {
        const permission = permissionOf(route, action);
        if (actions.has(permission) || removed.has(`action ${permission}`)) continue;
        await insertOne({
          parentId: pageId,
          name: actionNames[action],
          type: 'action',
          permission,
          sort: index + 1,
          visible: false,
        });
      }
      const operations = operationsByPrefix.get(permissionPrefixOf(route)) ?? [];
      for (const [index, { code, name, separate }] of operations.entries()) {
        if (actions.has(code) || removed.has(`action ${code}`)) continue;
        const menuId = await insertOne({
          parentId: pageId,
          name,
          type: 'action',
          permission: code,
          sort: permissionActions.length + index + 1,
          visible: false,
        });
        if (!separate) await inheritFromEdit(db, menuId, code, permissionOf(route, 'edit'));
      }
    }
  }
}

/**
 * A new operation (确认支付, 退款…) was part of the screen's edit right until it got its own code: roles
 * holding that edit code keep being able to do it, and staff can take it away on the role screen.
 */
async function inheritFromEdit(db: Executor, menuId: number, code: string, editCode: string) {
  const holders = await db
    .select({ id: ssoRoles.id, permissions: ssoRoles.permissions })
    .from(ssoRoles)
    .where(arrayContains(ssoRoles.permissions, [editCode]));
  for (const role of holders) {
    await db
      .update(ssoRoles)
      .set({ permissions: [...new Set([...role.permissions, code])].sort() })
      .where(eq(ssoRoles.id, role.id));
    await db.insert(ssoRoleMenus).values({ roleId: role.id, menuId }).onConflictDoNothing();
  }
}
