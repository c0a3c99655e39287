/** Shell endpoints of the signed-in user (user-info, edit-password) and, in admin.ts, 后台用户 management. */
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  endpoints,
  fieldInvalid,
  fieldLabels,
  messages,
  passwordEdit,
  USER_MANAGE_PERMISSION,
  userInfo,
} from '@cowork/contract';
import { ssoUsers } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, envelope, forbidden, notFound, ok } from '../../lib/http.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import type { AuthUser } from '../../lib/sessions.ts';
import { currentUser, hasPermission } from '../../plugins/auth.ts';
import { throttledCheck } from '../auth/throttle.ts';
import { revokeUserTokens, toUserInfo } from '../auth/tokens.ts';
import { checkCanManage, ssoUserAdminRoutes } from './admin.ts';

/**
 * 400 unless `oldPassword` is the caller's current password. Throttled on the same counters as
 * sign-in, so a stolen access token cannot be used to guess the password either.
 */
async function checkOwnPassword(
  request: FastifyRequest,
  reply: FastifyReply,
  caller: AuthUser,
  oldPassword: string | undefined,
) {
  if (!oldPassword) throw badRequest(fieldInvalid(fieldLabels.oldPassword, messages.oldPasswordRequired));
  const [row] = await request.server.db
    .select({ passwordHash: ssoUsers.passwordHash })
    .from(ssoUsers)
    .where(eq(ssoUsers.id, caller.id));
  const valid = await throttledCheck(request, reply, caller.username.toLowerCase(), () =>
    verifyPassword(row?.passwordHash, oldPassword),
  );
  if (!valid) throw badRequest(fieldInvalid(fieldLabels.oldPassword, messages.oldPasswordWrong));
}

export const ssoUserRoutes: FastifyPluginAsyncZod = async (app) => {
  // 后台用户 management (page, detail, save, edit, remove, edit-account-status, user-id, role-options).
  await app.register(ssoUserAdminRoutes);

  app.get(
    endpoints.userInfo,
    {
      config: { auth: true },
      schema: { tags: ['sso-user'], summary: 'The signed-in user', response: { 200: envelope(userInfo) } },
    },
    async (request) => ok(toUserInfo(currentUser(request))),
  );

  app.post(
    endpoints.userEditPassword,
    {
      config: { auth: true },
      schema: {
        tags: ['sso-user'],
        summary:
          "Set a user's password: one's own with the current one (oldPassword), or anyone's with user:admin:edit; ends their sessions",
        body: passwordEdit,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request, reply) => {
      const caller = currentUser(request);
      const { oldPassword, newPassword, ssoUserId } = request.body;
      const self = ssoUserId === caller.id;
      if (!self && !hasPermission(caller, USER_MANAGE_PERMISSION)) throw forbidden();
      if (self) await checkOwnPassword(request, reply, caller, oldPassword);

      const passwordHash = await hashPassword(newPassword);
      await app.db.transaction(async (tx) => {
        const [target] = await tx
          .select({ id: ssoUsers.id, username: ssoUsers.username })
          .from(ssoUsers)
          .where(eq(ssoUsers.id, ssoUserId));
        if (!target) throw notFound();
        // Resetting the password of an account with more permissions would be a way to take them.
        if (!self) await checkCanManage(tx, caller, target.id);
        await tx
          .update(ssoUsers)
          .set({ passwordHash, updatedAt: new Date(), updatedBy: caller.id })
          .where(eq(ssoUsers.id, target.id));
        // Every session of that user ends, the caller's own included when it is their password.
        await revokeUserTokens(tx, target.id);
        await audit(
          request,
          {
            action: 'edit-password',
            resource: 'sso-user',
            resourceId: target.id,
            after: { username: target.username },
          },
          tx,
        );
      });
      return ok(null, self ? messages.passwordChanged : messages.ok);
    },
  );
};

export default ssoUserRoutes;
