import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildings } from '../src/db/schema.ts';
import {
  IMPORT_HELP_SHEET,
  importPaths,
  resourcePaths,
  type ImportRowError,
  type Page,
} from '@cowork/contract';
import { brightPoint } from '@cowork/contract/resources/bright-point';
import { building } from '@cowork/contract/resources/building';
import { merchant } from '@cowork/contract/resources/merchant';
import { activityStation, officeStation, type StationResource } from '@cowork/contract/resources/station';
import { buildTestApp, createUser, demo, multipartFile, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

type Body = Record<string, unknown>;

/** Ids of the records stations refer to, made by `makeFixtures` on each fresh app. */
interface Fixtures {
  building: number;
  flatBuilding: number;
  facility: number;
  highlight: number;
}

async function makeFixtures(t: TestApp): Promise<Fixtures> {
  const headers = await t.auth(...demo.admin);
  const save = async (path: string, payload: Body) => {
    const res = await t.app.inject({ method: 'POST', url: `${path}/save`, headers, payload });
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.body}`);
    return res.json().data.id as number;
  };
  const merchantId = await save(merchant.base, { name: '测试商户' });
  const place = { merchantId, provinceCode: '110000', cityCode: '110100', address: '望京街10号' };
  return {
    building: await save(building.base, { ...place, name: '测试楼宇', floors: ['8F', '9F'] }),
    flatBuilding: await save(building.base, { ...place, name: '无楼层楼宇' }),
    facility: await save(brightPoint.base, { kind: 'facility', name: '投影仪', published: true }),
    highlight: await save(brightPoint.base, { kind: 'highlight', name: '地铁直达' }),
  };
}

const ids: Fixtures = { building: 0, flatBuilding: 0, facility: 0, highlight: 0 };

/** A valid body; its references are read when it is sent, after the fixtures exist. */
const station = (extra: Body = {}): Body => ({
  get buildingId() {
    return ids.building;
  },
  get facilityIds() {
    return [ids.facility];
  },
  floor: '8F',
  name: '创想厅',
  capacity: 12,
  areaSqm: 36.5,
  hourPriceFen: 12000,
  minBookingMinutes: 30,
  openTime: '08:00',
  closeTime: '22:00',
  imageUrls: ['/demo/meeting-room-1.svg'],
  ...extra,
});

for (const resource of [officeStation, activityStation]) {
  resourceSuite({
    resource,
    setup: async (t) => void Object.assign(ids, await makeFixtures(t)),
    samples: [station(), station({ name: '头脑风暴室', floor: '9F', capacity: 6 })],
    change: { name: '创想厅（大）', capacity: 16, areaSqm: 40.25, hourPriceFen: 15000 },
    invalid: [
      { body: station({ name: '' }), field: 'name' },
      { body: station({ buildingId: 999_999 }), field: 'buildingId' },
      { body: station({ floor: '3F' }), field: 'floor' },
      { body: station({ floor: null }), field: 'floor' },
      { body: station({ capacity: 0 }), field: 'capacity' },
      { body: station({ areaSqm: 0 }), field: 'areaSqm' },
      { body: station({ hourPriceFen: -1 }), field: 'hourPriceFen' },
      { body: station({ minBookingMinutes: 10 }), field: 'minBookingMinutes' },
      { body: station({ minBookingMinutes: 40 }), field: 'minBookingMinutes' },
      { body: station({ openTime: undefined }), field: 'openTime' },
      { body: station({ closeTime: '25:00' }), field: 'closeTime' },
      { body: station({ closeTime: '08:00' }), field: 'closeTime' },
      { body: station({ facilityIds: [999_999] }), field: 'facilityIds' },
    ],
    search: { name: '创想' },
  });
}

describe('会议室 and 活动场地 rules beyond the mechanism', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const call = async (method: string, url: string, payload?: Body) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: admin,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const save = (resource: StationResource, body: Body) => call('POST', resourcePaths(resource).save, body);

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
    Object.assign(ids, await makeFixtures(t));
  });
  afterAll(() => t?.close());

  test('the building must exist: 400 naming 楼宇, nothing written', async () => {
    const res = await save(officeStation, station({ buildingId: 424_242 }));
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('楼宇');
    expect(res.body.msg).toContain('不存在');
  });

  test('the floor must be one of the building’s floors, which the 400 lists; a building without floors takes any', async () => {
    const wrong = await save(officeStation, station({ floor: '12F' }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toContain('楼层');
    expect(wrong.body.msg).toContain('8F、9F');
    const flat = await save(
      officeStation,
      station({ buildingId: ids.flatBuilding, floor: '夹层', name: '夹层会议室' }),
    );
    expect(flat.status, flat.body.msg).toBe(200);
    const noFloor = await save(
      officeStation,
      station({ buildingId: ids.flatBuilding, floor: '', name: '无楼层会议室' }),
    );
    expect(noFloor.body.data.floor).toBeNull();
    // Moving the room to a building with floors checks the floor it keeps.
    const moved = await call('PUT', resourcePaths(officeStation).edit, {
      id: flat.body.data.id,
      buildingId: ids.building,
    });
    expect(moved.status).toBe(400);
    expect(moved.body.msg).toContain('楼层');
    const movedWithFloor = await call('PUT', resourcePaths(officeStation).edit, {
      id: flat.body.data.id,
      buildingId: ids.building,
      floor: '9F',
    });
    expect(movedWithFloor.status, movedWithFloor.body.msg).toBe(200);
  });

  test('facilities must exist and be facilities, not highlights: 400 naming 设施', async () => {
    const highlight = await save(activityStation, station({ facilityIds: [ids.facility, ids.highlight] }));
    expect(highlight.status).toBe(400);
    expect(highlight.body.msg).toContain('设施');
    const twice = await save(
      activityStation,
      station({ name: '多功能厅', facilityIds: [ids.facility, ids.facility] }),
    );
    expect(twice.status, twice.body.msg).toBe(200);
    expect(twice.body.data.facilityIds).toEqual([ids.facility]);
  });

  test('an unpublished facility cannot be added (400 naming 设施), but one the room has may stay', async () => {
    const screen = await call('POST', resourcePaths(brightPoint).save, {
      kind: 'facility',
      name: '电子白板',
    });
    const screenId = (screen.body.data as { id: number }).id;
    const refused = await save(officeStation, station({ name: '白板室', facilityIds: [screenId] }));
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('设施');
    expect(refused.body.msg).toContain('电子白板');

    await call('PUT', resourcePaths(brightPoint).editPublished, { id: screenId, published: true });
    const room = await save(officeStation, station({ name: '白板室', facilityIds: [screenId] }));
    expect(room.status, room.body.msg).toBe(200);
    await call('PUT', resourcePaths(brightPoint).editPublished, { id: screenId, published: false });
    const roomId = (room.body.data as { id: number }).id;
    const kept = await call('PUT', resourcePaths(officeStation).edit, {
      id: roomId,
      capacity: 8,
      facilityIds: [screenId],
    });
    expect(kept.status, kept.body.msg).toBe(200);
  });

  test('the shortest booking is at least 15 minutes and a multiple of 15: 400 naming 最短预订时长', async () => {
    for (const minutes of [0, 14, 20, 50]) {
      const res = await save(officeStation, station({ name: `时长${minutes}`, minBookingMinutes: minutes }));
      expect(res.status, String(minutes)).toBe(400);
      expect(res.body.msg).toContain('最短预订时长');
    }
    const fine = await save(officeStation, station({ name: '时长45', minBookingMinutes: 45 }));
    expect(fine.status, fine.body.msg).toBe(200);
    const byDefault = await save(officeStation, station({ name: '默认时长', minBookingMinutes: undefined }));
    expect(byDefault.body.data.minBookingMinutes).toBe(60);
  });

  test('closing must be after opening, also when an edit changes only one of them', async () => {
    const saved = await save(
      officeStation,
      station({ name: '晚间会议室', openTime: '09:00', closeTime: '18:00' }),
    );
    expect(saved.status, saved.body.msg).toBe(200);
    const edit = await call('PUT', resourcePaths(officeStation).edit, {
      id: saved.body.data.id,
      openTime: '19:00',
    });
    expect(edit.status).toBe(400);
    expect(edit.body.msg).toContain('关闭时间');
    const fine = await call('PUT', resourcePaths(officeStation).edit, {
      id: saved.body.data.id,
      closeTime: '21:30',
    });
    expect(fine.body.data).toMatchObject({ openTime: '09:00', closeTime: '21:30' });
  });

  test('a room is open only within its building’s hours: 400 naming the field and the hours', async () => {
    await t.db
      .update(buildings)
      .set({ openTime: '08:00', closeTime: '21:00' })
      .where(eq(buildings.id, ids.building));
    const early = await save(
      officeStation,
      station({ name: '早场会议室', openTime: '07:00', closeTime: '12:00' }),
    );
    expect(early.status).toBe(400);
    expect(early.body.msg).toBe('开放时间：须在所在楼宇「测试楼宇」的营业时间 08:00–21:00 内，请重新选择');
    const late = await save(
      officeStation,
      station({ name: '晚场会议室', openTime: '08:00', closeTime: '22:00' }),
    );
    expect(late.body.msg).toBe('关闭时间：须在所在楼宇「测试楼宇」的营业时间 08:00–21:00 内，请重新选择');
    const inside = await save(
      officeStation,
      station({ name: '日间会议室', openTime: '08:00', closeTime: '21:00' }),
    );
    expect(inside.status, inside.body.msg).toBe(200);
    await t.db
      .update(buildings)
      .set({ openTime: null, closeTime: null })
      .where(eq(buildings.id, ids.building));
  });

  test('names are unique within a building (409), not across buildings or between rooms and venues', async () => {
    const first = await save(officeStation, station({ name: '同名厅' }));
    expect(first.status).toBe(200);
    const clash = await save(officeStation, station({ name: '同名厅', floor: '9F' }));
    expect(clash.status).toBe(409);
    expect(clash.body.msg).toContain('名称');
    expect(
      (await save(officeStation, station({ name: '同名厅', buildingId: ids.flatBuilding }))).status,
    ).toBe(200);
    expect((await save(activityStation, station({ name: '同名厅' }))).status).toBe(200);
  });

  test('rooms and venues are separate lists with separate permissions', async () => {
    const rooms = await call('GET', `${resourcePaths(officeStation).page}?size=100`);
    const venues = await call('GET', `${resourcePaths(activityStation).page}?size=100`);
    const names = (page: { body: { data: Page<{ name: string }> } }) =>
      page.body.data.records.map((r) => r.name);
    expect(names(rooms)).toContain('晚间会议室');
    expect(names(venues)).not.toContain('晚间会议室');
    expect(officeStation.permission).toBe('product:meetingRoom');
    expect(activityStation.permission).toBe('product:activityVenue');
  });
});

/** The template's header: the form fields but the gallery (a cell cannot hold an upload). */
const HEADERS = [
  '名称',
  '所属楼宇名称',
  '楼层',
  '容纳人数',
  '面积（㎡）',
  '每小时价格（元）',
  '开放时间',
  '关闭时间',
  '最短预订时长',
  '设施名称',
  '发布状态',
];

/** An .xlsx with the template's header and these rows. */
async function workbook(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('导入');
  sheet.addRow(HEADERS);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe.each([officeStation, activityStation])('Excel import of $label', (resource) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let whiteboard: number;
  const upload = async (data: Buffer, headers = admin) => {
    const body = multipartFile('rooms.xlsx', data);
    const res = await t.app.inject({
      method: 'POST',
      url: importPaths(resource).excel,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    return { status: res.statusCode, body: res.json<{ msg: string; data: unknown }>() };
  };
  const rows = async () =>
    (
      await t.app.inject({
        url: `${resourcePaths(resource).page}?size=100&sortField=id&sortOrder=ascend`,
        headers: admin,
      })
    ).json<{ data: Page<Body> }>().data.records;

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
    Object.assign(ids, await makeFixtures(t));
    // A highlight may share a facility's name: the 设施 column reads the facility.
    const point = async (kind: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: resourcePaths(brightPoint).save,
          headers: admin,
          payload: { kind, name: '白板', published: true },
        })
      ).json<{ data: { id: number } }>().data.id;
    await point('highlight');
    whiteboard = await point('facility');
    for (const id of [ids.facility, ids.highlight]) {
      await t.app.inject({
        method: 'PUT',
        url: resourcePaths(brightPoint).editPublished,
        headers: admin,
        payload: { id, published: true },
      });
    }
  });
  afterAll(() => t?.close());

  test('the template has the form fields but the gallery, the example on its 说明 sheet and the facilities only', async () => {
    const res = await t.app.inject({ url: importPaths(resource).template, headers: admin });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.name).toBe(resource.label);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADERS);
    expect(sheet.actualRowCount).toBe(1);
    const example = book
      .getWorksheet(IMPORT_HELP_SHEET)!
      .getRows(2, HEADERS.length)!
      .map((row) => row.getCell(4).value);
    expect(example).toEqual(expect.arrayContaining(['创想厅', '测试楼宇', '8F', 120, '08:00', '22:00']));
    const help = JSON.stringify(book.getWorksheet(IMPORT_HELP_SHEET)!.getSheetValues());
    expect(help).toContain('投影仪、白板');
    expect(help).not.toContain('地铁直达');
  });

  test('a good file is imported whole: names as ids, money in fen, floors checked, audited', async () => {
    const file = await workbook([
      ['导入厅一', '测试楼宇', '9F', 8, 20.5, 99.5, '09:00', '18:00', 30, '投影仪、白板', '是'],
      ['导入厅二', '无楼层楼宇', null, 30, 80, 300, '08:30', '21:00', null, null, null],
    ]);
    const res = await upload(file);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ data: { imported: 2 }, msg: '已导入 2 条数据' });
    expect(await rows()).toMatchObject([
      {
        name: '导入厅一',
        buildingId: ids.building,
        floor: '9F',
        capacity: 8,
        areaSqm: 20.5,
        hourPriceFen: 9950,
        openTime: '09:00',
        closeTime: '18:00',
        minBookingMinutes: 30,
        facilityIds: [ids.facility, whiteboard],
        imageUrls: [],
        published: true,
      },
      { name: '导入厅二', buildingId: ids.flatBuilding, floor: null, minBookingMinutes: 60, facilityIds: [] },
    ]);
    const log = await t.app.inject({
      url: `/api/user/admin/v1/audit-log/page?resource=${resource.key}&action=import&size=100`,
      headers: admin,
    });
    expect(log.json<{ data: Page<Body> }>().data.total).toBe(2);
  });

  test('the template’s example imports as it is, and its 说明 says when 楼层 is needed', async () => {
    const res = await t.app.inject({ url: importPaths(resource).template, headers: admin });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const help = book.worksheets[1]!;
    const floorRow = help.getRows(2, help.rowCount - 1)!.find((r) => r.getCell(1).value === '楼层')!;
    expect(floorRow.getCell(2).value).toBe('楼宇设有楼层时必填');
    // The example (the 说明 sheet's last column) typed in as row 2, naming a room not there yet.
    const row = book.worksheets[0]!.getRow(2);
    for (const [i, header] of HEADERS.entries())
      row.getCell(i + 1).value = help
        .getRows(2, HEADERS.length)!
        .find((r) => r.getCell(1).value === header)!
        .getCell(4).value;
    row.getCell(1).value = `样例-${resource.key}`;
    const before = (await rows()).length;
    const imported = await upload(Buffer.from(await book.xlsx.writeBuffer()));
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect((await rows()).length).toBe(before + 1);
  });

  test('one pass reports every error of a row, one message per cell', async () => {
    const file = await workbook([
      // 楼层 not in the building, price negative, shortest booking not a multiple of 15, closing
      // before opening: all four at once.
      ['多处错误', '测试楼宇', '12F', 8, 20, -5, '18:00', '09:00', 20, null, null],
    ]);
    const res = await upload(file);
    expect(res.status).toBe(400);
    const errors = (res.body.data as { errors: { row: number; column: string; message: string }[] }).errors;
    const columns = errors.map((e) => e.column);
    expect(columns).toEqual([...new Set(columns)]);
    expect(columns.sort()).toEqual(['关闭时间', '最短预订时长', '楼层', '每小时价格（元）'].sort());
  });

  test('a file with bad rows writes nothing and reports each row with its column', async () => {
    const before = (await rows()).length;
    const file = await workbook([
      ['无误的厅', '测试楼宇', '8F', 8, 20, 100, '09:00', '18:00', 60, '投影仪', '否'],
      ['楼宇错', '不存在的楼宇', '8F', 8, 20, 100, '09:00', '18:00', 60, null, null],
      ['楼层错', '测试楼宇', '12F', 8, 20, 100, '09:00', '18:00', 60, null, null],
      ['亮点当设施', '测试楼宇', '8F', 8, 20, 100, '09:00', '18:00', 60, '地铁直达', null],
      ['时间反了', '测试楼宇', '8F', 8, 20, 100, '18:00', '09:00', 60, null, null],
      ['无误的厅', '测试楼宇', '9F', 8, 20, 100, '09:00', '18:00', 60, null, null],
      ['导入厅一', '测试楼宇', '9F', 8, 20, 100, '09:00', '18:00', 40, null, null],
      ['未选楼层', '测试楼宇', null, 8, 20, 100, '09:00', '18:00', 60, null, null],
    ]);
    const res = await upload(file);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('有 7 行数据有误，未导入任何数据；请按错误报告修改后重新导入');
    const errors = (res.body.data as { errors: ImportRowError[] }).errors;
    const at = (row: number) => errors.filter((e) => e.row === row).map((e) => e.column);
    expect(at(2)).toEqual([]);
    expect(at(3)).toEqual(['所属楼宇名称']);
    expect(at(4)).toEqual(['楼层']);
    expect(errors.find((e) => e.row === 4)!.message).toContain('8F、9F');
    expect(at(5)).toEqual(['设施名称']);
    expect(at(6)).toEqual(['关闭时间']);
    expect(at(7)).toEqual(['名称']);
    expect(errors.find((e) => e.row === 7)!.message).toContain('第 2 行');
    expect(at(8)).toEqual(expect.arrayContaining(['最短预订时长']));
    expect(at(9)).toEqual(['楼层']);
    expect((await rows()).length).toBe(before);
  });

  test('template and import need the edit permission of this screen', async () => {
    const username = `noimport-${resource.key}`;
    await createUser(t.db, { username, password: 'Pass@1234' });
    const headers = await t.auth(username, 'Pass@1234');
    const file = await workbook([['越权', '测试楼宇', '8F', 8, 20, 100, '09:00', '18:00', 60, null, null]]);
    const res = await upload(file, headers);
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe('您没有权限进行此操作');
    expect((await t.app.inject({ url: importPaths(resource).template, headers })).statusCode).toBe(403);
    expect((await rows()).map((r) => r.name)).not.toContain('越权');
  });
});

test('the demo brings two or three rooms per published building and venues in several', async () => {
  const t = await buildTestApp();
  try {
    const admin = await t.auth(...demo.admin);
    const page = async (resource: StationResource) =>
      (await t.app.inject({ url: `${resourcePaths(resource).page}?size=100`, headers: admin })).json()
        .data as Page<{
        buildingId: number;
        name: string;
        floor: string;
      }>;
    const buildings = (
      await t.app.inject({ url: `${building.base}/list?published=true`, headers: admin })
    ).json().data as { value: number }[];
    const rooms = await page(officeStation);
    for (const b of buildings) {
      const count = rooms.records.filter((r) => r.buildingId === b.value).length;
      expect(count).toBeGreaterThanOrEqual(2);
      expect(count).toBeLessThanOrEqual(3);
    }
    expect(rooms.records.map((r) => r.name)).toEqual(expect.arrayContaining(['创想厅', '头脑风暴室']));
    const venues = await page(activityStation);
    expect(new Set(venues.records.map((v) => v.buildingId)).size).toBeGreaterThanOrEqual(3);
  } finally {
    await t.close();
  }
});
