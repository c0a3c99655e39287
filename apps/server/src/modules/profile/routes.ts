/** PUT sso-user/profile: 个人中心 — a signed-in user changes their own nickname, email and avatar. */
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints, fieldLabels, profileEdit, userInfo } from '@cowork/contract';
import { ssoUsers } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { envelope, ok } from '../../lib/http.ts';
import { currentUser } from '../../plugins/auth.ts';
import { toUserInfo } from '../auth/tokens.ts';

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    endpoints.profileEdit,
    {
      // Only one's own record, and only these three fields: roles, status and password go elsewhere.
      config: { auth: true, fieldLabels },
      schema: {
        tags: ['sso-user'],
        summary: 'Change one’s own nickname, email and avatar',
        body: profileEdit,
        response: { 200: envelope(userInfo) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { nickname, email, avatar } = request.body;
      const changes = { nickname, email: email ?? null, avatar: avatar ?? null };
      await app.db.transaction(async (tx) => {
        await tx
          .update(ssoUsers)
          .set({ ...changes, updatedAt: new Date(), updatedBy: user.id })
          .where(eq(ssoUsers.id, user.id));
        await audit(
          request,
          {
            action: 'edit-profile',
            resource: 'sso-user',
            resourceId: user.id,
            before: { nickname: user.nickname, email: user.email, avatar: user.avatar },
            after: changes,
          },
          tx,
        );
      });
      return ok(toUserInfo({ ...user, ...changes }), '个人资料已保存');
    },
  );
};

export default profileRoutes;
