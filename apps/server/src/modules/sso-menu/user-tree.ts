/** The signed-in user's menu tree: visible group and page menus their roles grant. */
import { and, eq, inArray } from 'drizzle-orm';
import { ALL_PERMISSIONS, type MenuItem } from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { ssoMenus, ssoRoleMenus } from '../../db/schema.ts';
import type { AuthUser } from '../../lib/sessions.ts';

type MenuRow = Pick<
  typeof ssoMenus.$inferSelect,
  'id' | 'parentId' | 'name' | 'url' | 'iconUrl' | 'iconBrightUrl' | 'type' | 'sort'
>;

const columns = {
  id: ssoMenus.id,
  parentId: ssoMenus.parentId,
  name: ssoMenus.name,
  url: ssoMenus.url,
  iconUrl: ssoMenus.iconUrl,
  iconBrightUrl: ssoMenus.iconBrightUrl,
  type: ssoMenus.type,
  sort: ssoMenus.sort,
};

async function grantedMenus(db: Executor, user: AuthUser): Promise<MenuRow[]> {
  const shown = and(inArray(ssoMenus.type, ['group', 'page']), eq(ssoMenus.visible, true));
  if (user.permissions.includes(ALL_PERMISSIONS)) {
    return db.select(columns).from(ssoMenus).where(shown);
  }
  if (user.roleIds.length === 0) return [];
  return db
    .selectDistinct(columns)
    .from(ssoMenus)
    .innerJoin(ssoRoleMenus, eq(ssoRoleMenus.menuId, ssoMenus.id))
    .where(and(shown, inArray(ssoRoleMenus.roleId, user.roleIds)));
}

/**
 * Builds the tree: pages under their group, each level by sort then id. Both the group and the
 * page must be granted; a group with no granted page under it is dropped.
 */
export function buildMenuTree(rows: MenuRow[]): MenuItem[] {
  const bySort = (a: MenuRow, b: MenuRow) => a.sort - b.sort || a.id - b.id;
  const item = (row: MenuRow, children: MenuItem[]): MenuItem => ({
    id: row.id,
    name: row.name,
    url: row.url,
    iconUrl: row.iconUrl,
    iconBrightUrl: row.iconBrightUrl,
    children,
  });
  const childrenOf = (id: number) => rows.filter((r) => r.parentId === id && r.type === 'page').sort(bySort);
  return rows
    .filter((r) => r.parentId === null)
    .sort(bySort)
    .flatMap((row) => {
      if (row.type === 'page') return [item(row, [])];
      const pages = childrenOf(row.id).map((p) => item(p, []));
      return pages.length > 0 ? [item(row, pages)] : [];
    });
}

export async function userMenuTree(db: Executor, user: AuthUser): Promise<MenuItem[]> {
  return buildMenuTree(await grantedMenus(db, user));
}
