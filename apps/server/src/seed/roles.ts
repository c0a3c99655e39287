/**
 * Role definitions by menu group and route, so a screen built later is granted to the right roles
 * without editing this file. A definition yields permission codes (for every route of its groups,
 * built or not, so the API of a screen works before the screen does) and menu grants (for the
 * built routes, which are the only ones with menus).
 */
import { eq, inArray } from 'drizzle-orm';
import { ALL_PERMISSIONS, menuRoutes, permissionOf, permissionPrefixOf } from '@cowork/contract';
import { operationsByPrefix } from '@cowork/contract/resources/operations';
import type { Executor } from '../db/client.ts';
import { ssoMenus, ssoRoleMenus, ssoRoles } from '../db/schema.ts';
import type { PermissionAction } from './menus.ts';

type Grants = Partial<Record<string, PermissionAction[]>>;

export interface RoleDefinition {
  code: string;
  name: string;
  description: string;
  /** `*`, or actions by group key (`order`) and by route path (`/merchant/share`). */
  grants: typeof ALL_PERMISSIONS | { groups?: Grants; routes?: Grants };
}

const all: PermissionAction[] = ['view', 'edit', 'remove'];

export const superAdminRole: RoleDefinition = {
  code: 'super_admin',
  name: '超级管理员',
  description: '拥有全部菜单与操作权限',
  grants: ALL_PERMISSIONS,
};

export const operationRole: RoleDefinition = {
  code: 'operation',
  name: '运营',
  description: '管理产品、订单、线索、门禁设备、企业客户与会议卡活动',
  grants: {
    groups: { product: all, order: all, clue: all, hardware: all, enterprise: all, operation: all },
  },
};

export const financeRole: RoleDefinition = {
  code: 'finance',
  name: '财务',
  description: '处理订单、发票与商户分账，查看产品、楼宇与商户',
  grants: {
    groups: {
      order: ['view', 'edit'],
      invoice: ['view', 'edit'],
      product: ['view'],
      building: ['view'],
      merchant: ['view'],
    },
    routes: { '/merchant/share': ['view', 'edit'] },
  },
};

/** Permission codes a definition grants. */
export function permissionsOf(definition: RoleDefinition): string[] {
  if (definition.grants === ALL_PERMISSIONS) return [ALL_PERMISSIONS];
  const { groups = {}, routes = {} } = definition.grants;
  const codes = new Set<string>();
  for (const route of menuRoutes) {
    const actions = [...(groups[route.group ?? ''] ?? []), ...(routes[route.path] ?? [])];
    for (const action of actions) codes.add(permissionOf(route, action));
    // Editing a screen includes its money moves (确认支付, 退款, 开票…) unless staff take them away;
    // a right of its own (紧急模式) comes only by name, so 运营's `hardware: all` does not hold it.
    if (actions.includes('edit'))
      for (const { code, separate } of operationsByPrefix.get(permissionPrefixOf(route)) ?? [])
        if (!separate) codes.add(code);
  }
  return [...codes].sort();
}

interface GrantedMenu {
  id: number;
  type: string;
  permission: string | null;
  createdAt: Date;
}

/** Menus a definition grants: pages it may view, their groups, and the actions it holds. */
async function grantedMenuIds(db: Executor, definition: RoleDefinition): Promise<GrantedMenu[]> {
  const menus = await db
    .select({
      id: ssoMenus.id,
      parentId: ssoMenus.parentId,
      type: ssoMenus.type,
      url: ssoMenus.url,
      permission: ssoMenus.permission,
      createdAt: ssoMenus.createdAt,
    })
    .from(ssoMenus);
  if (definition.grants === ALL_PERMISSIONS) return menus;
  const codes = new Set(permissionsOf(definition));
  const pages = menus.filter((m) => {
    if (m.type !== 'page') return false;
    const route = menuRoutes.find((r) => r.path === m.url);
    return route !== undefined && codes.has(permissionOf(route, 'view'));
  });
  const pageIds = new Set(pages.map((p) => p.id));
  const groupIds = new Set(pages.map((p) => p.parentId).filter((id): id is number => id !== null));
  const actions = menus
    .filter((m) => m.type === 'action' && m.parentId !== null && pageIds.has(m.parentId))
    .filter((m) => m.permission !== null && codes.has(m.permission));
  return [...menus.filter((m) => groupIds.has(m.id)), ...pages, ...actions];
}

/**
 * Creates the role with the definition's permission codes and menus if missing, and returns its id.
 * On an existing role it adds only the grants of menus created since the role was last changed
 * (a screen built since), so what staff granted or revoked by hand (角色权限) stays as they left it.
 */
export async function ensureRole(db: Executor, definition: RoleDefinition, actorId: number | null = null) {
  const codes = permissionsOf(definition);
  const [existing] = await db
    .select({ id: ssoRoles.id, permissions: ssoRoles.permissions, updatedAt: ssoRoles.updatedAt })
    .from(ssoRoles)
    .where(eq(ssoRoles.code, definition.code));
  let roleId: number;
  let menus = await grantedMenuIds(db, definition);
  if (existing) {
    roleId = existing.id;
    menus = menus.filter((m) => m.createdAt > existing.updatedAt);
    const fresh =
      definition.grants === ALL_PERMISSIONS
        ? [ALL_PERMISSIONS]
        : menus.map((m) => m.permission).filter((c): c is string => c !== null && codes.includes(c));
    const merged = [...new Set([...existing.permissions, ...fresh])].sort();
    if (merged.length !== existing.permissions.length || menus.length > 0) {
      await db
        .update(ssoRoles)
        .set({ permissions: merged, updatedAt: new Date() })
        .where(eq(ssoRoles.id, roleId));
    }
  } else {
    const [row] = await db
      .insert(ssoRoles)
      .values({
        code: definition.code,
        name: definition.name,
        description: definition.description,
        permissions: codes,
        createdBy: actorId,
        updatedBy: actorId,
      })
      .returning({ id: ssoRoles.id });
    roleId = row.id;
  }
  const menuIds = menus.map((m) => m.id);
  if (menuIds.length > 0) {
    await db
      .insert(ssoRoleMenus)
      .values(menuIds.map((menuId) => ({ roleId, menuId })))
      .onConflictDoNothing();
  }
  return roleId;
}

/** Ids of the roles with the given codes that exist. */
export async function roleIdsByCode(db: Executor, codes: string[]) {
  const rows = await db
    .select({ id: ssoRoles.id, code: ssoRoles.code })
    .from(ssoRoles)
    .where(inArray(ssoRoles.code, codes));
  return new Map(rows.map((r) => [r.code, r.id]));
}
