/** Shell endpoints of the signed-in user (user-info, edit-password) and, in admin.ts, 后台用户 management. */
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { endpoints, messages, passwordEdit, USER_MANAGE_PERMISSION, userInfo } from '@cowork/contract';
import { ssoUsers } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { envelope, forbidden, notFound, ok } from '../../lib/http.ts';
import { hashPassword } from '../../lib/password.ts';
import { currentUser, hasPermission } from '../../plugins/auth.ts';
import { revokeUserTokens, toUserInfo } from '../auth/tokens.ts';
import { checkCanManage, ssoUserAdminRoutes } from './admin.ts';

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
        summary: "Set a user's password (one's own, or anyone's with user:admin:edit); ends their sessions",
        body: passwordEdit,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const { newPassword, ssoUserId } = request.body;
      const self = ssoUserId === caller.id;
      if (!self && !hasPermission(caller, USER_MANAGE_PERMISSION)) throw forbidden();

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
