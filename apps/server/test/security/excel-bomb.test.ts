/**
 * Excel import bombs (hardening issue, point 1): an .xlsx is a ZIP of XML, so a small upload can
 * unpack to one 200 MB cell, to a sheet of 190 000 rows, or to a part larger than its ZIP header
 * says. Each is refused with a short 400 while the process's memory stays bounded, because the file
 * is read as a stream and stopped at the first limit (unpacked size, cell length, row count); a
 * bad value is quoted in at most 50 characters. The hostile files are zipped here by hand (a
 * streamed deflate, so 200 MB never sits in memory) and uploaded as 运营, the least role with an
 * import. Memory is compared, never time.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import v8 from 'node:v8';
import vm from 'node:vm';
import { crc32, createDeflateRaw } from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_CELL_CHARS,
  IMPORT_MAX_UNPACKED_BYTES,
  importMessages,
  importPaths,
  type ImportRowError,
} from '@cowork/contract';
import { officeSeat } from '@cowork/contract/resources/seat';
import { buildTestApp, demo, multipartFile, type TestApp } from '../helper.ts';

const MB = 1024 * 1024;

/** One ZIP part, deflated, with its true size and CRC (`declaredSize` makes its headers lie). */
interface Part {
  name: string;
  data: Buffer;
  size: number;
  crc: number;
  declaredSize?: number;
}

/** Deflates the chunks as a stream: the inflated text is never held whole. */
async function part(name: string, chunks: Iterable<string | Buffer>): Promise<Part> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  let size = 0;
  let crc = 0;
  for (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    crc = crc32(bytes, crc);
    if (!deflate.write(bytes)) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  return { name, data: Buffer.concat(out), size, crc };
}

/** A ZIP archive of the parts (local headers, central directory, end record). */
function zip(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at); // version needed
      header.writeUInt16LE(0x0800, at + 2); // UTF-8 names
      header.writeUInt16LE(8, at + 4); // deflate
      header.writeUInt16LE(0, at + 6); // time
      header.writeUInt16LE(0x21, at + 8); // 1980-01-01
      header.writeUInt32LE(p.crc, at + 10);
      header.writeUInt32LE(p.data.length, at + 14);
      header.writeUInt32LE(p.declaredSize ?? p.size, at + 18);
      header.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 4);
    locals.push(local, name, p.data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4); // made by
    fields(entry, 6);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += local.length + name.length + p.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const HEADERS = [
  '楼宇名称',
  '楼层',
  '工位编号',
  '工位名称',
  '工位类型',
  '日租价格（元）',
  '月租价格（元）',
  '状态',
  '发布状态',
];
const COLUMNS = 'ABCDEFGHI';
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A row of cells naming shared strings by index (`null` leaves the cell out). */
const sharedRow = (r: number, indexes: (number | null)[]) =>
  `<row r="${r}">${indexes
    .map((s, i) => (s === null ? '' : `<c r="${COLUMNS[i]}${r}" t="s"><v>${s}</v></c>`))
    .join('')}</row>`;

/** The parts of a one-sheet workbook around a worksheet and shared strings given as chunks. */
async function workbookParts(
  sheet: Iterable<string>,
  strings: Iterable<string | Buffer>,
): Promise<{ sheet: Part; strings: Part; rest: Part[] }> {
  return {
    sheet: await part('xl/worksheets/sheet1.xml', sheet),
    strings: await part('xl/sharedStrings.xml', strings),
    rest: [
      await part('[Content_Types].xml', [
        `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
          '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
          '</Types>',
      ]),
      await part('_rels/.rels', [
        `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ]),
      await part('xl/workbook.xml', [
        `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>` +
          '<sheet name="工位" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ]),
      await part('xl/_rels/workbook.xml.rels', [
        `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
          `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ]),
    ],
  };
}

/**
 * Shared strings: the template's headers (indexes 0 to 8), then the given texts, or raw XML items
 * from a generator (for the hostile ones, streamed).
 */
function* sharedStrings(...items: (string | (() => Iterable<string | Buffer>))[]): Iterable<string | Buffer> {
  yield `${XML}<sst xmlns="${MAIN}">`;
  for (const header of HEADERS) yield `<si><t>${escape(header)}</t></si>`;
  for (const item of items) {
    if (typeof item === 'string') yield `<si><t>${escape(item)}</t></si>`;
    else yield* item();
  }
  yield '</sst>';
}

/** One shared string of `megabytes` MB of the letter A, a megabyte at a time. */
const hugeText = (megabytes: number) =>
  function* () {
    yield '<si><t>';
    const chunk = Buffer.alloc(MB, 'A');
    for (let i = 0; i < megabytes; i++) yield chunk;
    yield '</t></si>';
  };

/** `megabytes` MB of one-letter shared strings. */
const smallTexts = (megabytes: number) =>
  function* () {
    const chunk = Buffer.from('<si><t>x</t></si>'.repeat(MB / 16));
    for (let i = 0; i < megabytes; i++) yield chunk;
  };

/** A worksheet of the header row and the given rows. */
function* worksheet(rows: () => Iterable<string>): Iterable<string> {
  yield `${XML}<worksheet xmlns="${MAIN}"><sheetData>`;
  yield sharedRow(1, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  yield* rows();
  yield '</sheetData></worksheet>';
}

/**
 * The template filled with one row whose 楼宇名称 is 200 MB of letters: the shared string after the
 * headers (index 9) holds them, and the other cells are filled as a user would.
 */
async function oneHugeCell(): Promise<Buffer> {
  const parts = await workbookParts(
    worksheet(function* () {
      yield sharedRow(2, [9, 10, 11, 12, 13, null, null, null, null]);
    }),
    sharedStrings(hugeText(200), '16F', 'BOMB-01', '炸弹', '固定工位'),
  );
  return zip([...parts.rest, parts.sheet, parts.strings]);
}

// A collection before each measurement, so garbage left by earlier tests cannot hide a rise.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/**
 * How far the process's memory (JS heap and buffers) rose above its level before `run`, sampled
 * while it runs and once after, in MB.
 */
async function memoryGrowth<T>(run: () => Promise<T>): Promise<{ result: T; grownMb: number }> {
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  collectGarbage();
  const before = used();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, used())), 2);
  try {
    const result = await run();
    peak = Math.max(peak, used());
    return { result, grownMb: (peak - before) / MB };
  } finally {
    clearInterval(timer);
  }
}

describe('Excel import bombs (as 运营)', () => {
  let t: TestApp;
  let yunying: Record<string, string>;
  let bomb: Buffer;

  const upload = async (data: Buffer) => {
    const body = multipartFile('工位.xlsx', data);
    const res = await t.app.inject({
      method: 'POST',
      url: importPaths(officeSeat).excel,
      headers: { ...yunying, ...body.headers },
      payload: body.payload,
    });
    return {
      status: res.statusCode,
      raw: res.body,
      body: res.json<{ code: number; msg: string; data?: { errors: ImportRowError[] } }>(),
    };
  };
  /** A real workbook (exceljs) with the template's header and these rows. */
  const normalFile = async (rows: unknown[][]) => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('工位');
    sheet.addRow(HEADERS);
    for (const row of rows) sheet.addRow(row);
    return Buffer.from(await book.xlsx.writeBuffer());
  };

  beforeAll(async () => {
    t = await buildTestApp();
    yunying = await t.auth(...demo.yunying);
    bomb = await oneHugeCell();
  });
  afterAll(() => t?.close());

  test('the bomb is a small upload that unpacks to a 200 MB cell', () => {
    expect(bomb.length).toBeLessThan(IMPORT_MAX_BYTES);
    expect(bomb.length).toBeLessThan(MB);
  });

  test('one cell of 200 MB is refused with a short 400 naming the cell limit, in bounded memory', async () => {
    const { result, grownMb } = await memoryGrowth(() => upload(bomb));
    expect(result.status).toBe(400);
    expect(result.raw.length).toBeLessThan(10 * 1024);
    expect(grownMb).toBeLessThan(100);
    expect(result.body.msg).toBe(importMessages.cellTooLong);
    expect(result.body.msg).toContain(String(IMPORT_MAX_CELL_CHARS));
  });

  test('six at once are all refused, and then a normal file imports', async () => {
    const { result, grownMb } = await memoryGrowth(() =>
      Promise.all(Array.from({ length: 6 }, () => upload(bomb))),
    );
    for (const res of result) {
      expect(res.status).toBe(400);
      expect(res.raw.length).toBeLessThan(10 * 1024);
    }
    expect(grownMb).toBeLessThan(150);
    const code = `OK-${randomBytes(3).toString('hex')}`;
    const fine = await upload(
      await normalFile([['氪空间·国贸中心', '16F', code, '炸弹之后', '固定工位', 50, null, '启用', '否']]),
    );
    expect(fine.status, fine.raw).toBe(200);
    expect(fine.body.data).toEqual({ imported: 1 });
  });

  test('190 000 rows are refused at the row limit, read no further than it', async () => {
    // Every row names the same shared strings, so the file stays small; row 150 000 also holds,
    // inline, a cell over the length limit, which a reading that went on past row 5 001 would meet.
    const long = `<c r="J150000" t="inlineStr"><is><t>${'x'.repeat(IMPORT_MAX_CELL_CHARS + 1)}</t></is></c>`;
    const parts = await workbookParts(
      worksheet(function* () {
        for (let r = 2; r <= 190_001; r++) {
          const row = sharedRow(r, [9, 10, 11, 12, 13, null, null, null, null]);
          yield r === 150_000 ? row.replace('</row>', `${long}</row>`) : row;
        }
      }),
      sharedStrings('氪空间·国贸中心', '16F', 'ROW', '行', '固定工位'),
    );
    const file = zip([...parts.rest, parts.sheet, parts.strings]);
    expect(file.length).toBeLessThan(IMPORT_MAX_BYTES);
    const { result, grownMb } = await memoryGrowth(() => upload(file));
    expect(result.status).toBe(400);
    expect(grownMb).toBeLessThan(100);
    expect(result.body.msg).toBe(importMessages.tooManyRows);
    expect(result.body.msg).toContain('5000 行');
  });

  /** A worksheet of 200 MB of short shared strings (many small cells rather than one big one). */
  const manyStrings = () =>
    workbookParts(
      worksheet(function* () {
        yield sharedRow(2, [9, 10, 11, 12, 13, null, null, null, null]);
      }),
      sharedStrings('氪空间·国贸中心', '16F', 'MANY-01', '多', '固定工位', smallTexts(200)),
    );

  test('200 MB of small cells stop at the unpacked-size limit, counted while inflating', async () => {
    const parts = await manyStrings();
    expect(parts.strings.size).toBeGreaterThan(IMPORT_MAX_UNPACKED_BYTES * 6);
    const file = zip([...parts.rest, parts.sheet, parts.strings]);
    const { result, grownMb } = await memoryGrowth(() => upload(file));
    expect(result.status).toBe(400);
    expect(result.raw.length).toBeLessThan(10 * 1024);
    expect(grownMb).toBeLessThan(100);
    expect(result.body.msg).toBe(importMessages.tooLargeUnpacked);
    expect(result.body.msg).toContain(`${IMPORT_MAX_UNPACKED_BYTES / MB} MB`);
  });

  test('a part whose ZIP headers understate its size is stopped all the same', async () => {
    const parts = await manyStrings();
    // The headers claim 2 KB for the 200 MB part, as a bomb would to pass a check of declared sizes.
    const file = zip([...parts.rest, parts.sheet, { ...parts.strings, declaredSize: 2048 }]);
    const { result, grownMb } = await memoryGrowth(() => upload(file));
    expect(result.status).toBe(400);
    expect(result.raw.length).toBeLessThan(10 * 1024);
    expect(grownMb).toBeLessThan(100);
    expect(result.body.msg).toBe(importMessages.notXlsx);
  });

  test('a cell one character over the limit refuses the file; one at the limit is read', async () => {
    const row = (name: string) => [
      '氪空间·国贸中心',
      '16F',
      'LEN-01',
      name,
      '固定工位',
      50,
      null,
      '启用',
      '否',
    ];
    const over = await upload(await normalFile([row('长'.repeat(IMPORT_MAX_CELL_CHARS + 1))]));
    expect(over.status).toBe(400);
    expect(over.body.msg).toBe(importMessages.cellTooLong);
    // At the limit the cell is read and the row is judged as usual (工位名称 holds 50 characters).
    const at = await upload(await normalFile([row('长'.repeat(IMPORT_MAX_CELL_CHARS))]));
    expect(at.status).toBe(400);
    expect(at.body.data?.errors).toEqual([
      { row: 2, column: '工位名称', message: expect.stringContaining('50') },
    ]);
    // Characters are counted once Excel's escapes are undone: 1 000 line breaks written as
    // _x000D_ take 7 000 characters of XML but are 1 000 characters of the cell.
    const escaped = await workbookParts(
      worksheet(function* () {
        yield sharedRow(2, [9, 10, 11, 12, 13, null, null, null, null]);
      }),
      sharedStrings(
        '氪空间·国贸中心',
        '16F',
        'LEN-02',
        function* () {
          yield `<si><t>${'_x000D_'.repeat(1000)}${'长'.repeat(IMPORT_MAX_CELL_CHARS - 1000)}</t></si>`;
        },
        '固定工位',
      ),
    );
    const lines = await upload(zip([...escaped.rest, escaped.sheet, escaped.strings]));
    expect(lines.status).toBe(400);
    // The name is judged at its 1 000 + characters; the row's missing price is named in the same pass.
    expect(lines.body.data?.errors).toEqual([
      { row: 2, column: '工位名称', message: expect.stringContaining('50') },
      { row: 2, column: '日租价格（元）', message: '日租价格与月租价格至少填写一项' },
    ]);
  });

  test('a bad value is quoted in at most 50 characters and an ellipsis', async () => {
    const name = `不存在的楼宇${'楼'.repeat(1500)}`;
    const res = await upload(
      await normalFile([[name, '16F', 'QUOTE-01', '引用', '固定工位', 50, null, '启用', '否']]),
    );
    expect(res.status).toBe(400);
    const [error] = res.body.data!.errors;
    expect(error).toMatchObject({ row: 2, column: '楼宇名称' });
    expect(error.message).toBe(`找不到名为“${name.slice(0, 50)}…”的楼宇，请检查名称`);
    expect(res.raw.length).toBeLessThan(1024);
  });
});
