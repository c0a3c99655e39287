/**
 * Excel import of any resource declared in the contract: `GET {base}/import/template` answers an
 * .xlsx whose columns are the form fields under their Chinese labels (money in yuan, enumerations
 * by their labels, references by the referenced record's name, lists separated by 、) and no data
 * row: each column's example is in its header's note and on the 说明 sheet, never in a row that
 * could be imported. `POST {base}/import/excel` (multipart field `file`) reads a filled one. A row
 * equal to the example (a template downloaded before the example left the sheet) is skipped, and
 * the answer says so. Every other row goes through
 * the create schema, the module's own `prepare` and the unique checks (inside the file and against
 * the database); one bad row and nothing is written, the answer listing every bad row. Otherwise
 * all rows are inserted in one transaction, each audited.
 *
 * @example
 *   const options = { resource: officeSeat, table: officeSeats, prepare };
 *   app.register(crudModule(options));
 *   app.register(excelImportRoutes({ ...options, example: { code: 'A区-01', … } }));
 */
import multipart from '@fastify/multipart';
import type ExcelJS from 'exceljs';
import { and, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createSchema,
  IMPORT_HELP_SHEET,
  IMPORT_LIST_SEPARATOR,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_CELL_CHARS,
  IMPORT_MAX_ROWS,
  IMPORT_MAX_UNPACKED_BYTES,
  importMessages,
  importPaths,
  importRejection,
  importResult,
  resourcePermissions,
  type Field,
  type Fields,
  type ImportRowError,
  type ListOption,
} from '@cowork/contract';
import type { Executor } from '../db/client.ts';
import { auditMany } from './audit.ts';
import { asRows, loosen, type CrudOptions, type ResourceTable } from './crud.ts';
import { loadExcelJS } from './excel-export.ts';
import { AppError, badRequest, envelope, errorEnvelope, ok } from './http.ts';
import { readSheetRows, XlsxLimitError, XlsxNoSheetError } from './read-sheet-rows.ts';
import { propertyOf, recordOf, textOf } from './unknown.ts';

type Values = Record<string, unknown>;

/** A per-field option (a column's choices, sample, note) by the column's key. */
const byKey = <V>(map: Partial<Record<string, V>> | undefined, key: string): V | undefined => map?.[key];

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
  /** Runs once an import has committed (re-syncing door devices, say). */
  afterImport?: (request: FastifyRequest) => void;
  /** The 必填 column of the 说明 sheet where it depends on other cells (楼层: 楼宇设有楼层时必填). */
  requiredWhen?: Partial<Record<keyof F & string, string>>;
}

/** Kinds a cell cannot hold (uploads, formatted articles, secrets). */
const NOT_IN_CELLS = new Set<Field['kind']>(['image', 'images', 'richtext', 'password']);
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export interface ImportColumn {
  key: string;
  field: Field;
  /** The header of the column: the label, `{label}名称` for references, `{label}（元）` for money. */
  header: string;
}

export function importColumns<F extends Fields>(options: Pick<ExcelImportOptions<F>, 'resource' | 'fields'>) {
  const entries: [string, Field][] = Object.entries(options.resource.fields);
  const chosen = options.fields
    ? options.fields.map((key): [string, Field] => [key, options.resource.fields[key]])
    : entries.filter(([, f]) => f.form !== false && !NOT_IN_CELLS.has(f.kind));
  return chosen.map(([key, field]): ImportColumn => ({ key, field, header: headerOf(field) }));
}

const headerOf = (field: Field) =>
  field.kind === 'reference' || field.kind === 'references'
    ? `${field.label}名称`
    : field.kind === 'money'
      ? `${field.label}（元）`
      : field.label;

const isRequired = (field: Field) => !field.schema.safeParse(undefined).success;

/** The errors in row order, one per cell: the first said of a cell is the one it gets. */
function onePerCell(errors: ImportRowError[]): ImportRowError[] {
  const seen = new Set<string>();
  return errors
    .filter((e) => {
      const cell = `${e.row}\u0000${e.column}`;
      if (seen.has(cell)) return false;
      seen.add(cell);
      return true;
    })
    .sort((a, b) => a.row - b.row);
}

/** A cell's value as typed: rich text joined, formulas by their result, hyperlinks by their text. */
function cellValue(cell: ExcelJS.CellValue): string | number | boolean | Date | undefined {
  if (cell === null || cell === undefined) return undefined;
  if (typeof cell === 'string') return cell.trim() === '' ? undefined : cell.trim();
  if (typeof cell === 'number' || typeof cell === 'boolean' || cell instanceof Date) return cell;
  if ('richText' in cell) return cellValue(cell.richText.map((part) => part.text).join(''));
  if ('formula' in cell || 'sharedFormula' in cell) return cellValue(cell.result ?? null);
  if ('text' in cell) return cellValue(String(cell.text));
  if ('error' in cell) return String(cell.error);
  return undefined;
}

/** A cell as read (cellValue). */
type Raw = ReturnType<typeof cellValue>;

/** Reference options by lower-cased name (a name held by several records maps to all of them). */
type Lookup = Map<string, number[]>;

class CellError extends Error {}

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell → the value the create schema reads for its field; throws CellError when it cannot be. */
function toFieldValue(column: ImportColumn, raw: ReturnType<typeof cellValue>, lookup?: Lookup): unknown {
  const { field } = column;
  if (raw === undefined) return undefined;
  const text = raw instanceof Date ? raw.toISOString() : String(raw).trim();
  const list = () =>
    text
      .split(/[、,，]/)
      .map((s) => s.trim())
      .filter(Boolean);
  switch (field.kind) {
    case 'money': {
      const yuan = typeof raw === 'number' ? raw : Number(text.replace(/^[¥￥]/, ''));
      if (!Number.isFinite(yuan)) throw new CellError(importMessages.notNumber(field.label));
      const fen = Math.round(yuan * 100);
      // More than two decimals stays fractional, so the schema says 须精确到分.
      return Math.abs(yuan * 100 - fen) < 1e-6 ? fen : yuan * 100;
    }
    case 'integer':
    case 'decimal': {
      const n = typeof raw === 'number' ? raw : Number(text);
      if (!Number.isFinite(n)) throw new CellError(importMessages.notNumber(field.label));
      return n;
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      if (['是', 'true', '1', '已发布', '启用'].includes(text.toLowerCase())) return true;
      if (['否', 'false', '0', '未发布', '停用'].includes(text.toLowerCase())) return false;
      throw new CellError(importMessages.notBoolean(field.label));
    }
    case 'enum': {
      const option = field.options?.find((o) => o.label === text || o.value === text);
      if (!option)
        throw new CellError(
          importMessages.unknownOption(field.label, field.options?.map((o) => o.label) ?? []),
        );
      return option.value;
    }
    case 'reference':
    case 'references': {
      const ids = (field.kind === 'reference' ? [text] : list()).map((name) => {
        const found = lookup?.get(name.toLowerCase()) ?? [];
        if (found.length === 0) throw new CellError(importMessages.unknownReference(field.label, name));
        if (found.length > 1) throw new CellError(importMessages.ambiguousReference(field.label, name));
        return found[0];
      });
      return field.kind === 'reference' ? ids[0] : ids;
    }
    case 'tags':
      return list();
    case 'time':
      // Excel keeps a time of day as a date on 1899-12-30, in UTC.
      return raw instanceof Date ? `${pad(raw.getUTCHours())}:${pad(raw.getUTCMinutes())}` : text;
    case 'date':
      return raw instanceof Date ? raw.toISOString().slice(0, 10) : text;
    case 'datetime':
      return raw instanceof Date ? raw.toISOString() : text;
    default:
      return typeof raw === 'number' ? String(raw) : text;
  }
}

/**
 * A form's message said for a file: what a form asks to choose or type again is, in a file, a cell
 * to fill in or correct before importing again.
 */
const forImport = (message: string) =>
  message
    .replace(/请重新(选择|输入)/g, '请改正后重新导入')
    .replace(/后再选择/g, '后重新导入')
    .replace(/请(选择|输入)/g, '请填写')
    .replace(/请按 (\S+) 选择/g, '请按 $1 填写');

/** The column a `prepare` message names: `{label}：…`, else the longest label it mentions. */
function columnOfMessage(columns: ImportColumn[], message: string): { column: string; message: string } {
  const prefixed = /^([^：]+)：(.+)$/s.exec(message);
  const byPrefix = prefixed && columns.find((c) => c.field.label === prefixed[1]);
  if (byPrefix) return { column: byPrefix.header, message: prefixed[2] };
  const named = columns
    .filter((c) => message.includes(c.field.label))
    .sort((a, b) => b.field.label.length - a.field.label.length)[0];
  return { column: named?.header ?? '—', message };
}

/** A refused import: 400 with every bad row in `data.errors`. */
class ImportRejected extends Error {
  constructor(readonly errors: ImportRowError[]) {
    super('import rejected');
  }
}

export function excelImportRoutes<F extends Fields, T extends ResourceTable>(
  typedOptions: ExcelImportOptions<F, T>,
): FastifyPluginAsyncZod {
  const options = loosen(typedOptions);
  const { resource, table } = options;
  const paths = importPaths(resource);
  const permissions = resourcePermissions(resource);
  const columns = importColumns(options);
  const schema = createSchema(resource);
  const tableColumns: Record<string, PgColumn> = getTableColumns(table);
  const tags = [resource.key];

  /** Each reference column's options: its own `choices`, else its list endpoint read as the caller. */
  async function lookups(request: FastifyRequest): Promise<Map<string, ListOption[]>> {
    const found = new Map<string, ListOption[]>();
    for (const { key, field } of columns) {
      const own = byKey(options.choices, key);
      if (own) {
        found.set(key, await own(request));
        continue;
      }
      if (!field.listEndpoint) continue;
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

  /**
   * The template: the header row alone (an example row would be imported as real data, and a marked
   * one too once a user types over it), each header with its example as a note, and a 说明 sheet
   * with the allowed values and the example.
   */
  async function template(request: FastifyRequest): Promise<Buffer> {
    const choices = await lookups(request);
    const workbook = new (await loadExcelJS()).Workbook();
    const sheet = workbook.addWorksheet(resource.label);
    sheet.columns = columns.map((c) => ({
      header: c.header,
      key: c.key,
      width: Math.max(14, c.header.length * 3),
    }));
    sheet.getRow(1).font = { bold: true };
    sheet.views = [{ state: 'frozen', ySplit: 1 }];
    const sample: Values = {};
    for (const [i, c] of columns.entries()) {
      const derive = byKey(options.sample, c.key);
      sample[c.key] = derive
        ? ((await derive(sample, request)) ?? '')
        : (choices.get(c.key)?.[0]?.label ?? byKey(options.example, c.key) ?? '');
      if (sample[c.key] !== '') sheet.getRow(1).getCell(i + 1).note = `示例：${String(sample[c.key])}`;
    }
    const help = workbook.addWorksheet(IMPORT_HELP_SHEET);
    help.columns = [
      { header: '列名', key: 'header', width: 18 },
      { header: '必填', key: 'required', width: 16 },
      { header: '填写说明', key: 'note', width: 80 },
      { header: '示例', key: 'example', width: 18 },
    ];
    help.getRow(1).font = { bold: true };
    for (const c of columns) {
      const names = choices.get(c.key)?.map((o) => o.label);
      const dataNote = await byKey(options.notes, c.key)?.(request);
      const notes = [
        c.field.options && `可选值：${c.field.options.map((o) => o.label).join(IMPORT_LIST_SEPARATOR)}`,
        c.field.kind === 'boolean' && '填 是 或 否',
        c.field.kind === 'money' && '单位为元，最多两位小数，如 88.50',
        c.field.kind === 'time' && '时:分，如 09:00',
        c.field.kind === 'references' && `可填多个，用“${IMPORT_LIST_SEPARATOR}”分隔`,
        c.field.kind === 'tags' && `可填多个，用“${IMPORT_LIST_SEPARATOR}”分隔`,
        names && `可选值：${names.join(IMPORT_LIST_SEPARATOR)}`,
        c.field.help,
        dataNote,
      ].filter(Boolean);
      const required = byKey(options.requiredWhen, c.key) ?? (isRequired(c.field) ? '是' : '否');
      help.addRow({ header: c.header, required, example: sample[c.key], note: notes.join('；') });
    }
    help.addRow({});
    help.addRow({
      header: '注意',
      note: `从第 2 行起每行一条数据（模板中没有示例行，示例见本表的“示例”列和表头的批注），一次最多 ${IMPORT_MAX_ROWS} 行，每个单元格不超过 ${IMPORT_MAX_CELL_CHARS} 个字符；请勿修改表头。有任何一行出错时不会导入任何数据。`,
    });
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }

  /** The uploaded file, whole: refused when missing, too large or not a ZIP package. */
  async function receive(request: FastifyRequest): Promise<Buffer> {
    if (!request.isMultipart()) throw badRequest(importMessages.fileRequired);
    let data: Buffer | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file' && part.fieldname === 'file' && !data) data = await part.toBuffer();
        else if (part.type === 'file') await part.toBuffer();
      }
    } catch (error) {
      if (textOf(error, 'code') === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(importMessages.tooLarge);
      throw badRequest(importMessages.unreadable);
    }
    if (!data || data.length === 0) throw badRequest(importMessages.fileRequired);
    // The name is only a claim; an .xlsx is a ZIP package.
    if (!data.subarray(0, 4).equals(ZIP_MAGIC)) throw badRequest(importMessages.notXlsx);
    return data;
  }

  /**
   * The example's cells that never depend on the data (not a reference's first option, not derived
   * from another cell), by column: a row holding all of them is the example row of a template
   * downloaded before the example left the sheet, and is skipped rather than imported.
   */
  const exampleCells = columns.flatMap((c, index) => {
    const value = byKey(options.example, c.key);
    const fixedCell =
      value !== undefined &&
      !byKey(options.sample, c.key) &&
      !byKey(options.choices, c.key) &&
      c.field.kind !== 'reference' &&
      c.field.kind !== 'references';
    return fixedCell ? [{ index, text: String(value) }] : [];
  });
  const isExample = (raw: Raw[]) =>
    exampleCells.length > 0 &&
    exampleCells.every(({ index, text }) => raw[index] !== undefined && String(raw[index]) === text);

  /** Header → column number; 400 naming the first template column the header row (if any) lacks. */
  function headerMap(header: ExcelJS.Row | undefined): Map<string, number> {
    const found = new Map<string, number>();
    header?.eachCell((cell, col) => {
      const text = cellValue(cell.value);
      if (typeof text === 'string') found.set(text, col);
    });
    for (const c of columns)
      if (!found.has(c.header)) throw badRequest(importMessages.missingColumn(c.header));
    return found;
  }

  /**
   * The data rows of the file's first sheet, each as its template columns' cells, read as a stream
   * and stopped at the first limit passed: the unpacked size, a cell's length or the row count.
   * Rows without a value in any template column (formatting only) are left out, but counted.
   */
  async function readRows(data: Buffer): Promise<{ row: number; raw: Raw[] }[]> {
    const rows: { row: number; raw: Raw[] }[] = [];
    let headers: Map<string, number> | undefined;
    let count = 0;
    try {
      for await (const row of readSheetRows(data, {
        unpackedBytes: IMPORT_MAX_UNPACKED_BYTES,
        cellChars: IMPORT_MAX_CELL_CHARS,
      })) {
        if (!headers) {
          // The header is row 1: a sheet whose first row comes later has none.
          headers = headerMap(row.number === 1 ? row : undefined);
          if (row.number === 1) continue;
        }
        if (!row.hasValues) continue;
        if (++count > IMPORT_MAX_ROWS) throw badRequest(importMessages.tooManyRows);
        const raw = columns.map((c) => cellValue(row.getCell(headers!.get(c.header)!).value));
        if (raw.some((value) => value !== undefined)) rows.push({ row: row.number, raw });
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof XlsxLimitError)
        throw badRequest(
          error.limit === 'unpackedBytes' ? importMessages.tooLargeUnpacked : importMessages.cellTooLong,
        );
      if (error instanceof XlsxNoSheetError) throw badRequest(importMessages.unreadable);
      throw badRequest(importMessages.notXlsx);
    }
    // An empty sheet has no header either.
    if (!headers) headerMap(undefined);
    return rows;
  }

  /**
   * Rows whose unique values clash inside the file or with stored records (within the scope of
   * `uniqueWithin`), as row errors.
   */
  async function uniqueClashes(
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
            ? `本${options.resource.fields[scope]?.label ?? ''}`
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

  async function importFile(
    request: FastifyRequest,
    data: Buffer,
  ): Promise<{ imported: number; skippedRows: number[] }> {
    const fixed = (await options.fixedValues?.(request)) ?? {};
    const read = await readRows(data);
    const skippedRows = read.filter((r) => isExample(r.raw)).map((r) => r.row);
    const rows = read.filter((r) => !isExample(r.raw));
    if (rows.length === 0 && skippedRows.length > 0) throw badRequest(importMessages.onlyExample);
    const rawByRow = new Map(rows.map((r) => [r.row, r.raw]));

    const refs = await lookups(request);
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
                const own = options.resource.fields[key]?.schema.safeParse(value);
                return own?.success ? [[key, own.data]] : [];
              }),
            );
        // The row's own checks stop at their first error; each error's cell is set aside and the
        // checks run again on the rest, so every cell they would refuse is named at once.
        const checked = new Set<string>();
        for (let attempt = values; ;) {
          try {
            const prepared = options.prepare
              ? await options.prepare({ ...attempt }, { request, tx })
              : attempt;
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
      errors.push(...(await uniqueClashes(tx, ready, (row) => rawByRow.get(row) ?? [], fixed)));
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
          await options.afterWrite?.(record, chunk[j].values, { request, tx });
        }
        const answered = options.expand ? await options.expand(saved, tx) : saved;
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

  return async (app) => {
    // Registered in this plugin's own context, so only the import route parses multipart bodies.
    await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

    app.get(
      paths.template,
      {
        config: { permission: permissions.edit },
        schema: { tags, summary: `下载${resource.label}导入模板（.xlsx）` },
      },
      async (request, reply) => {
        const file = await template(request);
        const name = encodeURIComponent(`${resource.label}导入模板.xlsx`);
        return reply
          .header('content-type', XLSX_TYPE)
          .header(
            'content-disposition',
            `attachment; filename="${resource.key}-template.xlsx"; filename*=UTF-8''${name}`,
          )
          .send(file);
      },
    );

    app.post(
      paths.excel,
      {
        config: { permission: permissions.edit },
        schema: {
          tags,
          summary: `从 Excel 导入${resource.label}（multipart 字段 file，.xlsx）`,
          description:
            `At most ${IMPORT_MAX_BYTES / 1024 / 1024} MB (${IMPORT_MAX_UNPACKED_BYTES / 1024 / 1024} MB unpacked), ` +
            `${IMPORT_MAX_ROWS} rows and ${IMPORT_MAX_CELL_CHARS} characters a cell. All rows or none: a refused ` +
            'file answers 400 with every bad row (row number as in Excel, column, message) in data.errors.',
          consumes: ['multipart/form-data'],
          response: { 200: envelope(importResult), 400: z.union([envelope(importRejection), errorEnvelope]) },
        },
      },
      async (request, reply) => {
        const data = await receive(request);
        try {
          const { imported, skippedRows } = await importFile(request, data);
          options.afterImport?.(request);
          return ok(
            { imported, ...(skippedRows.length > 0 ? { skippedRows } : {}) },
            importMessages.imported(imported, skippedRows),
          );
        } catch (error) {
          if (!(error instanceof ImportRejected)) throw error;
          const rows = new Set(error.errors.map((e) => e.row)).size;
          return reply
            .code(400)
            .send({ code: 400, msg: importMessages.rejected(rows), data: { errors: error.errors } });
        }
      },
    );
  };
}
