/**
 * 企业门禁组 against a simulated door device over MQTT (the embedded broker, or TEST_MQTT_URL's):
 * a group's members reach the group's devices, a revocation reaches the device's `sync` within a
 * second, a disabled or expired group grants nothing, the member import is all or nothing, and the
 * server checks every right itself. A group belongs to a company: chosen people join its staff
 * list, a group taking all staff gives a new hire the doors at once and takes them from a leaver
 * within a second, and a disabled company or one past its contract opens nothing.
 */
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { deviceEndpoints, importPaths, resourcePaths } from '@cowork/contract';
import { companyEndpoints, companyStaffEndpoints } from '@cowork/contract/resources/company';
import {
  kreatorDeviceEndpoints,
  kreatorUser,
  kreatorUserEndpoints,
  kreatorUserGroup,
} from '@cowork/contract/resources/kreator';
import { buildings, csrSources, members, spaces } from '../src/db/schema.ts';
import { SimulatedDevice } from '../src/device-link/simulator.ts';
import { buildTestApp, createRole, createUser, demo, multipartFile, type TestApp, until } from './helper.ts';

const enrolKey = 'test-enrol-key-kreator';
const groups = resourcePaths(kreatorUserGroup);
const imports = importPaths(kreatorUser);
let t: TestApp;
let headers: Record<string, string>;
let device: SimulatedDevice;
let deviceId: number;
let buildingId: number;
let otherBuildingId: number;
let groupId: number;
let companyId: number;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, as = headers) =>
  t.app.inject({
    method,
    url,
    headers: as,
    ...(method === 'GET' ? { query: payload as never } : { payload }),
  });

/** Milliseconds from now until the device holds (or no longer holds) this member. */
async function msUntilDevice(memberId: number, present: boolean) {
  const started = Date.now();
  await until(
    () => device.state.access.some((e) => e.memberId === memberId) === present,
    `member ${memberId} ${present ? 'on' : 'off'} the device`,
  );
  return Date.now() - started;
}

const memberIdOf = async (phone: string) =>
  (await t.db.select({ id: members.id }).from(members).where(eq(members.phone, phone)))[0]?.id;

async function workbook(rows: unknown[][], header = ['姓名', '手机号']) {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('门禁组成员');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function upload(data: Buffer, group = groupId) {
  const body = multipartFile('members.xlsx', data);
  return t.app.inject({
    method: 'POST',
    url: `${imports.excel}?groupId=${group}`,
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

beforeAll(async () => {
  t = await buildTestApp({ config: { deviceEnrolKey: enrolKey } });
  await t.app.ready();
  headers = await t.auth(...demo.admin);
  const url = t.app.devices.status().url!;
  [{ id: buildingId }, { id: otherBuildingId }] = await t.db
    .select({ id: buildings.id })
    .from(buildings)
    .orderBy(buildings.id)
    .limit(2);

  const enrolling = new SimulatedDevice({ url, enrolKey, sn: 'KREATOR-DOOR-1' });
  await enrolling.connect();
  await until(
    async () => (await call('GET', deviceEndpoints.unPulledList)).json().data.length > 0,
    'the device waiting',
  );
  const registered = await call('POST', deviceEndpoints.register, {
    sn: 'KREATOR-DOOR-1',
    name: '企业前门',
    spaceId: null,
  });
  expect(registered.statusCode, registered.body).toBe(200);
  deviceId = registered.json().data.id;
  const { secret } = registered.json().data;
  await enrolling.close();
  device = new SimulatedDevice({ url, sn: 'KREATOR-DOOR-1', secret, heartbeatMs: 1_000 });
  await device.connect();
  await until(() => device.commands.some((c) => c.type === 'sync'), 'the first sync');
  const company = await call('POST', companyEndpoints.save, { name: '光年测试有限公司', status: 'enabled' });
  expect(company.statusCode, company.body).toBe(200);
  companyId = company.json().data.id;
});

afterAll(async () => {
  await device?.close();
  await t?.close();
});

test('a group is created with `create`, checked, listed with its counts and edited', async () => {
  const body = {
    name: '测试光年门禁组',
    companyId,
    buildingId,
    validFrom: inDays(-1),
    validTo: inDays(30),
    status: 'enabled',
  };
  const created = await call('POST', groups.save, body);
  expect(created.statusCode, created.body).toBe(200);
  expect(groups.save).toMatch(/kreator-user-group\/create$/);
  groupId = created.json().data.id;
  expect(created.json().data).toMatchObject({
    name: '测试光年门禁组',
    companyName: '光年测试有限公司',
    staffScope: 'people',
    memberCount: 0,
    deviceCount: 0,
  });

  const taken = await call('POST', groups.save, body);
  expect(taken.statusCode).toBe(409);
  expect(taken.json().msg).toContain('门禁组名称');
  const backwards = await call('POST', groups.save, { ...body, name: '倒序', validTo: inDays(-2) });
  expect(backwards.statusCode).toBe(400);
  expect(backwards.json().msg).toContain('失效时间');
  const noCompany = await call('POST', groups.save, { ...body, name: '无企业', companyId: 999_999 });
  expect(noCompany.statusCode).toBe(400);
  expect(noCompany.json().msg).toMatch(/^企业：/);
  const noDepartments = await call('POST', groups.save, {
    ...body,
    name: '无部门',
    staffScope: 'departments',
  });
  expect(noDepartments.statusCode).toBe(400);
  expect(noDepartments.json().msg).toMatch(/^部门：/);
  const ghostBuilding = await call('POST', groups.save, { ...body, name: '无楼宇', buildingId: 999_999 });
  expect(ghostBuilding.statusCode).toBe(400);
  expect(ghostBuilding.json().msg).toContain('楼宇');

  const page = await call('GET', groups.page, { companyName: '光年测试' });
  expect(page.json().data.records).toEqual([expect.objectContaining({ id: groupId, status: 'enabled' })]);
  // The group answers its company's name, renamed with the company.
  const renamed = await call('PUT', companyEndpoints.edit, {
    id: companyId,
    name: '光年测试（北京）有限公司',
  });
  expect(renamed.statusCode, renamed.body).toBe(200);
  const edited = await call('GET', `${groups.detail}/${groupId}`);
  expect(edited.json().data.companyName).toBe('光年测试（北京）有限公司');
  const ofCompany = await call('GET', groups.page, { companyId });
  expect(ofCompany.json().data.records.map((r: { id: number }) => r.id)).toEqual([groupId]);
});

test('members added, bound and removed reach the device within a second', async () => {
  const device1 = await call('POST', kreatorDeviceEndpoints.add, { groupId, deviceIds: [deviceId] });
  expect(device1.statusCode, device1.body).toBe(200);
  expect(device1.json().data).toEqual({ added: 1, skipped: 0 });

  // A phone no member has: the member is created, from 企业导入, with the group's company.
  const added = await call('POST', kreatorUserEndpoints.save, {
    groupId,
    name: '林小企',
    phone: '17900007001',
  });
  expect(added.statusCode, added.body).toBe(200);
  const newMember = await memberIdOf('17900007001');
  expect(added.json().data).toMatchObject({ id: expect.any(Number), memberId: newMember });
  const [created] = await t.db
    .select({ companyName: members.companyName, source: csrSources.name })
    .from(members)
    .leftJoin(csrSources, eq(csrSources.id, members.sourceId))
    .where(eq(members.id, newMember));
  expect(created).toEqual({ companyName: '光年测试（北京）有限公司', source: '企业导入' });
  expect(await msUntilDevice(newMember, true)).toBeLessThan(1_000);
  // The person joined the company's staff list.
  const onList = await call('GET', companyStaffEndpoints.page, { companyId, phone: '17900007001' });
  expect(onList.json().data.records).toMatchObject([
    { name: '林小企', status: 'active', memberId: newMember },
  ]);
  const again = await call('POST', kreatorUserEndpoints.save, {
    groupId,
    name: '林小企',
    phone: '17900007001',
  });
  expect(again.statusCode).toBe(409);

  // An existing member, bound by id.
  const [existing] = await t.db
    .insert(members)
    .values({ phone: '17900007002', nickname: '老会员' })
    .returning({ id: members.id });
  const bound = await call('POST', kreatorUserEndpoints.bind, {
    groupId,
    memberIds: [existing.id, newMember],
  });
  expect(bound.statusCode, bound.body).toBe(200);
  expect(bound.json().data).toEqual({ added: 1, skipped: 1 });
  expect(await msUntilDevice(existing.id, true)).toBeLessThan(1_000);
  const entry = device.state.access.find((e) => e.memberId === existing.id)!;
  expect(entry.phone).toBe('179****7002');

  const page = await call('GET', kreatorUserEndpoints.page, { groupId, size: 50 });
  expect(
    page
      .json()
      .data.records.map((r: { memberId: number }) => r.memberId)
      .sort(),
  ).toEqual([newMember, existing.id].sort());

  // Revocation: taken off the device within a second of the answer.
  const row = page.json().data.records.find((r: { memberId: number }) => r.memberId === existing.id);
  const removed = await call('DELETE', kreatorUserEndpoints.remove, { ids: [row.id] });
  expect(removed.statusCode, removed.body).toBe(200);
  expect(await msUntilDevice(existing.id, false)).toBeLessThan(1_000);
  expect(device.state.access.some((e) => e.memberId === newMember)).toBe(true);

  const devices = await call('GET', kreatorDeviceEndpoints.page, { groupId });
  expect(devices.json().data).toMatchObject({ total: 1, records: [{ deviceId, name: '企业前门' }] });
  await until(
    async () =>
      (await call('GET', kreatorDeviceEndpoints.page, { groupId })).json().data.records[0].syncState ===
      'synced',
    'the device shown 已同步',
  );
});

test('a disabled or expired group grants nothing; expiry is taken off at validTo', async () => {
  const memberId = (await memberIdOf('17900007001'))!;
  const disabled = await call('PUT', groups.edit, { id: groupId, status: 'disabled' });
  expect(disabled.statusCode, disabled.body).toBe(200);
  expect(await msUntilDevice(memberId, false)).toBeLessThan(1_000);
  await call('PUT', groups.edit, { id: groupId, status: 'enabled' });
  await msUntilDevice(memberId, true);

  // Ends in two seconds: the device drops it then, from the schedule kept in the database.
  const soon = new Date(Date.now() + 2_000).toISOString();
  const ending = await call('PUT', groups.edit, { id: groupId, validTo: soon });
  expect(ending.statusCode, ending.body).toBe(200);
  await until(
    () => device.state.access.find((e) => e.memberId === memberId)?.validTo === Date.parse(soon),
    'the new end',
  );
  await until(
    () => !device.state.access.some((e) => e.memberId === memberId),
    'the expired group taken off',
    6_000,
  );

  // A group that has already ended grants nothing, even with members and devices.
  const extended = await call('PUT', groups.edit, { id: groupId, validTo: inDays(30) });
  expect(extended.statusCode).toBe(200);
  await msUntilDevice(memberId, true);
});

test('import: a file with bad rows imports nothing and names each; a good one imports and syncs', async () => {
  const template = await call('GET', imports.template, { groupId });
  expect(template.statusCode).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
  expect(book.worksheets[0].getRow(1).values).toEqual([undefined, '姓名', '手机号']);

  const bad = await upload(
    await workbook([
      ['周一', '17900007101'],
      ['', '17900007102'],
      ['周三', '1790000'],
      ['周四', '17900007101'],
      ['林小企', '17900007001'],
    ]),
  );
  expect(bad.statusCode, bad.body).toBe(400);
  const rows = bad.json().data.errors.map((e: { row: number }) => e.row);
  expect([...new Set(rows)].sort()).toEqual([3, 4, 5, 6]);
  expect(await memberIdOf('17900007101')).toBeUndefined();

  const noGroup = await upload(await workbook([['周一', '17900007101']]), 999_999);
  expect(noGroup.statusCode).toBe(400);
  expect(noGroup.json().msg).toContain('门禁组');

  const good = await upload(
    await workbook([
      ['周一', '17900007101'],
      ['周二', '17900007102'],
    ]),
  );
  expect(good.statusCode, good.body).toBe(200);
  expect(good.json().data).toEqual({ imported: 2 });
  const imported = (await memberIdOf('17900007102'))!;
  expect(await msUntilDevice(imported, true)).toBeLessThan(1_000);
  const group = await call('GET', `${groups.detail}/${groupId}`);
  expect(group.json().data).toMatchObject({ memberCount: 3, deviceCount: 1 });
});

test('devices: another building is refused, removal empties the device; bad input and rights', async () => {
  const [otherFloor] = await t.db
    .insert(spaces)
    .values({ buildingId: otherBuildingId, name: '外楼层', kind: 'floor' })
    .returning({ id: spaces.id });
  const url = t.app.devices.status().url!;
  const enrolling = new SimulatedDevice({ url, enrolKey, sn: 'KREATOR-DOOR-2' });
  await enrolling.connect();
  await until(
    async () =>
      (await call('GET', deviceEndpoints.unPulledList))
        .json()
        .data.some((d: { sn: string }) => d.sn === 'KREATOR-DOOR-2'),
    'the second device waiting',
  );
  const other = await call('POST', deviceEndpoints.register, {
    sn: 'KREATOR-DOOR-2',
    name: '外楼门',
    spaceId: otherFloor.id,
  });
  expect(other.statusCode, other.body).toBe(200);
  await enrolling.close();
  const refused = await call('POST', kreatorDeviceEndpoints.add, {
    groupId,
    deviceIds: [other.json().data.id],
  });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().msg).toContain('外楼门');
  const ghost = await call('POST', kreatorDeviceEndpoints.add, { groupId, deviceIds: [999_999] });
  expect(ghost.statusCode).toBe(400);
  expect(ghost.json().msg).toContain('设备');
  const empty = await call('POST', kreatorDeviceEndpoints.add, { groupId, deviceIds: [] });
  expect(empty.statusCode).toBe(400);
  expect(empty.json().msg).toContain('设备');

  // A role that may only read: every write is refused by the server itself.
  await createRole(t.db, {
    code: 'kreator-reader',
    name: '门禁组只读',
    permissions: ['enterprise:accessControl:view'],
  });
  await createUser(t.db, { username: 'kreader', password: 'Kreader@123', roleCodes: ['kreator-reader'] });
  const reader = await t.auth('kreader', 'Kreader@123');
  expect((await call('GET', groups.page, {}, reader)).statusCode).toBe(200);
  for (const [method, url, body] of [
    ['POST', groups.save, { name: 'x' }],
    ['PUT', groups.edit, { id: groupId, status: 'disabled' }],
    ['POST', kreatorUserEndpoints.save, { groupId, name: '甲', phone: '17900007301' }],
    ['POST', kreatorUserEndpoints.bind, { groupId, memberIds: [1] }],
    ['DELETE', kreatorUserEndpoints.remove, { ids: [1] }],
    ['POST', kreatorDeviceEndpoints.add, { groupId, deviceIds: [deviceId] }],
    ['DELETE', kreatorDeviceEndpoints.delete, { ids: [1] }],
  ] as const) {
    const res = await call(method, url, body, reader);
    expect(res.statusCode, `${method} ${url}`).toBe(403);
  }

  const memberId = (await memberIdOf('17900007001'))!;
  const links = await call('GET', kreatorDeviceEndpoints.page, { groupId });
  const removed = await call('DELETE', kreatorDeviceEndpoints.delete, {
    ids: [links.json().data.records[0].id],
  });
  expect(removed.statusCode, removed.body).toBe(200);
  expect(await msUntilDevice(memberId, false)).toBeLessThan(1_000);
});

test('a group of all staff or departments follows the staff list; 离职 and the company close the doors', async () => {
  const created = await call('POST', groups.save, {
    name: '光年全员门禁组',
    companyId,
    staffScope: 'all',
    buildingId,
    validFrom: inDays(-1),
    validTo: inDays(30),
    status: 'enabled',
  });
  expect(created.statusCode, created.body).toBe(200);
  const allId = created.json().data.id;
  expect(
    (await call('POST', kreatorDeviceEndpoints.add, { groupId: allId, deviceIds: [deviceId] })).statusCode,
  ).toBe(200);
  // Everyone on the list already: the people chosen for the first group joined it.
  const chosen = (await memberIdOf('17900007001'))!;
  await msUntilDevice(chosen, true);

  // Chosen one by one only in a `people` group.
  const refused = await call('POST', kreatorUserEndpoints.save, {
    groupId: allId,
    name: '甲',
    phone: '17900007401',
  });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().msg).toContain('成员范围');

  // A new hire reaches the door within a second of the answer, and leaves it as fast.
  const hired = await call('POST', companyStaffEndpoints.save, {
    companyId,
    name: '新员工',
    phone: '17900007402',
    department: '市场部',
  });
  expect(hired.statusCode, hired.body).toBe(200);
  const hire = hired.json().data;
  expect(await msUntilDevice(hire.memberId, true)).toBeLessThan(1_000);
  const left = await call('POST', companyStaffEndpoints.leave, { ids: [hire.id] });
  expect(left.statusCode, left.body).toBe(200);
  expect(left.json().data.groups).toEqual(['光年全员门禁组']);
  expect(left.json().msg).toBe('新员工已离职：已移出门禁组“光年全员门禁组”；门禁设备正在同步权限');
  expect(await msUntilDevice(hire.memberId, false)).toBeLessThan(1_000);

  // Departments: only that department's active staff.
  const back = await call('POST', companyStaffEndpoints.save, {
    companyId,
    name: '新员工',
    phone: '17900007402',
    department: '市场部',
  });
  expect([back.statusCode, back.json().msg]).toEqual([200, '新员工已重新入职']);
  await msUntilDevice(hire.memberId, true);
  const narrowed = await call('PUT', groups.edit, {
    id: allId,
    staffScope: 'departments',
    departments: ['市场部'],
  });
  expect(narrowed.statusCode, narrowed.body).toBe(200);
  expect(narrowed.json().data.memberCount).toBe(1);
  await msUntilDevice(chosen, false);
  expect(device.state.access.some((e) => e.memberId === hire.memberId)).toBe(true);

  // A disabled company, or one past its contract, opens nothing.
  expect((await call('PUT', companyEndpoints.edit, { id: companyId, status: 'disabled' })).statusCode).toBe(
    200,
  );
  expect(await msUntilDevice(hire.memberId, false)).toBeLessThan(1_000);
  expect((await call('PUT', companyEndpoints.edit, { id: companyId, status: 'enabled' })).statusCode).toBe(
    200,
  );
  await msUntilDevice(hire.memberId, true);
  const ended = await call('PUT', companyEndpoints.edit, {
    id: companyId,
    validFrom: inDays(-30),
    validTo: inDays(-1),
  });
  expect(ended.statusCode, ended.body).toBe(200);
  expect(await msUntilDevice(hire.memberId, false)).toBeLessThan(1_000);
  await call('PUT', companyEndpoints.edit, { id: companyId, validFrom: null, validTo: null });
  await msUntilDevice(hire.memberId, true);
});
