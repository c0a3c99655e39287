/**
 * `GET {base}/page`: a page of rows with the declared filters, the `where` hook's and the sort, and
 * the total. Each shape of query is prepared once and kept (least recently used goes first).
 */
import { and, asc, count, desc, inArray, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { pageQuerySchema, type Fields } from '@cowork/contract';
import { BY_TEXT, type Executor } from '../../db/client.ts';
import { envelope, ok, pageAndTotal, pageOf } from '../http.ts';
import type { CrudContext } from './context.ts';
import { searchConditions } from './search.ts';
import { asRows, type ResourceTable } from './types.ts';

/** From this many rows skipped, a page finds its ids first and then reads only its own rows. */
const DEEP_OFFSET = 1000;

/** A page's query: paging and sorting, and the declared filters read by name. */
type PageQuery = z.output<ReturnType<typeof pageQuerySchema>> & Record<string, unknown>;

/** Renders a `where` hook's condition to text and values: part of a prepared page query's key. */
const dialect = new PgDialect();
/** Prepared page queries one resource keeps (the shapes of filters its lists are asked for). */
const PREPARED_PAGES_MAX = 200;

/**
 * A page's queries are prepared once per shape (the filters given, the sort, a deep page or not,
 * the `where` hook's condition): building a select of forty columns anew cost more than running
 * it. Filter values, offset and size are placeholders; the `where` hook's condition is part of the
 * key, so a value it holds (a caller's buildings) gives a query of its own. Kept per app: each
 * is bound to its app's database.
 */
function preparePage(
  table: ResourceTable,
  db: Executor,
  condition: SQL | undefined,
  order: SQL[],
  deep: boolean,
) {
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

type PreparedPage = ReturnType<typeof preparePage>;

function pageQueries<F extends Fields>(
  crud: CrudContext<F>,
  db: Executor,
  preparedPages: Map<string, PreparedPage>,
  request: FastifyRequest,
  query: PageQuery,
) {
  const { resource, table, columns, hooks } = crud;
  const values: Record<string, unknown> = {};
  const conditions = searchConditions(resource, table, query, (name, value) => {
    values[name] = value;
    return sql.placeholder(name);
  });
  const extra = and(hooks.where?.(request), crud.scope(request));
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
    prepared = preparePage(table, db, and(...conditions, ...(extra ? [extra] : [])), order, deep);
    if (preparedPages.size >= PREPARED_PAGES_MAX) preparedPages.delete(preparedPages.keys().next().value!);
  }
  preparedPages.set(key, prepared);
  return { prepared, values };
}

export function pageRoute<F extends Fields>(app: FastifyInstance, crud: CrudContext<F>) {
  const { resource, paths, permissions, labels, tags, record, expand, present } = crud;
  const preparedPages = new Map<string, PreparedPage>();
  app.withTypeProvider<ZodTypeProvider>().get(
    paths.page,
    {
      config: { permission: permissions.view, fieldLabels: labels },
      schema: {
        tags,
        summary: `${resource.label}分页列表`,
        querystring: pageQuerySchema(resource),
        response: { 200: envelope(pageOf(record)) },
      },
    },
    async (request) => {
      const query = request.query;
      const { prepared, values } = pageQueries(crud, app.db, preparedPages, request, query);
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
