/**
 * 角色权限 (sso-role): the resource routes from the contract plus role groups (role-group-list,
 * save-role-group, remove-role-group). A role's grants are its menus (sso_role_menus) and its codes
 * (sso_roles.permissions); the auth hook reads them at every request, so a change applies at once.
 * - menus granted bring their parents (a page shows inside its group);
 * - the codes of the granted action menus are exactly the menu-carried codes the role holds; codes
 *   no menu carries (an unbuilt screen's) are kept as sent;
 * - nobody grants a code they do not hold themselves (else system:role:edit would open everything);
 * - 超级管理员 (`super_admin`) is never removed nor narrowed; a role users still hold is not removed.
 */
import { and, asc, count, eq, gt, inArray, isNotNull, isNull, ne, not, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALL_PERMISSIONS, resourcePermissions, idOf } from '@cowork/contract';
import {
  role,
  roleEndpoints,
  roleGroupBody,
  roleGroupRecord,
  SUPER_ADMIN_ROLE,
} from '@cowork/contract/resources/sso-role';
import type { Executor } from '../../db/client.ts';
import { apiKeys, ssoMenus, ssoRoleGroups, ssoRoleMenus, ssoRoles, ssoUserRoles } from '../../db/schema.ts';
import { audit, auditMany } from '../../lib/audit.ts';
import { crudModule, type RowOf, type ValuesOf, type WriteContext } from '../../lib/crud.ts';
import { badRequest, conflict, envelope, notFound, ok } from '../../lib/http.ts';
import { assertMayGrant } from '../../lib/grants.ts';
import { describeUsage } from '../../lib/in-use.ts';
import { currentUser } from '../../plugins/auth.ts';

type Row = RowOf<typeof ssoRoles>;

const permissions = resourcePermissions(role);
/** The menu grants a write settled on, from prepare to afterWrite. */
const pendingMenus = new WeakMap<FastifyRequest, number[]>();

/** Menu ids and user counts of roles, kept outside sso_roles. */
async function expand(rows: Row[], db: Executor): Promise<Row[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return rows;
  const grants = await db
    .select({ roleId: ssoRoleMenus.roleId, menuId: ssoRoleMenus.menuId })
    .from(ssoRoleMenus)
    .where(inArray(ssoRoleMenus.roleId, ids))
    .orderBy(asc(ssoRoleMenus.menuId));
  const users = await db
    .select({ roleId: ssoUserRoles.roleId, n: count() })
    .from(ssoUserRoles)
    .where(inArray(ssoUserRoles.roleId, ids))
    .groupBy(ssoUserRoles.roleId);
  return rows.map((row) => ({
    ...row,
    menuIds: grants.filter((g) => g.roleId === row.id).map((g) => g.menuId),
    userCount: users.find((u) => u.roleId === row.id)?.n ?? 0,
  }));
}

/** The granted menus with every parent up to the top, or a 400 when one does not exist. */
async function withParents(tx: Executor, menuIds: number[]) {
  const menus = await tx
    .select({
      id: ssoMenus.id,
      parentId: ssoMenus.parentId,
      type: ssoMenus.type,
      permission: ssoMenus.permission,
    })
    .from(ssoMenus);
  const byId = new Map(menus.map((m) => [m.id, m]));
  const granted = new Set<number>();
  for (const id of menuIds) {
    if (!byId.has(id)) throw badRequest('授权菜单中有已被删除的菜单，请刷新后重新勾选');
    for (let m = byId.get(id); m && !granted.has(m.id); m = m.parentId ? byId.get(m.parentId) : undefined) {
      granted.add(m.id);
    }
  }
  return { granted: [...granted].sort((a, b) => a - b), menus };
}

async function prepare(
  values: ValuesOf<typeof ssoRoles, (typeof role)['fields']>,
  { tx, existing, request }: WriteContext<typeof ssoRoles>,
) {
  const { menuIds, permissions: sent, ...rest } = values;
  const isSuper = existing?.code === SUPER_ADMIN_ROLE;
  if (isSuper) {
    if (rest.code !== undefined && rest.code !== SUPER_ADMIN_ROLE) {
      throw conflict('超级管理员角色的编码不能修改');
    }
    const same = (sent ?? [ALL_PERMISSIONS]).join() === ALL_PERMISSIONS;
    if (menuIds !== undefined || !same) {
      throw conflict('超级管理员拥有全部菜单与权限，不能修改其授权');
    }
    return rest;
  }
  if (menuIds === undefined && sent === undefined) return rest;

  let codes = new Set(sent ?? existing?.permissions ?? []);
  if (menuIds !== undefined) {
    const { granted, menus } = await withParents(tx, menuIds);
    const carried = new Set(
      menus.filter((m) => m.type === 'action' && m.permission).map((m) => m.permission!),
    );
    const grantedSet = new Set(granted);
    codes = new Set([
      ...[...codes].filter((c) => !carried.has(c)),
      ...menus
        .filter((m) => grantedSet.has(m.id) && m.type === 'action' && m.permission)
        .map((m) => m.permission!),
    ]);
    pendingMenus.set(request, granted);
  }

  // Granting what one does not hold would be a way to get it (codes the role already had may stay).
  const held = new Set(existing?.permissions ?? []);
  assertMayGrant(
    currentUser(request),
    [...codes].filter((c) => !held.has(c)),
  );
  return { ...rest, permissions: [...codes].sort() };
}

/** A key that still works or will: neither revoked nor expired (a key is never restored or renewed). */
const liveKey = and(
  isNull(apiKeys.revokedAt),
  or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)),
)!;

const crud = crudModule({
  resource: role,
  table: ssoRoles,
  expand,
  prepare,
  afterWrite: async (saved, _values, { tx, request }) => {
    const menuIds = pendingMenus.get(request);
    if (!menuIds) return;
    pendingMenus.delete(request);
    await tx.delete(ssoRoleMenus).where(eq(ssoRoleMenus.roleId, saved.id));
    if (menuIds.length > 0) {
      await tx.insert(ssoRoleMenus).values(menuIds.map((menuId) => ({ roleId: saved.id, menuId })));
    }
  },
  inUse: async (id, tx) => {
    const [row] = await tx.select({ code: ssoRoles.code }).from(ssoRoles).where(eq(ssoRoles.id, id));
    if (row?.code === SUPER_ADMIN_ROLE) return '超级管理员角色不能删除';
    const [users] = await tx.select({ n: count() }).from(ssoUserRoles).where(eq(ssoUserRoles.roleId, id));
    if (users.n > 0) return `该角色仍有 ${users.n} 个用户在使用，请先在后台用户中为他们更换角色后再删除`;
    const keys = await describeUsage(tx, [
      {
        what: '接口密钥',
        unit: '个',
        table: apiKeys,
        name: apiKeys.name,
        where: and(eq(apiKeys.roleId, id), liveKey)!,
      },
    ]);
    return (
      keys &&
      `该角色仍被${keys}使用，请先在“开放平台 → 接口密钥”中吊销这些密钥后再删除角色（已吊销或已过期的密钥随角色一并删除）`
    );
  },
  // Only live keys hold a role: its revoked and expired ones can never act again, so they go with
  // it, each audited (the audit log keeps the name of the key behind each of their writes).
  beforeRemove: async (rows, { request, tx }) => {
    const roleIds = rows.map((r) => r.id);
    const dead = await tx
      .delete(apiKeys)
      .where(and(inArray(apiKeys.roleId, roleIds), not(liveKey)))
      .returning({
        id: apiKeys.id,
        name: apiKeys.name,
        roleId: apiKeys.roleId,
        prefix: apiKeys.prefix,
        revokedAt: apiKeys.revokedAt,
        expiresAt: apiKeys.expiresAt,
      });
    await auditMany(
      request,
      dead.map((key) => ({ action: 'remove', resource: 'api-key', resourceId: key.id, before: key })),
      tx,
    );
  },
});

async function roleGroups(db: Executor) {
  const rows = await db
    .select({ id: ssoRoleGroups.id, name: ssoRoleGroups.name, sort: ssoRoleGroups.sort })
    .from(ssoRoleGroups)
    .orderBy(asc(ssoRoleGroups.sort), asc(ssoRoleGroups.id));
  const counts = await db
    .select({ groupId: ssoRoles.roleGroupId, n: count() })
    .from(ssoRoles)
    .where(isNotNull(ssoRoles.roleGroupId))
    .groupBy(ssoRoles.roleGroupId);
  return rows.map((r) => ({
    ...r,
    roleCount: counts.find((c) => c.groupId === r.id)?.n ?? 0,
    value: r.id,
    label: r.name,
  }));
}

export const ssoRoleRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(crud);
  const tags = ['sso-role'];

  app.get(
    roleEndpoints.roleGroupList,
    {
      config: { permission: permissions.view },
      schema: { tags, summary: '角色分组列表', response: { 200: envelope(z.array(roleGroupRecord)) } },
    },
    async () => ok(await roleGroups(app.db)),
  );

  app.post(
    roleEndpoints.saveRoleGroup,
    {
      config: { permission: permissions.edit, fieldLabels: { id: '编号', name: '分组名称', sort: '排序' } },
      schema: {
        tags,
        summary: '新建角色分组，或带编号时修改',
        body: roleGroupBody,
        response: { 200: envelope(roleGroupRecord) },
      },
    },
    async (request) => {
      const { id, name, sort } = request.body;
      const saved = await app.db.transaction(async (tx) => {
        const [clash] = await tx
          .select({ id: ssoRoleGroups.id })
          .from(ssoRoleGroups)
          .where(
            and(
              sql`lower(${ssoRoleGroups.name}) = lower(${name})`,
              id !== undefined ? ne(ssoRoleGroups.id, id) : undefined,
            ),
          );
        if (clash) throw conflict('已存在名称相同的角色分组，请换一个分组名称');
        const by = request.user?.id ?? null;
        let before: unknown = null;
        let row;
        if (id !== undefined) {
          [before] = await tx.select().from(ssoRoleGroups).where(eq(ssoRoleGroups.id, id));
          if (!before) throw notFound('该角色分组不存在或已被删除，请刷新后重试');
          [row] = await tx
            .update(ssoRoleGroups)
            .set({ name, sort, updatedAt: new Date(), updatedBy: by })
            .where(eq(ssoRoleGroups.id, id))
            .returning();
        } else {
          [row] = await tx
            .insert(ssoRoleGroups)
            .values({ name, sort, createdBy: by, updatedBy: by })
            .returning();
        }
        await audit(
          request,
          {
            action: id ? 'edit' : 'save',
            resource: 'sso-role-group',
            resourceId: row.id,
            before,
            after: row,
          },
          tx,
        );
        return row;
      });
      return ok((await roleGroups(app.db)).find((g) => g.id === saved.id)!);
    },
  );

  app.delete(
    `${roleEndpoints.removeRoleGroup}/:id`,
    {
      config: { permission: permissions.remove, fieldLabels: { id: '编号' } },
      schema: {
        tags,
        summary: '删除角色分组（分组下没有角色时）',
        params: z.object({
          id: idOf(),
        }),
        response: { 200: envelope(z.object({ removed: z.number().int() })) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await app.db.transaction(async (tx) => {
        const [group] = await tx.select().from(ssoRoleGroups).where(eq(ssoRoleGroups.id, id));
        if (!group) throw notFound('该角色分组不存在或已被删除，请刷新后重试');
        const [used] = await tx
          .select({ n: count() })
          .from(ssoRoles)
          .where(and(isNotNull(ssoRoles.roleGroupId), eq(ssoRoles.roleGroupId, id)));
        if (used.n > 0) {
          throw conflict(`该角色分组下还有 ${used.n} 个角色，请先把这些角色移到其他分组后再删除`);
        }
        await tx.delete(ssoRoleGroups).where(eq(ssoRoleGroups.id, id));
        await audit(
          request,
          { action: 'remove', resource: 'sso-role-group', resourceId: id, before: group },
          tx,
        );
      });
      return ok({ removed: 1 }, '已删除 1 个角色分组');
    },
  );
};

export default ssoRoleRoutes;
