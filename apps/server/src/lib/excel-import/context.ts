/**
 * What the routes of one resource's Excel import share: its options, the template's columns, the
 * create schema and the hooks, worked out once as the module is declared.
 */
import { getTableColumns } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import {
  createSchema,
  importMessages,
  importPaths,
  resourcePermissions,
  type Fields,
  type ListOption,
} from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import type { CrudHooks, CrudOptions, ResourceTable, StoredRow } from '../crud.ts';
import { AppError } from '../http.ts';
import { importColumns } from './cells.ts';

export type Values = Record<string, unknown>;

/** A per-field option (a column's choices, sample, note) by the column's key. */
export const byKey = <V>(map: Partial<Record<string, V>> | undefined, key: string): V | undefined =>
  map?.[key];

export interface ExcelImportOptions<F extends Fields, T extends ResourceTable = ResourceTable> extends Pick<
  CrudOptions<F, T>,
  'resource' | 'table' | 'prepare' | 'afterWrite' | 'expand'
> {
  /**
   * The example row as a user types it (field → cell); references default to the first option.
   * Shown in the template's header notes and 说明 sheet; a file row equal to it is skipped.
   */
  example: Partial<Record<keyof F & string, string | number | boolean>>;
  /** The template's fields, in order (default: every form field a cell can hold). */
  fields?: (keyof F & string)[];
  /**
   * The names a reference column accepts, when they are not simply its list endpoint's options
   * (e.g. only the facilities among the bright points).
   */
  choices?: Partial<Record<keyof F & string, (request: FastifyRequest) => Promise<ListOption[]>>>;
  /** Notes on a column for the template's 说明 sheet that depend on the data (a building's floors). */
  notes?: Partial<Record<keyof F & string, (request: FastifyRequest) => Promise<string>>>;
  /**
   * Example cells that depend on the example row (the 楼层 of its 楼宇), so the example is a valid
   * row; each gets the row's cells so far, references by name.
   */
  sample?: Partial<
    Record<keyof F & string, (row: Values, request: FastifyRequest) => Promise<string | number | undefined>>
  >;
  /**
   * Values every row gets from the request rather than from its cells (the access group a member
   * list is imported into, from the query); a 400 thrown here refuses the file.
   */
  fixedValues?: (request: FastifyRequest) => Promise<Values> | Values;
  /**
   * Runs in the import's transaction before any row is checked: locking what the rows go into (a
   * company's staff list), so two imports into it run one after the other.
   */
  beforeRows?: (context: { tx: Executor; request: FastifyRequest; fixed: Values }) => Promise<void>;
  /**
   * Runs in the import's transaction after each batch of rows is written, with the batch: work for
   * many rows in a few statements (webhook events), where `afterWrite` would run per row.
   */
  afterRows?: (records: StoredRow[], context: { tx: Executor; request: FastifyRequest }) => Promise<void>;
  /** Runs once an import has committed (re-syncing door devices, say). */
  afterImport?: (request: FastifyRequest) => void;
  /** The 必填 column of the 说明 sheet where it depends on other cells (楼层: 楼宇设有楼层时必填). */
  requiredWhen?: Partial<Record<keyof F & string, string>>;
}

export type ImportContext<F extends Fields> = ReturnType<typeof importContext<F, ResourceTable>>;

export function importContext<F extends Fields, T extends ResourceTable>(options: ExcelImportOptions<F, T>) {
  const { resource } = options;
  // The hooks of the module's table, held as those of any resource table (see CrudHooks).
  const hooks: Pick<CrudHooks, 'prepare' | 'afterWrite' | 'expand'> = options;
  const table: ResourceTable = options.table;
  const tableColumns: Record<string, PgColumn> = getTableColumns(table);
  return {
    resource,
    table,
    hooks,
    options,
    paths: importPaths(resource),
    permissions: resourcePermissions(resource),
    columns: importColumns(options),
    schema: createSchema(resource),
    tableColumns,
    tags: [resource.key],
  };
}

/** Each reference column's options: its own `choices`, else its list endpoint read as the caller. */
export async function lookups<F extends Fields>(
  { columns, options }: ImportContext<F>,
  request: FastifyRequest,
): Promise<Map<string, ListOption[]>> {
  const found = new Map<string, ListOption[]>();
  for (const { key, field } of columns) {
    const own = byKey(options.choices, key);
    if (own) {
      found.set(key, await own(request));
      continue;
    }
    if (field.kind !== 'reference' && field.kind !== 'references') continue;
    const res = await request.server.inject({
      method: 'GET',
      url: field.listEndpoint,
      headers: { authorization: request.headers.authorization ?? '' },
    });
    const body = res.json<{ msg?: string; data?: ListOption[] }>();
    if (res.statusCode !== 200 || !Array.isArray(body.data))
      throw new AppError(res.statusCode, body.msg ?? importMessages.unreadable);
    found.set(key, body.data);
  }
  return found;
}
