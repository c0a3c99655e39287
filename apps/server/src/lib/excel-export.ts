/**
 * Streams a list to the caller as an .xlsx: columns plus rows read in batches, each row committed
 * to the zip as soon as it is written, so memory holds one batch however long the list is.
 * A list gains an export with one call:
 *
 * @example
 *   // 会员卡订单-20261121.xlsx, every order the filters select, newest first
 *   return sendExcel(reply, { title: '会员卡订单', columns, rows: tableBatches(db, orders, conditions) });
 */
import { PassThrough } from 'node:stream';
import { and, desc, lt, type InferSelectModel, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { businessDateTime, businessDay, optionLabel, type ResourceDef } from '@cowork/contract';
import type { Database } from '../db/client.ts';
import { errorOf } from './unknown.ts';

export type ExcelValue = string | number | null | undefined;

export interface ExcelColumn<R> {
  /** The header a person reads (Chinese). */
  header: string;
  value: (row: R) => ExcelValue;
  width?: number;
  /** Excel number format, e.g. '0.00' for yuan. */
  numFmt?: string;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Yuan with two decimals from integer fen (a number, so Excel can sum it). */
export const yuanColumn = <R>(
  header: string,
  fen: (row: R) => number | null | undefined,
): ExcelColumn<R> => ({
  header,
  value: (row) => {
    const value = fen(row);
    return value === null || value === undefined ? null : value / 100;
  },
  numFmt: '0.00',
  width: 14,
});

/** A time as people read it in the business time zone: `2026-11-21 09:30:00`. */
export const businessTime = (date: Date | null | undefined) => (date ? businessDateTime(date) : null);

/** The label of an enumeration value, the value itself when unknown. */
export const labelOf = (
  options: readonly { value: string; label: string }[],
  value: string | null | undefined,
) => (value ? optionLabel(options, value) : null);

/**
 * The columns of a resource's listed fields, each as its screen shows it: money in yuan, times in
 * the business time zone, options by name, yes/no in Chinese. A list whose table is its resource
 * exports with these.
 */
export function fieldColumns(resource: Pick<ResourceDef, 'fields'>): ExcelColumn<Record<string, unknown>>[] {
  const listed = Object.entries(resource.fields).filter(([, f]) => f.list !== false && !f.writeOnly);
  return listed.map(([key, field]) => {
    const read = (row: Record<string, unknown>) => row[key];
    switch (field.kind) {
      case 'money':
        return yuanColumn(field.label, (row) => {
          const fen = read(row);
          return typeof fen === 'number' ? fen : null;
        });
      case 'datetime':
        return {
          header: field.label,
          value: (row) => {
            const at = read(row);
            return businessTime(at instanceof Date ? at : null);
          },
          width: 20,
        };
      case 'enum':
        return {
          header: field.label,
          value: (row) => {
            const value = read(row);
            return labelOf(field.options ?? [], typeof value === 'string' ? value : null);
          },
        };
      case 'boolean':
        return {
          header: field.label,
          value: (row) => (read(row) === true ? '是' : read(row) === false ? '否' : null),
        };
      default:
        return {
          header: field.label,
          value: (row) => {
            const value = read(row);
            if (value === null || value === undefined) return null;
            if (Array.isArray(value)) return value.join('、');
            return typeof value === 'number' ? value : String(value);
          },
        };
    }
  });
}

/**
 * Text Excel or another spreadsheet could take for a formula once someone edits the cell (= + - @,
 * and tab or CR ahead of them) gets a leading single quote, the usual CSV-injection defence; the
 * cell is written as a string either way, never as a formula.
 */
export const neutralizeFormula = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** `attachment` with an ASCII fallback and the real (Chinese) name per RFC 5987. */
export const attachmentHeader = (fileName: string) => {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
};

/**
 * Batches of rows read by id, largest first (newest orders first), each after the last id of the
 * batch before: no OFFSET, so the thousandth batch costs what the first does.
 */
export async function* keysetBatches<R extends { id: number }>(
  read: (beforeId: number | undefined, limit: number) => Promise<R[]>,
  size = 2000,
): AsyncGenerator<R[]> {
  let beforeId: number | undefined;
  for (;;) {
    const batch = await read(beforeId, size);
    if (batch.length > 0) yield batch;
    if (batch.length < size) return;
    beforeId = batch[batch.length - 1].id;
  }
}

/** The rows of `table` that meet `conditions`, in keyset batches, newest (largest id) first. */
export function tableBatches<T extends PgTable & { id: PgColumn }>(
  db: Database,
  table: T,
  conditions: (SQL | undefined)[],
): AsyncGenerator<(InferSelectModel<T> & { id: number })[]>;
// Drizzle cannot infer a select from a table that is a type parameter: read as any table's, the
// rows are still those of `table`, as its signature above says.
export function tableBatches(
  db: Database,
  table: PgTable & { id: PgColumn },
  conditions: (SQL | undefined)[],
): AsyncGenerator<{ id: number }[]> {
  return keysetBatches(async (beforeId, limit) => {
    const rows = await db
      .select()
      .from(table)
      .where(and(...conditions, beforeId === undefined ? undefined : lt(table.id, beforeId)))
      .orderBy(desc(table.id))
      .limit(limit);
    return rows.filter(hasNumericId);
  });
}

/** Every table read in batches has an integer id. */
const hasNumericId = (row: Record<string, unknown>): row is { id: number } => typeof row.id === 'number';

/** Today in the business time zone as a file name carries it: `20261121`. */
export const fileDay = (at = new Date()) => businessDay(at).replaceAll('-', '');

/** Resolves once the reader caught up, or the stream closed (it will never drain then). */
const drainedOrClosed = (output: PassThrough) =>
  new Promise<void>((resolve) => {
    const done = () => {
      output.off('drain', done);
      output.off('close', done);
      resolve();
    };
    output.on('drain', done);
    output.on('close', done);
  });

/**
 * exceljs, loaded at the first spreadsheet rather than at start: most processes serve lists far
 * more often than files, and it is one of the largest modules (about 25 MB of a process's memory).
 */
export const loadExcelJS = async (): Promise<typeof ExcelJS> => (await import('exceljs')).default;

/** Writes the workbook into `output`, waiting for the reader whenever it falls behind. */
export async function writeExcel<R>(
  output: PassThrough,
  options: { sheetName: string; columns: ExcelColumn<R>[]; rows: AsyncIterable<R[]> },
): Promise<void> {
  const { stream } = await loadExcelJS();
  // No shared strings table: it would keep every distinct text in memory until the end.
  const workbook = new stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(options.sheetName);
  sheet.columns = options.columns.map((c, i) => ({
    key: String(i),
    header: c.header,
    width: c.width ?? Math.max(12, c.header.length * 2 + 4),
    style: c.numFmt ? { numFmt: c.numFmt } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for await (const batch of options.rows) {
    for (const row of batch) {
      sheet
        .addRow(
          options.columns.map((c) => {
            const value = c.value(row);
            return typeof value === 'string' ? neutralizeFormula(value) : (value ?? null);
          }),
        )
        .commit();
    }
    if (output.writableNeedDrain) await drainedOrClosed(output);
    // The caller went away (download cancelled): stop reading the database.
    if (output.destroyed) return;
  }
  sheet.commit();
  await workbook.commit();
}

/**
 * Answers the request with the workbook as it is written. Throw any 400 before calling this: once
 * the headers are out, a failure can only cut the download short (and is logged).
 */
export function sendExcel<R>(
  reply: FastifyReply,
  options: {
    /** The sheet's name, and the file's: `<title>-<today>.xlsx` unless `fileName` says otherwise. */
    title: string;
    fileName?: string;
    columns: ExcelColumn<R>[];
    rows: AsyncIterable<R[]>;
  },
) {
  const output = new PassThrough();
  const fileName = options.fileName ?? `${options.title}-${fileDay()}.xlsx`;
  writeExcel(output, { sheetName: options.title, ...options }).catch((error: unknown) => {
    reply.log.error({ err: error }, 'Excel export failed while streaming');
    output.destroy(errorOf(error));
  });
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', attachmentHeader(fileName))
    .header('cache-control', 'no-store')
    .send(output);
}
