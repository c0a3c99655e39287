/**
 * The uploaded file: received whole within its size limit, and its first sheet's data rows read as
 * the template's columns, within the unpacked, cell and row limits.
 */
import type ExcelJS from 'exceljs';
import type { FastifyRequest } from 'fastify';
import {
  IMPORT_MAX_CELL_CHARS,
  IMPORT_MAX_ROWS,
  IMPORT_MAX_UNPACKED_BYTES,
  importMessages,
  type Fields,
} from '@cowork/contract';
import { AppError, badRequest } from '../http.ts';
import { readSheetRows, XlsxLimitError, XlsxNoSheetError } from '../read-sheet-rows.ts';
import { textOf } from '../unknown.ts';
import { cellValue, type ImportColumn, type Raw } from './cells.ts';
import { byKey, type ImportContext } from './context.ts';

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** The uploaded file, whole: refused when missing, too large or not a ZIP package. */
export async function receive(request: FastifyRequest): Promise<Buffer> {
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
export function exampleMatcher<F extends Fields>({ columns, options }: ImportContext<F>) {
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
  return (raw: Raw[]) =>
    exampleCells.length > 0 &&
    exampleCells.every(({ index, text }) => raw[index] !== undefined && String(raw[index]) === text);
}

/** Header → column number; 400 naming the first template column the header row (if any) lacks. */
function headerMap(columns: ImportColumn[], header: ExcelJS.Row | undefined): Map<string, number> {
  const found = new Map<string, number>();
  header?.eachCell((cell, col) => {
    const text = cellValue(cell.value);
    if (typeof text === 'string') found.set(text, col);
  });
  for (const c of columns) if (!found.has(c.header)) throw badRequest(importMessages.missingColumn(c.header));
  return found;
}

/**
 * The data rows of the file's first sheet, each as its template columns' cells, read as a stream
 * and stopped at the first limit passed: the unpacked size, a cell's length or the row count.
 * Rows without a value in any template column (formatting only) are left out, but counted.
 */
export async function readRows(
  columns: ImportColumn[],
  data: Buffer,
): Promise<{ row: number; raw: Raw[] }[]> {
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
        headers = headerMap(columns, row.number === 1 ? row : undefined);
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
  if (!headers) headerMap(columns, undefined);
  return rows;
}
