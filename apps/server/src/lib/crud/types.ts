/**
 * The types a resource module and the CRUD core share: the table every resource has, its rows and
 * the values a write stores, and the options (with their hooks) a module passes to `crudModule`.
 */
import type { InferInsertModel, InferSelectModel, SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { CreateOf, Fields, ResourceDef } from '@cowork/contract';
import type { Executor } from '../../db/client.ts';

export type PresentAction = 'page' | 'detail' | 'write';

/** A table with the columns every resource table has, plus one per declared field. */
export type ResourceTable = PgTable & {
  id: PgColumn;
  createdAt: PgColumn;
  updatedAt: PgColumn;
  createdBy: PgColumn;
  updatedBy: PgColumn;
};

/**
 * A stored row of the table, typed from it, plus what `expand` and `present` add (ids of child
 * rows, names joined from other tables), which are read as unknown.
 */
export type RowOf<T extends ResourceTable, F extends Fields = Fields> = InferSelectModel<T> & {
  // Declared fields kept outside the table, as `expand` adds them (null when there is none).
  [K in Exclude<keyof F, keyof InferSelectModel<T>>]?: z.output<F[K]['schema']> | null;
} & Record<string, unknown>;
/**
 * The values a save or edit writes: the table's columns, each optional (an edit sends only what
 * changes), plus declared fields kept outside the table (child rows' ids).
 */
export type ValuesOf<T extends ResourceTable, F extends Fields = Fields> = Partial<InferInsertModel<T>> &
  Partial<CreateOf<F>> &
  Record<string, unknown>;

/** Rows and values as the core handles them, whatever the table. */
export type StoredRow = Record<string, unknown> & { id: number; createdAt: Date; updatedAt: Date };
export type Values = Record<string, unknown>;

/** Rows as the core reads them from any table: every resource table has an integer id and its two times. */
const isStored = (row: Record<string, unknown>): row is StoredRow =>
  typeof row.id === 'number' && row.createdAt instanceof Date && row.updatedAt instanceof Date;
export const asRows = (rows: Record<string, unknown>[]): StoredRow[] => rows.filter(isStored);

export interface WriteContext<T extends ResourceTable = ResourceTable, F extends Fields = Fields> {
  request: FastifyRequest;
  tx: Executor;
  /** The stored record on edit; undefined on save. */
  existing?: RowOf<T, F>;
}

/**
 * What is special about a resource, typed by its table. The hooks are declared as methods, whose
 * parameters TypeScript compares both ways: a module's hooks, typed by its own table, are then
 * accepted where the core holds the hooks of any resource table (`CrudHooks`, unparameterised),
 * and the core hands each module's hooks only rows of that module's table.
 */
export interface CrudHooks<F extends Fields = Fields, T extends ResourceTable = ResourceTable> {
  /** Checks and completes values before they are written; throw badRequest naming the field. */
  prepare?(values: ValuesOf<T, F>, context: WriteContext<T, F>): Promise<ValuesOf<T, F>> | ValuesOf<T, F>;
  /** Says what still uses a record (the 409 message), or undefined when it may be removed. */
  inUse?(id: number, tx: Executor, request: FastifyRequest): Promise<string | undefined>;
  /**
   * Shapes a stored row for the caller (masking, joined names). `action` says which answer it is
   * for: `page` rows, one `detail`, or the record a `write` (save, edit, edit-published) returns.
   * What it returns is still the record: its id and times stay.
   */
  present?(row: RowOf<T, F>, request: FastifyRequest, action: PresentAction): StoredRow;
  /**
   * Adds values kept outside the table (ids of child rows) to rows read, before `present`: page
   * rows, detail, the stored record an edit starts from, and the record a write answers.
   */
  expand?(rows: RowOf<T, F>[], db: Executor): Promise<RowOf<T, F>[]>;
  /** Runs after a write in the same transaction (child rows, derived data). */
  afterWrite?(record: RowOf<T, F>, values: ValuesOf<T, F>, context: WriteContext<T, F>): Promise<void>;
  /**
   * Runs once a save or edit has committed, with the record before (an edit's) and after: work that
   * must see the committed state, such as re-syncing door devices.
   */
  afterCommit?(change: { before?: RowOf<T, F>; after: RowOf<T, F> }, request: FastifyRequest): void;
  /**
   * Runs in edit-published's transaction before the record is changed (e.g. unpublishing the
   * other versions when only one may be published).
   */
  beforePublish?(record: RowOf<T, F>, published: boolean, context: WriteContext<T, F>): Promise<void>;
  /**
   * Runs in the removal's transaction after the in-use checks, before the rows are deleted
   * (child rows that go with a record, each audited).
   */
  beforeRemove?(rows: RowOf<T, F>[], context: { request: FastifyRequest; tx: Executor }): Promise<void>;
  /** Runs once a removal has committed, with the rows removed (re-syncing door devices, say). */
  afterRemove?(rows: RowOf<T, F>[], request: FastifyRequest): void;
  /** Extra page filters beyond the declared search fields. */
  where?(request: FastifyRequest): SQL | undefined;
  /**
   * `buildingColumn` for rows that reach their building through another table (a door group's
   * members): the condition limiting an API key to its buildings' rows, from lib/building-scope.ts.
   */
  keyScope?(request: FastifyRequest): SQL | undefined;
  /**
   * Throws (forbidden) when the caller may not do `action` to this record: the stored one on
   * detail (view), edit and edit-published (edit) and remove, and the values a save or edit
   * would store (edit).
   */
  authorize?(record: ValuesOf<T, F>, request: FastifyRequest, action: 'view' | 'edit' | 'remove'): void;
}

// The resource and the table say which fields and table the hooks are typed by (NoInfer: a hook
// typed more loosely, say by Fields, does not widen them).
export interface CrudOptions<F extends Fields, T extends ResourceTable = ResourceTable> extends CrudHooks<
  NoInfer<F>,
  NoInfer<T>
> {
  resource: ResourceDef<F>;
  table: T;
  /**
   * Codes that open the routes instead of the resource's `{permission}:view|edit|remove`; a list
   * means any one of them (one resource serving two menus).
   */
  permissions?: Partial<Record<'view' | 'edit' | 'remove', string | readonly string[]>>;
  /**
   * The column saying which building a row belongs to (integer), or which it is valid in
   * (integer[]). An API key limited to buildings then finds only their rows: page, list, detail,
   * edit, publish and remove (another building's record is 404). Staff are not limited.
   */
  buildingColumn?: PgColumn;
}

/**
 * The value a column holds after a write: the one sent, else the stored one (for cross-field
 * checks). A column a save leaves out reads as null, as it will be stored.
 */
export function valueAfterWrite<T extends ResourceTable, K extends keyof InferSelectModel<T> & string>(
  key: K,
  values: ValuesOf<T>,
  existing?: RowOf<T>,
): InferSelectModel<T>[K];
// The stored row and the values are records of that table's columns, so the column's value is of its type.
export function valueAfterWrite(key: string, values: Values, existing?: Record<string, unknown>): unknown {
  const sent = values[key];
  return sent !== undefined ? sent : existing ? existing[key] : null;
}
