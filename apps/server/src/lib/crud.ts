/**
 * The routes of a resource declared in the contract: page, detail, save, edit, remove (one or a
 * batch), edit-published and list, with validation, permission codes, audit entries and 404/409
 * answers. A module passes its table and only what is special about it (hooks: crud/types.ts).
 * Each job has its file under crud/: the page (page.ts), detail and list (read.ts), the writes
 * (write.ts), removal (remove.ts), the filters (search.ts) and a table's export (export.ts).
 *
 * @example
 *   export default crudModule({ resource: source, table: csrSources });
 */
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Fields } from '@cowork/contract';
import { crudContext } from './crud/context.ts';
import { pageRoute } from './crud/page.ts';
import { detailRoute, listRoute } from './crud/read.ts';
import { removeRoutes } from './crud/remove.ts';
import type { CrudOptions, ResourceTable } from './crud/types.ts';
import { writeRoutes } from './crud/write.ts';

export { exportRoute } from './crud/export.ts';
export { searchConditions } from './crud/search.ts';
export {
  asRows,
  valueAfterWrite,
  type CrudHooks,
  type CrudOptions,
  type PresentAction,
  type ResourceTable,
  type RowOf,
  type StoredRow,
  type ValuesOf,
  type WriteContext,
} from './crud/types.ts';

export function crudModule<F extends Fields, T extends ResourceTable>(
  options: CrudOptions<F, T>,
): FastifyPluginAsyncZod {
  const crud = crudContext(options);
  return async (app: FastifyInstance) => {
    if (crud.has('page')) pageRoute(app, crud);
    if (crud.has('detail')) detailRoute(app, crud);
    if (crud.has('list')) listRoute(app, crud);
    writeRoutes(app, crud);
    if (crud.has('remove')) removeRoutes(app, crud);
  };
}
