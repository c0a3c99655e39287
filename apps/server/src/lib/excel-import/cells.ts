/**
 * The cells of an import: the template's columns, a cell read as typed and turned into the value the
 * create schema reads, and the messages of a refused row said for a file.
 */
import type ExcelJS from 'exceljs';
import {
  importMessages,
  type Field,
  type Fields,
  type ImportRowError,
  type ResourceDef,
} from '@cowork/contract';

/** Kinds a cell cannot hold (uploads, formatted articles, secrets). */
const NOT_IN_CELLS = new Set<Field['kind']>(['image', 'images', 'richtext', 'password']);

export interface ImportColumn {
  key: string;
  field: Field;
  /** The header of the column: the label, `{label}名称` for references, `{label}（元）` for money. */
  header: string;
}

export function importColumns<F extends Fields>(options: {
  resource: ResourceDef<F>;
  fields?: (keyof F & string)[];
}) {
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

export const isRequired = (field: Field) => !field.schema.safeParse(undefined).success;

/** The errors in row order, one per cell: the first said of a cell is the one it gets. */
export function onePerCell(errors: ImportRowError[]): ImportRowError[] {
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
export function cellValue(cell: ExcelJS.CellValue): string | number | boolean | Date | undefined {
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
export type Raw = ReturnType<typeof cellValue>;

/** Reference options by lower-cased name (a name held by several records maps to all of them). */
export type Lookup = Map<string, number[]>;

export class CellError extends Error {}

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell → the value the create schema reads for its field; throws CellError when it cannot be. */
export function toFieldValue(
  column: ImportColumn,
  raw: ReturnType<typeof cellValue>,
  lookup?: Lookup,
): unknown {
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
export const forImport = (message: string) =>
  message
    .replace(/请重新(选择|输入)/g, '请改正后重新导入')
    .replace(/后再选择/g, '后重新导入')
    .replace(/请(选择|输入)/g, '请填写')
    .replace(/请按 (\S+) 选择/g, '请按 $1 填写');

/** The column a `prepare` message names: `{label}：…`, else the longest label it mentions. */
export function columnOfMessage(
  columns: ImportColumn[],
  message: string,
): { column: string; message: string } {
  const prefixed = /^([^：]+)：(.+)$/s.exec(message);
  const byPrefix = prefixed && columns.find((c) => c.field.label === prefixed[1]);
  if (byPrefix) return { column: byPrefix.header, message: prefixed[2] };
  const named = columns
    .filter((c) => message.includes(c.field.label))
    .sort((a, b) => b.field.label.length - a.field.label.length)[0];
  return { column: named?.header ?? '—', message };
}
