/**
 * Every Excel import's template holds no data row: the example is in the header notes and the 说明
 * sheet, so a downloaded template filled with one real row imports exactly that row. A template
 * downloaded before this (its example in row 2) still imports only the real rows: a row equal to
 * the example is skipped and the answer says which. Import errors say what to do in a file.
 */
import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  IMPORT_HELP_SHEET,
  importMessages,
  importPaths,
  resourcePaths,
  type ResourceDef,
} from '@cowork/contract';
import { kreatorUser, kreatorUserGroup } from '@cowork/contract/resources/kreator';
import { hallSeat, officeSeat } from '@cowork/contract/resources/seat';
import { activityStation, officeStation } from '@cowork/contract/resources/station';
import { buildings, kreatorUsers, members } from '../src/db/schema.ts';
import { buildTestApp, createCompany, demo, multipartFile, type TestApp } from './helper.ts';

let t: TestApp;
let headers: Record<string, string>;
let groupId: number;

beforeAll(async () => {
  t = await buildTestApp();
  headers = await t.auth(...demo.admin);
  const [{ id: buildingId }] = await t.db.select({ id: buildings.id }).from(buildings).limit(1);
  const group = await t.app.inject({
    method: 'POST',
    url: resourcePaths(kreatorUserGroup).save,
    headers,
    payload: {
      name: '模板测试门禁组',
      companyId: await createCompany(t.db, '模板测试有限公司'),
      buildingId,
      validFrom: new Date(Date.now() - 86_400_000).toISOString(),
      validTo: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      status: 'enabled',
    },
  });
  expect(group.statusCode, group.body).toBe(200);
  groupId = group.json().data.id;
});
afterAll(() => t?.close());

interface Case {
  resource: Pick<ResourceDef, 'base' | 'label'>;
  /** Cells (by header) that make the example a new real record. */
  real: Record<string, string>;
  /** How many records hold this value in the key cell (the demo may hold the example's). */
  stored: (value: string) => Promise<number>;
  /** The cell that names the record. */
  key: string;
}

/** Records of a resource whose `column` is exactly `value`. */
const countOf = async (def: Pick<ResourceDef, 'base'>, column: string, value: string) => {
  const res = await t.app.inject({
    url: `${resourcePaths(def).page}?size=100&${column}=${encodeURIComponent(value)}`,
    headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.records as Record<string, unknown>[]).filter((r) => r[column] === value).length;
};

const cases: Case[] = [
  {
    resource: kreatorUser,
    real: { 姓名: '李模板', 手机号: '17900008801' },
    key: '手机号',
    stored: async (phone) =>
      (
        await t.db
          .select({ id: kreatorUsers.id })
          .from(kreatorUsers)
          .where(and(eq(kreatorUsers.groupId, groupId), eq(kreatorUsers.phone, phone)))
      ).length,
  },
  ...[officeSeat, hallSeat].map((resource): Case => ({
    resource,
    real: { 工位编号: `TPL-${resource.key}` },
    key: '工位编号',
    stored: (code) => countOf(resource, 'code', code),
  })),
  ...[officeStation, activityStation].map((resource): Case => ({
    resource,
    real: { 名称: `模板厅-${resource.key}` },
    key: '名称',
    stored: (name) => countOf(resource, 'name', name),
  })),
];

const queryOf = (c: Case) => (c.resource === kreatorUser ? `?groupId=${groupId}` : '');

async function template(c: Case) {
  const res = await t.app.inject({ url: importPaths(c.resource).template + queryOf(c), headers });
  expect(res.statusCode, res.body).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return book;
}

/** The example as the 说明 sheet shows it: header → cell. */
function exampleOf(book: ExcelJS.Workbook): Record<string, string | number> {
  const help = book.getWorksheet(IMPORT_HELP_SHEET)!;
  const titles = (help.getRow(1).values as unknown[]).map(String);
  const [headerAt, exampleAt] = [titles.indexOf('列名'), titles.indexOf('示例')];
  expect(exampleAt, 'the 说明 sheet has a 示例 column').toBeGreaterThan(0);
  const example: Record<string, string | number> = {};
  help.eachRow((row, n) => {
    const header = row.getCell(headerAt).value;
    const value = row.getCell(exampleAt).value;
    if (n > 1 && typeof header === 'string' && (typeof value === 'string' || typeof value === 'number'))
      example[header] = value;
  });
  return example;
}

/** Writes the cells (header → value) into a row of the template's first sheet. */
function fill(book: ExcelJS.Workbook, rowNumber: number, cells: Record<string, string | number>) {
  const sheet = book.worksheets[0];
  const headers = (sheet.getRow(1).values as unknown[]).map((v) => String(v));
  for (const [header, value] of Object.entries(cells)) {
    const col = headers.indexOf(header);
    if (col > 0) sheet.getRow(rowNumber).getCell(col).value = value;
  }
}

async function upload(c: Case, book: ExcelJS.Workbook) {
  const body = multipartFile('import.xlsx', Buffer.from(await book.xlsx.writeBuffer()));
  return t.app.inject({
    method: 'POST',
    url: importPaths(c.resource).excel + queryOf(c),
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

describe.each(cases)('$resource.label', (c) => {
  test('the template holds no data row; its example is in the header notes and the 说明 sheet', async () => {
    const book = await template(c);
    const sheet = book.worksheets[0];
    expect(sheet.actualRowCount).toBe(1);
    const example = exampleOf(book);
    expect(Object.keys(example)).toContain(c.key);
    const noted = sheet
      .getRow(1)
      .getCell((sheet.getRow(1).values as unknown[]).map(String).indexOf(c.key)).note;
    expect(JSON.stringify(noted)).toContain(`示例：${String(example[c.key])}`);
  });

  test('a downloaded template with one real row imports that row only', async () => {
    const book = await template(c);
    const example = exampleOf(book);
    fill(book, 2, { ...example, ...c.real });
    const examples = await c.stored(String(example[c.key]));
    const res = await upload(c, book);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: { imported: 1 }, msg: importMessages.imported(1) });
    expect(res.json().data.skippedRows).toBeUndefined();
    expect(await c.stored(c.real[c.key])).toBe(1);
    expect(await c.stored(String(example[c.key]))).toBe(examples);
  });

  test('an old template still holding the example: that row is skipped and the answer says so', async () => {
    const book = await template(c);
    const example = exampleOf(book);
    const second = { ...example, ...c.real, [c.key]: `${c.real[c.key]}B` };
    if (c.key === '手机号') second[c.key] = '17900008802';
    fill(book, 2, example);
    fill(book, 3, second);
    const examples = await c.stored(String(example[c.key]));
    const res = await upload(c, book);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      data: { imported: 1, skippedRows: [2] },
      msg: '已导入 1 条数据；第 2 行是模板的示例，未导入',
    });
    expect(await c.stored(String(second[c.key]))).toBe(1);
    expect(await c.stored(String(example[c.key]))).toBe(examples);

    // The example alone: nothing to import, and the answer says why.
    const only = await template(c);
    fill(only, 2, example);
    const refused = await upload(c, only);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().msg).toBe(importMessages.onlyExample);
    expect(await c.stored(String(example[c.key]))).toBe(examples);
  });
});

test('企业门禁组: 张三 13800138000 of an old template never becomes a member', async () => {
  const [member] = await t.db.select().from(members).where(eq(members.phone, '13800138000'));
  expect(member).toBeUndefined();
});

describe('errors say what to do in a file', () => {
  const members = cases[0];

  test('a phone already in the group: delete the row; twice in the file: delete one of them', async () => {
    const book = await template(members);
    fill(book, 2, { 姓名: '李模板', 手机号: '17900008801' });
    fill(book, 3, { 姓名: '王模板', 手机号: '17900008803' });
    fill(book, 4, { 姓名: '王模板', 手机号: '17900008803' });
    const res = await upload(members, book);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().data.errors).toEqual([
      {
        row: 2,
        column: '手机号',
        message: '手机号 17900008801 已在本门禁组中，请删除这一行后重新导入',
      },
      { row: 4, column: '手机号', message: '手机号与第 3 行重复，请删除其中一行后重新导入' },
    ]);
  });

  test('a seat code taken in its building names the building, and the other way out', async () => {
    const book = await template(cases[1]);
    const example = exampleOf(book);
    fill(book, 2, { ...example, 工位编号: `TPL-${officeSeat.key}` });
    const res = await upload(cases[1], book);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().data.errors).toEqual([
      {
        row: 2,
        column: '工位编号',
        message: `工位编号 TPL-${officeSeat.key} 已在「${String(example['楼宇名称'])}」中，请删除这一行后重新导入；若是另一条数据，请改用其他工位编号`,
      },
    ]);
  });

  test('a form’s 请重新选择 reads as a cell to correct, 请选择 as a cell to fill', async () => {
    const c = cases[3];
    const book = await template(c);
    const example = exampleOf(book);
    fill(book, 2, { ...example, 名称: '时间反了的厅', 开放时间: '18:00', 关闭时间: '09:00' });
    fill(book, 3, { ...example, 名称: '没有时间的厅', 开放时间: '09:00' });
    book.worksheets[0]
      .getRow(3)
      .getCell((book.worksheets[0].getRow(1).values as unknown[]).map(String).indexOf('关闭时间')).value =
      null;
    const res = await upload(c, book);
    expect(res.statusCode, res.body).toBe(400);
    const messages = (res.json().data.errors as { row: number; message: string }[]).map(
      (e) => `${e.row} ${e.message}`,
    );
    expect(messages).toContain('2 须晚于开放时间 18:00，请改正后重新导入');
    expect(messages).toContain('3 请填写关闭时间');
    expect(messages.join()).not.toMatch(/选择|换一个/);
  });
});
