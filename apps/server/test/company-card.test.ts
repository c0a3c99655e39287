/**
 * 企业会议卡: the card (save-update, generated number, opening balance as the first ledger row),
 * top-ups, find-list-by-phone, and bookings paid from it: debited in the booking, refused with the
 * cap or balance named, credited back on refund, and never past the balance or a member's cap under
 * parallel bookings. After every step the balance equals the ledger's sum. A card belongs to a
 * company and is open to its active staff by scope (chosen people, departments, all); a person
 * marked 离职 can no longer pay with it.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  companyCardEndpoints as paths,
  companyCardMessages as messages,
} from '@cowork/contract/resources/company-card';
import { companyEndpoints, companyStaffEndpoints } from '@cowork/contract/resources/company';
import { officeStationOrder, orderPaths } from '@cowork/contract/resources/order';
import { buildings, companyCards, members, officeStations, teamCards } from '../src/db/schema.ts';
import { buildTestApp, callApi, createRole, createUser, demo, type TestApp } from './helper.ts';

const DAY = 86_400_000;
const room = orderPaths(officeStationOrder);
let t: TestApp;
let admin: Record<string, string>;
let buildingId: number;
let otherBuildingId: number;
let productId: number;
let roomId: number;
let farRoomId: number;
let companyId: number;
const staff = ['17500000001', '17500000002', '17500000003'];
const outsider = '17500000009';
/** Staff of the company's 研发部, who are not among the chosen `staff`. */
const engineers = ['17500000011', '17500000012'];

/** A call as `as`; a GET's payload goes in the query string. */
const call = (method: string, url: string, payload?: object, as = admin) =>
  method === 'GET' && payload
    ? callApi(
        t,
        as,
        method,
        `${url}?${new URLSearchParams(Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, String(v)])))}`,
      )
    : callApi(t, as, method, url, payload);
const dayIn = (n: number) => new Date(Date.now() + 8 * 3_600_000 + n * DAY).toISOString().slice(0, 10);
/** An hour's booking (¥100) on day n at hour h, in room r. */
const book = (phone: string, cardNo: string, n: number, h: number, r = roomId) =>
  call('POST', room.save, {
    memberPhone: phone,
    productId: r,
    payMethod: 'card',
    cardNo,
    startAt: `${dayIn(n)}T${String(h).padStart(2, '0')}:00:00+08:00`,
    endAt: `${dayIn(n)}T${String(h + 1).padStart(2, '0')}:00:00+08:00`,
  });

async function card(values: Record<string, unknown> = {}) {
  const res = await call('POST', paths.saveOrUpdate, {
    companyId,
    teamCardId: productId,
    balanceFen: 300_00,
    memberPhones: staff,
    validUntil: new Date(Date.now() + 90 * DAY).toISOString(),
    status: 'enabled',
    ...values,
  });
  expect(res.status, res.raw).toBe(200);
  return res.body.data as { id: number; cardNo: string; balanceFen: number };
}

/** The stored balance and the ledger's sum, which must always agree. */
async function balanceOf(id: number) {
  const [row] = (
    (await t.db.execute(sql`
      select c.balance_fen, (select coalesce(sum(amount_fen), 0) from company_card_ledger l where l.card_id = c.id) as sum
      from company_cards c where c.id = ${id}`)) as unknown as {
      rows: { balance_fen: number; sum: number | string }[];
    }
  ).rows;
  expect(Number(row.sum)).toBe(Number(row.balance_fen));
  return Number(row.balance_fen);
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.auth(...demo.admin);
  [{ id: buildingId }, { id: otherBuildingId }] = await t.db
    .select({ id: buildings.id })
    .from(buildings)
    .orderBy(buildings.id)
    .limit(2);
  [{ id: productId }] = await t.db
    .insert(teamCards)
    .values({
      name: '企业卡测试产品',
      faceValueFen: 1,
      priceFen: 1,
      validDays: 1,
      buildingIds: [buildingId],
      published: true,
    })
    .returning({ id: teamCards.id });
  const station = {
    capacity: 10,
    hourPriceFen: 100_00,
    minBookingMinutes: 60,
    openTime: '00:00',
    closeTime: '23:59',
    published: true,
  };
  [{ id: roomId }, { id: farRoomId }] = await t.db
    .insert(officeStations)
    .values([
      { ...station, buildingId, name: '企业卡测试会议室' },
      { ...station, buildingId: otherBuildingId, name: '外楼会议室' },
    ])
    .returning({ id: officeStations.id });
  await t.db.insert(members).values([...staff, outsider].map((phone) => ({ phone })));
  const company = await call('POST', companyEndpoints.save, { name: '企业卡测试企业', status: 'enabled' });
  expect(company.status, company.raw).toBe(200);
  companyId = company.body.data.id;
  for (const [i, phone] of [...staff, ...engineers].entries()) {
    const added = await call('POST', companyStaffEndpoints.save, {
      companyId,
      name: `员工${i}`,
      phone,
      department: engineers.includes(phone) ? '研发部' : '行政部',
    });
    expect(added.status, added.raw).toBe(200);
  }
});

afterAll(() => t?.close());

describe('the card', () => {
  test('save-update creates it with a number and the opening balance as its first ledger row, and edits it', async () => {
    const created = await card();
    expect(created.cardNo).toMatch(/^QY\d{8}$/);
    expect(created.balanceFen).toBe(300_00);
    expect(await balanceOf(created.id)).toBe(300_00);
    const ledger = await call('GET', paths.ledgerPage, { id: created.id });
    expect(ledger.body.data.records).toMatchObject([
      { kind: 'top-up', amountFen: 300_00, remark: '开卡充值' },
    ]);
    const edited = await call('POST', paths.saveOrUpdate, {
      id: created.id,
      monthlyCapFen: 100_00,
      balanceFen: 999_999_00,
    });
    expect(edited.status, edited.raw).toBe(200);
    // The balance only moves through the ledger: an edit leaves it.
    expect(edited.body.data).toMatchObject({
      companyName: '企业卡测试企业',
      monthlyCapFen: 100_00,
      balanceFen: 300_00,
      cardNo: created.cardNo,
    });
    // The card answers its company's name, renamed with the company.
    const renamed = await call('PUT', companyEndpoints.edit, { id: companyId, name: '改名企业' });
    expect(renamed.status, renamed.raw).toBe(200);
    const bad = await call('POST', paths.saveOrUpdate, {
      companyId,
      teamCardId: productId,
      balanceFen: 0,
      memberPhones: ['123'],
      validUntil: 'x',
      status: 'enabled',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/可用员工手机号|有效期至/);
    const page = await call('GET', `${paths.page}?companyName=改名`);
    expect(page.body.data.records.map((r: { id: number }) => r.id)).toEqual([created.id]);
    const ofCompany = await call('GET', `${paths.page}?companyId=${companyId}`);
    expect(ofCompany.body.data.records.map((r: { id: number }) => r.id)).toEqual([created.id]);
  });

  test('chosen people must be active staff of the company; a departments card needs departments', async () => {
    const stranger = await call('POST', paths.saveOrUpdate, {
      companyId,
      teamCardId: productId,
      balanceFen: 0,
      memberPhones: [staff[0], outsider],
      validUntil: new Date(Date.now() + 90 * DAY).toISOString(),
      status: 'enabled',
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.msg).toMatch(/^可用员工手机号：.*17500000009.*可用员工/);
    const noDepartments = await call('POST', paths.saveOrUpdate, {
      companyId,
      teamCardId: productId,
      balanceFen: 0,
      staffScope: 'departments',
      validUntil: new Date(Date.now() + 90 * DAY).toISOString(),
      status: 'enabled',
    });
    expect(noDepartments.status).toBe(400);
    expect(noDepartments.body.msg).toMatch(/^部门：/);
    const noCompany = await call('POST', paths.saveOrUpdate, {
      companyId: 999_999,
      teamCardId: productId,
      balanceFen: 0,
      validUntil: new Date(Date.now() + 90 * DAY).toISOString(),
      status: 'enabled',
    });
    expect(noCompany.status).toBe(400);
    expect(noCompany.body.msg).toMatch(/^企业：/);
  });

  test('scope: a departments card is open to that department’s staff; all staff to everyone active', async () => {
    const { cardNo, id } = await card({
      staffScope: 'departments',
      departments: ['研发部'],
      memberPhones: [],
    });
    const cardsOf = async (phone: string) =>
      (await call('GET', paths.findListByPhone, { phone })).body.data.map(
        (c: { cardNo: string }) => c.cardNo,
      );
    expect(await cardsOf(engineers[0])).toContain(cardNo);
    expect(await cardsOf(staff[0])).not.toContain(cardNo);
    const detail = await call('GET', `${paths.detail}/${id}`);
    expect(detail.body.data.spending.map((s: { phone: string }) => s.phone)).toEqual(engineers);
    await call('POST', paths.saveOrUpdate, { id, staffScope: 'all' });
    expect(await cardsOf(staff[0])).toContain(cardNo);
    expect(await cardsOf(outsider)).not.toContain(cardNo);
  });

  test('top-up adds a ledger row; bad amounts are refused naming the field', async () => {
    const { id } = await card({ balanceFen: 0 });
    const topped = await call('POST', paths.topUp, { id, amountFen: 50_00, remark: '月度充值' });
    expect(topped.status, topped.raw).toBe(200);
    expect(topped.body).toMatchObject({ data: { balanceFen: 50_00 }, msg: messages.toppedUp(50_00, 50_00) });
    expect(await balanceOf(id)).toBe(50_00);
    const zero = await call('POST', paths.topUp, { id, amountFen: 0, remark: 'x' });
    expect([zero.status, zero.body.msg]).toEqual([400, '充值金额：充值金额必须大于 0']);
    const noRemark = await call('POST', paths.topUp, { id, amountFen: 1 });
    expect(noRemark.status).toBe(400);
    expect(noRemark.body.msg).toContain('充值备注');
    const ledger = await call('GET', paths.ledgerPage, { id });
    expect(ledger.body.data.records[0]).toMatchObject({
      kind: 'top-up',
      amountFen: 50_00,
      remark: '月度充值',
      byName: expect.any(String),
    });
  });

  test('find-list-by-phone: a listed phone sees the company card with its cap left; others do not', async () => {
    const { cardNo } = await card({ monthlyCapFen: 150_00 });
    const listed = await call('GET', paths.findListByPhone, { phone: staff[2] });
    expect(listed.status, listed.raw).toBe(200);
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({
        cardNo,
        kind: 'company-card',
        balanceFen: 300_00,
        capLeftFen: 150_00,
        buildingIds: [buildingId],
      }),
    );
    const other = await call('GET', paths.findListByPhone, { phone: outsider });
    expect(other.body.data.some((c: { cardNo: string }) => c.cardNo === cardNo)).toBe(false);
    expect((await call('GET', paths.findListByPhone, { phone: '12' })).status).toBe(400);
  });
});

describe('bookings paid from it', () => {
  test('debited in the booking, refused naming why, credited back on refund', async () => {
    const { id, cardNo } = await card({ balanceFen: 350_00, monthlyCapFen: 200_00 });
    const first = await book(staff[0], cardNo, 3, 9);
    expect(first.status, first.raw).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'paid', payMethod: 'card', paidFen: 100_00 });
    expect(await balanceOf(id)).toBe(250_00);

    const notListed = await book(outsider, cardNo, 3, 10);
    expect([notListed.status, notListed.body.msg]).toEqual([409, messages.notListed(cardNo)]);
    const far = await book(staff[0], cardNo, 3, 10, farRoomId);
    expect([far.status, far.body.msg]).toEqual([409, messages.otherBuilding(cardNo)]);
    await book(staff[0], cardNo, 3, 11);
    const capped = await book(staff[0], cardNo, 3, 12);
    expect([capped.status, capped.body.msg]).toEqual([409, messages.cap(cardNo, 200_00, 200_00, 100_00)]);
    expect((await book(staff[1], cardNo, 3, 12)).status).toBe(200);
    const short = await book(staff[1], cardNo, 3, 13);
    expect(short.status, short.raw).toBe(409);
    expect(short.body.msg).toBe(messages.balance(cardNo, 50_00, 100_00));
    expect(await balanceOf(id)).toBe(50_00);

    const refunded = await call('PUT', room.refund, { id: first.body.data.id, reason: '会议取消' });
    expect(refunded.status, refunded.raw).toBe(200);
    expect(await balanceOf(id)).toBe(150_00);
    const ledger = (await call('GET', paths.ledgerPage, { id, size: 50 })).body.data.records;
    expect(ledger.map((r: { kind: string }) => r.kind)).toEqual([
      'credit',
      'debit',
      'debit',
      'debit',
      'top-up',
    ]);
    expect(ledger[0]).toMatchObject({
      amountFen: 100_00,
      orderNo: first.body.data.orderNo,
      memberPhone: staff[0],
    });
    // 企业's 订单与发票 lists the bookings paid with its cards.
    const ofCompany = await call('GET', companyEndpoints.orders, { id: companyId, size: 50 });
    expect(ofCompany.status, ofCompany.raw).toBe(200);
    expect(ofCompany.body.data.records).toContainEqual(
      expect.objectContaining({
        orderNo: first.body.data.orderNo,
        cardNo,
        status: 'refunded',
        paidFen: 100_00,
        memberPhone: '175****0001',
      }),
    );
    // The refund gave the member's month back too.
    const detail = await call('GET', `${paths.detail}/${id}`);
    expect(detail.body.data.spending).toContainEqual({ phone: staff[0], spentFen: 100_00, leftFen: 100_00 });

    await t.db.update(companyCards).set({ status: 'disabled' }).where(eq(companyCards.id, id));
    const disabled = await book(staff[1], cardNo, 3, 14);
    expect([disabled.status, disabled.body.msg]).toEqual([409, messages.disabled(cardNo)]);
  });

  test('a member marked 离职 can no longer pay with the card, whatever its scope', async () => {
    const chosen = await card({ balanceFen: 500_00 });
    const everyone = await card({ balanceFen: 500_00, staffScope: 'all' });
    const leaver = engineers[1];
    await call('POST', paths.saveOrUpdate, { id: chosen.id, memberPhones: [...staff, leaver] });
    expect((await book(leaver, everyone.cardNo, 9, 9)).status).toBe(200);
    const [row] = (await call('GET', companyStaffEndpoints.page, { companyId, phone: leaver })).body.data
      .records;
    const left = await call('POST', companyStaffEndpoints.leave, { ids: [row.id] });
    expect(left.status, left.raw).toBe(200);
    expect(left.body.data.cards).toEqual(expect.arrayContaining([chosen.cardNo, everyone.cardNo]));
    expect(left.body.msg).toContain(`不能再用企业会议卡`);
    for (const { cardNo } of [chosen, everyone]) {
      const refused = await book(leaver, cardNo, 9, 11);
      expect([refused.status, refused.body.msg]).toEqual([409, messages.notListed(cardNo)]);
    }
    const listed = (await call('GET', paths.findListByPhone, { phone: leaver })).body.data;
    expect(listed.filter((c: { kind: string }) => c.kind === 'company-card')).toEqual([]);
    const [stored] = await t.db
      .select({ memberPhones: companyCards.memberPhones })
      .from(companyCards)
      .where(eq(companyCards.id, chosen.id));
    expect(stored.memberPhones).toEqual(staff);
  });

  test('parallel bookings never pass the balance', async () => {
    const { id, cardNo } = await card({ balanceFen: 300_00 });
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => book(staff[i % 3], cardNo, 5, 8 + i)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
    expect(await balanceOf(id)).toBe(0);
  });

  test('parallel bookings of one member never pass the monthly cap', async () => {
    const { id, cardNo } = await card({ balanceFen: 1_000_00, monthlyCapFen: 200_00 });
    const results = await Promise.all([0, 1, 2, 3, 4].map((i) => book(staff[2], cardNo, 7, 8 + i)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body.msg).toContain('超出每人每月限额');
    expect(await balanceOf(id)).toBe(800_00);
  });

  test('rights: a reader cannot change a card; a booking clerk may list a phone’s cards', async () => {
    const { id } = await card();
    await createRole(t.db, {
      code: 'card-reader',
      name: '企业卡只读',
      permissions: ['enterprise:teamCard:view'],
    });
    await createRole(t.db, {
      code: 'room-clerk',
      name: '会议室下单',
      permissions: ['order:meetingRoom:edit'],
    });
    await createUser(t.db, { username: 'cardreader', password: 'Reader@123', roleCodes: ['card-reader'] });
    await createUser(t.db, { username: 'roomclerk', password: 'Clerk@123', roleCodes: ['room-clerk'] });
    const reader = await t.auth('cardreader', 'Reader@123');
    const clerk = await t.auth('roomclerk', 'Clerk@123');
    expect((await call('GET', `${paths.detail}/${id}`, undefined, reader)).status).toBe(200);
    expect((await call('POST', paths.topUp, { id, amountFen: 1, remark: 'x' }, reader)).status).toBe(403);
    expect((await call('POST', paths.saveOrUpdate, { id, monthlyCapFen: 1 }, reader)).status).toBe(403);
    expect((await call('GET', paths.findListByPhone, { phone: staff[0] }, clerk)).status).toBe(200);
    expect((await call('GET', `${paths.detail}/${id}`, undefined, clerk)).status).toBe(403);
  });
});
