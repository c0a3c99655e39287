/**
 * `POST {base}/import/excel`'s work once the file is read: every row through the create schema, the
 * module's `prepare` and the unique checks (inside the file and against the database); one bad row
 * and nothing is written, the answer listing every bad row. Otherwise all rows are inserted in one
 * transaction, each audited.
 */
import { and, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { importMessages, type Fields, type ImportRowError } from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { auditMany } from '../audit.ts';
import { asRows } from '../crud.ts';
import { AppError, badRequest } from '../http.ts';
import { propertyOf, recordOf } from '../unknown.ts';
import {
  CellError,
  columnOfMessage,
  forImport,
  onePerCell,
  toFieldValue,
  type Lookup,
  type Raw,
} from './cells.ts';
import { lookups, type ImportContext, type Values } from './context.ts';
import { exampleMatcher, readRows } from './read-file.ts';

/** A refused import: 400 with every bad row in `data.errors`. */
export class ImportRejected extends Error {
  constructor(readonly errors: ImportRowError[]) {
    super('import rejected');
  }
}

/**
 * Rows whose unique values clash inside the file or with stored records (within the scope of
 * `uniqueWithin`), as row errors.
 */
async function uniqueClashes<F extends Fields>(
  { table, columns, tableColumns, resource }: ImportContext<F>,
  tx: Executor,
  rows: { row: number; values: Values }[],
  /** The cells of each row as typed, to name the scope a value clashes in. */
  rawOf: (row: number) => Raw[],
  fixed: Values,
): Promise<ImportRowError[]> {
  const errors: ImportRowError[] = [];
  for (const c of columns.filter((col) => col.field.unique)) {
    const scope = c.field.uniqueWithin;
    const keyOf = (value: unknown, scopeValue: unknown) =>
      `${String(scopeValue ?? '')}\u0000${typeof value === 'string' ? value.toLowerCase() : String(value)}`;
    const seen = new Map<string, number>();
    const candidates = rows.filter(
      (r) => r.values[c.key] !== undefined && r.values[c.key] !== null && r.values[c.key] !== '',
    );
    for (const r of candidates) {
      const key = keyOf(r.values[c.key], scope ? r.values[scope] : undefined);
      const first = seen.get(key);
      if (first !== undefined) {
        errors.push({
          row: r.row,
          column: c.header,
          message: importMessages.duplicateInFile(c.field.label, first),
        });
      } else seen.set(key, r.row);
    }
    if (candidates.length === 0) continue;
    const column = tableColumns[c.key];
    const values = [...new Set(candidates.map((r) => r.values[c.key]))];
    const strings = typeof values[0] === 'string';
    const conditions: SQL[] = [
      strings
        ? inArray(
            sql`lower(${column})`,
            values.map((v) => String(v).toLowerCase()),
          )
        : inArray(column, values),
    ];
    const stored = await tx
      .select({ value: column, ...(scope ? { scope: tableColumns[scope] } : {}) })
      .from(table)
      .where(and(...conditions));
    const taken = new Set(stored.map((s) => keyOf(s.value, propertyOf(s, 'scope'))));
    // The scope as the user knows it: 本门禁组 when the request chose it, else the row's own cell.
    const scopeIndex = columns.findIndex((col) => col.key === scope);
    const whereOf = (row: number) =>
      !scope
        ? undefined
        : scope in fixed || scopeIndex < 0
          ? `本${resource.fields[scope]?.label ?? ''}`
          : `「${String(rawOf(row)[scopeIndex] ?? '')}」`;
    for (const r of candidates) {
      if (taken.has(keyOf(r.values[c.key], scope ? r.values[scope] : undefined))) {
        errors.push({
          row: r.row,
          column: c.header,
          // A phone is the person: a second record with it is never meant.
          message: importMessages.duplicateInDb(
            c.field.label,
            String(r.values[c.key]),
            whereOf(r.row),
            c.field.kind !== 'phone',
          ),
        });
      }
    }
  }
  return errors;
}

export async function importFile<F extends Fields>(
  context: ImportContext<F>,
  request: FastifyRequest,
  data: Buffer,
): Promise<{ imported: number; skippedRows: number[] }> {
  const { resource, table, hooks, options, columns, schema } = context;
  const isExample = exampleMatcher(context);
  const fixed = (await options.fixedValues?.(request)) ?? {};
  const read = await readRows(columns, data);
  const skippedRows = read.filter((r) => isExample(r.raw)).map((r) => r.row);
  const rows = read.filter((r) => !isExample(r.raw));
  if (rows.length === 0 && skippedRows.length > 0) throw badRequest(importMessages.onlyExample);
  const rawByRow = new Map(rows.map((r) => [r.row, r.raw]));

  const refs = await lookups(context, request);
  const lookupOf = (key: string): Lookup | undefined => {
    const choices = refs.get(key);
    if (!choices) return undefined;
    const map: Lookup = new Map();
    for (const o of choices)
      map.set(o.label.toLowerCase(), [...(map.get(o.label.toLowerCase()) ?? []), o.value]);
    return map;
  };
  const lookupsByKey = new Map(columns.map((c) => [c.key, lookupOf(c.key)]));

  const errors: ImportRowError[] = [];
  // Cells that cannot be read are reported here; the rows' other rules are still checked below.
  const parsed: { row: number; cells: Values; unreadable: Set<string> }[] = [];
  for (const { row: number, raw } of rows) {
    const cells: Values = {};
    const rowErrors: ImportRowError[] = [];
    for (const [i, c] of columns.entries()) {
      try {
        const value = toFieldValue(c, raw[i], lookupsByKey.get(c.key));
        if (value !== undefined) cells[c.key] = value;
      } catch (error) {
        if (!(error instanceof CellError)) throw error;
        rowErrors.push({ row: number, column: c.header, message: error.message });
      }
    }
    errors.push(...rowErrors);
    parsed.push({ row: number, cells, unreadable: new Set(rowErrors.map((e) => e.column)) });
  }
  if (parsed.length === 0) throw badRequest(importMessages.empty);

  return request.server.db.transaction(async (tx) => {
    await options.beforeRows?.({ tx, request, fixed });
    const ready: { row: number; values: Values }[] = [];
    // One pass reports every error of every row: a cell that could not be read is still checked
    // against the row's other rules, and the row's own checks (prepare) run on the cells that
    // are valid, so fixing one error never reveals the next.
    for (const { row, cells, unreadable } of parsed) {
      const result = schema.safeParse({ ...fixed, ...cells });
      let valid = unreadable.size === 0 && result.success;
      if (!result.success) {
        for (const issue of result.error.issues) {
          const column = columns.find((c) => c.key === issue.path[0]);
          const header = column?.header ?? '—';
          if (!unreadable.has(header))
            errors.push({ row, column: header, message: forImport(issue.message) });
        }
      }
      const values = result.success
        ? recordOf(result.data)
        : Object.fromEntries(
            Object.entries({ ...fixed, ...cells }).flatMap(([key, value]) => {
              const own = resource.fields[key]?.schema.safeParse(value);
              return own?.success ? [[key, own.data]] : [];
            }),
          );
      // The row's own checks stop at their first error; each error's cell is set aside and the
      // checks run again on the rest, so every cell they would refuse is named at once.
      const checked = new Set<string>();
      for (let attempt = values; ;) {
        try {
          const prepared = hooks.prepare ? await hooks.prepare({ ...attempt }, { request, tx }) : attempt;
          if (valid) ready.push({ row, values: prepared });
          break;
        } catch (error) {
          if (!(error instanceof AppError) || error.statusCode !== 400) {
            if (valid) throw error;
            break; // the checks met cells already reported as wrong: those errors stand
          }
          valid = false;
          const cell = columnOfMessage(columns, error.message);
          errors.push({ row, column: cell.column, message: forImport(cell.message) });
          const column = columns.find((c) => c.header === cell.column);
          if (!column || checked.has(column.key) || !(column.key in attempt)) break;
          checked.add(column.key);
          const { [column.key]: _setAside, ...rest } = attempt;
          attempt = rest;
        }
      }
    }
    errors.push(...(await uniqueClashes(context, tx, ready, (row) => rawByRow.get(row) ?? [], fixed)));
    if (errors.length > 0) throw new ImportRejected(onePerCell(errors));

    const by = request.user?.id ?? null;
    for (let i = 0; i < ready.length; i += 500) {
      const chunk = ready.slice(i, i + 500);
      const saved = asRows(
        await tx
          .insert(table)
          .values(chunk.map((r) => ({ ...r.values, createdBy: by, updatedBy: by })))
          .returning(),
      );
      for (const [j, record] of saved.entries()) {
        await hooks.afterWrite?.(record, chunk[j].values, { request, tx });
      }
      await options.afterRows?.(saved, { tx, request });
      const answered = hooks.expand ? asRows(await hooks.expand(saved, tx)) : saved;
      await auditMany(
        request,
        answered.map((record) => ({
          action: 'import',
          resource: resource.key,
          resourceId: record.id,
          after: record,
        })),
        tx,
      );
    }
    return { imported: ready.length, skippedRows };
  });
}
