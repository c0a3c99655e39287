/** `GET …/export` of a resource whose rows are one table, with its page's filters. */
import type { InferSelectModel, SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pageQuerySchema, type Fields, type ResourceDef } from '@cowork/contract';
import { inKeyBuildings } from '../building-scope.ts';
import { sendExcel, tableBatches, type ExcelColumn } from '../excel-export.ts';
import { searchConditions } from './search.ts';

/**
 * `GET …/export` of a resource whose rows are one table: what its page's filters (and `where`)
 * select, every row, as an Excel file streamed in keyset batches. A bad filter is a 400 before the
 * download starts. Orders and invoices export this way.
 */
export function exportRoute<T extends PgTable & { id: PgColumn }, F extends Fields = Fields>(
  app: FastifyInstance,
  options: {
    resource: ResourceDef<F>;
    /** The resource's `export` path (orderPaths, invoicePaths). */
    path: string;
    table: T;
    columns: ExcelColumn<InferSelectModel<T>>[];
    /** Read permission and the field labels of 400 messages, as the page has them. */
    config: { permission: string; fieldLabels: Record<string, string> };
    where: (request: FastifyRequest) => SQL | undefined;
    /** As crudModule's: an API key limited to buildings exports only their rows. */
    buildingColumn?: PgColumn;
  },
) {
  const { resource, path, table, columns, config, where, buildingColumn } = options;
  app.withTypeProvider<ZodTypeProvider>().get(
    path,
    {
      config,
      schema: {
        tags: [resource.key],
        summary: `导出${resource.label}（Excel，条件同分页列表，不分页）`,
        querystring: pageQuerySchema(resource),
      },
    },
    async (request, reply) => {
      const query = request.query;
      const conditions = [
        ...searchConditions(resource, table, query),
        where(request),
        buildingColumn && inKeyBuildings(request, buildingColumn),
      ];
      return sendExcel(reply, {
        title: resource.label,
        columns,
        rows: tableBatches(app.db, table, conditions),
      });
    },
  );
}
