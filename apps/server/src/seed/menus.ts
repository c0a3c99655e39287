/**
 * The menu comes from the contract's route table: a group menu per group that has a built screen,
 * a page menu per built screen, and under each page the action menus of its permission codes.
 * syncMenus adds what is missing and never touches menus staff have edited.
 */
import { menuGroups, menuRoutes, permissionOf, type ConsoleRoute } from '@cowork/contract';
import type { Executor } from '../db/client.ts';
import { ssoMenus } from '../db/schema.ts';
import { iconKeyOfRoute, iconUrls } from '../modules/menu-icons/icons.ts';

export const permissionActions = ['view', 'edit', 'remove'] as const;
export type PermissionAction = (typeof permissionActions)[number];
const actionNames: Record<PermissionAction, string> = { view: '查看', edit: '编辑', remove: '删除' };

export const builtRoutes = (): ConsoleRoute[] => menuRoutes.filter((r) => r.built);

/** Inserts the group, page and action menus of every built route that are not there yet. */
export async function syncMenus(db: Executor) {
  const existing = await db
    .select({ id: ssoMenus.id, type: ssoMenus.type, url: ssoMenus.url, permission: ssoMenus.permission })
    .from(ssoMenus);
  const byUrl = new Map(existing.filter((m) => m.type !== 'action').map((m) => [`${m.type} ${m.url}`, m.id]));
  const actions = new Set(existing.filter((m) => m.type === 'action').map((m) => m.permission));

  const insertOne = async (values: typeof ssoMenus.$inferInsert) => {
    const [row] = await db.insert(ssoMenus).values(values).returning({ id: ssoMenus.id });
    return row.id;
  };

  for (const group of menuGroups) {
    const routes = builtRoutes().filter((r) => r.group === group.key);
    if (routes.length === 0) continue;
    const groupUrl = `/${group.key}`;
    let groupId = byUrl.get(`group ${groupUrl}`);
    groupId ??= await insertOne({
      name: group.name,
      url: groupUrl,
      type: 'group',
      sort: group.sort,
      ...iconUrls(group.key),
    });
    for (const route of routes) {
      let pageId = byUrl.get(`page ${route.path}`);
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
        if (actions.has(permission)) continue;
        await insertOne({
          parentId: pageId,
          name: actionNames[action],
          type: 'action',
          permission,
          sort: index + 1,
          visible: false,
        });
      }
    }
  }
}
