/**
 * 开门记录's filters (building, space with what is under it, member phone, days as Shanghai days)
 * and its Excel export with the same filters; the keyword finding a member by name, phone or company;
 * the home dashboard's door numbers.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { deviceEndpoints } from '@cowork/contract';
import { dashboardEndpoints } from '@cowork/contract/resources/dashboard';
import {
  buildings,
  companies,
  companyStaff,
  deviceOpenLogs,
  devices,
  members,
  spaces,
} from '../src/db/schema.ts';
import { buildTestApp, demo, type TestApp } from './helper.ts';

let t: TestApp;
let headers: Record<string, string>;
let floor: number;
let otherBuilding: number;

const get = (url: string, query: Record<string, string | number> = {}) =>
  t.app.inject({
    url,
    headers,
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
const snsOf = async (query: Record<string, string | number>) => {
  const res = await get(deviceEndpoints.openLogPage, { size: 100, ...query });
  expect(res.statusCode, res.body).toBe(200);
  return res
    .json<{ data: { records: { sn: string; who: string | null }[] } }>()
    .data.records.map((r) => r.sn)
    .sort();
};

beforeAll(async () => {
  t = await buildTestApp();
  headers = await t.auth(...demo.admin);
  const [a, b] = await t.db.select({ id: buildings.id }).from(buildings).orderBy(buildings.id).limit(2);
  otherBuilding = b.id;
  [{ id: floor }] = await t.db
    .insert(spaces)
    .values({ buildingId: a.id, name: '3F', kind: 'floor' })
    .returning({ id: spaces.id });
  const [room] = await t.db
    .insert(spaces)
    .values({ buildingId: a.id, parentId: floor, name: '301', kind: 'room' })
    .returning({ id: spaces.id });
  const [gate] = await t.db
    .insert(spaces)
    .values({ buildingId: b.id, name: 'B 大门', kind: 'gate' })
    .returning({ id: spaces.id });
  const secret = t.app.devices.box.seal('unused');
  const [inRoom, atGate] = await t.db
    .insert(devices)
    .values([
      { sn: 'LOG-ROOM', name: '301 门', spaceId: room.id, secret },
      { sn: 'LOG-GATE', name: 'B 大门', spaceId: gate.id, secret },
    ])
    .returning({ id: devices.id });
  const event = (
    deviceId: number,
    sn: string,
    at: string,
    who: string | null,
    result: 'success' | 'denied' = 'success',
  ) => ({
    messageId: `${sn}-${at}`,
    deviceId,
    sn,
    deviceName: sn,
    method: 'totp' as const,
    credential: '1234',
    result,
    who,
    at: new Date(at),
  });
  await t.db
    .insert(deviceOpenLogs)
    .values([
      event(inRoom.id, 'LOG-ROOM', '2026-11-20T23:59:00+08:00', '138****0001'),
      event(inRoom.id, 'LOG-ROOM', '2026-11-21T00:00:00+08:00', '139****0002'),
      event(atGate.id, 'LOG-GATE', '2026-11-21T23:59:59+08:00', '=cmd|calc', 'denied'),
      event(atGate.id, 'LOG-GATE', new Date().toISOString(), null),
    ]);
});
afterAll(() => t?.close());

test('filters: building, a space with the spaces under it, phone (whole or digits), days in Shanghai', async () => {
  expect(await snsOf({ spaceId: floor })).toEqual(['LOG-ROOM', 'LOG-ROOM']);
  expect(await snsOf({ buildingId: otherBuilding })).toEqual(['LOG-GATE', 'LOG-GATE']);
  expect(await snsOf({ phone: '13800000001' })).toEqual(['LOG-ROOM']);
  expect(await snsOf({ phone: '0002' })).toEqual(['LOG-ROOM']);
  expect(await snsOf({ atFrom: '2026-11-21', atTo: '2026-11-21' })).toEqual(['LOG-GATE', 'LOG-ROOM']);
  expect(await snsOf({ atTo: '2026-11-20T23:59:00+08:00' })).toEqual(['LOG-ROOM']);
  const bad = await get(deviceEndpoints.openLogPage, { phone: '138abc' });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().msg).toContain('手机号');
  const badDay = await get(deviceEndpoints.openLogPage, { atFrom: '2026-13-45' });
  expect(badDay.statusCode).toBe(400);
  expect(badDay.json().msg).toContain('开始时间');
});

test('the export streams the filtered rows as Excel, formulas neutralised', async () => {
  const res = await get(deviceEndpoints.openLogExport, { buildingId: otherBuilding });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('spreadsheetml');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  expect(sheet.getRow(1).values).toContain('开门人');
  expect(sheet.rowCount).toBe(3);
  const whoColumn = (sheet.getRow(1).values as string[]).indexOf('开门人');
  const cells = [2, 3].map((r) => sheet.getRow(r).getCell(whoColumn).value);
  expect(cells).toContain("'=cmd|calc");
});

test("the dashboard counts devices by status and today's door events for whoever may see them", async () => {
  const res = await get(dashboardEndpoints.summary);
  const data = res.json().data;
  expect(data.devices).toEqual({ online: 0, offline: 2 });
  expect(data.doorEvents).toEqual({ success: 1, denied: 0 });
  const caiwu = await t.auth(...demo.caiwu);
  const closed = await t.app.inject({ url: dashboardEndpoints.summary, headers: caiwu });
  expect(closed.json().data.devices).toBeNull();
  expect(closed.json().data.doorEvents).toBeNull();
});

test('the keyword finds a member by name, phone or company, by the member an event names or its masked phone', async () => {
  const [, second, third] = await t.db
    .insert(members)
    .values([
      { phone: '13800000001', realName: '林开门' },
      { phone: '13900000002', nickname: '阿二' },
      { phone: '13700000003', realName: '赵卡' },
    ])
    .returning({ id: members.id });
  const [company] = await t.db
    .insert(companies)
    .values({ name: '开门测试公司' })
    .returning({ id: companies.id });
  await t.db
    .insert(companyStaff)
    .values({ companyId: company.id, memberId: second.id, name: '王二', phone: '13900000002' });
  // A device no longer registered, and an event naming its member rather than a phone.
  await t.db.insert(deviceOpenLogs).values({
    messageId: 'LOG-GONE-1',
    deviceId: null,
    sn: 'LOG-GONE',
    method: 'card',
    result: 'success',
    memberId: third.id,
    at: new Date('2026-11-01T10:00:00+08:00'),
  });
  expect(await snsOf({ keyword: '林开门' })).toEqual(['LOG-ROOM']);
  expect(await snsOf({ keyword: '王二' })).toEqual(['LOG-ROOM']);
  expect(await snsOf({ keyword: '阿二' })).toEqual(['LOG-ROOM']);
  expect(await snsOf({ keyword: '开门测试' })).toEqual(['LOG-ROOM']);
  expect(await snsOf({ keyword: '赵卡' })).toEqual(['LOG-GONE']);
  expect(await snsOf({ keyword: '1380000' })).toEqual(['LOG-ROOM']);
  expect(await snsOf({ keyword: '0002' })).toEqual(['LOG-ROOM']);
  expect(await snsOf({ keyword: '137' })).toEqual(['LOG-GONE']);
  expect(await snsOf({ keyword: '无此人' })).toEqual([]);
  const res = await get(deviceEndpoints.openLogExport, { keyword: '开门测试' });
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  expect(book.worksheets[0].rowCount).toBe(2);
});
