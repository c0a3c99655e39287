/**
 * sso-resources: the read-only catalogue of every API route with its method, path and permission
 * code, read from the routes the server really registered (app.routeCatalogue), so it cannot drift.
 * 角色权限 shows it to say which code opens which call.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { menuRoutes, permissionOf, type Page } from '@cowork/contract';
import {
  apiResource,
  resourcesQuery,
  roleEndpoints,
  type ApiResource,
} from '@cowork/contract/resources/sso-role';
import { envelope, ok, pageOf } from '../../lib/http.ts';
import { propertyOf } from '../../lib/unknown.ts';

const actionNames = { view: '查看', edit: '编辑', remove: '删除' } as const;

/** Chinese name of a code: the screen and action it opens (来源配置 · 查看), or the code itself. */
function nameOfCode(code: string): string {
  for (const route of menuRoutes) {
    for (const action of ['view', 'edit', 'remove'] as const) {
      if (permissionOf(route, action) === code) return `${route.pageTitle} · ${actionNames[action]}`;
    }
  }
  return code;
}

/** Who may call a route: nobody needs to sign in, anyone signed in, or the holders of any code. */
function nameOf(codes: string[], access: ApiResource['access']): string {
  if (access === 'public') return '无需登录';
  if (codes.length === 0) return '登录即可调用';
  return codes.map(nameOfCode).join(' 或 ');
}

/** What the catalogue reads of the API docs: each operation's summary. */
const openApiSummaries = z.looseObject({
  paths: z.record(z.string(), z.record(z.string(), z.looseObject({ summary: z.string().optional() }))),
});
type OpenApi = Partial<z.infer<typeof openApiSummaries>>;

export const ssoResourcesRoutes: FastifyPluginAsyncZod = async (app) => {
  let catalogue: ApiResource[] | undefined;
  /** Built once, at the first call: every route is registered by then. */
  const build = (): ApiResource[] => {
    let spec: OpenApi = {};
    try {
      const swagger = propertyOf(app, 'swagger');
      const parsed = openApiSummaries.safeParse(typeof swagger === 'function' ? swagger.call(app) : {});
      if (parsed.success) spec = parsed.data;
    } catch {
      // The API docs are optional here: without them routes carry no summary.
    }
    return app.routeCatalogue
      .filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'))
      .map((r) => ({
        method: r.method,
        path: r.url,
        code: r.permissions.length ? r.permissions.join(' | ') : null,
        codes: r.permissions,
        access: r.access,
        name: nameOf(r.permissions, r.access),
        summary: spec.paths?.[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()]?.summary ?? null,
      }))
      .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  };

  app.get(
    roleEndpoints.resourcesPage,
    {
      config: { permission: 'system:role:view', fieldLabels: { keyword: '关键词', method: '请求方法' } },
      schema: {
        tags: ['sso-resources'],
        summary: '接口目录：每个接口的方法、路径与权限编码（只读）',
        querystring: resourcesQuery,
        response: { 200: envelope(pageOf(apiResource)) },
      },
    },
    async (request) => {
      catalogue ??= build();
      const { current, size, keyword, method } = request.query;
      const needle = keyword?.toLowerCase();
      const matched = catalogue.filter(
        (r) =>
          (!method || r.method === method) &&
          (!needle ||
            r.path.toLowerCase().includes(needle) ||
            (r.code ?? '').toLowerCase().includes(needle) ||
            r.name.toLowerCase().includes(needle)),
      );
      const page: Page<ApiResource> = {
        records: matched.slice((current - 1) * size, current * size),
        total: matched.length,
        current,
        size,
      };
      return ok(page);
    },
  );
};

export default ssoResourcesRoutes;
