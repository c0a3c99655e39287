/**
 * 门禁权限查询 against simulated door devices over MQTT (the embedded broker, or TEST_MQTT_URL's):
 * a device's who-can-open list is exactly the access list the device acked, each entry with its
 * reasons (预订, 会员卡, 企业门禁组) named; a space lists its doors'; a member's doors say whether
 * the device holds them yet; a leaver drops out of both; the keyword finds people by name, phone or
 * company; the views need the view permissions, and a building-limited key sees its buildings only.
 */
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  accessViewEndpoints,
  deviceEndpoints,
  resourcePaths,
  type DeviceAccessRow,
  type MemberDoorRow,
  type SpaceAccessRow,
} from '@cowork/contract';
import { apiKeyEndpoints } from '@cowork/contract/resources/api-key';
import { companyEndpoints, companyStaffEndpoints } from '@cowork/contract/resources/company';
import { deviceSetEndpoints } from '@cowork/contract/resources/device-set';
import { kreatorDeviceEndpoints, kreatorUserGroup } from '@cowork/contract/resources/kreator';
import { officeStationOrder, orderPaths, userCardOrder } from '@cowork/contract/resources/order';
import { buildings, members, officeStations, spaces, ssoRoles, userCards } from '../src/db/schema.ts';
import { SimulatedDevice } from '../src/device-link/simulator.ts';
import { buildTestApp, createRole, createUser, demo, type TestApp, until } from './helper.ts';

const enrolKey = 'test-enrol-key-access-views';
let t: TestApp;
let headers: Record<string, string>;
let url: string;
/** Building A's gate device (in a floor a set holds) and building B's; B's is reconnected in a test. */
interface Door {
  id: number;
  secret: string;
  device?: SimulatedDevice;
}
const doors: { a: Door; b: Door } = { a: { id: 0, secret: '' }, b: { id: 0, secret: '' } };
let buildingA: number;
let buildingB: number;
let floorA: number;
let gateB: number;
let groupId: number;
let companyId: number;
const people = {
  booker: { phone: '17900008801', id: 0, orderId: 0, orderNo: '' },
  holder: { phone: '17900008802', id: 0, orderId: 0, orderNo: '' },
  staff: { phone: '17900008803', id: 0, staffId: 0 },
};

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object, as = headers) =>
  t.app.inject({
    method,
    url: path,
    headers: as,
    ...(method === 'GET' ? { query: payload as never } : { payload }),
  });
const dayIn = (n: number) => new Date(Date.now() + 8 * 3_600_000 + n * 86_400_000).toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

/** Registers `sn` into `spaceId` and connects it with its secret; answers once it got its first sync. */
async function door(sn: string, spaceId: number) {
  const enrolling = new SimulatedDevice({ url, enrolKey, sn });
  await enrolling.connect();
  await until(
    async () =>
      (await call('GET', deviceEndpoints.unPulledList)).json().data.some((d: { sn: string }) => d.sn === sn),
    `${sn} waiting`,
  );
  const registered = await call('POST', deviceEndpoints.register, { sn, name: `门 ${sn}`, spaceId });
  expect(registered.statusCode, registered.body).toBe(200);
  await enrolling.close();
  const { id, secret } = registered.json().data as { id: number; secret: string };
  return { id, secret, device: await connect(sn, secret) };
}
async function connect(sn: string, secret: string) {
  const device = new SimulatedDevice({ url, sn, secret, heartbeatMs: 1_000 });
  await device.connect();
  await until(() => device.commands.some((c) => c.type === 'sync'), `${sn}'s first sync`);
  return device;
}

const syncStateOf = async (sn: string) =>
  (await call('GET', deviceEndpoints.page, { sn })).json().data.records[0].syncState as string;

async function accessList(id: number, keyword?: string, as = headers) {
  const res = await call(
    'GET',
    accessViewEndpoints.deviceAccessList,
    { id, ...(keyword ? { keyword } : {}) },
    as,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: DeviceAccessRow[] }>().data;
}
async function doorList(memberId: number, as = headers) {
  const res = await call('GET', accessViewEndpoints.memberDoorList, { id: memberId }, as);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: MemberDoorRow[] }>().data;
}

beforeAll(async () => {
  t = await buildTestApp({ config: { deviceEnrolKey: enrolKey } });
  await t.app.ready();
  headers = await t.auth(...demo.admin);
  url = t.app.devices.status().url!;
  [{ id: buildingA }, { id: buildingB }] = await t.db
    .select({ id: buildings.id })
    .from(buildings)
    .orderBy(buildings.id)
    .limit(2);
  const named = await t.db
    .insert(members)
    .values([
      { phone: people.booker.phone, nickname: '小周', realName: '周预订' },
      { phone: people.holder.phone, nickname: '吴会员' },
    ])
    .returning({ id: members.id });
  [people.booker.id, people.holder.id] = named.map((m) => m.id);

  // Building A: floor 9F (held by a set with A's gate device) with room 901, the meeting room booked.
  const [station] = await t.db
    .insert(officeStations)
    .values({
      buildingId: buildingA,
      name: '权限查询会议室',
      capacity: 6,
      hourPriceFen: 10_000,
      minBookingMinutes: 60,
      openTime: '00:00',
      closeTime: '23:59',
      published: true,
    })
    .returning({ id: officeStations.id });
  const [floor] = await t.db
    .insert(spaces)
    .values({ buildingId: buildingA, name: '9F', kind: 'floor' })
    .returning({ id: spaces.id });
  floorA = floor.id;
  const [, gate] = await t.db
    .insert(spaces)
    .values([
      { buildingId: buildingA, parentId: floorA, name: '901', kind: 'room', officeStationId: station.id },
      { buildingId: buildingA, parentId: floorA, name: '9F 闸机', kind: 'gate' },
    ])
    .returning({ id: spaces.id });
  const [otherGate] = await t.db
    .insert(spaces)
    .values({ buildingId: buildingB, name: 'B 权限闸机', kind: 'gate' })
    .returning({ id: spaces.id });
  gateB = otherGate.id;
  Object.assign(doors.a, await door('VIEW-A', gate.id));
  Object.assign(doors.b, await door('VIEW-B', gateB));
  const set = await call('POST', deviceSetEndpoints.save, {
    name: '9 楼权限',
    deviceIds: [doors.a.id],
  });
  expect(set.statusCode, set.body).toBe(200);
  const held = await call('POST', deviceSetEndpoints.saveSpace, {
    id: set.json().data.id,
    spaceIds: [floorA],
  });
  expect(held.statusCode, held.body).toBe(200);

  // A booking of 901, a membership card of building A, and a company group of all staff on both doors.
  const booked = await call('POST', orderPaths(officeStationOrder).save, {
    memberPhone: people.booker.phone,
    productId: station.id,
    payMethod: 'offline',
    paid: true,
    startAt: `${dayIn(1)}T10:00:00+08:00`,
    endAt: `${dayIn(1)}T11:00:00+08:00`,
  });
  expect(booked.statusCode, booked.body).toBe(200);
  people.booker.orderId = booked.json().data.id;
  people.booker.orderNo = booked.json().data.orderNo;
  const [card] = await t.db
    .insert(userCards)
    .values({
      name: '权限查询月卡',
      cardType: 'month',
      validDays: 30,
      priceFen: 1000,
      buildingIds: [buildingA],
      published: true,
    })
    .returning({ id: userCards.id });
  const sold = await call('POST', orderPaths(userCardOrder).save, {
    memberPhone: people.holder.phone,
    productId: card.id,
    buildingId: buildingA,
    payMethod: 'offline',
    paid: true,
  });
  expect(sold.statusCode, sold.body).toBe(200);
  people.holder.orderId = sold.json().data.id;
  people.holder.orderNo = sold.json().data.orderNo;

  const company = await call('POST', companyEndpoints.save, { name: '星河权限测试科技', status: 'enabled' });
  expect(company.statusCode, company.body).toBe(200);
  companyId = company.json().data.id;
  for (const [name, phone] of [
    ['郑员工', people.staff.phone],
    ['吴会员', people.holder.phone],
  ]) {
    const hired = await call('POST', companyStaffEndpoints.save, {
      companyId,
      name,
      phone,
      department: '研发部',
    });
    expect(hired.statusCode, hired.body).toBe(200);
    if (phone === people.staff.phone) {
      people.staff.id = hired.json().data.memberId;
      people.staff.staffId = hired.json().data.id;
    }
  }
  const group = await call('POST', resourcePaths(kreatorUserGroup).save, {
    name: '星河全员',
    companyId,
    staffScope: 'all',
    buildingId: buildingA,
    validFrom: inDays(-1),
    validTo: inDays(60),
    status: 'enabled',
  });
  expect(group.statusCode, group.body).toBe(200);
  groupId = group.json().data.id;
  // A group is of one building: B's door has a group of its own.
  const groupB = await call('POST', resourcePaths(kreatorUserGroup).save, {
    name: '星河 B 座',
    companyId,
    staffScope: 'all',
    buildingId: buildingB,
    validFrom: inDays(-1),
    validTo: inDays(60),
    status: 'enabled',
  });
  expect(groupB.statusCode, groupB.body).toBe(200);
  for (const [id, deviceId] of [
    [groupId, doors.a.id],
    [groupB.json().data.id, doors.b.id],
  ]) {
    const bound = await call('POST', kreatorDeviceEndpoints.add, { groupId: id, deviceIds: [deviceId] });
    expect(bound.statusCode, bound.body).toBe(200);
  }
  await until(
    () => doors.a.device!.state.access.some((e) => e.memberId === people.staff.id),
    "A's device holding the staff",
  );
  await t.app.devices.settled();
  await until(async () => (await syncStateOf('VIEW-A')) === 'synced', 'A 已同步');
});

afterAll(async () => {
  await doors.a.device?.close();
  await doors.b.device?.close();
  await t?.close();
});

test("a device's who-can-open list is exactly the access list it acked", async () => {
  const rows = await accessList(doors.a.id);
  const screen = rows
    .map((r) => ({
      memberId: r.memberId,
      phone: r.phone,
      validFrom: Date.parse(r.validFrom),
      validTo: Date.parse(r.validTo),
    }))
    .sort((x, y) => x.memberId - y.memberId || x.validFrom - y.validFrom);
  const onDevice = [...doors.a.device!.state.access].sort(
    (x, y) => x.memberId - y.memberId || x.validFrom - y.validFrom,
  );
  expect(screen).toEqual(onDevice);
  // The demo's members of building A are there too.
  expect(screen.map((r) => r.memberId)).toEqual(
    expect.arrayContaining([people.booker.id, people.holder.id, people.staff.id]),
  );
});

test('each entry names its reasons: a booking, a membership card, a company group', async () => {
  const rows = await accessList(doors.a.id);
  const of = (memberId: number) => rows.find((r) => r.memberId === memberId)!;
  expect(of(people.booker.id)).toMatchObject({
    name: '周预订',
    phone: '179****8801',
    sources: [{ kind: 'booking', id: people.booker.orderId, label: `预订 #${people.booker.orderNo} 901` }],
  });
  // The card and the group overlap: one window on the device, both reasons on the screen.
  const holder = of(people.holder.id);
  expect(holder.name).toBe('吴会员');
  expect(holder.sources).toEqual(
    expect.arrayContaining([
      { kind: 'member-card', id: people.holder.orderId, label: `会员卡 #${people.holder.orderNo}` },
      { kind: 'access-group', id: groupId, label: '企业门禁组“星河全员”（星河权限测试科技）' },
    ]),
  );
  expect(holder.sources).toHaveLength(2);
  expect(of(people.staff.id)).toMatchObject({
    name: '郑员工',
    sources: [{ kind: 'access-group', id: groupId, label: '企业门禁组“星河全员”（星河权限测试科技）' }],
  });
});

test('the keyword finds people by name, phone (prefix or whole) or company', async () => {
  const idsFor = async (keyword: string) =>
    (await accessList(doors.a.id, keyword)).map((r) => r.memberId).sort();
  expect(await idsFor('郑员')).toEqual([people.staff.id]);
  expect(await idsFor('周预订')).toEqual([people.booker.id]);
  expect(await idsFor('小周')).toEqual([people.booker.id]);
  expect(await idsFor(people.holder.phone)).toEqual([people.holder.id]);
  expect(await idsFor('1790000880')).toHaveLength(3);
  expect(await idsFor('8803')).toEqual([]);
  expect(await idsFor('星河权限')).toEqual([people.holder.id, people.staff.id].sort());
  expect(await idsFor('100%_')).toEqual([]);
  const tooLong = await call('GET', accessViewEndpoints.deviceAccessList, {
    id: doors.a.id,
    keyword: 'x'.repeat(51),
  });
  expect(tooLong.statusCode).toBe(400);
  expect(tooLong.json().msg).toContain('关键词');
});

test("a space lists its doors' entries with the device; the lists export as Excel", async () => {
  const res = await call('GET', accessViewEndpoints.spaceAccessList, { id: floorA });
  expect(res.statusCode, res.body).toBe(200);
  const rows = res.json<{ data: SpaceAccessRow[] }>().data;
  const device = await accessList(doors.a.id);
  expect(rows).toEqual(device.map((r) => ({ deviceId: doors.a.id, deviceName: '门 VIEW-A', ...r })));
  const none = await call('GET', accessViewEndpoints.spaceAccessList, { id: 999_999 });
  expect(none.statusCode).toBe(404);

  const file = await call('GET', accessViewEndpoints.deviceAccessExport, { id: doors.a.id, keyword: '郑' });
  expect(file.statusCode).toBe(200);
  expect(file.headers['content-type']).toContain('spreadsheetml');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  expect(sheet.getRow(1).values).toEqual(expect.arrayContaining(['姓名', '手机号', '开门依据']));
  expect(sheet.rowCount).toBe(2);
  expect(sheet.getRow(2).getCell(1).value).toBe('郑员工');
  const spaceFile = await call('GET', accessViewEndpoints.spaceAccessExport, { id: floorA });
  const spaceBook = new ExcelJS.Workbook();
  await spaceBook.xlsx.load(spaceFile.rawPayload as unknown as ArrayBuffer);
  expect(spaceBook.worksheets[0].rowCount).toBe(1 + rows.length);
});

test("a member's doors say why, until when, and whether the device holds them yet", async () => {
  await until(async () => (await syncStateOf('VIEW-B')) === 'synced', 'B 已同步');
  const doorsOfStaff = await doorList(people.staff.id);
  expect(doorsOfStaff.map((d) => [d.deviceId, d.synced]).sort()).toEqual(
    [
      [doors.a.id, true],
      [doors.b.id, true],
    ].sort(),
  );
  const onA = doorsOfStaff.find((d) => d.deviceId === doors.a.id)!;
  expect(onA).toMatchObject({
    deviceName: '门 VIEW-A',
    spaceName: '9F 闸机',
    buildingName: expect.any(String),
  });
  const entry = doors.a.device!.state.access.find((e) => e.memberId === people.staff.id)!;
  expect([Date.parse(onA.validFrom), Date.parse(onA.validTo)]).toEqual([entry.validFrom, entry.validTo]);
  expect((await doorList(people.booker.id)).map((d) => d.sources[0].kind)).toEqual(['booking']);

  // B offline: a new hire's door there is not on the device until it is back and synced.
  await doors.b.device!.close();
  await until(
    async () =>
      (await call('GET', deviceEndpoints.page, { sn: 'VIEW-B' })).json().data.records[0].status === 'offline',
    'B offline',
  );
  const hired = await call('POST', companyStaffEndpoints.save, {
    companyId,
    name: '钱新人',
    phone: '17900008805',
  });
  expect(hired.statusCode, hired.body).toBe(200);
  const newcomer = hired.json().data.memberId as number;
  await until(() => doors.a.device!.state.access.some((e) => e.memberId === newcomer), 'the newcomer on A');
  await t.app.devices.settled();
  const before = await doorList(newcomer);
  expect(Object.fromEntries(before.map((d) => [d.deviceId, d.synced]))).toEqual({
    [doors.a.id]: true,
    [doors.b.id]: false,
  });
  doors.b.device = await connect('VIEW-B', doors.b.secret);
  await until(() => doors.b.device!.state.access.some((e) => e.memberId === newcomer), 'the newcomer on B');
  await until(async () => (await doorList(newcomer)).every((d) => d.synced), 'both doors synced');
});

test('a leaver drops out of the device, its who-can-open list and their doors', async () => {
  const left = await call('POST', companyStaffEndpoints.leave, { ids: [people.staff.staffId] });
  expect(left.statusCode, left.body).toBe(200);
  await until(
    () => !doors.a.device!.state.access.some((e) => e.memberId === people.staff.id),
    'the leaver off the device',
  );
  expect((await accessList(doors.a.id)).map((r) => r.memberId)).not.toContain(people.staff.id);
  expect(await doorList(people.staff.id)).toEqual([]);
  // The others keep theirs: the card holder, still on the staff list, has both reasons.
  const holder = (await doorList(people.holder.id)).find((d) => d.deviceId === doors.a.id)!;
  expect(holder.sources.map((s) => s.kind).sort()).toEqual(['access-group', 'member-card']);
});

test('the views need the view permissions; a building-limited key sees its buildings only', async () => {
  await createRole(t.db, { code: 'av-none', name: '无权限查询', permissions: ['hardware:log:view'] });
  await createUser(t.db, { username: 'avnone', password: 'Avnone@123', roleCodes: ['av-none'] });
  const nobody = await t.auth('avnone', 'Avnone@123');
  for (const [path, id] of [
    [accessViewEndpoints.deviceAccessList, doors.a.id],
    [accessViewEndpoints.deviceAccessExport, doors.a.id],
    [accessViewEndpoints.spaceAccessList, floorA],
    [accessViewEndpoints.memberDoorList, people.holder.id],
  ] as const) {
    const res = await call('GET', path, { id }, nobody);
    expect(res.statusCode, path).toBe(403);
  }
  await createRole(t.db, { code: 'av-device', name: '设备查看', permissions: ['hardware:device:view'] });
  await createUser(t.db, { username: 'avdevice', password: 'Avdevice@123', roleCodes: ['av-device'] });
  const viewer = await t.auth('avdevice', 'Avdevice@123');
  expect((await accessList(doors.a.id, undefined, viewer)).length).toBeGreaterThan(0);
  expect(
    (await call('GET', accessViewEndpoints.memberDoorList, { id: people.holder.id }, viewer)).statusCode,
  ).toBe(403);

  const [superRole] = await t.db
    .select({ id: ssoRoles.id })
    .from(ssoRoles)
    .where(eq(ssoRoles.code, 'super_admin'));
  const minted = await call('POST', apiKeyEndpoints.save, {
    name: '权限查询 A 楼',
    roleId: superRole.id,
    buildingIds: [buildingA],
  });
  expect(minted.statusCode, minted.body).toBe(200);
  const key = { authorization: `Bearer ${minted.json().data.key}` };
  expect((await accessList(doors.a.id, undefined, key)).length).toBeGreaterThan(0);
  expect((await call('GET', accessViewEndpoints.deviceAccessList, { id: doors.b.id }, key)).statusCode).toBe(
    404,
  );
  expect((await call('GET', accessViewEndpoints.spaceAccessList, { id: gateB }, key)).statusCode).toBe(404);
  expect((await doorList(people.holder.id, key)).map((d) => d.deviceId)).toEqual([doors.a.id]);
  expect((await doorList(people.holder.id)).map((d) => d.deviceId).sort()).toEqual(
    [doors.a.id, doors.b.id].sort(),
  );
  const missing = await call('GET', accessViewEndpoints.memberDoorList, { id: 999_999 });
  expect(missing.statusCode).toBe(404);
});
