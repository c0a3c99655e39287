/**
 * 工位: both seat resources through the resource mechanism, the building and floor checks, codes
 * unique within a building, the seat-goods endpoints and the Excel import (workbooks built with
 * exceljs here; multipart bodies by hand).
 */
import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  IMPORT_HELP_SHEET,
  importPaths,
  resourcePaths,
  type ImportRowError,
  type Page,
} from '@cowork/contract';
import { hallSeat, officeSeat, seatGoodsPaths, type SeatResource } from '@cowork/contract/resources/seat';
import { buildings, merchants } from '../src/db/schema.ts';
import { buildTestApp, createUser, demo, multipartFile, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

type Body = Record<string, unknown>;
type Row = Body & { id: number };

/** Inserts a merchant (once) and a building with these floors; answers its id. */
async function addBuilding(t: TestApp, name: string, floors: string[]): Promise<number> {
  let [merchant] = await t.db.select({ id: merchants.id }).from(merchants).limit(1);
  merchant ??= (
    await t.db
      .insert(merchants)
      .values({ name: `测试商户${name}` })
      .returning()
  )[0];
  const [row] = await t.db
    .insert(buildings)
    .values({
      merchantId: merchant.id,
      name,
      provinceCode: '110000',
      cityCode: '110100',
      address: '测试路1号',
      floors,
    })
    .returning({ id: buildings.id });
  return row.id;
}

for (const resource of [officeSeat, hallSeat]) {
  // Bodies get the building made in setup (ids differ between engines and runs).
  const samples: [Body, Body] = [
    { floor: '8F', code: 'A区-01', name: '靠窗固定工位', seatType: 'fixed', monthPriceFen: 150000 },
    {
      floor: '9F',
      code: 'B区-02',
      name: '灵活工位',
      seatType: 'flexible',
      dayPriceFen: 8800,
      published: true,
    },
  ];
  const invalid: { body: Body; field: string }[] = [
    {
      body: { floor: '8F', code: 'X-1', name: '无楼宇', seatType: 'fixed', dayPriceFen: 1 },
      field: 'buildingId',
    },
    { body: { floor: '8F', name: '无编号', seatType: 'fixed', dayPriceFen: 1 }, field: 'code' },
    { body: { floor: '8F', code: 'X-2', seatType: 'fixed', dayPriceFen: 1 }, field: 'name' },
    { body: { floor: '8F', code: 'X-3', name: '类型', seatType: 'vip', dayPriceFen: 1 }, field: 'seatType' },
    {
      body: { floor: '8F', code: 'X-4', name: '负价', seatType: 'fixed', dayPriceFen: -1 },
      field: 'dayPriceFen',
    },
    {
      body: { floor: '8F', code: 'X-5', name: '分', seatType: 'fixed', monthPriceFen: 1.5 },
      field: 'monthPriceFen',
    },
    { body: { floor: '8F', code: 'X-6', name: '无价', seatType: 'fixed' }, field: 'dayPriceFen' },
    { body: { floor: '20F', code: 'X-7', name: '楼层', seatType: 'fixed', dayPriceFen: 1 }, field: 'floor' },
    { body: { code: 'X-8', name: '无楼层', seatType: 'fixed', dayPriceFen: 1 }, field: 'floor' },
    {
      body: { floor: '8F', code: 'X-9', name: '状态', seatType: 'fixed', dayPriceFen: 1, status: 'gone' },
      field: 'status',
    },
  ];
  resourceSuite({
    resource,
    samples,
    change: { name: '改名后的工位', dayPriceFen: 9900 },
    invalid,
    search: { code: 'A区' },
    async setup(t) {
      const buildingId = await addBuilding(t, '测试楼宇', ['8F', '9F']);
      for (const body of samples) body.buildingId = buildingId;
      // All but the first (which tests a missing building) name it.
      for (const { body } of invalid.slice(1)) body.buildingId = buildingId;
    },
  });
}

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

/** A workbook with the template's header (or the given one) and these rows. */
async function workbook(rows: unknown[][], headers = HEADERS): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('工位');
  sheet.addRow(headers);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('seat specifics', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let wangjing: number;
  let guomao: number;
  let noFloors: number;

  const call = async <T = unknown>(method: string, url: string, payload?: object, headers = admin) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json<{ code: number; msg: string; data: T }>() };
  };
  const upload = async (resource: SeatResource, filename: string, data: Buffer, headers = admin) => {
    const body = multipartFile(filename, data);
    const res = await t.app.inject({
      method: 'POST',
      url: importPaths(resource).excel,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    return { status: res.statusCode, body: res.json<{ code: number; msg: string; data: unknown }>() };
  };
  const total = async (resource: SeatResource, query = '') =>
    (await call<Page<Row>>('GET', `${resourcePaths(resource).page}?size=100${query}`)).body.data.total;
  const seat = (buildingId: number, extra: Body = {}) => ({
    buildingId,
    floor: '10F',
    code: `T-${randomBytes(3).toString('hex')}`,
    name: '测试工位',
    seatType: 'fixed',
    dayPriceFen: 5000,
    ...extra,
  });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth(...demo.admin);
    const options = (
      await call<{ value: number; label: string }[]>('GET', '/api/building/admin/v1/building/list')
    ).body.data;
    wangjing = options.find((o) => o.label === '氪空间·望京SOHO')!.value;
    guomao = options.find((o) => o.label === '氪空间·国贸中心')!.value;
    noFloors = await addBuilding(t, '无楼层的楼宇', []);
  });
  afterAll(() => t?.close());

  test('the demo brings office and hall seats with goods in the published demo buildings', async () => {
    expect(await total(officeSeat, `&buildingId=${wangjing}`)).toBe(8);
    expect(await total(hallSeat, `&buildingId=${wangjing}`)).toBe(3);
    const page = await call<Page<Row>>(
      'GET',
      `${resourcePaths(officeSeat).page}?buildingId=${wangjing}&code=A区-01`,
    );
    const goods = await call<Row[]>(
      'GET',
      `${seatGoodsPaths(officeSeat).detail}/${page.body.data.records[0].id}`,
    );
    expect(goods.body.data.map((g) => g.name)).toEqual(['包月套餐']);
  });

  test('the floor must be one of the building’s floors; a building without floors takes any', async () => {
    const paths = resourcePaths(officeSeat);
    const wrong = await call('POST', paths.save, seat(wangjing, { floor: '30F' }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toContain('楼层');
    expect(wrong.body.msg).toContain('8F');
    expect((await call('POST', paths.save, seat(noFloors, { floor: undefined }))).status).toBe(200);
    const created = await call<Row>('POST', paths.save, seat(wangjing));
    expect(created.status, created.body.msg).toBe(200);
    // Moving to a building without that floor is refused; with a floor it has, accepted.
    const move = await call('PUT', paths.edit, { id: created.body.data.id, buildingId: guomao });
    expect(move.status).toBe(400);
    expect(move.body.msg).toContain('楼层');
    const moved = await call<Row>('PUT', paths.edit, {
      id: created.body.data.id,
      buildingId: guomao,
      floor: '15F',
    });
    expect(moved.body.data).toMatchObject({ buildingId: guomao, floor: '15F' });
    const missing = await call('POST', paths.save, seat(999_999));
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toContain('楼宇');
    // Clearing both prices is refused.
    const unpriced = await call('PUT', paths.edit, { id: created.body.data.id, dayPriceFen: null });
    expect(unpriced.status).toBe(400);
    expect(unpriced.body.msg).toContain('日租价格');
  });

  test('a code is unique within its building (any case), not across buildings or seat kinds', async () => {
    const paths = resourcePaths(officeSeat);
    expect((await call('POST', paths.save, seat(wangjing, { code: 'Z区-01' }))).status).toBe(200);
    const clash = await call('POST', paths.save, seat(wangjing, { code: 'z区-01' }));
    expect(clash.status).toBe(409);
    expect(clash.body.msg).toContain('工位编号');
    expect((await call('POST', paths.save, seat(guomao, { code: 'Z区-01', floor: '15F' }))).status).toBe(200);
    expect(
      (await call('POST', resourcePaths(hallSeat).save, seat(wangjing, { code: 'Z区-01' }))).status,
    ).toBe(200);
  });

  describe.each([officeSeat, hallSeat])('seat goods of $key', (resource) => {
    const goods = seatGoodsPaths(resource);
    let seatId: number;
    let goodsId: number;

    beforeAll(async () => {
      seatId = (await call<Row>('POST', resourcePaths(resource).save, seat(wangjing))).body.data.id;
    });

    test('save creates, and updates when the body has an id', async () => {
      const created = await call<Row>('POST', goods.save, {
        seatId,
        name: '周末套餐',
        priceFen: 12000,
        unit: 'day',
        stock: 10,
      });
      expect(created.status, created.body.msg).toBe(200);
      expect(created.body.data).toMatchObject({ seatId, name: '周末套餐', enabled: true, stock: 10 });
      goodsId = created.body.data.id;
      const updated = await call<Row>('POST', goods.save, {
        id: goodsId,
        seatId: 999_999,
        name: '周末特惠套餐',
        priceFen: 9900,
        unit: 'day',
        stock: 8,
      });
      expect(updated.body.data).toMatchObject({ id: goodsId, seatId, name: '周末特惠套餐', priceFen: 9900 });
      const list = await call<Row[]>('GET', `${goods.detail}/${seatId}`);
      expect(list.body.data.map((g) => g.name)).toEqual(['周末特惠套餐']);
    });

    test('save validates, names the field, and answers 404 and 409', async () => {
      const base = { seatId, name: '月卡', priceFen: 100, unit: 'month' };
      for (const [body, label] of [
        [{ ...base, name: '' }, '套餐名称'],
        [{ ...base, priceFen: -5 }, '价格'],
        [{ ...base, unit: 'year' }, '计价单位'],
        [{ ...base, stock: -1 }, '库存'],
        [{ ...base, seatId: undefined }, '工位'],
      ] as const) {
        const res = await call('POST', goods.save, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.msg).toContain(label);
      }
      expect((await call('POST', goods.save, { ...base, seatId: 999_999 })).status).toBe(404);
      expect((await call('POST', goods.save, { ...base, id: 999_999 })).status).toBe(404);
      const clash = await call('POST', goods.save, { ...base, name: '周末特惠套餐' });
      expect(clash.status).toBe(409);
      expect(clash.body.msg).toContain('套餐名称');
      expect((await call('GET', `${goods.detail}/999999`)).status).toBe(404);
      expect((await call<Row[]>('GET', `${goods.detail}/${seatId}`)).body.data).toHaveLength(1);
    });

    test('enabled switches; unknown goods are 404; names lists the names in use', async () => {
      const off = await call<Row>('PUT', goods.enabled, { id: goodsId, enabled: false });
      expect(off.body.data.enabled).toBe(false);
      expect((await call('PUT', goods.enabled, { id: goodsId, enabled: 'no' })).status).toBe(400);
      expect((await call('PUT', goods.enabled, { id: 999_999, enabled: true })).status).toBe(404);
      const names = await call<string[]>('GET', goods.name);
      expect(names.body.data).toEqual(expect.arrayContaining(['周末特惠套餐', '包月套餐']));
      expect(new Set(names.body.data).size).toBe(names.body.data.length);
    });

    test('without the permission: 403 on every goods endpoint, nothing changes', async () => {
      const username = `noseat-${resource.key}`;
      await createUser(t.db, { username, password: 'Pass@1234' });
      const headers = await t.auth(username, 'Pass@1234');
      for (const [method, url, payload] of [
        ['GET', `${goods.detail}/${seatId}`],
        ['GET', goods.name],
        ['POST', goods.save, { seatId, name: '越权', priceFen: 1, unit: 'day' }],
        ['PUT', goods.enabled, { id: goodsId, enabled: true }],
        ['DELETE', `${goods.remove}/${goodsId}`],
      ] as const) {
        const res = await call(method, url, payload, headers);
        expect(res.status, `${method} ${url}`).toBe(403);
        expect(res.body.msg).toBe('您没有权限进行此操作');
      }
      expect((await call<Row[]>('GET', `${goods.detail}/${seatId}`)).body.data[0].enabled).toBe(false);
    });

    test('remove deletes goods (404 when gone); every goods write is audited', async () => {
      expect((await call('DELETE', `${goods.remove}/${goodsId}`)).status).toBe(200);
      expect((await call('DELETE', `${goods.remove}/${goodsId}`)).status).toBe(404);
      expect((await call<Row[]>('GET', `${goods.detail}/${seatId}`)).body.data).toEqual([]);
      const log = await call<Page<{ action: string }>>(
        'GET',
        `/api/user/admin/v1/audit-log/page?resource=${resource.key}-goods&size=100`,
      );
      expect(log.body.data.records.map((r) => r.action)).toEqual(
        expect.arrayContaining(['save', 'edit', 'disable', 'remove']),
      );
    });

    test('removing a seat removes its goods', async () => {
      await call('POST', goods.save, { seatId, name: '随工位删除', priceFen: 100, unit: 'day' });
      expect((await call('DELETE', `${resourcePaths(resource).remove}/${seatId}`)).status).toBe(200);
      expect((await call('GET', `${goods.detail}/${seatId}`)).status).toBe(404);
      expect((await call<string[]>('GET', goods.name)).body.data).not.toContain('随工位删除');
    });
  });

  describe('Excel import', () => {
    test('the template has the form fields as Chinese headers, no data row and a 说明 sheet with the example', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: importPaths(officeSeat).template,
        headers: admin,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0];
      expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADERS);
      // The example is on the 说明 sheet (its last column), never a row that could be imported.
      expect(sheet.actualRowCount).toBe(1);
      const example = book
        .getWorksheet(IMPORT_HELP_SHEET)!
        .getRows(2, HEADERS.length)!
        .map((row) => row.getCell(4).value);
      expect(example).toEqual(expect.arrayContaining(['A区-01', '固定工位', 88]));
      // The example names a real building (the first option of the building list).
      const names = (await call<{ label: string }[]>('GET', '/api/building/admin/v1/building/list')).body
        .data;
      expect(names.map((o) => o.label)).toContain(example[0]);
      const help = book.getWorksheet(IMPORT_HELP_SHEET)!;
      const text = JSON.stringify(help.getSheetValues());
      expect(text).toContain('固定工位、灵活工位');
      expect(text).toContain('栖舍·西溪');
      // The 楼层 row lists each building's floors (国贸中心 is 16F in the import below).
      const floorRow = help
        .getSheetValues()
        .find((row) => Array.isArray(row) && row[1] === '楼层') as unknown[];
      expect(String(floorRow[3])).toMatch(/氪空间·国贸中心：[^；]*16F/);
    });

    test('a good file is imported whole: every row in, money in fen, labels as values, audited', async () => {
      const before = await total(hallSeat);
      const file = await workbook([
        ['氪空间·国贸中心', '16F', 'IMP-01', '导入工位一', '固定工位', null, 1888.5, '启用', '是'],
        ['氪空间·国贸中心', '16F', 'IMP-02', '导入工位二', '灵活工位', '66', null, '停用', '否'],
        [],
        ['梧桐树·陆家嘴', '31F', 'imp-01', '导入工位三', 'flexible', 70.25, 1500, null, null],
      ]);
      const res = await upload(hallSeat, '工位.xlsx', file);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ data: { imported: 3 }, msg: '已导入 3 条数据' });
      expect(await total(hallSeat)).toBe(before + 3);
      const page = await call<Page<Row>>(
        'GET',
        `${resourcePaths(hallSeat).page}?code=IMP-0&sortField=id&sortOrder=ascend`,
      );
      expect(page.body.data.records).toMatchObject([
        {
          buildingId: guomao,
          code: 'IMP-01',
          seatType: 'fixed',
          monthPriceFen: 188850,
          dayPriceFen: null,
          published: true,
        },
        { code: 'IMP-02', seatType: 'flexible', dayPriceFen: 6600, status: 'disabled', published: false },
        { code: 'imp-01', dayPriceFen: 7025, status: 'enabled', published: false },
      ]);
      const log = await call<Page<{ action: string }>>(
        'GET',
        `/api/user/admin/v1/audit-log/page?resource=hall-seat&action=import&size=100`,
      );
      expect(log.body.data.records.filter((r) => r.action === 'import')).toHaveLength(3);
    });

    test('a file with bad rows writes nothing and reports each row with its column', async () => {
      const before = await total(officeSeat);
      const file = await workbook([
        ['氪空间·国贸中心', '16F', 'BAD-01', '正确的行', '固定工位', 50, null, '启用', '是'],
        ['不存在的楼宇', '16F', 'BAD-02', '楼宇错', '固定工位', 50, null, '启用', '是'],
        ['氪空间·国贸中心', '99F', 'BAD-03', '楼层错', '固定工位', 50, null, '启用', '是'],
        ['氪空间·国贸中心', '16F', 'bad-01', '文件内重复', '固定工位', 50, null, '启用', '是'],
        ['氪空间·望京SOHO', '8F', 'A区-01', '与已有重复', '固定工位', 50, null, '启用', '是'],
        ['氪空间·国贸中心', '16F', 'BAD-06', null, '豪华工位', 'abc', 1.234, '启用', '也许'],
        ['氪空间·国贸中心', '16F', 'BAD-07', '没有价格', '固定工位', null, null, null, null],
      ]);
      const res = await upload(officeSeat, 'bad.xlsx', file);
      expect(res.status).toBe(400);
      expect(res.body.msg).toContain('6 行');
      const errors = (res.body.data as { errors: ImportRowError[] }).errors;
      const at = (row: number) => errors.filter((e) => e.row === row).map((e) => e.column);
      expect(at(2)).toEqual([]);
      expect(at(3)).toEqual(['楼宇名称']);
      expect(at(4)).toEqual(['楼层']);
      expect(at(5)).toEqual(['工位编号']);
      expect(errors.find((e) => e.row === 5)!.message).toContain('第 2 行');
      expect(at(6)).toEqual(['工位编号']);
      expect(at(7)).toEqual(expect.arrayContaining(['工位类型', '日租价格（元）', '发布状态']));
      expect(at(8)).toEqual(['日租价格（元）']);
      for (const e of errors) expect(e.message).toMatch(/\p{Script=Han}/u);
      expect(await total(officeSeat)).toBe(before);
      // A required cell left empty is named too (read once the other cells are readable).
      const missing = await upload(
        officeSeat,
        'missing.xlsx',
        await workbook([['氪空间·国贸中心', '16F', 'BAD-09', null, '固定工位', 50, null, null, null]]),
      );
      expect((missing.body.data as { errors: ImportRowError[] }).errors).toEqual([
        { row: 2, column: '工位名称', message: '请填写工位名称' },
      ]);
    });

    test('files that are not .xlsx, too large, without data or with a changed header are refused', async () => {
      const before = await total(officeSeat);
      const text = await upload(officeSeat, 'seats.xlsx', Buffer.from('楼宇名称,楼层\n氪空间,8F\n'));
      expect(text.status).toBe(400);
      expect(text.body.msg).toContain('.xlsx');
      const large = await upload(
        officeSeat,
        'large.xlsx',
        Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(6 * 1024 * 1024)]),
      );
      expect(large.status).toBe(400);
      expect(large.body.msg).toContain('5 MB');
      const header = await upload(
        officeSeat,
        'h.xlsx',
        await workbook(
          [],
          HEADERS.filter((h) => h !== '工位编号'),
        ),
      );
      expect(header.status).toBe(400);
      expect(header.body.msg).toContain('工位编号');
      const rows = Array.from({ length: 5001 }, (_, i) => [
        '氪空间·国贸中心',
        '16F',
        `R-${i}`,
        '行',
        '固定工位',
        1,
      ]);
      const many = await upload(officeSeat, 'many.xlsx', await workbook(rows));
      expect(many.status).toBe(400);
      expect(many.body.msg).toContain('5000 行');
      const empty = await upload(officeSeat, 'empty.xlsx', await workbook([]));
      expect(empty.status).toBe(400);
      const none = await call('POST', importPaths(officeSeat).excel, {});
      expect(none.status).toBe(400);
      expect(await total(officeSeat)).toBe(before);
    });

    test('import and template need the edit permission', async () => {
      await createUser(t.db, { username: 'noimport', password: 'Pass@1234' });
      const headers = await t.auth('noimport', 'Pass@1234');
      const file = await workbook([
        ['氪空间·国贸中心', '16F', 'P-01', '越权', '固定工位', 50, null, '启用', '是'],
      ]);
      expect((await upload(officeSeat, 'p.xlsx', file, headers)).status).toBe(403);
      const template = await t.app.inject({ method: 'GET', url: importPaths(officeSeat).template, headers });
      expect(template.statusCode).toBe(403);
    });
  });
});
