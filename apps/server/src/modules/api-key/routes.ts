/**
 * 接口密钥 (开放平台): create a key for a role (shown once, only its SHA-256 kept), list keys, revoke
 * one. Using a key is the auth plugin's (lib/sessions.ts reads it, plugins/api-key-calls.ts counts
 * it); a key itself never reaches these routes. Nobody creates a key for a role granting codes they
 * do not hold (lib/grants.ts, the rule of 角色权限 and 后台用户).
 */
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, isNull, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listOption } from '@cowork/contract';
import {
  API_KEY_EDIT_PERMISSION,
  API_KEY_PREFIX,
  API_KEY_SHOWN_CHARS,
  API_KEY_VIEW_PERMISSION,
  apiKeyCreated,
  apiKeyEndpoints,
  apiKeyLabels,
  apiKeyMessages,
  apiKeyPageQuery,
  apiKeyRecord,
  apiKeyRevokeBody,
  apiKeySaveBody,
} from '@cowork/contract/resources/api-key';
import { apiKeys, ssoRoles } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { buildingScope } from '../../lib/building-scope.ts';
import { assertMayGrant, holdsAll } from '../../lib/grants.ts';
import { badRequest, conflict, envelope, notFound, ok, pageAndTotal, pageOf } from '../../lib/http.ts';
import { containing } from '../../lib/like.ts';
import { hashToken, notifyAuthChanged } from '../../lib/sessions.ts';
import { toIso, toIsoOrNull } from '../../lib/time.ts';
import { currentUser } from '../../plugins/auth.ts';

const tags = ['api-key'];
const scope = buildingScope(apiKeys.buildingIds, apiKeyLabels.buildingIds);

/** `ck_` and 32 random bytes: 256 bits, so the key cannot be guessed and a fast hash suffices. */
const newKey = () => `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;

/** What the audit log keeps of a key: never the key nor its hash. */
const audited = (row: typeof apiKeys.$inferSelect) => ({
  name: row.name,
  roleId: row.roleId,
  buildingIds: row.buildingIds,
  prefix: row.prefix,
  expiresAt: row.expiresAt,
  revokedAt: row.revokedAt,
});

const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    apiKeyEndpoints.save,
    {
      config: { permission: API_KEY_EDIT_PERMISSION, fieldLabels: apiKeyLabels },
      schema: {
        tags,
        summary: '新建接口密钥：返回密钥本身（仅此一次）',
        body: apiKeySaveBody,
        response: { 200: envelope(apiKeyCreated) },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const { name, roleId, expiresAt } = request.body;
      if (expiresAt && expiresAt.getTime() <= Date.now()) throw badRequest(apiKeyMessages.expiresInPast);
      const key = newKey();
      const created = await app.db.transaction(async (tx) => {
        const [role] = await tx
          .select({ permissions: ssoRoles.permissions })
          .from(ssoRoles)
          .where(eq(ssoRoles.id, roleId));
        if (!role) throw badRequest(apiKeyMessages.roleNotFound);
        // A key acts as its role: minting one is granting the role's codes.
        assertMayGrant(caller, role.permissions, apiKeyMessages.roleBeyondOwn);
        const { buildingIds } = await scope.check(request.body, tx);
        const [row] = await tx
          .insert(apiKeys)
          .values({
            name,
            roleId,
            buildingIds,
            expiresAt: expiresAt ?? null,
            prefix: key.slice(0, API_KEY_SHOWN_CHARS),
            keyHash: hashToken(key),
            createdBy: caller.id,
            updatedBy: caller.id,
          })
          .returning();
        await audit(
          request,
          { action: 'save', resource: 'api-key', resourceId: row.id, after: audited(row) },
          tx,
        );
        return row;
      });
      return ok({ id: created.id, key }, apiKeyMessages.created);
    },
  );

  app.get(
    apiKeyEndpoints.page,
    {
      config: { permission: API_KEY_VIEW_PERMISSION, fieldLabels: apiKeyLabels },
      schema: {
        tags,
        summary: '接口密钥列表（只显示密钥前缀）',
        querystring: apiKeyPageQuery,
        response: { 200: envelope(pageOf(apiKeyRecord)) },
      },
    },
    async (request) => {
      const q = request.query;
      const where: SQL | undefined = q.name ? containing(apiKeys.name, q.name) : undefined;
      const page = await pageAndTotal(
        q,
        () =>
          app.db
            .select({
              id: apiKeys.id,
              name: apiKeys.name,
              roleId: apiKeys.roleId,
              roleName: ssoRoles.name,
              prefix: apiKeys.prefix,
              buildingIds: apiKeys.buildingIds,
              expiresAt: apiKeys.expiresAt,
              lastUsedAt: apiKeys.lastUsedAt,
              lastUsedIp: apiKeys.lastUsedIp,
              revokedAt: apiKeys.revokedAt,
              createdAt: apiKeys.createdAt,
            })
            .from(apiKeys)
            .innerJoin(ssoRoles, eq(ssoRoles.id, apiKeys.roleId))
            .where(where)
            .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
            .limit(q.size)
            .offset((q.current - 1) * q.size),
        () => app.db.select({ total: count() }).from(apiKeys).where(where),
      );
      return ok({
        ...page,
        records: page.records.map((row) => ({
          ...row,
          expiresAt: toIsoOrNull(row.expiresAt),
          lastUsedAt: toIsoOrNull(row.lastUsedAt),
          revokedAt: toIsoOrNull(row.revokedAt),
          createdAt: toIso(row.createdAt),
        })),
      });
    },
  );

  app.post(
    apiKeyEndpoints.revoke,
    {
      config: { permission: API_KEY_EDIT_PERMISSION, fieldLabels: apiKeyLabels },
      schema: {
        tags,
        summary: '吊销接口密钥：所有实例在 1 秒内拒绝它',
        body: apiKeyRevokeBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const { id } = request.body;
      await app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(apiKeys).where(eq(apiKeys.id, id)).for('update');
        if (!before) throw notFound(apiKeyMessages.notFound);
        if (before.revokedAt) throw conflict(apiKeyMessages.alreadyRevoked);
        const [after] = await tx
          .update(apiKeys)
          .set({ revokedAt: new Date(), updatedAt: new Date(), updatedBy: currentUser(request).id })
          .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
          .returning();
        // Every instance forgets the key it cached when this commits (plugins/session-cache.ts).
        await notifyAuthChanged(tx, 'api_keys');
        await audit(
          request,
          {
            action: 'revoke',
            resource: 'api-key',
            resourceId: id,
            before: audited(before),
            after: audited(after),
          },
          tx,
        );
      });
      return ok(null, apiKeyMessages.revoked);
    },
  );

  app.get(
    apiKeyEndpoints.roleList,
    {
      config: { permission: API_KEY_EDIT_PERMISSION },
      schema: {
        tags,
        summary: '可用于接口密钥的角色：权限不超出调用者自己的',
        response: { 200: envelope(z.array(listOption)) },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const roles = await app.db
        .select({ id: ssoRoles.id, name: ssoRoles.name, permissions: ssoRoles.permissions })
        .from(ssoRoles)
        .orderBy(asc(ssoRoles.name));
      return ok(
        roles
          .filter((role) => holdsAll(caller, role.permissions))
          .map((role) => ({ value: role.id, label: role.name })),
      );
    },
  );
};

export default apiKeyRoutes;
