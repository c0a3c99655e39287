/**
 * 接口密钥 limited to buildings (限定楼宇): the key finds only its buildings' records. Another
 * building's record is 404 by id (read, edit, publish, remove; a door opened), never 403, so the key
 * does not learn it exists, on CRUD resources (lib/crud's `buildingColumn`) and hand-written routes
 * alike; lists with no building filter show only its buildings' rows; a key of several buildings
 * sees all of them without naming one. Staff are not limited.
 */
import ExcelJS from 'exceljs';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  deviceEndpoints,
  doorOperationEndpoints,
  endpoints,
  importPaths,
  resourcePaths,
  type Page,
} from '@cowork/contract';
import {
  apiKeyCrossBuildingPrefixes,
  apiKeyEndpoints,
  apiKeyMessages,
} from '@cowork/contract/resources/api-key';
import { building } from '@cowork/contract/resources/building';
import { companyCard } from '@cowork/contract/resources/company-card';
import { dashboardEndpoints } from '@cowork/contract/resources/dashboard';
import { deviceSetEndpoints } from '@cowork/contract/resources/device-set';
import { invoice, invoicePaths, tripartiteInvoice } from '@cowork/contract/resources/invoice';
import {
  kreatorDeviceEndpoints,
  kreatorUser,
  kreatorUserEndpoints,
} from '@cowork/contract/resources/kreator';
import {
  officeStationOrder,
  orderPaths,
  userCardOrder,
  writableOrders,
  type OrderProductOption,
} from '@cowork/contract/resources/order';
import { officeStation } from '@cowork/contract/resources/station';
import { companyEndpoints, companyStaffEndpoints } from '@cowork/contract/resources/company';
import { teamCardActivity } from '@cowork/contract/resources/team-card-activity';
import { userCard } from '@cowork/contract/resources/user-card';
import { webhookApi } from '@cowork/contract/resources/webhook';
import {
  deviceAlarms,
  deviceOpenLogs,
  devices,
  kreatorDevices,
  kreatorUserGroups,
  kreatorUsers,
  companyStaff,
  members,
  officeStations,
  orders,
  spaces,
  ssoRoles,
  userCards,
  webhookEndpoints,
} from '../src/db/schema.ts';
import { buildTestApp, callApi, createCompany, demo, multipartFile, type TestApp } from './helper.ts';

let t: TestApp;
let admin: { authorization: string };
/** A key of building A only; a key of A and B; their buildings; B's records by id. */
let onlyA: { authorization: string };
let both: { authorization: string };
let a: number;
let b: number;
const mineAndTheirs = { station: [0, 0], device: [0, 0], order: [0, 0], space: [0, 0] };
let orderKind: (typeof orders.$inferSelect)['kind'] = 'office-station';

const stationPaths = resourcePaths(officeStation);
const buildingPaths = resourcePaths(building);
const cardPaths = resourcePaths(userCard);

async function mint(buildingIds: number[]) {
  const [superRole] = await t.db
    .select({ id: ssoRoles.id })
    .from(ssoRoles)
    .where(eq(ssoRoles.code, 'super_admin'));
  const res = await callApi<{ key: string }>(t, admin, 'POST', apiKeyEndpoints.save, {
    name: `楼宇密钥${buildingIds.join('-')}`,
    roleId: superRole.id,
    buildingIds,
  });
  expect(res.status, res.raw).toBe(200);
  return { authorization: `Bearer ${res.body.data.key}` };
}

/** The building ids of a page's rows (a column of one building, or of several). */
async function buildingsListed(
  headers: Record<string, string>,
  url: string,
  key: 'buildingId' | 'buildingIds' | 'id' = 'buildingId',
) {
  const res = await callApi<Page<Record<string, unknown>>>(t, headers, 'GET', url);
  expect(res.status, `${url}: ${res.raw}`).toBe(200);
  expect(res.body.data.records.length, url).toBeGreaterThan(0);
  return res.body.data.records.map((r) => r[key]);
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.auth(...demo.admin);
  // Two buildings that both have meeting rooms and orders.
  const placed = await t.db
    .selectDistinct({ id: officeStations.buildingId })
    .from(officeStations)
    .innerJoin(orders, eq(orders.buildingId, officeStations.buildingId))
    .orderBy(officeStations.buildingId);
  expect(placed.length).toBeGreaterThanOrEqual(2);
  [a, b] = [placed[0].id, placed[1].id];
  for (const [i, id] of [a, b].entries()) {
    const [station] = await t.db
      .select({ id: officeStations.id })
      .from(officeStations)
      .where(eq(officeStations.buildingId, id))
      .limit(1);
    mineAndTheirs.station[i] = station.id;
    const [space] = await t.db
      .insert(spaces)
      .values({ buildingId: id, name: `密钥测试门厅${i}`, kind: 'gate' })
      .returning({ id: spaces.id });
    const [device] = await t.db
      .insert(devices)
      .values({
        sn: `SCOPE-${i}`,
        name: `密钥测试门${i}`,
        spaceId: space.id,
        secret: t.app.devices.box.seal('x'),
      })
      .returning({ id: devices.id });
    mineAndTheirs.device[i] = device.id;
    mineAndTheirs.space[i] = space.id;
    await t.db.insert(deviceOpenLogs).values({
      messageId: `scope-open-${i}`,
      deviceId: device.id,
      sn: `SCOPE-${i}`,
      method: 'card',
      result: 'success',
      at: new Date(),
    });
    await t.db.insert(deviceAlarms).values({
      messageId: `scope-alarm-${i}`,
      deviceId: device.id,
      sn: `SCOPE-${i}`,
      buildingId: id,
      kind: 'forced',
      raisedAt: new Date(),
    });
  }
  const [theirOrder] = await t.db
    .select({ id: orders.id, kind: orders.kind })
    .from(orders)
    .where(eq(orders.buildingId, b))
    .limit(1);
  orderKind = theirOrder.kind;
  const [myOrder] = await t.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.buildingId, a), eq(orders.kind, orderKind)))
    .limit(1);
  mineAndTheirs.order = [myOrder?.id ?? 0, theirOrder.id];
  onlyA = await mint([a]);
  both = await mint([a, b]);
});

afterAll(async () => {
  await t?.close();
});

test('routes spanning buildings (invoices, dashboard, device sets, firmware…) are 403 for a key limited to buildings, 200 for one of every building', async () => {
  const calls = [
    invoicePaths(invoice).page,
    invoicePaths(tripartiteInvoice).page,
    dashboardEndpoints.summary,
    deviceSetEndpoints.list,
    doorOperationEndpoints.firmwarePage,
    doorOperationEndpoints.rolloutPage,
    resourcePaths(companyCard).page,
    companyEndpoints.page,
    companyStaffEndpoints.page,
    resourcePaths(teamCardActivity).page,
    webhookApi.page,
    endpoints.auditLogPage,
  ];
  // Every declared prefix is called here, so one added later is tested too.
  for (const prefix of apiKeyCrossBuildingPrefixes)
    expect(
      calls.some((url) => url.startsWith(prefix)),
      prefix,
    ).toBe(true);
  const unlimited = await mint([]);
  for (const url of calls) {
    for (const limited of [onlyA, both]) {
      const refused = await callApi(t, limited, 'GET', url);
      expect([refused.status, refused.body.msg], `${url}: ${refused.raw}`).toEqual([
        403,
        apiKeyMessages.crossBuilding,
      ]);
    }
    const answered = await callApi(t, unlimited, 'GET', url);
    expect(answered.status, `${url}: ${answered.raw}`).toBe(200);
  }
  expect(apiKeyMessages.crossBuilding).toContain('发票、首页统计、门禁联动、固件升级');

  // A write is refused before it does anything: no endpoint that would receive B's events.
  const save = {
    name: '越界推送',
    url: 'https://receiver.example.com/hook',
    kind: 'webhook',
    events: ['order.paid'],
    enabled: true,
  };
  const refused = await callApi(t, onlyA, 'POST', webhookApi.save, save);
  expect(refused.status, refused.raw).toBe(403);
  const saved = await t.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.name, save.name));
  expect(saved).toEqual([]);
});

describe('another building’s record by id is 404, as if it did not exist', () => {
  test('on a CRUD resource: detail, edit, publish, remove', async () => {
    const [mine, theirs] = mineAndTheirs.station;
    expect((await callApi(t, onlyA, 'GET', `${stationPaths.detail}/${mine}`)).status).toBe(200);
    const calls: [string, string, object?][] = [
      ['GET', `${stationPaths.detail}/${theirs}`],
      ['PUT', stationPaths.edit, { id: theirs, capacity: 99 }],
      ['PUT', stationPaths.editPublished, { id: theirs, published: false }],
      ['DELETE', `${stationPaths.remove}/${theirs}`],
      ['DELETE', stationPaths.remove, { ids: [mine, theirs] }],
      ['GET', `${buildingPaths.detail}/${b}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await callApi(t, onlyA, method, url, body);
      expect(res.status, `${method} ${url}: ${res.raw}`).toBe(404);
    }
    // Nothing changed, and staff still reach it.
    const [row] = await t.db.select().from(officeStations).where(eq(officeStations.id, theirs));
    expect(row.capacity).not.toBe(99);
    expect((await callApi(t, admin, 'GET', `${stationPaths.detail}/${theirs}`)).status).toBe(200);
    // A key of both buildings reaches it.
    expect((await callApi(t, both, 'GET', `${stationPaths.detail}/${theirs}`)).status).toBe(200);
  });

  test('on hand-written routes: a device (detail, door code, opening the door), a space’s emergency mode and an order', async () => {
    const [mine, theirs] = mineAndTheirs.device;
    expect((await callApi(t, onlyA, 'GET', `${deviceEndpoints.detail}/${mine}`)).status).toBe(200);
    const calls: [string, string, object?][] = [
      ['GET', `${deviceEndpoints.detail}/${theirs}`],
      ['GET', `${deviceEndpoints.totpCode}?id=${theirs}`],
      ['POST', deviceEndpoints.openDoor, { id: theirs, reason: '越界开门' }],
      [
        'POST',
        doorOperationEndpoints.spaceMode,
        { spaceId: mineAndTheirs.space[1], mode: 'lockdown', reason: '越界封锁' },
      ],
    ];
    const resource = writableOrders.find((r) => r.kind === orderKind)!;
    const paths = orderPaths(resource);
    calls.push(['GET', `${paths.detail}/${mineAndTheirs.order[1]}`]);
    calls.push([
      'PUT',
      paths.editReferrerPhone,
      { id: mineAndTheirs.order[1], referrerPhone: '13800000000' },
    ]);
    for (const [method, url, body] of calls) {
      const res = await callApi(t, onlyA, method, url, body);
      expect(res.status, `${method} ${url}: ${res.raw}`).toBe(404);
    }
    if (mineAndTheirs.order[0])
      expect((await callApi(t, onlyA, 'GET', `${paths.detail}/${mineAndTheirs.order[0]}`)).status).toBe(200);
    expect((await callApi(t, admin, 'GET', `${deviceEndpoints.detail}/${theirs}`)).status).toBe(200);
    const [gate] = await t.db.select().from(spaces).where(eq(spaces.id, mineAndTheirs.space[1]));
    expect(gate.mode).toBe('normal');
    expect((await callApi(t, admin, 'GET', `${paths.detail}/${mineAndTheirs.order[1]}`)).status).toBe(200);
  });
});

test('lists without a building filter show only the key’s buildings', async () => {
  const resource = writableOrders.find((r) => r.kind === orderKind)!;
  const lists: [string, 'buildingId' | 'id'][] = [
    [`${buildingPaths.page}?size=100`, 'id'],
    [`${stationPaths.page}?size=100`, 'buildingId'],
    [`${orderPaths(resource).page}?size=100`, 'buildingId'],
    [`${deviceEndpoints.page}?size=100`, 'buildingId'],
    [`${deviceEndpoints.alarmPage}?size=100`, 'buildingId'],
  ];
  for (const [url, key] of lists) {
    expect(new Set(await buildingsListed(onlyA, url, key)), url).toEqual(new Set([a]));
    // Staff, and the key of both buildings, see both.
    for (const headers of [admin, both]) {
      const seen = new Set(await buildingsListed(headers, url, key));
      expect(seen.has(a) && seen.has(b), url).toBe(true);
    }
  }
  // Open logs name no building: the key sees its own door's only.
  const logs = await callApi<Page<{ sn: string }>>(
    t,
    onlyA,
    'GET',
    `${deviceEndpoints.openLogPage}?size=100`,
  );
  expect(logs.status, logs.raw).toBe(200);
  expect(logs.body.data.records.map((r) => r.sn)).toEqual(['SCOPE-0']);
  // The selects' options too.
  const options = await callApi<{ value: number }[]>(t, onlyA, 'GET', stationPaths.list);
  const allowed = await t.db
    .select({ id: officeStations.id })
    .from(officeStations)
    .where(eq(officeStations.buildingId, a));
  expect(options.body.data.map((o) => o.value).sort()).toEqual(allowed.map((s) => s.id).sort());
});

test('records valid in several buildings (会员卡) are the key’s when one of them is', async () => {
  const cards = await t.db.select({ id: userCards.id, buildingIds: userCards.buildingIds }).from(userCards);
  const outside = cards.filter((c) => !c.buildingIds.includes(a));
  expect(outside.length).toBeGreaterThan(0);
  const listed = (await buildingsListed(onlyA, `${cardPaths.page}?size=100`, 'buildingIds')) as number[][];
  expect(listed.every((ids) => ids.includes(a))).toBe(true);
  for (const card of outside) {
    expect((await callApi(t, onlyA, 'GET', `${cardPaths.detail}/${card.id}`)).status).toBe(404);
  }
  // Staff see them all.
  expect((await callApi<Page<unknown>>(t, admin, 'GET', `${cardPaths.page}?size=100`)).body.data.total).toBe(
    cards.length,
  );
});

describe('another building’s door group (企业门禁组) answers as one that does not exist; nothing changes', () => {
  const memberPaths = resourcePaths(kreatorUser);
  /** Groups of building A and B, each with one member and one device; a device placed nowhere. */
  const group = [0, 0];
  const link = [0, 0];
  const groupMember = [0, 0];
  let unplaced = 0;
  let memberId = 0;
  const missingGroup = 999_999;

  /** What a group's rows hold: the test's evidence that a refused call changed nothing. */
  const contents = async (groupId: number) => ({
    members: (
      await t.db
        .select({ phone: kreatorUsers.phone })
        .from(kreatorUsers)
        .where(eq(kreatorUsers.groupId, groupId))
    ).map((r) => r.phone),
    devices: (
      await t.db
        .select({ deviceId: kreatorDevices.deviceId })
        .from(kreatorDevices)
        .where(eq(kreatorDevices.groupId, groupId))
    ).map((r) => r.deviceId),
  });

  async function importInto(headers: Record<string, string>, groupId: number, phone: string) {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('门禁组成员');
    sheet.addRow(['姓名', '手机号']);
    sheet.addRow(['导入越界', phone]);
    const body = multipartFile('members.xlsx', Buffer.from(await book.xlsx.writeBuffer()));
    const res = await t.app.inject({
      method: 'POST',
      url: `${importPaths(kreatorUser).excel}?groupId=${groupId}`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    return { status: res.statusCode, body: res.json<{ msg: string }>(), raw: res.body };
  }

  beforeAll(async () => {
    const [member] = await t.db
      .insert(members)
      .values({ phone: '17700009901', realName: '越界测试' })
      .returning({ id: members.id });
    memberId = member.id;
    for (const [i, buildingId] of [a, b].entries()) {
      const companyName = `密钥测试企业${i}`;
      const companyId = await createCompany(t.db, companyName);
      const [staff] = await t.db
        .insert(companyStaff)
        .values({ companyId, memberId, name: '越界测试', phone: '17700009901' })
        .returning({ id: companyStaff.id });
      const [row] = await t.db
        .insert(kreatorUserGroups)
        .values({
          name: `密钥测试门禁组${i}`,
          companyId,
          companyName,
          buildingId,
          validFrom: new Date(Date.now() - 86_400_000),
          validTo: new Date(Date.now() + 30 * 86_400_000),
        })
        .returning({ id: kreatorUserGroups.id });
      group[i] = row.id;
      const [person] = await t.db
        .insert(kreatorUsers)
        .values({ groupId: row.id, staffId: staff.id, memberId, phone: '17700009901', name: '越界测试' })
        .returning({ id: kreatorUsers.id });
      groupMember[i] = person.id;
      const [linked] = await t.db
        .insert(kreatorDevices)
        .values({ groupId: row.id, deviceId: mineAndTheirs.device[i] })
        .returning({ id: kreatorDevices.id });
      link[i] = linked.id;
    }
    const [nowhere] = await t.db
      .insert(devices)
      .values({ sn: 'SCOPE-NOWHERE', name: '未安装的门', secret: t.app.devices.box.seal('x') })
      .returning({ id: devices.id });
    unplaced = nowhere.id;
  });

  test('adding, binding and importing members, and listing and adding devices', async () => {
    const before = await contents(group[1]);
    // Each call, on B's group and on a group that does not exist: the key cannot tell them apart.
    const calls = (groupId: number): [string, string, object?][] => [
      ['POST', memberPaths.save, { groupId, name: '越界成员', phone: '17700009902' }],
      ['POST', kreatorUserEndpoints.bind, { groupId, memberIds: [memberId] }],
      ['GET', `${kreatorDeviceEndpoints.page}?groupId=${groupId}`],
      ['POST', kreatorDeviceEndpoints.add, { groupId, deviceIds: [mineAndTheirs.device[0]] }],
    ];
    const theirs = calls(group[1]);
    const unknown = calls(missingGroup);
    for (const [i, [method, url, body]] of theirs.entries()) {
      const res = await callApi<unknown>(t, onlyA, method, url, body);
      const none = await callApi<unknown>(t, onlyA, unknown[i][0], unknown[i][1], unknown[i][2]);
      expect(none.status, `${method} ${url}: ${none.raw}`).toBeGreaterThanOrEqual(400);
      expect([res.status, res.body.msg], `${method} ${url}: ${res.raw}`).toEqual([
        none.status,
        none.body.msg,
      ]);
    }
    const imported = await importInto(onlyA, group[1], '17700009903');
    const importedNowhere = await importInto(onlyA, missingGroup, '17700009903');
    expect(importedNowhere.status, importedNowhere.raw).toBe(400);
    expect([imported.status, imported.body.msg], imported.raw).toEqual([
      importedNowhere.status,
      importedNowhere.body.msg,
    ]);
    expect(await contents(group[1])).toEqual(before);
    const created = await t.db
      .select({ id: members.id })
      .from(members)
      .where(inArray(members.phone, ['17700009902', '17700009903']));
    expect(created).toEqual([]);

    // Its own group: the same calls work (the refusals above are about the building, not the calls).
    const ownDevices = await callApi<Page<{ deviceId: number }>>(
      t,
      onlyA,
      'GET',
      `${kreatorDeviceEndpoints.page}?groupId=${group[0]}`,
    );
    expect(ownDevices.status, ownDevices.raw).toBe(200);
    expect(ownDevices.body.data.records.map((r) => r.deviceId)).toEqual([mineAndTheirs.device[0]]);
    const added = await callApi(t, onlyA, 'POST', memberPaths.save, {
      groupId: group[0],
      name: '本楼成员',
      phone: '17700009904',
    });
    expect(added.status, added.raw).toBe(200);
    expect((await contents(group[0])).members).toContain('17700009904');
    // Staff reach B's group.
    const staff = await callApi(t, admin, 'GET', `${kreatorDeviceEndpoints.page}?groupId=${group[1]}`);
    expect(staff.status, staff.raw).toBe(200);
  });

  test('a device placed in none of the key’s buildings is one that does not exist', async () => {
    const nowhere = await callApi(t, onlyA, 'POST', kreatorDeviceEndpoints.add, {
      groupId: group[0],
      deviceIds: [unplaced],
    });
    const unknown = await callApi(t, onlyA, 'POST', kreatorDeviceEndpoints.add, {
      groupId: group[0],
      deviceIds: [999_999],
    });
    expect(unknown.status, unknown.raw).toBe(400);
    expect([nowhere.status, nowhere.body.msg], nowhere.raw).toEqual([unknown.status, unknown.body.msg]);
    expect((await contents(group[0])).devices).toEqual([mineAndTheirs.device[0]]);
    // Staff may still add a device placed nowhere (the group rule lets it join).
    const staff = await callApi(t, admin, 'POST', kreatorDeviceEndpoints.add, {
      groupId: group[0],
      deviceIds: [unplaced],
    });
    expect(staff.status, staff.raw).toBe(200);
    await t.db.delete(kreatorDevices).where(eq(kreatorDevices.deviceId, unplaced));
  });

  test('removing B’s members and devices is 404 (alone or beside the key’s own), and its members are not listed', async () => {
    const before = await contents(group[1]);
    const calls: [string, string, object?][] = [
      ['DELETE', `${memberPaths.remove}/${groupMember[1]}`],
      ['DELETE', memberPaths.remove, { ids: [groupMember[0], groupMember[1]] }],
      ['DELETE', kreatorDeviceEndpoints.delete, { ids: [link[1]] }],
      ['DELETE', kreatorDeviceEndpoints.delete, { ids: [link[0], link[1]] }],
    ];
    for (const [method, url, body] of calls) {
      const res = await callApi(t, onlyA, method, url, body);
      expect(res.status, `${method} ${url}: ${res.raw}`).toBe(404);
    }
    expect(await contents(group[1])).toEqual(before);
    // A's own rows were not removed either: each call is all or nothing.
    const own = await contents(group[0]);
    expect(own.devices).toEqual([mineAndTheirs.device[0]]);
    expect(own.members).toContain('17700009901');

    const listed = await callApi<Page<{ groupId: number }>>(t, onlyA, 'GET', `${memberPaths.page}?size=100`);
    expect(listed.status, listed.raw).toBe(200);
    const listedGroups = [...new Set(listed.body.data.records.map((r) => r.groupId))];
    expect(listedGroups).toContain(group[0]);
    const placed = await t.db
      .select({ buildingId: kreatorUserGroups.buildingId })
      .from(kreatorUserGroups)
      .where(inArray(kreatorUserGroups.id, listedGroups));
    expect(new Set(placed.map((g) => g.buildingId))).toEqual(new Set([a]));
    const staff = await callApi<Page<{ groupId: number }>>(t, admin, 'GET', `${memberPaths.page}?size=100`);
    expect(staff.body.data.records.some((r) => r.groupId === group[1])).toBe(true);
    // The key removes its own.
    const removed = await callApi(t, onlyA, 'DELETE', kreatorDeviceEndpoints.delete, { ids: [link[0]] });
    expect(removed.status, removed.raw).toBe(200);
  });
});

describe('新建订单 naming another building’s room or card answers as a product that does not exist', () => {
  const roomPaths = orderPaths(officeStationOrder);
  const cardOrderPaths = orderPaths(userCardOrder);
  const room = [0, 0];
  const card = [0, 0];
  const phone = '17700009911';
  /** 10:00 to 11:00 (Shanghai) some days ahead. */
  const slot = (days: number) => {
    const day = new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
    return { startAt: `${day}T10:00:00+08:00`, endAt: `${day}T11:00:00+08:00` };
  };
  const ordersOfMember = async () =>
    (
      await t.db.select({ productId: orders.productId }).from(orders).where(eq(orders.memberPhone, phone))
    ).map((o) => o.productId);

  beforeAll(async () => {
    await t.db.insert(members).values({ phone });
    for (const [i, buildingId] of [a, b].entries()) {
      const [station] = await t.db
        .insert(officeStations)
        .values({
          name: `密钥测试会议室${i}`,
          buildingId,
          capacity: 8,
          hourPriceFen: 10_000,
          minBookingMinutes: 60,
          openTime: '09:00',
          closeTime: '21:00',
          published: true,
        })
        .returning({ id: officeStations.id });
      room[i] = station.id;
      const [sold] = await t.db
        .insert(userCards)
        .values({
          name: `密钥测试月卡${i}`,
          cardType: 'month',
          validDays: 30,
          priceFen: 50_000,
          buildingIds: [buildingId],
          published: true,
        })
        .returning({ id: userCards.id });
      card[i] = sold.id;
    }
  });

  test('a booking of B’s room, without a buildingId, is refused and nothing is created', async () => {
    const booking = (productId: number, days: number) => ({
      memberPhone: phone,
      productId,
      payMethod: 'offline',
      ...slot(days),
    });
    const theirs = await callApi(t, onlyA, 'POST', roomPaths.save, booking(room[1], 3));
    const unknown = await callApi(t, onlyA, 'POST', roomPaths.save, booking(999_999, 3));
    expect(unknown.status, unknown.raw).toBe(400);
    expect([theirs.status, theirs.body.msg], theirs.raw).toEqual([unknown.status, unknown.body.msg]);
    expect(await ordersOfMember()).toEqual([]);
    // Its own building's room books; the key of both buildings books B's.
    expect((await callApi(t, onlyA, 'POST', roomPaths.save, booking(room[0], 3))).status).toBe(200);
    const other = await callApi(t, both, 'POST', roomPaths.save, booking(room[1], 4));
    expect(other.status, other.raw).toBe(200);
    expect((await ordersOfMember()).sort()).toEqual([room[0], room[1]].sort());
  });

  test('a card sold only in B is refused even with the key’s building, and is not offered', async () => {
    const sale = (productId: number) => ({
      memberPhone: phone,
      productId,
      buildingId: a,
      payMethod: 'offline',
    });
    const before = await ordersOfMember();
    const theirs = await callApi(t, onlyA, 'POST', cardOrderPaths.save, sale(card[1]));
    const unknown = await callApi(t, onlyA, 'POST', cardOrderPaths.save, sale(999_999));
    expect(unknown.status, unknown.raw).toBe(400);
    expect([theirs.status, theirs.body.msg], theirs.raw).toEqual([unknown.status, unknown.body.msg]);
    expect(await ordersOfMember()).toEqual(before);
    // Staff are told where it sells, as before.
    const staff = await callApi(t, admin, 'POST', cardOrderPaths.save, sale(card[1]));
    expect(staff.status, staff.raw).toBe(400);
    expect(staff.body.msg).toContain('不在所选楼宇销售');

    // The pickers of 新建订单 offer the key only its buildings' rooms and cards.
    for (const [path, mine, other] of [
      [roomPaths.products, room[0], room[1]],
      [cardOrderPaths.products, card[0], card[1]],
    ] as const) {
      const offered = await callApi<OrderProductOption[]>(t, onlyA, 'GET', path);
      expect(offered.status, offered.raw).toBe(200);
      const values = offered.body.data.map((p) => p.value);
      expect(values, path).toContain(mine);
      expect(values, path).not.toContain(other);
      expect(
        offered.body.data.every((p) => p.buildingIds.includes(a)),
        path,
      ).toBe(true);
      const all = await callApi<OrderProductOption[]>(t, admin, 'GET', path);
      expect(
        all.body.data.map((p) => p.value),
        path,
      ).toContain(other);
    }
  });
});
