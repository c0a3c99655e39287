/**
 * 菜单配置 (sso-menu) management: the resource routes from the contract plus `menus` (the whole
 * tree) and `sort` (the order of one parent's children). What keeps the tree sound:
 * - a group is top level, a page sits under a group (or top level), an action under a page, so the
 *   tree is at most three deep and cannot loop;
 * - a menu with children is neither removed nor changed to another type (409 / 400);
 * - removing a menu removes its role grants (foreign key), and an action's code from the roles that
 *   held it through that action; changing an action's code moves it in those roles;
 * - a seeded menu removed or re-addressed is remembered, so the start-up sync does not restore it.
 */
import { and, asc, count, eq, isNull, ne } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALL_PERMISSIONS, resourcePermissions } from '@cowork/contract';
import {
  menu,
  menuEndpoints,
  menuNode,
  menuSortBody,
  type MenuKind,
  type MenuNode,
} from '@cowork/contract/resources/sso-menu';
import type { Executor } from '../../db/client.ts';
import { ssoMenuRemovals, ssoMenus, ssoRoleMenus, ssoRoles } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { crudModule, valueAfterWrite, type ValuesOf, type WriteContext } from '../../lib/crud.ts';
import { assertMayGrant } from '../../lib/grants.ts';
import { badRequest, conflict, envelope, ok } from '../../lib/http.ts';
import type { AuthUser } from '../../lib/sessions.ts';
import { currentUser } from '../../plugins/auth.ts';
import { seedKeyOf } from '../../seed/menus.ts';

type MenuRow = typeof ssoMenus.$inferSelect;
type Values = ValuesOf<typeof ssoMenus, (typeof menu)['fields']>;

const permissions = resourcePermissions(menu);
const typeLabel: Record<MenuKind, string> = { group: '分组', page: '页面', action: '操作' };

/** Remembers the seed key a menu no longer answers to, so syncMenus leaves it gone. */
async function forgetSeedKey(
  tx: Executor,
  row: Pick<MenuRow, 'type' | 'url' | 'permission'>,
  by: number | null,
) {
  await tx
    .insert(ssoMenuRemovals)
    .values({ seedKey: seedKeyOf(row), removedBy: by })
    .onConflictDoNothing();
}

/**
 * Moves a code in the roles that granted it through this action menu: drops `from` unless another
 * action menu the role holds still carries it, and adds `to` when given. Adding `to` grants it to
 * those roles, so the caller must hold it (403 otherwise, rolling the edit back). Roles holding `*`
 * (超级管理员) already have every code and are left as they are.
 */
async function moveRoleCode(
  tx: Executor,
  menuId: number,
  from: string | null,
  to: string | null,
  caller: AuthUser,
) {
  if (from === to) return;
  const roles = (
    await tx
      .select({ id: ssoRoles.id, permissions: ssoRoles.permissions })
      .from(ssoRoles)
      .innerJoin(ssoRoleMenus, eq(ssoRoleMenus.roleId, ssoRoles.id))
      .where(eq(ssoRoleMenus.menuId, menuId))
  ).filter((role) => !role.permissions.includes(ALL_PERMISSIONS));
  if (to && roles.some((role) => !role.permissions.includes(to))) assertMayGrant(caller, [to]);
  for (const role of roles) {
    const codes = new Set(role.permissions);
    if (from) {
      const [still] = await tx
        .select({ n: count() })
        .from(ssoRoleMenus)
        .innerJoin(ssoMenus, eq(ssoMenus.id, ssoRoleMenus.menuId))
        .where(
          and(
            eq(ssoRoleMenus.roleId, role.id),
            ne(ssoMenus.id, menuId),
            eq(ssoMenus.type, 'action'),
            eq(ssoMenus.permission, from),
          ),
        );
      if (still.n === 0) codes.delete(from);
    }
    if (to) codes.add(to);
    await tx
      .update(ssoRoles)
      .set({ permissions: [...codes].sort(), updatedAt: new Date() })
      .where(eq(ssoRoles.id, role.id));
  }
}

async function prepare(values: Values, { tx, existing }: WriteContext<typeof ssoMenus>) {
  const type = valueAfterWrite('type', values, existing);
  const parentId = valueAfterWrite('parentId', values, existing) ?? null;

  if (existing && values.type !== undefined && values.type !== existing.type) {
    const [children] = await tx
      .select({ n: count() })
      .from(ssoMenus)
      .where(eq(ssoMenus.parentId, existing.id));
    if (children.n > 0) throw badRequest('该菜单下还有下级菜单，不能修改菜单类型，请先移走下级菜单');
  }

  if (type === 'group' && parentId !== null) {
    throw badRequest('上级菜单：分组是一级菜单，不能选择上级菜单');
  }
  if (parentId !== null) {
    const [parent] = await tx.select().from(ssoMenus).where(eq(ssoMenus.id, parentId));
    if (!parent) throw badRequest('上级菜单不存在或已被删除，请重新选择上级菜单');
    if (type === 'page' && parent.type !== 'group') {
      throw badRequest('上级菜单：页面须放在分组下，请选择一个分组或不选');
    }
    if (type === 'action' && parent.type !== 'page') {
      throw badRequest('上级菜单：操作须放在页面下，请选择一个页面');
    }
  } else if (type === 'action') {
    throw badRequest('请选择上级菜单：操作须放在页面下');
  }

  const out: Values = { ...values, parentId };
  if (type === 'action') {
    out.url = '';
    const code = valueAfterWrite('permission', values, existing);
    if (!code) throw badRequest('请填写权限编码：操作须有权限编码');
    out.permission = code;
    const [clash] = await tx
      .select({ id: ssoMenus.id })
      .from(ssoMenus)
      .where(
        and(
          eq(ssoMenus.type, 'action'),
          eq(ssoMenus.permission, code),
          existing ? ne(ssoMenus.id, existing.id) : undefined,
        ),
      );
    if (clash) throw conflict('已存在权限编码相同的操作菜单，请换一个权限编码');
  } else {
    out.permission = null;
    const url = valueAfterWrite('url', values, existing);
    if (!url) throw badRequest(`请填写路由地址：${typeLabel[type]}须有路由地址`);
    if (!/^\/[\w\-/]*$/.test(url)) {
      throw badRequest('路由地址须以 / 开头，只含字母、数字、-、_ 和 /，如 /system/source');
    }
    out.url = url;
    const [clash] = await tx
      .select({ id: ssoMenus.id })
      .from(ssoMenus)
      .where(
        and(
          eq(ssoMenus.type, type),
          eq(ssoMenus.url, url),
          existing ? ne(ssoMenus.id, existing.id) : undefined,
        ),
      );
    if (clash) throw conflict(`已存在路由地址相同的${typeLabel[type]}，请换一个路由地址`);
  }
  return out;
}

const crud = crudModule({
  resource: menu,
  table: ssoMenus,
  prepare,
  inUse: async (id, tx) => {
    const [children] = await tx.select({ n: count() }).from(ssoMenus).where(eq(ssoMenus.parentId, id));
    return children.n > 0
      ? `该菜单下还有 ${children.n} 个下级菜单，请先删除或移走下级菜单后再删除`
      : undefined;
  },
  afterWrite: async (after, _values, { tx, existing: before, request }) => {
    if (!before) return;
    if (seedKeyOf(before) !== seedKeyOf(after)) await forgetSeedKey(tx, before, request.user?.id ?? null);
    const from = before.type === 'action' ? before.permission : null;
    const to = after.type === 'action' ? after.permission : null;
    await moveRoleCode(tx, after.id, from, to, currentUser(request));
  },
  beforeRemove: async (rows, { tx, request }) => {
    for (const row of rows) {
      await forgetSeedKey(tx, row, request.user?.id ?? null);
      if (row.type === 'action') await moveRoleCode(tx, row.id, row.permission, null, currentUser(request));
    }
  },
});

/** The whole tree: every menu, hidden and action entries included, each level by sort then id. */
export async function menuTree(db: Executor): Promise<MenuNode[]> {
  const rows = await db.select().from(ssoMenus).orderBy(asc(ssoMenus.sort), asc(ssoMenus.id));
  const node = (row: MenuRow): MenuNode => ({
    id: row.id,
    parentId: row.parentId,
    name: row.name,
    type: row.type,
    url: row.url,
    permission: row.permission,
    iconUrl: row.iconUrl,
    iconBrightUrl: row.iconBrightUrl,
    sort: row.sort,
    visible: row.visible,
    children: rows.filter((r) => r.parentId === row.id).map(node),
  });
  return rows.filter((r) => r.parentId === null).map(node);
}

export const ssoMenuAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(crud);

  app.get(
    menuEndpoints.menus,
    {
      // 菜单配置 shows it and 角色权限 grants from it: either permission reads it.
      config: { permission: [permissions.view, 'system:role:view'] },
      schema: {
        tags: ['sso-menu'],
        summary: '全部菜单树（含隐藏菜单与操作），需菜单配置或角色权限的查看权限',
        response: { 200: envelope(z.array(menuNode)) },
      },
    },
    async () => ok(await menuTree(app.db)),
  );

  app.put(
    menuEndpoints.sort,
    {
      config: { permission: permissions.edit, fieldLabels: { parentId: '上级菜单', ids: '菜单' } },
      schema: {
        tags: ['sso-menu'],
        summary: '调整同一上级菜单下的顺序',
        body: menuSortBody,
        response: { 200: envelope(z.array(menuNode)) },
      },
    },
    async (request) => {
      const { parentId, ids } = request.body;
      await app.db.transaction(async (tx) => {
        const siblings = await tx
          .select({ id: ssoMenus.id, sort: ssoMenus.sort })
          .from(ssoMenus)
          .where(parentId === null ? isNull(ssoMenus.parentId) : eq(ssoMenus.parentId, parentId))
          .orderBy(asc(ssoMenus.sort), asc(ssoMenus.id));
        const known = new Set(siblings.map((s) => s.id));
        if (
          new Set(ids).size !== ids.length ||
          ids.length !== known.size ||
          ids.some((id) => !known.has(id))
        ) {
          throw conflict('菜单已有变化，排序须包含该上级菜单下的全部菜单，请刷新后重试');
        }
        const by = request.user?.id ?? null;
        for (const [index, id] of ids.entries()) {
          await tx
            .update(ssoMenus)
            .set({ sort: index + 1, updatedAt: new Date(), updatedBy: by })
            .where(eq(ssoMenus.id, id));
        }
        await audit(
          request,
          {
            action: 'sort',
            resource: menu.key,
            resourceId: parentId,
            before: siblings.map((s) => s.id),
            after: ids,
          },
          tx,
        );
      });
      return ok(await menuTree(app.db));
    },
  );
};
