/**
 * 后台用户 (sso-user) management: the resource routes from the contract plus edit-account-status,
 * user-id and role-options. What protects the accounts:
 * - nobody changes their own roles or status, or removes themselves;
 * - the last enabled account with the 超级管理员 role can be neither removed, disabled nor stripped
 *   of that role (someone else holding `*` through another role could otherwise do it);
 * - nobody grants a role, or manages an account, holding permissions they do not hold themselves
 *   (otherwise user:admin:edit would be a way to become 超级管理员);
 * - disabling an account revokes its tokens at once.
 */
import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  fieldInvalid,
  idOf,
  INT32_MAX,
  listOption,
  numeric,
  resourcePermissions,
  USER_MANAGE_PERMISSION,
} from '@cowork/contract';
import {
  accountStatusBody,
  ssoUser,
  ssoUserBrief,
  ssoUserEndpoints,
  ssoUserMessages,
} from '@cowork/contract/resources/sso-user';
import type { Executor } from '../../db/client.ts';
import { ssoRoles, ssoUserRoles, ssoUsers } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { crudModule, type RowOf } from '../../lib/crud.ts';
import {
  AppError,
  badRequest,
  conflict,
  envelope,
  forbidden,
  notFound,
  ok,
  queryText,
} from '../../lib/http.ts';
import { assertMayGrant, holdsAll } from '../../lib/grants.ts';
import { hashPassword } from '../../lib/password.ts';
import type { AuthUser } from '../../lib/sessions.ts';
import { propertyOf } from '../../lib/unknown.ts';
import { currentUser, hasPermission } from '../../plugins/auth.ts';
import { superAdminRole } from '../../seed/roles.ts';
import { revokeUserTokens } from '../auth/tokens.ts';

type Row = RowOf<typeof ssoUsers, (typeof ssoUser)['fields']>;

const permissions = resourcePermissions(ssoUser);
/** Membership of the 超级管理员 role (by its code), which must keep one enabled account. */
const isSuperRole = eq(ssoRoles.code, superAdminRole.code);

/** Role ids of each user, sorted. */
async function roleIdsOf(db: Executor, userIds: number[]): Promise<Map<number, number[]>> {
  const map = new Map(userIds.map((id): [number, number[]] => [id, []]));
  if (userIds.length === 0) return map;
  const rows = await db
    .select({ userId: ssoUserRoles.userId, roleId: ssoUserRoles.roleId })
    .from(ssoUserRoles)
    .where(inArray(ssoUserRoles.userId, userIds))
    .orderBy(asc(ssoUserRoles.roleId));
  for (const row of rows) map.get(row.userId)?.push(row.roleId);
  return map;
}

/** The permission codes a user's roles grant. */
async function permissionsOf(db: Executor, userId: number): Promise<string[]> {
  const rows = await db
    .select({ permissions: ssoRoles.permissions })
    .from(ssoUserRoles)
    .innerJoin(ssoRoles, eq(ssoRoles.id, ssoUserRoles.roleId))
    .where(eq(ssoUserRoles.userId, userId));
  return [...new Set(rows.flatMap((r) => r.permissions))];
}

/** 403 unless the caller holds every permission of the account they act on. */
export async function checkCanManage(db: Executor, caller: AuthUser, targetId: number) {
  if (!holdsAll(caller, await permissionsOf(db, targetId))) {
    throw new AppError(403, '该账号拥有您没有的权限，您不能管理它，请让超级管理员操作');
  }
}

/** Whether the user is an enabled account holding the 超级管理员 role. */
async function isEnabledSuperAdmin(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: ssoUsers.id })
    .from(ssoUsers)
    .innerJoin(ssoUserRoles, eq(ssoUserRoles.userId, ssoUsers.id))
    .innerJoin(ssoRoles, eq(ssoRoles.id, ssoUserRoles.roleId))
    .where(and(eq(ssoUsers.id, userId), eq(ssoUsers.status, 'enabled'), isSuperRole))
    .limit(1);
  return Boolean(row);
}

/**
 * 409 when the change would leave no enabled 超级管理员: `leaving` are the accounts that stop being
 * one. The remaining ones are locked so two concurrent changes cannot both take the last two.
 */
async function keepOneSuperAdmin(db: Executor, leaving: number[]) {
  const rest = await db
    .select({ id: ssoUsers.id })
    .from(ssoUsers)
    .innerJoin(ssoUserRoles, eq(ssoUserRoles.userId, ssoUsers.id))
    .innerJoin(ssoRoles, eq(ssoRoles.id, ssoUserRoles.roleId))
    .where(
      and(
        eq(ssoUsers.status, 'enabled'),
        isSuperRole,
        leaving.length ? notInArray(ssoUsers.id, leaving) : undefined,
      ),
    )
    .for('update', { of: ssoUsers });
  if (rest.length === 0) throw conflict(ssoUserMessages.lastSuperAdmin);
}

const sameIds = (a: number[], b: number[]) =>
  a.length === b.length &&
  [...a].sort((x, y) => x - y).every((v, i) => v === [...b].sort((x, y) => x - y)[i]);

/** Checks a new set of roles for an account (undefined `existing` on save). */
async function checkRoles(tx: Executor, caller: AuthUser, next: number[], existing?: Row) {
  const current = existing?.roleIds ?? [];
  if (sameIds(next, current)) return;
  if (existing && existing.id === caller.id) throw new AppError(403, ssoUserMessages.ownRoles);
  if (!hasPermission(caller, USER_MANAGE_PERMISSION)) throw forbidden();
  const roles = next.length
    ? await tx
        .select({
          id: ssoRoles.id,
          code: ssoRoles.code,
          name: ssoRoles.name,
          permissions: ssoRoles.permissions,
        })
        .from(ssoRoles)
        .where(inArray(ssoRoles.id, next))
    : [];
  if (roles.length !== next.length) throw badRequest(fieldInvalid('角色', ssoUserMessages.unknownRole));
  for (const role of roles) {
    if (!current.includes(role.id))
      assertMayGrant(caller, role.permissions, () => ssoUserMessages.grantBeyondOwn(role.name));
  }
  if (existing && existing.status === 'enabled' && (await isEnabledSuperAdmin(tx, existing.id))) {
    const staysSuper = roles.some((r) => r.code === superAdminRole.code);
    if (!staysSuper) await keepOneSuperAdmin(tx, [existing.id]);
  }
}

/** Ids a remove request names: the path's one or the body's batch. */
function removingIds(request: FastifyRequest): number[] {
  const ids = propertyOf(request.body, 'ids');
  const id = propertyOf(request.params, 'id');
  return Array.isArray(ids) ? ids.filter((v) => typeof v === 'number') : typeof id === 'number' ? [id] : [];
}

const crudRoutes = crudModule({
  resource: ssoUser,
  table: ssoUsers,
  async expand(rows, db) {
    const roles = await roleIdsOf(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((row) => ({ ...row, roleIds: roles.get(row.id) ?? [] }));
  },
  // The hash never leaves (the answer schema would drop it too; this says so on purpose).
  present: ({ passwordHash: _hash, ...row }) => row,
  where(request) {
    const roleId = queryText(request, 'roleIds');
    if (roleId === undefined || roleId === '') return undefined;
    const id = idOf().safeParse(roleId);
    if (!id.success) throw badRequest(fieldInvalid('角色', '请选择角色'));
    return inArray(
      ssoUsers.id,
      request.server.db
        .select({ id: ssoUserRoles.userId })
        .from(ssoUserRoles)
        .where(eq(ssoUserRoles.roleId, id.data)),
    );
  },
  async prepare(values, { request, tx, existing }) {
    const caller = currentUser(request);
    const prepared = { ...values };
    if (existing) {
      await checkCanManage(tx, caller, existing.id);
    } else {
      prepared.username = String(values.username).toLowerCase();
      prepared.passwordHash = await hashPassword(String(values.password));
      delete prepared.password;
    }
    if (values.roleIds !== undefined) {
      const roleIds = [...new Set(values.roleIds)];
      prepared.roleIds = roleIds;
      await checkRoles(tx, caller, roleIds, existing);
    }
    return prepared;
  },
  async afterWrite(saved, values, { tx, existing }) {
    const next = values.roleIds;
    if (next === undefined) return;
    if (existing && sameIds(next, existing.roleIds ?? [])) return;
    await tx.delete(ssoUserRoles).where(eq(ssoUserRoles.userId, saved.id));
    if (next.length) {
      await tx.insert(ssoUserRoles).values(next.map((roleId) => ({ userId: saved.id, roleId })));
    }
  },
  async inUse(id, tx, request) {
    const caller = currentUser(request);
    if (id === caller.id) return ssoUserMessages.removeSelf;
    await checkCanManage(tx, caller, id);
    if (await isEnabledSuperAdmin(tx, id)) {
      const rest = await tx
        .select({ id: ssoUsers.id })
        .from(ssoUsers)
        .innerJoin(ssoUserRoles, eq(ssoUserRoles.userId, ssoUsers.id))
        .innerJoin(ssoRoles, eq(ssoRoles.id, ssoUserRoles.roleId))
        .where(
          and(eq(ssoUsers.status, 'enabled'), isSuperRole, notInArray(ssoUsers.id, removingIds(request))),
        )
        .limit(1);
      if (rest.length === 0) return ssoUserMessages.lastSuperAdmin;
    }
    return undefined;
  },
});

export const ssoUserAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(crudRoutes);
  const tags = ['sso-user'];

  app.put(
    ssoUserEndpoints.editAccountStatus,
    {
      config: { permission: permissions.edit, fieldLabels: { id: '编号', status: '状态' } },
      schema: {
        tags,
        summary: '启用或停用后台用户（停用立即结束其全部登录）',
        body: accountStatusBody,
        response: {
          200: envelope(z.object({ id: z.number().int(), status: accountStatusBody.shape.status })),
        },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const { id, status } = request.body;
      if (id === caller.id) throw new AppError(403, ssoUserMessages.ownStatus);
      await app.db.transaction(async (tx) => {
        const [target] = await tx
          .select({ id: ssoUsers.id, username: ssoUsers.username, status: ssoUsers.status })
          .from(ssoUsers)
          .where(eq(ssoUsers.id, id));
        if (!target) throw notFound('该后台用户不存在或已被删除，请刷新列表后重试');
        await checkCanManage(tx, caller, id);
        if (target.status === status) return;
        if (status === 'disabled' && (await isEnabledSuperAdmin(tx, id))) await keepOneSuperAdmin(tx, [id]);
        await tx
          .update(ssoUsers)
          .set({ status, updatedAt: new Date(), updatedBy: caller.id })
          .where(eq(ssoUsers.id, id));
        if (status === 'disabled') await revokeUserTokens(tx, id);
        await audit(
          request,
          {
            action: 'edit-account-status',
            resource: ssoUser.key,
            resourceId: id,
            before: { username: target.username, status: target.status },
            after: { username: target.username, status },
          },
          tx,
        );
      });
      return ok({ id, status }, status === 'disabled' ? ssoUserMessages.disabled : ssoUserMessages.enabled);
    },
  );

  app.get(
    `${ssoUserEndpoints.userId}/:id`,
    {
      // A username is half of a sign-in: only staff who may see the 后台用户 list may look one up.
      config: { permission: permissions.view, fieldLabels: { id: '编号' } },
      schema: {
        tags,
        summary: '一个后台用户的编号、昵称和用户名',
        params: z.object({
          id: numeric(
            z
              .number({ error: '编号必须是正整数' })
              .int()
              .positive('编号必须是正整数')
              .max(INT32_MAX, '编号必须是正整数'),
          ),
        }),
        response: { 200: envelope(ssoUserBrief) },
      },
    },
    async (request) => {
      const [row] = await app.db
        .select({ id: ssoUsers.id, nickname: ssoUsers.nickname, username: ssoUsers.username })
        .from(ssoUsers)
        .where(eq(ssoUsers.id, request.params.id));
      if (!row) throw notFound('该后台用户不存在或已被删除');
      return ok(row);
    },
  );

  app.get(
    ssoUserEndpoints.roleOptions,
    {
      config: { permission: permissions.view },
      schema: {
        tags,
        summary: '可分配的角色（下拉选项）',
        response: { 200: envelope(z.array(listOption)) },
      },
    },
    async () => {
      const rows = await app.db
        .select({ value: ssoRoles.id, label: ssoRoles.name })
        .from(ssoRoles)
        .orderBy(asc(ssoRoles.id));
      return ok(rows);
    },
  );
};
