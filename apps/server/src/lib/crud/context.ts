/**
 * What every route of a resource shares, worked out once as the module is declared: its paths,
 * permission codes, answer schema, the hooks, and reading, shaping and auditing one of its rows.
 */
import { and, eq, getTableColumns } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  labelsOf,
  recordSchema,
  resourceMessages,
  resourcePaths,
  resourcePermissions,
  updateSchema,
  type Fields,
  type ResourceDef,
} from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { inKeyBuildings } from '../building-scope.ts';
import { notFound } from '../http.ts';
import { withIsoTimes } from '../time.ts';
import {
  asRows,
  type CrudHooks,
  type CrudOptions,
  type PresentAction,
  type ResourceTable,
  type StoredRow,
  type Values,
} from './types.ts';

export type CrudContext<F extends Fields> = ReturnType<typeof crudContext<F, ResourceTable>>;

export function crudContext<F extends Fields, T extends ResourceTable>(options: CrudOptions<F, T>) {
  const { resource } = options;
  // The hooks of the module's table, held as those of any resource table (see CrudHooks).
  const hooks: CrudHooks = options;
  const table: ResourceTable = options.table;
  const columns: Record<string, PgColumn> = getTableColumns(table);
  const has = (action: ResourceDef['actions'][number]) => resource.actions.includes(action);
  // The column a select's option shows and a batch refusal names. Checked as the module is
  // declared, so a table without it stops the server at start instead of failing every list call.
  const titleKey = resource.titleField ?? 'name';
  const titleColumn: PgColumn | undefined = columns[titleKey];
  if (has('list') && !titleColumn)
    throw new Error(
      `${resource.key}: its table has no column "${titleKey}" for the list's labels; declare titleField`,
    );

  /** A record as it leaves: shaped by `present`, dates as ISO strings with the Shanghai offset. */
  const present = (row: StoredRow, request: FastifyRequest, action: PresentAction = 'write') =>
    withIsoTimes(hooks.present ? hooks.present(row, request, action) : row);
  // The audit log is read by more people than the records: sensitive numbers stay masked there.
  const masks = Object.entries(resource.fields).filter(([, f]) => f.mask);
  const forAudit = (row: StoredRow): StoredRow =>
    masks.length === 0
      ? row
      : {
          ...row,
          ...Object.fromEntries(
            masks.map(([key, f]) => [key, typeof row[key] === 'string' ? f.mask!(row[key]) : row[key]]),
          ),
        };
  // `expand` adds values to the rows it is given: they stay stored rows.
  const expand = async (rows: StoredRow[], db: Executor) =>
    hooks.expand ? asRows(await hooks.expand(rows, db)) : rows;

  /** The caller's rows only: an API key's buildings' (`buildingColumn`, `keyScope`); undefined for all. */
  const scope = (request: FastifyRequest) =>
    options.buildingColumn ? inKeyBuildings(request, options.buildingColumn) : hooks.keyScope?.(request);

  /** The stored record the caller may reach, expanded; 404 when there is none. */
  async function load(tx: Executor, id: number, request: FastifyRequest): Promise<StoredRow> {
    const [row] = await tx
      .select()
      .from(table)
      .where(and(eq(table.id, id), scope(request)));
    if (!row) throw notFound(resourceMessages.notFound(resource));
    return (await expand(asRows([row]), tx))[0];
  }

  return {
    resource,
    table,
    hooks,
    columns,
    has,
    titleKey,
    titleColumn,
    paths: resourcePaths(resource),
    permissions: { ...resourcePermissions(resource), ...options.permissions },
    labels: labelsOf(resource),
    record: recordSchema(resource),
    tags: [resource.key],
    idParams: z.object({ id: updateSchema(resource).shape.id }),
    authorize: (record: Values, request: FastifyRequest, action: 'view' | 'edit' | 'remove') =>
      hooks.authorize?.(record, request, action),
    present,
    forAudit,
    expand,
    scope,
    load,
  };
}
