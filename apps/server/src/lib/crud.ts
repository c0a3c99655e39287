/**
 * The routes of a resource declared in the contract: page, detail, save, edit, remove (one or a
 * batch), edit-published and list, with validation, permission codes, audit entries and 404/409
 * answers. A module passes its table and only what is special about it (hooks below).
 *
 * @example
 *   export default crudModule({ resource: source, table: csrSources });
 */
import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  like,
  lt,
  lte,
  ne,
  sql,
  getTableColumns,
  type Placeholder,
  type InferInsertModel,
  type InferSelectModel,
  type SQL,
} from 'drizzle-orm';
import { containsPattern, prefixPattern } from './like.ts';
import { PgDialect, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createSchema,
  fieldInvalid,
  labelsOf,
  listOption,
  messages,
  pageQuerySchema,
  publishBody,
  recordSchema,
  removeBody,
  resourceMessages,
  resourcePaths,
  resourcePermissions,
  updateSchema,
  type CreateOf,
  type Fields,
  type ResourceDef,
} from '@cowork/contract';
import { BY_TEXT, sqlState, type Executor } from '../db/client.ts';
import { audit } from './audit.ts';
import { sendExcel, tableBatches, type ExcelColumn } from './excel-export.ts';
import { badRequest, conflict, envelope, notFound, ok, pageAndTotal, pageOf } from './http.ts';
import { parseTimeBound, withIsoTimes } from './time.ts';
import { recordOf } from './unknown.ts';

/** From this many rows skipped, a page finds its ids first and then reads only its own rows. */
const DEEP_OFFSET = 1000;
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
type Row = StoredRow;
type Values = Record<string, unknown>;
type LooseContext = Omit<WriteContext, 'existing'> & { existing?: Row };
type Hooks =
  | 'table'
  | 'prepare'
  | 'present'
  | 'expand'
  | 'afterWrite'
  | 'afterCommit'
  | 'beforePublish'
  | 'beforeRemove'
  | 'afterRemove'
  | 'authorize';
/** The options as the core calls them: the same hooks, on rows of any table. */
export type LooseOptions<O extends Partial<CrudOptions<Fields>>> = Omit<O, Hooks> & {
  table: ResourceTable;
  prepare?: (values: Values, context: LooseContext) => Promise<Values> | Values;
  present?: (row: Row, request: FastifyRequest, action: PresentAction) => Row;
  expand?: (rows: Row[], db: Executor) => Promise<Row[]>;
  afterWrite?: (record: Row, values: Values, context: LooseContext) => Promise<void>;
  afterCommit?: (change: { before?: Row; after: Row }, request: FastifyRequest) => void;
  beforePublish?: (record: Row, published: boolean, context: LooseContext) => Promise<void>;
  beforeRemove?: (rows: Row[], context: { request: FastifyRequest; tx: Executor }) => Promise<void>;
  afterRemove?: (rows: Row[], request: FastifyRequest) => void;
  authorize?: (record: Values, request: FastifyRequest, action: 'view' | 'edit' | 'remove') => void;
};

/**
 * The hooks are typed by the module's table (RowOf, ValuesOf); the core reads and writes any
 * table's rows as records and hands the hooks rows of that table. The one place that says so.
 */
export const loosen = <O>(options: O) => options as unknown as LooseOptions<O & Partial<CrudOptions<Fields>>>;

export interface WriteContext<T extends ResourceTable = ResourceTable, F extends Fields = Fields> {
  request: FastifyRequest;
  tx: Executor;
  /** The stored record on edit; undefined on save. */
  existing?: RowOf<T, F>;
}

export interface CrudOptions<F extends Fields, T extends ResourceTable = ResourceTable> {
  resource: ResourceDef<F>;
  table: T;
  /** Checks and completes values before they are written; throw badRequest naming the field. */
  prepare?: (values: ValuesOf<T, F>, context: WriteContext<T, F>) => Promise<ValuesOf<T, F>> | ValuesOf<T, F>;
  /** Says what still uses a record (the 409 message), or undefined when it may be removed. */
  inUse?: (id: number, tx: Executor, request: FastifyRequest) => Promise<string | undefined>;
  /**
   * Shapes a stored row for the caller (masking, joined names). `action` says which answer it is
   * for: `page` rows, one `detail`, or the record a `write` (save, edit, edit-published) returns.
   */
  present?: (row: RowOf<T, F>, request: FastifyRequest, action: PresentAction) => Record<string, unknown>;
  /**
   * Adds values kept outside the table (ids of child rows) to rows read, before `present`: page
   * rows, detail, the stored record an edit starts from, and the record a write answers.
   */
  expand?: (rows: RowOf<T, F>[], db: Executor) => Promise<RowOf<T, F>[]>;
  /** Runs after a write in the same transaction (child rows, derived data). */
  afterWrite?: (record: RowOf<T, F>, values: ValuesOf<T, F>, context: WriteContext<T, F>) => Promise<void>;
  /**
   * Runs once a save or edit has committed, with the record before (an edit's) and after: work that
   * must see the committed state, such as re-syncing door devices.
   */
  afterCommit?: (change: { before?: RowOf<T, F>; after: RowOf<T, F> }, request: FastifyRequest) => void;
  /**
   * Runs in edit-published's transaction before the record is changed (e.g. unpublishing the
   * other versions when only one may be published).
   */
  beforePublish?: (record: RowOf<T, F>, published: boolean, context: WriteContext<T, F>) => Promise<void>;
  /**
   * Runs in the removal's transaction after the in-use checks, before the rows are deleted
   * (child rows that go with a record, each audited).
   */
  beforeRemove?: (rows: RowOf<T, F>[], context: { request: FastifyRequest; tx: Executor }) => Promise<void>;
  /** Runs once a removal has committed, with the rows removed (re-syncing door devices, say). */
  afterRemove?: (rows: RowOf<T, F>[], request: FastifyRequest) => void;
  /** Extra page filters beyond the declared search fields. */
  where?: (request: FastifyRequest) => SQL | undefined;
  /**
   * Codes that open the routes instead of the resource's `{permission}:view|edit|remove`; a list
   * means any one of them (one resource serving two menus).
   */
  permissions?: Partial<Record<'view' | 'edit' | 'remove', string | readonly string[]>>;
  /**
   * Throws (forbidden) when the caller may not do `action` to this record: the stored one on
   * detail (view), edit and edit-published (edit) and remove, and the values a save or edit
   * would store (edit).
   */
  authorize?: (record: ValuesOf<T, F>, request: FastifyRequest, action: 'view' | 'edit' | 'remove') => void;
}

/**
 * The value a column holds after a write: the one sent, else the stored one (for cross-field
 * checks). A column a save leaves out reads as null, as it will be stored.
 */
export function valueAfterWrite<T extends ResourceTable, K extends keyof InferSelectModel<T> & string>(
  key: K,
  values: ValuesOf<T>,
  existing?: RowOf<T>,
): InferSelectModel<T>[K] {
  const sent: unknown = values[key];
  return (sent !== undefined ? sent : existing ? existing[key] : null) as InferSelectModel<T>[K];
}

/** A record as it leaves: dates as ISO strings with the Shanghai offset. */
const serialize = (row: Row) => withIsoTimes(row);

/** Rows as the core reads them from any table: every resource table has an integer id. */
const hasId = (row: Record<string, unknown>): row is Row =>
  typeof row.id === 'number' && row.createdAt instanceof Date && row.updatedAt instanceof Date;
export const asRows = (rows: Record<string, unknown>[]): Row[] => rows.filter(hasId);

/**
 * `GET …/export` of a resource whose rows are one table: what its page's filters (and `where`)
 * select, every row, as an Excel file streamed in keyset batches. A bad filter is a 400 before the
 * download starts. Orders and invoices export this way.
 */
export function exportRoute<T extends PgTable & { id: PgColumn }>(
  app: FastifyInstance,
  options: {
    resource: ResourceDef;
    /** The resource's `export` path (orderPaths, invoicePaths). */
    path: string;
    table: T;
    columns: ExcelColumn<InferSelectModel<T>>[];
    /** Read permission and the field labels of 400 messages, as the page has them. */
    config: { permission: string; fieldLabels: Record<string, string> };
    where: (request: FastifyRequest) => SQL | undefined;
  },
) {
  const { resource, path, table, columns, config, where } = options;
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
      const conditions = [...searchConditions(resource, table, query), where(request)];
      return sendExcel(reply, {
        title: resource.label,
        columns,
        rows: tableBatches(app.db, table, conditions),
      });
    },
  );
}

/**
 * How a filter value enters a condition: as itself (a one-off query), or as a named placeholder of a
 * prepared query, the value kept aside for its execution.
 */
type Bind = <T>(name: string, value: T) => T | Placeholder;
const asItself: Bind = (_name, value) => value;

/**
 * The conditions of a page query's declared search fields (eq, like, ranges); 400 naming the field
 * on a bad bound. Shared by page and by lists that read the same filter another way (an export).
 */
export function searchConditions<F extends Fields>(
  resource: ResourceDef<F>,
  table: PgTable,
  query: Record<string, unknown>,
  bind: Bind = asItself,
): SQL[] {
  const columns: Record<string, PgColumn> = getTableColumns(table);
  const where: SQL[] = [];
  for (const [key, f] of Object.entries(resource.fields)) {
    const column = columns[key];
    // A searched field kept outside the table (child rows), or holding several ids (references:
    // rows holding the one asked for), is filtered by the `where` hook.
    if (!f.search || !column || f.kind === 'references') continue;
    if (f.search === 'range') {
      for (const [suffix, endOfDay] of [
        ['From', false],
        ['To', true],
      ] as const) {
        const name = `${key}${suffix}`;
        const raw = query[name];
        if (typeof raw !== 'string' || raw === '') continue;
        if (f.kind === 'integer' || f.kind === 'money') {
          const n = Number(raw);
          if (!Number.isFinite(n)) throw badRequest(fieldInvalid(f.label, '请输入数字'));
          where.push(suffix === 'From' ? gte(column, bind(name, n)) : lte(column, bind(name, n)));
        } else {
          const bound = parseTimeBound(raw, endOfDay);
          if (!bound) throw badRequest(fieldInvalid(f.label, messages.timeInvalid));
          where.push(suffix === 'From' ? gte(column, bind(name, bound)) : lt(column, bind(name, bound)));
        }
      }
      continue;
    }
    const value = query[key];
    if (value === undefined || value === '') continue;
    if (f.kind === 'boolean') where.push(eq(column, bind(key, value === 'true')));
    else if (f.search === 'like') where.push(ilike(column, bind(key, containsPattern(String(value).trim()))));
    else if (f.search === 'prefix') where.push(like(column, bind(key, prefixPattern(String(value).trim()))));
    else where.push(eq(column, bind(key, value)));
  }
  return where;
}

/** A page's query: paging and sorting, and the declared filters read by name. */
type PageQuery = z.output<ReturnType<typeof pageQuerySchema>> & Record<string, unknown>;

/** Renders a `where` hook's condition to text and values: part of a prepared page query's key. */
const dialect = new PgDialect();
/** Prepared page queries one resource keeps (the shapes of filters its lists are asked for). */
const PREPARED_PAGES_MAX = 200;

export function crudModule<F extends Fields, T extends ResourceTable>(
  typedOptions: CrudOptions<F, T>,
): FastifyPluginAsyncZod {
  const options = loosen(typedOptions);
  const { resource, table } = options;
  const paths = resourcePaths(resource);
  const permissions = { ...resourcePermissions(resource), ...options.permissions };
  const authorize = (record: Values, request: FastifyRequest, action: 'view' | 'edit' | 'remove') =>
    options.authorize?.(record, request, action);
  const labels = labelsOf(resource);
  const columns: Record<string, PgColumn> = getTableColumns(table);
  const record = recordSchema(resource);
  const tags = [resource.key];
  const has = (action: ResourceDef['actions'][number]) => resource.actions.includes(action);
  const fieldLabels = labels;
  // The column a select's option shows and a batch refusal names. Checked as the module is
  // declared, so a table without it stops the server at start instead of failing every list call.
  const titleKey = resource.titleField ?? 'name';
  const titleColumn: PgColumn | undefined = columns[titleKey];
  if (has('list') && !titleColumn)
    throw new Error(
      `${resource.key}: its table has no column "${titleKey}" for the list's labels; declare titleField`,
    );

  const present = (row: Row, request: FastifyRequest, action: PresentAction = 'write') =>
    serialize(options.present ? options.present(row, request, action) : row);
  // The audit log is read by more people than the records: sensitive numbers stay masked there.
  const masks = Object.entries(resource.fields).filter(([, f]) => f.mask);
  const forAudit = (row: Row): Row =>
    masks.length === 0
      ? row
      : {
          ...row,
          ...Object.fromEntries(
            masks.map(([key, f]) => [key, typeof row[key] === 'string' ? f.mask!(row[key]) : row[key]]),
          ),
        };
  const expand = async (rows: Row[], db: Executor) => (options.expand ? options.expand(rows, db) : rows);

  async function load(tx: Executor, id: number): Promise<Row> {
    const [row] = await tx.select().from(table).where(eq(table.id, id));
    if (!row) throw notFound(resourceMessages.notFound(resource));
    return (await expand(asRows([row]), tx))[0];
  }

  /**
   * 409 naming the field when another record already holds a unique value (within the same value
   * of `uniqueWithin`, when declared: an edit moving a record to another scope is checked too).
   */
  async function checkUnique(tx: Executor, values: Values, existing?: Row) {
    for (const [key, f] of Object.entries(resource.fields)) {
      if (!f.unique) continue;
      const scope = f.uniqueWithin;
      if (values[key] === undefined && (!scope || values[scope] === undefined)) continue;
      const value = values[key] !== undefined ? values[key] : existing?.[key];
      if (value === undefined || value === null || value === '') continue;
      const column = columns[key];
      const conditions: SQL[] = [
        typeof value === 'string' ? sql`lower(${column}) = lower(${value})` : eq(column, value),
      ];
      if (scope) {
        const scopeValue = values[scope] !== undefined ? values[scope] : existing?.[scope];
        conditions.push(
          scopeValue === null || scopeValue === undefined
            ? sql`${columns[scope]} is null`
            : eq(columns[scope], scopeValue),
        );
      }
      if (existing) conditions.push(ne(table.id, existing.id));
      const [clash] = await tx
        .select({ id: table.id })
        .from(table)
        .where(and(...conditions))
        .limit(1);
      if (clash) {
        throw conflict(
          scope
            ? resourceMessages.duplicateWithin(resource, f.label, labels[scope] ?? scope)
            : resourceMessages.duplicate(resource, f.label),
        );
      }
    }
  }

  /**
   * A page's queries are prepared once per shape (the filters given, the sort, a deep page or not,
   * the `where` hook's condition): building a select of forty columns anew cost more than running
   * it. Filter values, offset and size are placeholders; the `where` hook's condition is part of the
   * key, so a value it holds (a caller's buildings) gives a query of its own. Kept per app: each
   * is bound to its app's database.
   */

  function preparePage(db: Executor, condition: SQL | undefined, order: SQL[], deep: boolean) {
    const limit = sql.placeholder('limit');
    const offset = sql.placeholder('offset');
    const rows = deep
      ? // Deep pages skip ids only (index-only where an index holds the filter and sort columns,
        // as orders (kind, created_at, id) does), then read the page's rows.
        db
          .select()
          .from(table)
          .where(
            inArray(
              table.id,
              db
                .select({ id: table.id })
                .from(table)
                .where(condition)
                .orderBy(...order)
                .limit(limit)
                .offset(offset),
            ),
          )
          .orderBy(...order)
      : db
          .select()
          .from(table)
          .where(condition)
          .orderBy(...order)
          .limit(limit)
          .offset(offset);
    return {
      rows: rows.prepare(BY_TEXT),
      total: db.select({ total: count() }).from(table).where(condition).prepare(BY_TEXT),
    };
  }

  function pageQueries(
    db: Executor,
    preparedPages: Map<string, ReturnType<typeof preparePage>>,
    request: FastifyRequest,
    query: PageQuery,
  ) {
    const values: Record<string, unknown> = {};
    const conditions = searchConditions(resource, table, query, (name, value) => {
      values[name] = value;
      return sql.placeholder(name);
    });
    const extra = options.where?.(request);
    const extraQuery = extra ? dialect.sqlToQuery(extra) : undefined;
    const sortField = query.sortField;
    const sort = sortField
      ? { field: sortField, order: query.sortOrder === 'ascend' ? 'ascend' : 'descend' }
      : resource.defaultSort;
    const deep = (query.current - 1) * query.size >= DEEP_OFFSET;
    const key = JSON.stringify([Object.keys(values), sort, deep, extraQuery]);
    let prepared = preparedPages.get(key);
    if (prepared) {
      // Least recently used goes first: a shape in use moves to the end of the map's order.
      preparedPages.delete(key);
    } else {
      const order = sort
        ? [(sort.order === 'ascend' ? asc : desc)(columns[sort.field]), desc(table.id)]
        : [desc(table.id)];
      prepared = preparePage(db, and(...conditions, ...(extra ? [extra] : [])), order, deep);
      if (preparedPages.size >= PREPARED_PAGES_MAX) preparedPages.delete(preparedPages.keys().next().value!);
    }
    preparedPages.set(key, prepared);
    return { prepared, values };
  }

  return async (app: FastifyInstance) => {
    const preparedPages = new Map<string, ReturnType<typeof preparePage>>();
    const r = app.withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>();
    const idParams = z.object({ id: updateSchema(resource).shape.id });

    if (has('page')) {
      const querystring = pageQuerySchema(resource);
      r.get(
        paths.page,
        {
          config: { permission: permissions.view, fieldLabels },
          schema: {
            tags,
            summary: `${resource.label}分页列表`,
            querystring,
            response: { 200: envelope(pageOf(record)) },
          },
        },
        async (request) => {
          const query = request.query;
          const { prepared, values } = pageQueries(app.db, preparedPages, request, query);
          const offset = (query.current - 1) * query.size;
          const page = await pageAndTotal(
            query,
            async () => asRows(await prepared.rows.execute({ ...values, limit: query.size, offset })),
            () => prepared.total.execute(values),
          );
          return ok({
            ...page,
            records: (await expand(page.records, app.db)).map((row) => present(row, request, 'page')),
          });
        },
      );
    }

    if (has('detail')) {
      r.get(
        `${paths.detail}/:id`,
        {
          config: { permission: permissions.view, fieldLabels },
          schema: {
            tags,
            summary: `${resource.label}详情`,
            params: idParams,
            response: { 200: envelope(record) },
          },
        },
        async (request) => {
          const row = await load(app.db, request.params.id);
          authorize(row, request, 'view');
          return ok(present(row, request, 'detail'));
        },
      );
    }

    if (has('list')) {
      // Options for selects on other screens: names only, so any signed-in staff member may read them.
      const labelColumn = titleColumn!;
      const hasPublished = 'published' in resource.fields;
      r.get(
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
            .where(hasPublished && published ? eq(columns.published, published === 'true') : undefined)
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

    /** Rich text keeps only what the policy allows; a required one left empty by it is a 400. */
    const cleanRichText = async (values: Values) => {
      const rich = Object.entries(resource.fields).filter(
        ([key, f]) => f.kind === 'richtext' && typeof values[key] === 'string',
      );
      if (rich.length === 0) return;
      // sanitize-html and its HTML parser (about 2 MB of heap) load with the first rich text saved.
      const { hasRichContent, sanitizeRichText } = await import('./sanitize-html.ts');
      for (const [key, f] of rich) {
        const value = String(values[key]);
        const clean = sanitizeRichText(value);
        const required = !f.schema.safeParse(undefined).success;
        if (!hasRichContent(clean)) {
          if (required) throw badRequest(`请填写${f.label}（只含脚本或不允许的标签的内容不会保存）`);
          values[key] = null;
        } else values[key] = clean;
      }
    };

    const write = async (request: FastifyRequest, values: Values, existing?: Row) => {
      let saved: Row | undefined;
      const answer = await app.db.transaction(async (tx) => {
        const context: LooseContext = { request, tx, existing };
        if (existing) authorize(existing, request, 'edit');
        authorize({ ...existing, ...values }, request, 'edit');
        await cleanRichText(values);
        const prepared = options.prepare ? await options.prepare(values, context) : values;
        await checkUnique(tx, prepared, existing);
        const by = request.user?.id ?? null;
        [saved] = asRows(
          existing
            ? await tx
                .update(table)
                .set({ ...prepared, updatedAt: new Date(), updatedBy: by })
                .where(eq(table.id, existing.id))
                .returning()
            : await tx
                .insert(table)
                .values({ ...prepared, createdBy: by, updatedBy: by })
                .returning(),
        );
        await options.afterWrite?.(saved!, prepared, context);
        const [answer] = await expand([saved!], tx);
        await audit(
          request,
          {
            action: existing ? 'edit' : 'save',
            resource: resource.key,
            resourceId: saved!.id,
            before: existing ? forAudit(existing) : null,
            after: forAudit(answer),
          },
          tx,
        );
        return present(answer, request);
      });
      options.afterCommit?.({ before: existing, after: saved! }, request);
      return answer;
    };

    if (has('save')) {
      r.post(
        paths.save,
        {
          config: { permission: permissions.edit, fieldLabels },
          schema: {
            tags,
            summary: `新建${resource.label}`,
            body: createSchema(resource),
            response: { 200: envelope(record) },
          },
        },
        async (request) => ok(await write(request, recordOf(request.body))),
      );
    }

    if (has('edit')) {
      r.put(
        paths.edit,
        {
          config: { permission: permissions.edit, fieldLabels },
          schema: {
            tags,
            summary: `修改${resource.label}`,
            body: updateSchema(resource),
            response: { 200: envelope(record) },
          },
        },
        async (request) => {
          const { id, ...values } = recordOf(request.body);
          const changes = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
          return ok(await write(request, changes, await load(app.db, Number(id))));
        },
      );
    }

    const editPublished = async (request: FastifyRequest<{ Body: z.infer<typeof publishBody> }>) => {
      const { id, published } = request.body;
      return ok(
        await app.db.transaction(async (tx) => {
          const existing = await load(tx, id);
          authorize(existing, request, 'edit');
          await options.beforePublish?.(existing, published, { request, tx, existing });
          const changes: Values = { published, updatedAt: new Date(), updatedBy: request.user?.id ?? null };
          const [saved] = asRows(await tx.update(table).set(changes).where(eq(table.id, id)).returning());
          await audit(
            request,
            {
              action: published ? 'publish' : 'unpublish',
              resource: resource.key,
              resourceId: id,
              before: { published: existing.published },
              after: { published },
            },
            tx,
          );
          return present((await expand([saved], tx))[0], request);
        }),
      );
    };
    // `publish` is the same action under the spec's second name ("edit-published/publish").
    for (const [action, url] of [
      ['editPublished', paths.editPublished],
      ['publish', paths.publish],
    ] as const) {
      if (!has(action)) continue;
      r.put(
        url,
        {
          config: { permission: permissions.edit, fieldLabels },
          schema: {
            tags,
            summary: `发布或下架${resource.label}`,
            body: publishBody,
            response: { 200: envelope(record) },
          },
        },
        editPublished,
      );
    }

    if (has('saveOrUpdate')) {
      const create = createSchema(resource);
      const update = updateSchema(resource);
      // One body, two shapes: with an id it is checked as an edit, without one as a save.
      const body = z.looseObject({ id: z.unknown().optional() }).transform((value, ctx) => {
        const result = (value.id === undefined || value.id === null ? create : update).safeParse(value);
        if (result.success) {
          const { id, ...values } = recordOf(result.data);
          return { id: typeof id === 'number' ? id : undefined, values };
        }
        for (const issue of result.error.issues) {
          ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
        }
        return z.NEVER;
      });
      r.post(
        paths.saveOrUpdate,
        {
          config: { permission: permissions.edit, fieldLabels },
          schema: {
            tags,
            summary: `新建或修改${resource.label}（带编号为修改）`,
            body,
            response: { 200: envelope(record) },
          },
        },
        async (request) => {
          const { id, values } = request.body;
          if (id === undefined) return ok(await write(request, values));
          const changes = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
          return ok(await write(request, changes, await load(app.db, id)));
        },
      );
    }

    if (has('remove')) {
      const remove = async (request: FastifyRequest, ids: number[]) => {
        let removedRows: Row[] = [];
        const answer = await app.db.transaction(async (tx) => {
          const rows = asRows(await tx.select().from(table).where(inArray(table.id, ids)));
          if (rows.length !== new Set(ids).size) throw notFound(resourceMessages.notFound(resource));
          for (const row of rows) authorize(row, request, 'remove');
          // In a batch, every refusal names the record it is about: 该角色… becomes 角色「运营」…, and a
          // reason that does not name it already gets the name in front.
          const titleOf = (row: Row) => String(row[titleKey] ?? row.title ?? `#${String(row.id)}`);
          const named = (row: Row) => `${resource.label}「${titleOf(row)}」`;
          const inBatch = (row: Row, reason: string) =>
            reason.startsWith(`该${resource.label}`)
              ? `${named(row)}${reason.slice(1 + resource.label.length)}`
              : reason.includes(titleOf(row))
                ? reason
                : `${named(row)}：${reason}`;
          for (const row of rows) {
            const reason = await options.inUse?.(row.id, tx, request);
            if (reason) throw conflict(ids.length > 1 ? inBatch(row, reason) : reason);
          }
          await options.beforeRemove?.(rows, { request, tx });
          // One by one, each in a savepoint: a row other records still point to is named in the 409.
          for (const row of rows) {
            try {
              await tx.transaction((savepoint) => savepoint.delete(table).where(eq(table.id, row.id)));
            } catch (error) {
              if (sqlState(error) === '23503')
                throw conflict(`${named(row)}仍被其他记录使用，无法删除；请先解除这些引用后再删除`);
              throw error;
            }
          }
          for (const row of rows) {
            await audit(
              request,
              { action: 'remove', resource: resource.key, resourceId: row.id, before: forAudit(row) },
              tx,
            );
          }
          removedRows = rows;
          return ok({ removed: rows.length }, resourceMessages.removed(rows.length));
        });
        options.afterRemove?.(removedRows, request);
        return answer;
      };
      const removed = envelope(z.object({ removed: z.number().int() }));
      r.delete(
        `${paths.remove}/:id`,
        {
          config: { permission: permissions.remove, fieldLabels },
          schema: { tags, summary: `删除${resource.label}`, params: idParams, response: { 200: removed } },
        },
        async (request) => remove(request, [request.params.id]),
      );
      r.delete(
        paths.remove,
        {
          config: { permission: permissions.remove, fieldLabels },
          schema: {
            tags,
            summary: `批量删除${resource.label}`,
            body: removeBody,
            response: { 200: removed },
          },
        },
        async (request) => remove(request, request.body.ids),
      );
    }
  };
}
