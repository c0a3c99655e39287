/**
 * Role definitions by menu group and route, so a screen built later is granted to the right roles
 * without editing this file. A definition yields permission codes (for every route of its groups,
 * built or not, so the API of a screen works before the screen does) and menu grants (for the
 * built routes, which are the only ones with menus).
 */
import { eq, inArray } from 'drizzle-orm';
import { ALL_PERMISSIONS, menuRoutes, permissionOf } from '@cowork/contract';
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
  description: '管理产品、订单与线索',
  grants: { groups: { product: all, order: all, clue: all } },
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
  }
  return [...codes].sort();
}

/** Menus a definition grants: pages it may view, their groups, and the actions it holds. */
async function grantedMenuIds(db: Executor, definition: RoleDefinition): Promise<number[]> {
  const menus = await db
    .select({
      id: ssoMenus.id,
      parentId: ssoMenus.parentId,
      type: ssoMenus.type,
      url: ssoMenus.url,
      permission: ssoMenus.permission,
    })
    .from(ssoMenus);
  if (definition.grants === ALL_PERMISSIONS) return menus.map((m) => m.id);
  const codes = new Set(permissionsOf(definition));
  const pages = menus.filter((m) => {
    if (m.type !== 'page') return false;
    const route = menuRoutes.find((r) => r.path === m.url);
    return route !== undefined && codes.has(permissionOf(route, 'view'));
  });
  const pageIds = new Set(pages.map((p) => p.id));
  const groupIds = new Set(pages.map((p) => p.parentId).filter((id): id is number => id !== null));
  const actionIds = menus
    .filter((m) => m.type === 'action' && m.parentId !== null && pageIds.has(m.parentId))
    .filter((m) => m.permission !== null && codes.has(m.permission))
    .map((m) => m.id);
  return [...groupIds, ...pageIds, ...actionIds];
}

/**
 * Creates the role if missing, adds the definition's permission codes and menus to it (never
 * removes what staff granted by hand) and returns its id.
 */
export async function ensureRole(db: Executor, definition: RoleDefinition, actorId: number | null = null) {
  const codes = permissionsOf(definition);
  const [existing] = await db
    .select({ id: ssoRoles.id, permissions: ssoRoles.permissions })
    .from(ssoRoles)
    .where(eq(ssoRoles.code, definition.code));
  let roleId: number;
  if (existing) {
    roleId = existing.id;
    const merged = [...new Set([...existing.permissions, ...codes])].sort();
    if (merged.length !== existing.permissions.length) {
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
  const menuIds = await grantedMenuIds(db, definition);
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
