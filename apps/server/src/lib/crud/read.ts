/** `GET {base}/detail/:id` (one record) and `GET {base}/list` (the options of selects elsewhere). */
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOption, type Fields } from '@cowork/contract';
import { envelope, ok } from '../http.ts';
import type { CrudContext } from './context.ts';

export function detailRoute<F extends Fields>(app: FastifyInstance, crud: CrudContext<F>) {
  const { resource, paths, permissions, labels, tags, record, idParams, load, authorize, present } = crud;
  app.withTypeProvider<ZodTypeProvider>().get(
    `${paths.detail}/:id`,
    {
      config: { permission: permissions.view, fieldLabels: labels },
      schema: {
        tags,
        summary: `${resource.label}详情`,
        params: idParams,
        response: { 200: envelope(record) },
      },
    },
    async (request) => {
      const row = await load(app.db, request.params.id, request);
      authorize(row, request, 'view');
      return ok(present(row, request, 'detail'));
    },
  );
}

/** Options for selects on other screens: names only, so any signed-in staff member may read them. */
export function listRoute<F extends Fields>(app: FastifyInstance, crud: CrudContext<F>) {
  const { resource, table, columns, paths, tags } = crud;
  const labelColumn = crud.titleColumn!;
  const hasPublished = 'published' in resource.fields;
  app.withTypeProvider<ZodTypeProvider>().get(
    paths.list,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: `${resource.label}选项（下拉列表）`,
        querystring: z.object({ published: z.enum(['true', 'false']).optional() }),
        response: { 200: envelope(z.array(listOption)) },
      },
    },
    async (request) => {
      const published = request.query.published;
      const rows = await app.db
        .select({
          value: table.id,
          label: labelColumn,
          ...(hasPublished ? { published: columns.published } : {}),
        })
        .from(table)
        .where(
          and(
            hasPublished && published ? eq(columns.published, published === 'true') : undefined,
            crud.scope(request),
          ),
        )
        .orderBy(...('sort' in resource.fields ? [asc(columns.sort)] : []), asc(table.id));
      return ok(
        rows.map((row): z.infer<typeof listOption> => ({
          value: Number(row.value),
          label: String(row.label ?? ''),
          ...(typeof row.published === 'boolean' ? { published: row.published } : {}),
        })),
      );
    },
  );
}
