/**
 * readSheetRows(): the rows of an .xlsx's first worksheet, read as a stream within limits, for the
 * Excel import. An .xlsx is a ZIP of XML parts, and a few hundred KB can inflate to gigabytes (one
 * cell of 200 MB zips to 200 KB), so nothing here holds a whole part:
 *
 * - yauzl reads the ZIP from its central directory and inflates one part at a time as a stream;
 *   it also refuses a part that inflates to more than its declared size. The sizes the ZIP declares
 *   are never relied on: every inflated byte is counted against `unpackedBytes`, shared by all parts.
 * - Each part goes, decoded as UTF-8 across chunk boundaries, to exceljs's own streaming parsers
 *   (the per-part parsers of `ExcelJS.stream.xlsx.WorkbookReader`, fed here instead of by its
 *   forward-only unzip, which neither counts bytes nor lets a caller stop it).
 * - While the XML streams, no run of text between two tags may exceed what `cellChars` characters
 *   can take written as XML (the parser would otherwise build the whole run in memory first); each
 *   shared string and each cell is then checked against `cellChars` itself.
 *
 * The first limit passed stops the reading with an XlsxLimitError; any other error means the file
 * is no readable .xlsx. The caller stops early (a row limit) by leaving its `for await`.
 *
 * @example
 *   for await (const row of readSheetRows(data, { unpackedBytes: 32 << 20, cellChars: 2000 })) …
 */
import path from 'node:path';
import { Readable, Transform, pipeline, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { loadExcelJS } from './excel-export.ts';

export interface SheetLimits {
  /** Bytes all the parts read may inflate to, together. */
  unpackedBytes: number;
  /** Characters in one cell (or shared string). */
  cellChars: number;
}

/** Which limit stopped the reading. */
export class XlsxLimitError extends Error {
  constructor(readonly limit: 'unpackedBytes' | 'cellChars') {
    super(`xlsx over its ${limit} limit`);
  }
}

/** The workbook names no worksheet that the package holds. */
export class XlsxNoSheetError extends Error {}

/**
 * XML writes a character in at most 10 (`&#x10FFFF;`), so a longer run between tags holds a text
 * (or attribute) longer than `cellChars` and is refused before the parser builds it.
 */
const XML_CHARS_PER_CHAR = 10;

/** The parts read: the workbook, its relationships, styles, shared strings and the worksheets. */
const PARTS =
  /^xl\/(workbook\.xml|_rels\/workbook\.xml\.rels|styles\.xml|sharedStrings\.xml|worksheets\/sheet\d+\.xml)$/;
/** A worksheet part, named as exceljs names them. */
const SHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/**
 * The per-part parsers of exceljs's streaming WorkbookReader (exceljs 4, not in its typings); each
 * reads one part from a stream and keeps what it read on the reader, as the reader's own `parse()`
 * does with the parts of its unzip.
 */
interface PartParsers {
  workbookRels?: { Id: string; Target: string }[];
  model?: { sheets?: { rId: string }[] };
  sharedStrings?: ExcelJS.CellValue[];
  _parseRels(part: Readable): Promise<void>;
  _parseWorkbook(part: Readable): Promise<void>;
  _parseStyles(part: Readable): Promise<void>;
  _parseSharedStrings(part: Readable): AsyncGenerator<{ index: number; text: ExcelJS.CellValue }>;
  _parseWorksheet(
    part: Readable,
    sheetNo: string,
  ): Generator<{ eventType: 'worksheet'; value: AsyncIterable<ExcelJS.Row> }>;
}

const PARSERS = ['_parseRels', '_parseWorkbook', '_parseStyles', '_parseSharedStrings', '_parseWorksheet'];

/** Whether the reader has the per-part parsers (methods of exceljs 4 its typings do not declare). */
const hasPartParsers = (reader: object): reader is PartParsers =>
  PARSERS.every((name) => typeof Reflect.get(reader, name) === 'function');

/** The characters of a cell's text (rich text joined, a formula by its text result). */
function textLength(value: ExcelJS.CellValue): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object' || value instanceof Date) return 0;
  if ('richText' in value) return value.richText.reduce((n, run) => n + (run.text?.length ?? 0), 0);
  if ('result' in value && typeof value.result === 'string') return value.result.length;
  return 0;
}

/** Excel's escape of a character XML cannot hold (`_x000D_` for a carriage return). */
const unescapeText = (text: string) =>
  text.replace(/_x([0-9A-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * A shared string with Excel's escapes undone, as the whole-file reader gives it (the streaming
 * parser leaves them).
 */
function unescapeShared(value: ExcelJS.CellValue): ExcelJS.CellValue {
  if (typeof value === 'string') return unescapeText(value);
  if (value && typeof value === 'object' && 'richText' in value)
    return { richText: value.richText.map((run) => ({ ...run, text: unescapeText(run.text ?? '') })) };
  return value;
}

/**
 * One part's inflated bytes → UTF-8 text chunks: counts the bytes against the shared budget and
 * the characters between tags against the run limit, failing the stream at the first one passed.
 */
class PartGuard extends Transform {
  private readonly decoder = new StringDecoder('utf8');
  /** Characters since the last `<` or `>` (carried across chunks). */
  private run = 0;

  constructor(
    private readonly budget: { left: number },
    private readonly maxRun: number,
  ) {
    super({ readableObjectMode: true });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.budget.left -= chunk.length;
    if (this.budget.left < 0) return done(new XlsxLimitError('unpackedBytes'));
    const text = this.decoder.write(chunk);
    if (!this.scan(text)) return done(new XlsxLimitError('cellChars'));
    done(null, text);
  }

  override _flush(done: TransformCallback) {
    const rest = this.decoder.end();
    done(null, rest === '' ? undefined : rest);
  }

  /** False when a run between tags grows past the limit. */
  private scan(text: string): boolean {
    const markup = /[<>]/g;
    let last = -1;
    for (let match = markup.exec(text); match; match = markup.exec(text)) {
      if ((last < 0 ? this.run : 0) + match.index - last - 1 > this.maxRun) return false;
      last = match.index;
    }
    this.run = (last < 0 ? this.run : 0) + text.length - last - 1;
    return this.run <= this.maxRun;
  }
}

export async function* readSheetRows(data: Buffer, limits: SheetLimits): AsyncGenerator<ExcelJS.Row> {
  const zip = await yauzl.fromBufferPromise(data);
  try {
    // Only the parts a sheet's values need are kept and inflated (no images, themes or others).
    const entries = new Map<string, yauzl.Entry>();
    for await (const entry of zip.eachEntry()) {
      if (PARTS.test(entry.fileName) && !entries.has(entry.fileName)) entries.set(entry.fileName, entry);
    }
    const budget = { left: limits.unpackedBytes };
    const maxRun = limits.cellChars * XML_CHARS_PER_CHAR;
    const open = async (name: string): Promise<Readable | undefined> => {
      const entry = entries.get(name);
      if (!entry) return undefined;
      const guard = new PartGuard(budget, maxRun);
      // Errors of either stream reach the reader through the guard; the callback has nothing to add.
      pipeline(await zip.openReadStreamPromise(entry), guard, () => {});
      return guard;
    };

    const reader: object = new (await loadExcelJS()).stream.xlsx.WorkbookReader(Readable.from([]), {
      worksheets: 'emit',
      // Emitted one by one so each is checked as it is read; kept below for the sheet's cells.
      sharedStrings: 'emit',
      // Styles tell dates from numbers, as the whole-file reader does.
      styles: 'cache',
      hyperlinks: 'ignore',
      entries: 'ignore',
    });
    if (!hasPartParsers(reader))
      throw new Error('exceljs no longer has the per-part parsers of its WorkbookReader');

    const rels = await open('xl/_rels/workbook.xml.rels');
    const book = await open('xl/workbook.xml');
    if (!rels || !book) throw new XlsxNoSheetError();
    await reader._parseRels(rels);
    await reader._parseWorkbook(book);
    const styles = await open('xl/styles.xml');
    if (styles) await reader._parseStyles(styles);
    const strings: ExcelJS.CellValue[] = [];
    const shared = await open('xl/sharedStrings.xml');
    if (shared) {
      for await (const { text } of reader._parseSharedStrings(shared)) {
        const value = unescapeShared(text);
        if (textLength(value) > limits.cellChars) throw new XlsxLimitError('cellChars');
        strings.push(value);
      }
    }
    reader.sharedStrings = strings;

    // The first sheet in the workbook's order, as `workbook.worksheets[0]` of the whole-file reader.
    const first = reader.model?.sheets?.[0];
    const target = reader.workbookRels?.find((rel) => rel.Id === first?.rId)?.Target;
    // Targets are relative to xl/, or absolute within the package.
    const sheetPath = target && (target.startsWith('/') ? target.slice(1) : path.posix.join('xl', target));
    const sheetNo = sheetPath && SHEET.exec(sheetPath)?.[1];
    const sheetPart = sheetNo && (await open(sheetPath));
    if (!sheetPart) throw new XlsxNoSheetError();
    for (const { value: sheet } of reader._parseWorksheet(sheetPart, sheetNo)) {
      for await (const row of sheet) {
        row.eachCell((cell) => {
          if (textLength(cell.value) > limits.cellChars) throw new XlsxLimitError('cellChars');
        });
        yield row;
      }
    }
  } finally {
    zip.close();
  }
}
