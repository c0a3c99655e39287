/** GET sso-menu/user-tree: the caller's side menu; admin.ts: 菜单配置 (page, save, edit, remove, menus, sort). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { endpoints, menuItem } from '@cowork/contract';
import { envelope, ok } from '../../lib/http.ts';
import { currentUser } from '../../plugins/auth.ts';
import { ssoMenuAdminRoutes } from './admin.ts';
import { userMenuTree } from './user-tree.ts';

export const ssoMenuRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(ssoMenuAdminRoutes);

  app.get(
    endpoints.menuUserTree,
    {
      config: { auth: true },
      schema: {
        tags: ['sso-menu'],
        summary: "The caller's menu tree (groups and pages their roles grant)",
        response: { 200: envelope(z.array(menuItem)) },
      },
    },
    async (request) => ok(await userMenuTree(app.db, currentUser(request))),
  );
};

export default ssoMenuRoutes;
