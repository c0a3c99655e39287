/**
 * 企业员工 (company-staff), with a simulated door device of an access group taking all staff:
 * people added (found or made members by phone), edited, marked 离职 and removed; 离职 ends the
 * groups and cards in one transaction, audited, with webhooks told and a sentence listing what
 * ended. The Excel import is all or nothing, skips the template's example, takes 5 000 rows and
 * re-syncs each affected device once; two changes to one list at once lose nothing.
 */
import ExcelJS from 'exceljs';
import { and, count, eq, gt, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths } from '@cowork/contract';
import { companyEndpoints, companyStaffEndpoints as paths } from '@cowork/contract/resources/company';
import { companyCardEndpoints } from '@cowork/contract/resources/company-card';
import {
  kreatorDeviceEndpoints,
  kreatorUserEndpoints,
  kreatorUserGroup,
} from '@cowork/contract/resources/kreator';
import {
  auditLogs,
  companyCards,
  companyStaff,
  kreatorUsers,
  members,
  teamCards,
  webhookEvents,
} from '../src/db/schema.ts';
import type { SimulatedDevice } from '../src/device-link/simulator.ts';
import { doorFixture } from './device-fixture.ts';
import { callApi, multipartFile, type TestApp, until } from './helper.ts';

const DAY = 86_400_000;
const doors = doorFixture({ enrolKey: 'test-enrol-key-company-staff', inRoom: true });
let t: TestApp;
let device: SimulatedDevice;
let companyId: number;
let allGroupId: number;
let peopleGroupId: number;
let cardNo: string;
let cardId: number;

const call = (method: string, url: string, payload?: object) =>
  method === 'GET' && payload
    ? callApi(
        t,
        doors.headers,
        method,
        `${url}?${new URLSearchParams(Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, String(v)])))}`,
      )
    : callApi(t, doors.headers, method, url, payload);

const mark = async () =>
  (
    await t.db
      .select({ id: sql<number>`coalesce(max(${webhookEvents.id}), 0)`.mapWith(Number) })
      .from(webhookEvents)
  )[0].id;
const eventsSince = async (from: number) =>
  (
    await t.db
      .select({ type: webhookEvents.type, data: webhookEvents.data })
      .from(webhookEvents)
      .where(gt(webhookEvents.id, from))
      .orderBy(webhookEvents.id)
  ).map((e) => ({ type: e.type, ...(e.data as { groupId?: number; memberId?: number }) }));

const onDevice = (memberId: number) => device.state.access.some((e) => e.memberId === memberId);
const syncs = () => device.commands.filter((c) => c.type === 'sync').length;

async function workbook(rows: unknown[][], header = ['姓名', '手机号', '部门']) {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('企业员工');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function upload(data: Buffer, company = companyId) {
  const body = multipartFile('staff.xlsx', data);
  return t.app.inject({
    method: 'POST',
    url: `${paths.excel}?companyId=${company}`,
    headers: { ...doors.headers, ...body.headers },
    payload: body.payload,
  });
}

const staffOf = async (phone: string) =>
  (
    await t.db
      .select()
      .from(companyStaff)
      .where(and(eq(companyStaff.companyId, companyId), eq(companyStaff.phone, phone)))
  )[0];

beforeAll(async () => {
  t = await doors.start();
  const registered = await doors.registered('STAFF-DOOR-1');
  device = registered.d;
  const company = await call('POST', companyEndpoints.save, { name: '员工测试有限公司' });
  expect(company.status, company.raw).toBe(200);
  companyId = company.body.data.id;
  const group = async (name: string, staffScope: string) => {
    const res = await call('POST', resourcePaths(kreatorUserGroup).save, {
      name,
      companyId,
      staffScope,
      buildingId: doors.room.buildingId,
      validFrom: new Date(Date.now() - DAY).toISOString(),
      validTo: new Date(Date.now() + 30 * DAY).toISOString(),
      status: 'enabled',
    });
    expect(res.status, res.raw).toBe(200);
    const added = await call('POST', kreatorDeviceEndpoints.add, {
      groupId: res.body.data.id,
      deviceIds: [registered.id],
    });
    expect(added.status, added.raw).toBe(200);
    return res.body.data.id as number;
  };
  allGroupId = await group('员工测试全员组', 'all');
  peopleGroupId = await group('员工测试指定组', 'people');
  const [product] = await t.db
    .insert(teamCards)
    .values({
      name: '员工测试卡',
      faceValueFen: 1,
      priceFen: 1,
      validDays: 1,
      buildingIds: [],
      published: true,
    })
    .returning({ id: teamCards.id });
  const card = await call('POST', companyCardEndpoints.saveOrUpdate, {
    companyId,
    teamCardId: product.id,
    // find-list-by-phone lists cards with money left.
    balanceFen: 100_00,
    staffScope: 'departments',
    departments: ['研发部'],
    validUntil: new Date(Date.now() + 30 * DAY).toISOString(),
    status: 'enabled',
  });
  expect(card.status, card.raw).toBe(200);
  ({ cardNo, id: cardId } = card.body.data);
});

afterAll(() => doors.close());

describe('one person', () => {
  test('added: found or made a member by phone, on the list and at the door; bad input named', async () => {
    const from = await mark();
    const added = await call('POST', paths.save, {
      companyId,
      name: '王研发',
      phone: '17600002001',
      department: '研发部',
    });
    expect(added.status, added.raw).toBe(200);
    expect(added.body.msg).toBe('已添加员工王研发，已按成员范围加入 1 个门禁组，设备正在同步权限');
    const row = added.body.data;
    expect(row).toMatchObject({
      companyId,
      name: '王研发',
      department: '研发部',
      status: 'active',
      leftAt: null,
    });
    await until(() => onDevice(row.memberId), 'the new hire at the door');
    const events = await eventsSince(from);
    expect(events.map((e) => e.type)).toEqual(['member.created', 'enterprise.member.added']);
    expect(events[1]).toMatchObject({ groupId: allGroupId, memberId: row.memberId });

    const again = await call('POST', paths.save, { companyId, name: '王研发', phone: '17600002001' });
    expect([again.status, again.body.msg]).toEqual([
      409,
      '手机号 17600002001 已在本企业员工列表中，请勿重复添加',
    ]);
    for (const [body, message] of [
      [{ companyId, name: '座机', phone: '02112345678' }, /^手机号：/],
      [{ companyId, name: '', phone: '17600002002' }, /^姓名：/],
      [{ companyId: 999_999, name: '无企业', phone: '17600002003' }, /^企业：/],
    ] as const) {
      const res = await call('POST', paths.save, body);
      expect([res.status, res.body.msg]).toEqual([400, expect.stringMatching(message)]);
    }
    expect(await staffOf('17600002002')).toBeUndefined();
    const page = await call('GET', paths.page, { companyId, department: '研发部' });
    expect(page.body.data.records.map((r: { phone: string }) => r.phone)).toEqual(['17600002001']);
    expect((await call('GET', paths.departments, { companyId })).body.data).toEqual(['研发部']);
  });

  test('chosen for a people group through 企业门禁组; a department change moves the card; 离职 ends all', async () => {
    const chosen = await call('POST', kreatorUserEndpoints.save, {
      groupId: peopleGroupId,
      name: '王研发',
      phone: '17600002001',
    });
    expect(chosen.status, chosen.raw).toBe(200);
    const staff = await staffOf('17600002001');
    const [link] = await t.db.select().from(kreatorUsers).where(eq(kreatorUsers.id, chosen.body.data.id));
    expect(link.staffId).toBe(staff.id);
    // One list: the person chosen for the group was already on it, and stays one row.
    expect((await call('GET', paths.page, { companyId, phone: '17600002001' })).body.data.total).toBe(1);
    const cardsOf = async () =>
      (await call('GET', companyCardEndpoints.findListByPhone, { phone: '17600002001' })).body.data.map(
        (c: { cardNo: string }) => c.cardNo,
      );
    expect(await cardsOf()).toContain(cardNo);
    // Another department: the card of 研发部 is no longer theirs; back, it is again.
    const moved = await call('PUT', paths.edit, { id: staff.id, department: '行政部' });
    expect(moved.status, moved.raw).toBe(200);
    expect(await cardsOf()).not.toContain(cardNo);
    await call('PUT', paths.edit, { id: staff.id, department: '研发部' });
    expect(await cardsOf()).toContain(cardNo);
    const renamed = await call('PUT', paths.edit, { id: staff.id, name: '王研究' });
    expect(renamed.status, renamed.raw).toBe(200);
    const [person] = await t.db
      .select({ name: kreatorUsers.name })
      .from(kreatorUsers)
      .where(eq(kreatorUsers.staffId, staff.id));
    expect(person.name).toBe('王研究');

    const from = await mark();
    const left = await call('POST', paths.leave, { ids: [staff.id] });
    expect(left.status, left.raw).toBe(200);
    expect(left.body.data).toEqual({
      count: 1,
      groups: ['员工测试全员组', '员工测试指定组'],
      cards: [cardNo],
    });
    expect(left.body.msg).toBe(
      `王研究已离职：已移出门禁组“员工测试全员组”“员工测试指定组”，不能再用企业会议卡“${cardNo}”支付；门禁设备正在同步权限`,
    );
    await until(() => !onDevice(staff.memberId), 'the leaver off the door');
    const stored = await staffOf('17600002001');
    expect(stored).toMatchObject({ status: 'left', leftAt: expect.any(Date) });
    expect(await t.db.select().from(kreatorUsers).where(eq(kreatorUsers.staffId, staff.id))).toEqual([]);
    const events = await eventsSince(from);
    expect(
      events
        .filter((e) => e.type === 'enterprise.member.removed')
        .map((e) => e.groupId)
        .sort(),
    ).toEqual([allGroupId, peopleGroupId].sort());
    const [leave] = await t.db
      .select({ before: auditLogs.before, after: auditLogs.after })
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.resource, 'company-staff'),
          eq(auditLogs.action, 'leave'),
          eq(auditLogs.resourceId, String(staff.id)),
        ),
      );
    expect(leave).toMatchObject({ before: { status: 'active' }, after: { status: 'left' } });
    const cards = (await call('GET', companyCardEndpoints.findListByPhone, { phone: '17600002001' })).body
      .data;
    expect(cards.some((c: { cardNo: string }) => c.cardNo === cardNo)).toBe(false);

    const twice = await call('POST', paths.leave, { ids: [staff.id] });
    expect([twice.status, twice.body.msg]).toEqual([400, '员工：王研究已经离职，无需再次办理']);
    // Chosen again for a group: refused, they left the company.
    const rechosen = await call('POST', kreatorUserEndpoints.save, {
      groupId: peopleGroupId,
      name: '王研究',
      phone: '17600002001',
    });
    expect([rechosen.status, rechosen.body.msg]).toEqual([
      400,
      expect.stringContaining('已从企业“员工测试有限公司”离职'),
    ]);
    // Removed from the list: nothing left to end.
    const removed = await call('DELETE', paths.remove, { ids: [staff.id] });
    expect([removed.status, removed.body.msg]).toEqual([
      200,
      '王研究已从员工列表删除；没有需要收回的门禁组和企业会议卡',
    ]);
    expect(await staffOf('17600002001')).toBeUndefined();
  });

  test('a card of chosen people loses a leaver’s phone; removal ends the same', async () => {
    const added = await call('POST', paths.save, {
      companyId,
      name: '李行政',
      phone: '17600002011',
      department: '行政部',
    });
    expect(added.status, added.raw).toBe(200);
    await call('POST', companyCardEndpoints.saveOrUpdate, {
      id: cardId,
      staffScope: 'people',
      memberPhones: ['17600002011'],
    });
    const removed = await call('DELETE', `${paths.remove}/${added.body.data.id}`);
    expect(removed.status, removed.raw).toBe(200);
    expect(removed.body.data.cards).toEqual([cardNo]);
    const [card] = await t.db
      .select({ memberPhones: companyCards.memberPhones })
      .from(companyCards)
      .where(eq(companyCards.id, cardId));
    expect(card.memberPhones).toEqual([]);
    expect((await call('DELETE', paths.remove, { ids: [added.body.data.id] })).status).toBe(404);
  });
});

describe('the Excel import', () => {
  test('the template has no data row; the example row is skipped; bad rows import nothing', async () => {
    const template = await t.app.inject({
      method: 'GET',
      url: `${paths.template}?companyId=${companyId}`,
      headers: doors.headers,
    });
    expect(template.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0].getRow(1).values).toEqual([undefined, '姓名', '手机号', '部门']);
    expect(book.worksheets[0].rowCount).toBe(1);

    const onlyExample = await upload(await workbook([['张三', '13800138000', '行政部']]));
    expect(onlyExample.statusCode).toBe(400);
    expect(await staffOf('13800138000')).toBeUndefined();

    const bad = await upload(
      await workbook([
        ['赵一', '17600003001', '市场部'],
        ['', '17600003002', ''],
        ['赵三', '1760000', ''],
        ['赵四', '17600003001', ''],
      ]),
    );
    expect(bad.statusCode, bad.body).toBe(400);
    expect([...new Set(bad.json().data.errors.map((e: { row: number }) => e.row))].sort()).toEqual([3, 4, 5]);
    expect(await staffOf('17600003001')).toBeUndefined();
    expect(
      (await t.db.select({ n: count() }).from(members).where(eq(members.phone, '17600003001')))[0].n,
    ).toBe(0);

    const good = await upload(
      await workbook([
        ['张三', '13800138000', '行政部'],
        ['赵一', '17600003001', '市场部'],
      ]),
    );
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().data).toEqual({ imported: 1, skippedRows: [2] });
    const noCompany = await upload(await workbook([['赵五', '17600003005', '']]), 999_999);
    expect([noCompany.statusCode, noCompany.json().msg]).toEqual([400, expect.stringMatching(/^企业：/)]);
  });

  test('5 000 rows: all imported, those of 研发部 reach the door through its group, re-synced once', async () => {
    // A door's access list is one device message (at most 256 KB): its group takes one department.
    // Webhooks hear who the narrowed group no longer takes.
    const beforeNarrowing = await mark();
    const narrowed = await call('PUT', resourcePaths(kreatorUserGroup).edit, {
      id: allGroupId,
      staffScope: 'departments',
      departments: ['研发部'],
    });
    expect(narrowed.status, narrowed.raw).toBe(200);
    const dropped = await eventsSince(beforeNarrowing);
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.every((e) => e.type === 'enterprise.member.removed' && e.groupId === allGroupId)).toBe(
      true,
    );
    await t.app.devices.settled();
    const before = syncs();
    const from = await mark();
    const rows = Array.from({ length: 5000 }, (_, i) => [
      `批量${i}`,
      `1580000${String(i).padStart(4, '0')}`,
      i % 500 === 0 ? '研发部' : '市场部',
    ]);
    const res = await upload(await workbook(rows));
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    expect(res.json().data).toEqual({ imported: 5000 });
    const phones = rows.map((r) => String(r[1]));
    const stored = await t.db
      .select({ n: count() })
      .from(companyStaff)
      .where(and(eq(companyStaff.companyId, companyId), inArray(companyStaff.phone, phones)));
    expect(stored[0].n).toBe(5000);
    const events = await eventsSince(from);
    expect(events.filter((e) => e.type === 'member.created')).toHaveLength(5000);
    const added = events.filter((e) => e.type === 'enterprise.member.added');
    expect(added.map((e) => e.groupId)).toEqual(Array(10).fill(allGroupId));
    for (const { memberId } of added) await until(() => onDevice(memberId!), 'an engineer at the door');
    await t.app.devices.settled();
    expect(syncs() - before).toBe(1);

    const exported = await t.app.inject({
      method: 'GET',
      url: `${paths.export}?companyId=${companyId}&department=${encodeURIComponent('研发部')}`,
      headers: doors.headers,
    });
    expect(exported.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0].rowCount).toBe(1 + 10);
  });
});

describe('two changes to one list at once', () => {
  test('two imports of different people both land; one phone added twice is one row', async () => {
    const [a, b] = await Promise.all([
      upload(
        await workbook([
          ['并发甲', '17600004001', ''],
          ['并发乙', '17600004002', ''],
        ]),
      ),
      upload(
        await workbook([
          ['并发丙', '17600004003', ''],
          ['并发丁', '17600004004', ''],
        ]),
      ),
    ]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([200, 200]);
    for (const phone of ['17600004001', '17600004002', '17600004003', '17600004004'])
      expect(await staffOf(phone), phone).toBeDefined();

    const twice = await Promise.all(
      [1, 2].map(() => call('POST', paths.save, { companyId, name: '并发戊', phone: '17600004005' })),
    );
    expect(twice.map((r) => r.status).sort()).toEqual([200, 409]);
    const rows = await t.db.select().from(companyStaff).where(eq(companyStaff.phone, '17600004005'));
    expect(rows).toHaveLength(1);
    const added = await Promise.all(
      ['17600004006', '17600004007', '17600004008'].map((phone, i) =>
        call('POST', paths.save, { companyId, name: `并发${i}`, phone }),
      ),
    );
    expect(added.map((r) => r.status)).toEqual([200, 200, 200]);
  });
});
