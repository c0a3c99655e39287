/** GET /file/images/admin/{key}.svg and {key}-bright.svg: the generated menu icons. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MENU_ICON_BASE } from '@cowork/contract';
import { notFound } from '../../lib/http.ts';
import { iconNames, renderIcon } from './icons.ts';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

export const menuIconRoutes: FastifyPluginAsyncZod = async (app) => {
  // Rendered once: the set of icons is fixed by the route table.
  const cache = new Map<string, string>();

  app.get(
    `${MENU_ICON_BASE}/:file`,
    {
      config: { public: true },
      schema: { hide: true, params: z.object({ file: z.string() }) },
    },
    async (request, reply) => {
      const { file } = request.params;
      const match = /^([A-Za-z-]+?)(-bright)?\.svg$/.exec(file);
      const name = match ? iconNames.get(match[1]) : undefined;
      if (!match || !name) throw notFound();
      let svg = cache.get(file);
      if (!svg) {
        svg = renderIcon(name, Boolean(match[2]));
        cache.set(file, svg);
      }
      return reply
        .header('content-type', 'image/svg+xml; charset=utf-8')
        .header('cache-control', `public, max-age=${YEAR_SECONDS}, immutable`)
        .send(svg);
    },
  );
};

export default menuIconRoutes;
