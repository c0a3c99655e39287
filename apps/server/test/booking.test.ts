import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  activityStationOrder,
  officeStationOrder,
  orderPaths,
  teamCardOrder,
  userCardOrder,
  type CalendarBooking,
  type PayingCardOption,
  type OrderDetail,
  type OrderProductOption,
} from '@cowork/contract/resources/order';
import {
  activityStations,
  auditLogs,
  buildings,
  members,
  officeStations,
  orderEvents,
  orders,
  teamCards,
  userCards,
} from '../src/db/schema.ts';
import { buildTestApp, callApi, createRole, createUser, demo, type TestApp } from './helper.ts';

const room = orderPaths(officeStationOrder);
const venue = orderPaths(activityStationOrder);
const memberCard = orderPaths(userCardOrder);
const meetingCard = orderPaths(teamCardOrder);

const DAY = 86_400_000;
/** A Shanghai day `n` days from now, as YYYY-MM-DD. */
const dayIn = (n: number) => new Date(Date.now() + 8 * 3_600_000 + n * DAY).toISOString().slice(0, 10);
/** `HH:mm` on the Shanghai day `n` days from now, as ISO 8601. */
const at = (n: number, hhmm: string) => `${dayIn(n)}T${hhmm}:00+08:00`;

describe('bookings, meeting-card balance and back-office orders (save)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let building: { id: number; name: string };
  let otherBuilding: { id: number; name: string };
  let buyer: { id: number; phone: string };
  let stranger: { id: number; phone: string };
  let roomA: number;
  let roomB: number;
  let hall: number;
  let hiddenRoom: number;
  let monthCard: number;
  let teamCard: number;
  let hiddenCard: number;
  /** Each test books its own day, so tests never clash with each other. */
  let nextDay = 1;
  const freshDay = () => nextDay++;

  const call = <T = unknown>(headers: Record<string, string>, method: string, url: string, body?: object) =>
    callApi<T>(t, headers, method, url, body);
  const save = (body: object, path = room.save, headers = admin) =>
    call<OrderDetail>(headers, 'POST', path, body);
  const booking = (day: number, from: string, to: string, extra: object = {}) => ({
    memberPhone: buyer.phone,
    productId: roomA,
    payMethod: 'offline',
    startAt: at(day, from),
    endAt: at(day, to),
    ...extra,
  });
  const orderCount = async () => (await t.db.select({ id: orders.id }).from(orders)).length;
  const balanceOf = async (id: number) =>
    (await t.db.select({ b: orders.balanceFen }).from(orders).where(eq(orders.id, id)))[0].b;

  /** A paid meeting card of the buyer, sold through save; its balance set to `balanceFen` when given. */
  async function paidCard(balanceFen?: number, owner = buyer): Promise<OrderDetail> {
    const res = await save(
      {
        memberPhone: owner.phone,
        productId: teamCard,
        buildingId: building.id,
        payMethod: 'offline',
        paid: true,
      },
      meetingCard.save,
    );
    expect(res.status, res.raw).toBe(200);
    if (balanceFen !== undefined) {
      await t.db.update(orders).set({ balanceFen }).where(eq(orders.id, res.body.data.id));
      return { ...res.body.data, balanceFen };
    }
    return res.body.data;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth(...demo.admin);
    [building, otherBuilding] = await t.db
      .select({ id: buildings.id, name: buildings.name })
      .from(buildings)
      .orderBy(buildings.id)
      .limit(2);
    [buyer, stranger] = await t.db
      .insert(members)
      .values([{ phone: '17800001111' }, { phone: '17800002222' }])
      .returning({ id: members.id, phone: members.phone });
    const station = {
      buildingId: building.id,
      capacity: 10,
      hourPriceFen: 10_000,
      minBookingMinutes: 60,
      openTime: '09:00',
      closeTime: '21:00',
      published: true,
    };
    [{ id: roomA }, { id: roomB }, { id: hiddenRoom }] = await t.db
      .insert(officeStations)
      .values([
        { ...station, name: '测试会议室A' },
        { ...station, name: '测试会议室B', hourPriceFen: 3_333 },
        { ...station, name: '未发布会议室', published: false },
      ])
      .returning({ id: officeStations.id });
    [{ id: hall }] = await t.db
      .insert(activityStations)
      .values({ ...station, name: '测试活动厅', hourPriceFen: 50_000, minBookingMinutes: 120 })
      .returning({ id: activityStations.id });
    [{ id: monthCard }] = await t.db
      .insert(userCards)
      .values({
        name: '测试月卡',
        cardType: 'month',
        validDays: 30,
        priceFen: 99_900,
        buildingIds: [building.id],
        published: true,
      })
      .returning({ id: userCards.id });
    [{ id: teamCard }, { id: hiddenCard }] = await t.db
      .insert(teamCards)
      .values([
        {
          name: '测试会议卡',
          faceValueFen: 100_000,
          priceFen: 90_000,
          validDays: 365,
          buildingIds: [building.id],
          published: true,
        },
        {
          name: '未发布会议卡',
          faceValueFen: 100_000,
          priceFen: 90_000,
          validDays: 365,
          buildingIds: [building.id],
          published: false,
        },
      ])
      .returning({ id: teamCards.id });
  });
  afterAll(() => t?.close());

  test('save a member card: pending with its number, snapshot, creation event and audit entry', async () => {
    const res = await save(
      {
        memberPhone: buyer.phone,
        productId: monthCard,
        buildingId: building.id,
        payMethod: 'offline',
        referrerPhone: '13912345678',
        remark: '前台线下销售',
      },
      memberCard.save,
    );
    expect(res.status, res.raw).toBe(200);
    const order = res.body.data;
    expect(order.orderNo).toMatch(/^UC\d{8}\d{6,}$/);
    expect(order).toMatchObject({
      status: 'pending',
      amountFen: 99_900,
      paidFen: 0,
      memberPhone: buyer.phone,
      referrerPhone: '13912345678',
      remark: '前台线下销售',
      productName: '测试月卡',
      buildingName: building.name,
      cardNo: null,
    });
    expect(order.productSnapshot).toMatchObject({ name: '测试月卡', priceFen: 99_900, validDays: 30 });
    expect(order.events).toEqual([expect.objectContaining({ fromStatus: null, toStatus: 'pending' })]);
    const [entry] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.resource, 'user-card-order'), eq(auditLogs.resourceId, String(order.id))));
    expect(entry).toMatchObject({
      action: 'save',
      after: expect.objectContaining({ orderNo: order.orderNo }),
    });

    const paid = await save(
      {
        memberPhone: buyer.phone,
        productId: monthCard,
        buildingId: building.id,
        payMethod: 'offline',
        paid: true,
      },
      memberCard.save,
    );
    expect(paid.body.data).toMatchObject({ status: 'paid', paidFen: 99_900, payMethod: 'offline' });
    expect(paid.body.data.cardNo).toBe(`K${paid.body.data.orderNo}`);
    expect(paid.body.data.validTo).toEqual(expect.any(String));
    expect(paid.body.data.events).toEqual([expect.objectContaining({ fromStatus: null, toStatus: 'paid' })]);
  });

  test('save a meeting card paid offline: it holds its face value as balance', async () => {
    const card = await paidCard();
    expect(card.orderNo).toMatch(/^TC/);
    expect(card).toMatchObject({ status: 'paid', paidFen: 90_000, balanceFen: 100_000, cardBookings: [] });
  });

  test('save a room booking and a venue booking: priced by the booked minutes, rounded once', async () => {
    const day = freshDay();
    const res = await save(booking(day, '10:00', '11:30'));
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data.orderNo).toMatch(/^MR/);
    expect(res.body.data).toMatchObject({
      status: 'pending',
      amountFen: 15_000,
      productName: '测试会议室A',
      buildingName: building.name,
      startAt: `${dayIn(day)}T10:00:00.000+08:00`,
      endAt: `${dayIn(day)}T11:30:00.000+08:00`,
    });
    expect(res.body.data.productSnapshot).toMatchObject({ hourPriceFen: 10_000, openTime: '09:00' });
    // 3333 fen an hour for 75 minutes is 4166.25 fen: 4166.
    const odd = await save(booking(day, '10:00', '11:15', { productId: roomB }));
    expect(odd.status, odd.raw).toBe(200);
    expect(odd.body.data.amountFen).toBe(4_166);

    const venueBooking = await save(
      booking(day, '14:00', '16:00', { productId: hall, paid: true }),
      venue.save,
    );
    expect(venueBooking.status, venueBooking.raw).toBe(200);
    expect(venueBooking.body.data.orderNo).toMatch(/^AV/);
    expect(venueBooking.body.data).toMatchObject({ status: 'paid', paidFen: 100_000, payMethod: 'offline' });

    const list = await call<{ records: { orderNo: string; startAt: string }[] }>(
      admin,
      'GET',
      `${room.page}?memberPhone=${buyer.phone}&size=100`,
    );
    expect(list.body.data.records.map((r) => r.orderNo)).toContain(res.body.data.orderNo);
    expect(list.body.data.records.map((r) => r.orderNo)).not.toContain(venueBooking.body.data.orderNo);
  });

  test('save/products lists the published products with their buildings and prices', async () => {
    const res = await call<OrderProductOption[]>(admin, 'GET', room.products);
    expect(res.status, res.raw).toBe(200);
    const mine = res.body.data.find((p) => p.value === roomA);
    expect(mine).toMatchObject({
      label: `${building.name} · 测试会议室A`,
      buildingIds: [building.id],
      priceFen: 10_000,
      openTime: '09:00',
      closeTime: '21:00',
      minBookingMinutes: 60,
    });
    expect(res.body.data.some((p) => p.value === hiddenRoom)).toBe(false);
    const cards = await call<OrderProductOption[]>(admin, 'GET', meetingCard.products);
    expect(cards.body.data.find((p) => p.value === teamCard)).toMatchObject({
      label: '测试会议卡',
      priceFen: 90_000,
    });
  });

  test('every bad save is a 400 naming the field, and nothing is written', async () => {
    const day = freshDay();
    const expired = await paidCard();
    await t.db
      .update(orders)
      .set({ validTo: new Date(Date.now() - DAY) })
      .where(eq(orders.id, expired.id));
    const strangers = await paidCard(undefined, stranger);
    const pendingCard = await save(
      { memberPhone: buyer.phone, productId: teamCard, buildingId: building.id, payMethod: 'offline' },
      meetingCard.save,
    );
    const cardBody = {
      memberPhone: buyer.phone,
      productId: monthCard,
      buildingId: building.id,
      payMethod: 'offline',
    };
    const cases: [string, object, string, string?][] = [
      ['bad phone', booking(day, '10:00', '11:00', { memberPhone: '12345' }), '会员手机号'],
      ['no phone', booking(day, '10:00', '11:00', { memberPhone: '' }), '会员手机号'],
      ['unknown member', booking(day, '10:00', '11:00', { memberPhone: '13000000000' }), '会员手机号'],
      ['no product', booking(day, '10:00', '11:00', { productId: undefined }), '产品'],
      ['missing room', booking(day, '10:00', '11:00', { productId: 999_999 }), '产品'],
      ['unpublished room', booking(day, '10:00', '11:00', { productId: hiddenRoom }), '产品'],
      ['room of another building', booking(day, '10:00', '11:00', { buildingId: otherBuilding.id }), '楼宇'],
      ['bad referrer', booking(day, '10:00', '11:00', { referrerPhone: '1234' }), '推荐人手机号'],
      ['bad pay method', booking(day, '10:00', '11:00', { payMethod: 'wechat' }), '支付方式'],
      ['no start', booking(day, '10:00', '11:00', { startAt: undefined }), '预订开始时间'],
      ['bad end', booking(day, '10:00', '11:00', { endAt: 'tomorrow' }), '预订结束时间'],
      ['end before start', booking(day, '11:00', '10:00'), '预订结束时间'],
      ['end at start', booking(day, '11:00', '11:00'), '预订结束时间'],
      ['in the past', booking(-1, '10:00', '11:00'), '预订开始时间', '当前时间'],
      ['before opening', booking(day, '08:00', '10:00'), '预订开始时间', '09:00–21:00'],
      ['after closing', booking(day, '20:00', '21:30'), '预订开始时间', '09:00–21:00'],
      [
        'over two days',
        { ...booking(day, '20:00', '10:00'), endAt: at(day + 1, '10:00') },
        '预订开始时间',
        '同一天',
      ],
      ['shorter than the minimum', booking(day, '10:00', '10:45'), '预订结束时间', '最短预订 60 分钟'],
      ['off the quarter hour', booking(day, '10:10', '11:10'), '预订开始时间', '整刻钟'],
      ['card without number', booking(day, '10:00', '11:00', { payMethod: 'card' }), '会议卡卡号'],
      ['unknown card', booking(day, '10:00', '11:00', { payMethod: 'card', cardNo: 'KNOPE' }), '会议卡卡号'],
      [
        "another member's card",
        booking(day, '10:00', '11:00', { payMethod: 'card', cardNo: strangers.cardNo }),
        '会议卡卡号',
        '不属于该会员',
      ],
      [
        'expired card',
        booking(day, '10:00', '11:00', { payMethod: 'card', cardNo: expired.cardNo }),
        '会议卡卡号',
        '已过期',
      ],
      [
        'unpaid card',
        booking(day, '10:00', '11:00', { payMethod: 'card', cardNo: `K${pendingCard.body.data.orderNo}` }),
        '会议卡卡号',
      ],
    ];
    const before = await orderCount();
    for (const [name, body, label, detail] of cases) {
      const res = await save(body);
      expect(res.status, `${name}: ${res.raw}`).toBe(400);
      expect(res.body.msg, name).toContain(label);
      if (detail) expect(res.body.msg, name).toContain(detail);
    }
    const cardCases: [string, object, string][] = [
      ['unpublished card', { ...cardBody, productId: hiddenCard }, '产品'],
      ['no building', { ...cardBody, buildingId: undefined }, '楼宇'],
      ['card not sold there', { ...cardBody, buildingId: otherBuilding.id }, '楼宇'],
      ['card paid by card', { ...cardBody, payMethod: 'card' }, '支付方式'],
      ['card with times', { ...cardBody, startAt: at(day, '10:00') }, '预订开始时间'],
    ];
    for (const [name, body, label] of cardCases) {
      const res = await save(body, memberCard.save);
      expect(res.status, `${name}: ${res.raw}`).toBe(400);
      expect(res.body.msg, name).toContain(label);
    }
    expect(await orderCount()).toBe(before);
    expect(await balanceOf(strangers.id)).toBe(100_000);
  });

  test('a room saved with longer hours than its building is bookable only while the building is open', async () => {
    const [before] = await t.db
      .select({ openTime: buildings.openTime, closeTime: buildings.closeTime })
      .from(buildings)
      .where(eq(buildings.id, building.id));
    // The building now opens at 10:00; the room still says 09:00–21:00.
    await t.db
      .update(buildings)
      .set({ openTime: '10:00', closeTime: '20:00' })
      .where(eq(buildings.id, building.id));
    const day = freshDay();
    const early = await save(booking(day, '09:00', '10:00'));
    expect(early.status).toBe(400);
    expect(early.body.msg).toMatch(/^预订开始时间：须在场地与所在楼宇都开放的时间 10:00–20:00 内/);
    expect((await save(booking(day, '20:00', '21:00'))).status).toBe(400);
    const inside = await save(booking(day, '10:00', '11:00'));
    expect(inside.status, inside.body.msg).toBe(200);
    await t.db.update(buildings).set(before!).where(eq(buildings.id, building.id));
  });

  test('an overlapping booking of the same room is a 409 naming the clashing order and its times', async () => {
    const day = freshDay();
    const first = await save(booking(day, '10:00', '12:00'));
    expect(first.status, first.raw).toBe(200);
    const before = await orderCount();
    for (const [from, to] of [
      ['11:00', '13:00'],
      ['09:00', '10:15'],
      ['10:00', '12:00'],
      ['10:30', '11:30'],
      ['09:00', '13:00'],
    ]) {
      const res = await save(booking(day, from, to));
      expect(res.status, `${from}-${to}`).toBe(409);
      expect(res.body.msg).toContain(first.body.data.orderNo);
      expect(res.body.msg).toContain(`${dayIn(day)} 10:00–12:00`);
    }
    expect(await orderCount()).toBe(before);
    // Touching ends do not clash; another room at the same time is free.
    expect((await save(booking(day, '12:00', '13:00'))).status).toBe(200);
    expect((await save(booking(day, '09:00', '10:00'))).status).toBe(200);
    expect((await save(booking(day, '10:00', '12:00', { productId: roomB }))).status).toBe(200);
  });

  test('cancelling a pending booking frees its slot; a refunded one too', async () => {
    const day = freshDay();
    const first = await save(booking(day, '14:00', '16:00'));
    expect((await save(booking(day, '14:00', '16:00'))).status).toBe(409);
    const cancel = await call(admin, 'PUT', room.cancel, { id: first.body.data.id, reason: '会员改期' });
    expect(cancel.status, cancel.raw).toBe(200);
    const second = await save(booking(day, '14:00', '16:00', { paid: true }));
    expect(second.status, second.raw).toBe(200);
    expect(
      (await call(admin, 'PUT', room.refund, { id: second.body.data.id, reason: '会员取消' })).status,
    ).toBe(200);
    expect((await save(booking(day, '15:00', '16:00'))).status).toBe(200);
  });

  test('the booking list filters by booked day (startAtFrom/startAtTo) and building', async () => {
    const day = freshDay();
    const made = await save(booking(day, '09:00', '10:00', { productId: roomB }));
    expect(made.status, made.raw).toBe(200);
    const page = (query: string) =>
      call<{ records: { id: number; startAt: string }[]; total: number }>(
        admin,
        'GET',
        `${room.page}?size=100&${query}`,
      );
    const onDay = await page(`startAtFrom=${dayIn(day)}&startAtTo=${dayIn(day)}&buildingId=${building.id}`);
    expect(onDay.status, onDay.raw).toBe(200);
    expect(onDay.body.data.records.map((r) => r.id)).toContain(made.body.data.id);
    expect(onDay.body.data.records.every((r) => r.startAt.startsWith(dayIn(day)))).toBe(true);
    const dayAfter = await page(`startAtFrom=${dayIn(day + 1)}&startAtTo=${dayIn(day + 1)}`);
    expect(dayAfter.body.data.records.map((r) => r.id)).not.toContain(made.body.data.id);
    const elsewhere = await page(
      `startAtFrom=${dayIn(day)}&startAtTo=${dayIn(day)}&buildingId=${otherBuilding.id}`,
    );
    expect(elsewhere.body.data.records.map((r) => r.id)).not.toContain(made.body.data.id);
  });

  test('the booking calendar lists the live bookings of a building’s rooms over the days asked', async () => {
    const day = freshDay();
    const kept = await save(booking(day, '09:00', '10:30', { paid: true }));
    const other = await save(booking(day + 1, '13:00', '14:00', { productId: roomB }));
    const cancelled = await save(booking(day, '15:00', '16:00'));
    await call(admin, 'PUT', room.cancel, { id: cancelled.body.data.id, reason: '会员改期' });
    const calendar = (query: string) =>
      call<CalendarBooking[]>(admin, 'GET', `${room.calendar}?buildingId=${building.id}&${query}`);
    const one = await calendar(`from=${dayIn(day)}&to=${dayIn(day)}`);
    expect(one.status, one.raw).toBe(200);
    const ids = one.body.data.map((b) => b.id);
    expect(ids).toContain(kept.body.data.id);
    expect(ids).not.toContain(other.body.data.id);
    expect(ids).not.toContain(cancelled.body.data.id);
    expect(one.body.data.find((b) => b.id === kept.body.data.id)).toEqual({
      id: kept.body.data.id,
      orderNo: kept.body.data.orderNo,
      productId: roomA,
      startAt: `${dayIn(day)}T09:00:00.000+08:00`,
      endAt: `${dayIn(day)}T10:30:00.000+08:00`,
      status: 'paid',
      memberPhone: `${buyer.phone.slice(0, 3)}****${buyer.phone.slice(7)}`,
    });
    const two = await calendar(`from=${dayIn(day)}&to=${dayIn(day + 1)}`);
    expect(two.body.data.map((b) => b.id)).toEqual(
      expect.arrayContaining([kept.body.data.id, other.body.data.id]),
    );
    const elsewhere = await call<CalendarBooking[]>(
      admin,
      'GET',
      `${room.calendar}?buildingId=${otherBuilding.id}&from=${dayIn(day)}&to=${dayIn(day + 1)}`,
    );
    expect(elsewhere.body.data.map((b) => b.id)).not.toContain(kept.body.data.id);
    for (const [query, field] of [
      [`from=${dayIn(day)}&to=${dayIn(day + 7)}`, '最多显示 7 天'],
      [`from=${dayIn(day + 1)}&to=${dayIn(day)}`, '结束日期不能早于开始日期'],
      [`from=tomorrow&to=${dayIn(day)}`, '开始日期'],
    ]) {
      const bad = await calendar(query);
      expect(bad.status, query).toBe(400);
      expect(bad.body.msg, query).toContain(field);
    }
  });

  test('parallel overlapping bookings of one room: exactly one succeeds', async () => {
    const day = freshDay();
    const results = await Promise.all(
      ['10:00', '10:15', '10:30', '10:45', '11:00', '10:00'].map((from, i) =>
        save(booking(day, from, `${String(12 + (i % 2)).padStart(2, '0')}:00`)),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(
      statuses.filter((s) => s === 200),
      JSON.stringify(results.map((r) => r.body.msg)),
    ).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(results.length - 1);
    const live = await t.db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.kind, 'office-station'),
          eq(orders.productId, roomA),
          inArray(orders.status, ['pending', 'paid', 'used']),
          gte(orders.startAt, new Date(at(day, '00:00'))),
          lt(orders.startAt, new Date(at(day + 1, '00:00'))),
        ),
      );
    expect(live).toHaveLength(1);
  });

  test("新建订单's card list: the member's own paid, unexpired cards with money left, and their balances", async () => {
    const low = await paidCard(30_000);
    const full = await paidCard();
    const empty = await paidCard(0);
    const expired = await paidCard();
    await t.db
      .update(orders)
      .set({ validTo: new Date(Date.now() - DAY) })
      .where(eq(orders.id, expired.id));
    const pending = await save(
      { memberPhone: buyer.phone, productId: teamCard, buildingId: building.id, payMethod: 'offline' },
      meetingCard.save,
    );
    const theirs = await paidCard(undefined, stranger);

    for (const path of [room.cards, venue.cards]) {
      const res = await call<PayingCardOption[]>(admin, 'GET', `${path}?memberPhone=${buyer.phone}`);
      expect(res.status, res.raw).toBe(200);
      const listed = new Map(res.body.data.map((c) => [c.cardNo, c]));
      expect(listed.get(low.cardNo!)).toMatchObject({ balanceFen: 30_000, productName: '测试会议卡' });
      expect(listed.get(low.cardNo!)?.buildingIds).toContain(building.id);
      expect(listed.get(full.cardNo!)?.balanceFen).toBe(100_000);
      for (const gone of [empty, expired, theirs]) expect(listed.has(gone.cardNo!)).toBe(false);
      expect(res.body.data.some((c) => c.cardNo === `K${pending.body.data.orderNo}`)).toBe(false);
      // What the list says is what the database holds; the soonest to expire comes first.
      for (const card of res.body.data) {
        const [row] = await t.db.select().from(orders).where(eq(orders.cardNo, card.cardNo));
        expect(row).toMatchObject({ memberId: buyer.id, status: 'paid', balanceFen: card.balanceFen });
        expect(new Date(card.validTo).getTime()).toBe(row.validTo!.getTime());
      }
      const times = res.body.data.map((c) => Date.parse(c.validTo));
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }

    const bad = await call(admin, 'GET', `${room.cards}?memberPhone=12345`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('会员手机号');
    const nobody = await call<PayingCardOption[]>(admin, 'GET', `${room.cards}?memberPhone=13000000000`);
    expect(nobody.body.data).toEqual([]);
    // Card sales are not paid by card: their lists have no card list.
    expect((await call(admin, 'GET', `${meetingCard.save}/cards?memberPhone=${buyer.phone}`)).status).toBe(
      404,
    );
  });

  test('a booking paid by meeting card deducts the balance and links the card both ways', async () => {
    const day = freshDay();
    const card = await paidCard();
    const res = await save(booking(day, '10:00', '12:00', { payMethod: 'card', cardNo: card.cardNo }));
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'paid',
      payMethod: 'card',
      amountFen: 20_000,
      paidFen: 20_000,
      cardOrderId: card.id,
      paidByCard: { id: card.id, orderNo: card.orderNo, cardNo: card.cardNo },
    });
    expect(res.body.data.cardNo).toBeNull();
    expect(await balanceOf(card.id)).toBe(80_000);
    const detail = await call<OrderDetail>(admin, 'GET', `${meetingCard.detail}/${card.id}`);
    expect(detail.body.data.balanceFen).toBe(80_000);
    expect(detail.body.data.cardBookings).toEqual([
      expect.objectContaining({
        orderNo: res.body.data.orderNo,
        paidFen: 20_000,
        status: 'paid',
        productName: '测试会议室A',
      }),
    ]);
    const [deducted] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'balance-deduct'), eq(auditLogs.resourceId, String(card.id))));
    expect(deducted).toMatchObject({
      before: { balanceFen: 100_000 },
      after: { bookingOrderNo: res.body.data.orderNo, deductedFen: 20_000, balanceFen: 80_000 },
    });
  });

  test('insufficient balance is a 409 naming the balance and the price; nothing changes', async () => {
    const day = freshDay();
    const card = await paidCard(5_000);
    const before = await orderCount();
    const res = await save(booking(day, '10:00', '11:00', { payMethod: 'card', cardNo: card.cardNo }));
    expect(res.status, res.raw).toBe(409);
    expect(res.body.msg).toContain('会议卡余额不足');
    expect(res.body.msg).toContain('¥50.00');
    expect(res.body.msg).toContain('¥100.00');
    expect(await orderCount()).toBe(before);
    expect(await balanceOf(card.id)).toBe(5_000);
    // The slot was not taken by the refused booking.
    expect((await save(booking(day, '10:00', '11:00'))).status).toBe(200);
  });

  test('refunding a card-paid booking restores the card balance in the same move', async () => {
    const day = freshDay();
    const card = await paidCard();
    const paid = await save(booking(day, '10:00', '13:00', { payMethod: 'card', cardNo: card.cardNo }));
    expect(await balanceOf(card.id)).toBe(70_000);
    const refund = await call<OrderDetail>(admin, 'PUT', room.refund, {
      id: paid.body.data.id,
      reason: '会员取消会议',
    });
    expect(refund.status, refund.raw).toBe(200);
    expect(await balanceOf(card.id)).toBe(100_000);
    const [restored] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'balance-restore'), eq(auditLogs.resourceId, String(card.id))));
    expect(restored.after).toMatchObject({ restoredFen: 30_000, balanceFen: 100_000 });
    // Refunding again is an illegal move and restores nothing more.
    expect((await call(admin, 'PUT', room.refund, { id: paid.body.data.id })).status).toBe(409);
    expect(await balanceOf(card.id)).toBe(100_000);
  });

  test('parallel card bookings: a card holding N bookings pays exactly N of N+3, ending at 0', async () => {
    const day = freshDay();
    const N = 3;
    const card = await paidCard(N * 10_000);
    const slots = ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00'];
    expect(slots).toHaveLength(N + 3);
    const results = await Promise.all(
      slots.map((from) =>
        save(
          booking(day, from, `${String(Number(from.slice(0, 2)) + 1).padStart(2, '0')}:00`, {
            payMethod: 'card',
            cardNo: card.cardNo,
          }),
        ),
      ),
    );
    expect(
      results.filter((r) => r.status === 200),
      JSON.stringify(results.map((r) => r.body.msg)),
    ).toHaveLength(N);
    for (const refused of results.filter((r) => r.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body.msg).toContain('会议卡余额不足');
    }
    expect(await balanceOf(card.id)).toBe(0);
    const paidByCard = await t.db.select().from(orders).where(eq(orders.cardOrderId, card.id));
    expect(paidByCard).toHaveLength(N);
    expect(paidByCard.reduce((sum, o) => sum + o.paidFen, 0)).toBe(N * 10_000);
  });

  test('parallel refunds of card-paid bookings restore each amount exactly once', async () => {
    const day = freshDay();
    const card = await paidCard();
    const paid = [];
    for (const from of ['10:00', '12:00', '14:00']) {
      const res = await save(
        booking(day, from, `${Number(from.slice(0, 2)) + 1}:00`, { payMethod: 'card', cardNo: card.cardNo }),
      );
      expect(res.status, res.raw).toBe(200);
      paid.push(res.body.data);
    }
    expect(await balanceOf(card.id)).toBe(70_000);
    const results = await Promise.all(
      [...paid, ...paid].map((o) => call(admin, 'PUT', room.refund, { id: o.id, reason: '并发退款' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 409, 409, 409]);
    expect(await balanceOf(card.id)).toBe(100_000);
  });

  test('a meeting card is refunded only with its balance untouched; its balance then becomes 0', async () => {
    const day = freshDay();
    const card = await paidCard();
    const used = await save(booking(day, '10:00', '11:00', { payMethod: 'card', cardNo: card.cardNo }));
    const refused = await call(admin, 'PUT', meetingCard.refund, { id: card.id, reason: '会员退卡' });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain(used.body.data.orderNo);
    expect(refused.body.msg).toContain('¥900.00');
    const [still] = await t.db.select().from(orders).where(eq(orders.id, card.id));
    expect(still).toMatchObject({ status: 'paid', balanceFen: 90_000 });

    expect((await call(admin, 'PUT', room.refund, { id: used.body.data.id })).status).toBe(200);
    const refunded = await call<OrderDetail>(admin, 'PUT', meetingCard.refund, {
      id: card.id,
      reason: '会员退卡',
    });
    expect(refunded.status, refunded.raw).toBe(200);
    expect(refunded.body.data).toMatchObject({ status: 'refunded', balanceFen: 0 });
    // A refunded card pays for nothing.
    const after = await save(booking(day, '14:00', '15:00', { payMethod: 'card', cardNo: card.cardNo }));
    expect(after.status).toBe(400);
    expect(after.body.msg).toContain('会议卡卡号');
  });

  test('a card refund racing a card booking: exactly one of them wins, the balance stays consistent', async () => {
    const day = freshDay();
    const card = await paidCard();
    const [bookingRes, refundRes] = await Promise.all([
      save(booking(day, '10:00', '11:00', { payMethod: 'card', cardNo: card.cardNo })),
      call(admin, 'PUT', meetingCard.refund, { id: card.id, reason: '会员退卡' }),
    ]);
    const [stored] = await t.db.select().from(orders).where(eq(orders.id, card.id));
    if (bookingRes.status === 200) {
      expect(refundRes.status).toBe(409);
      expect(stored).toMatchObject({ status: 'paid', balanceFen: 90_000 });
    } else {
      expect(refundRes.status, refundRes.raw).toBe(200);
      expect([400, 409]).toContain(bookingRes.status);
      expect(stored).toMatchObject({ status: 'refunded', balanceFen: 0 });
    }
  });

  test('the export of room orders has the booking period', async () => {
    const day = freshDay();
    const res = await save(booking(day, '10:00', '11:30'));
    const file = await t.app.inject({
      method: 'GET',
      url: `${room.export}?orderNo=${res.body.data.orderNo}`,
      headers: admin,
    });
    expect(file.statusCode, file.body).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1);
    const row = (sheet.getRow(2).values as ExcelJS.CellValue[]).slice(1);
    expect(row[header.indexOf('订单号')]).toBe(res.body.data.orderNo);
    expect(row[header.indexOf('预订时段')]).toBe(`${dayIn(day)} 10:00–11:30`);
  });

  test('the timeline of a booking starts with its creation event', async () => {
    const day = freshDay();
    const res = await save(booking(day, '10:00', '11:00'));
    const events = await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, res.body.data.id));
    expect(events).toEqual([
      expect.objectContaining({ fromStatus: null, toStatus: 'pending', reason: '后台下单，待支付' }),
    ]);
  });

  test('save needs the edit code of the order screen: a viewer and a user without codes get 403', async () => {
    const day = freshDay();
    await createRole(t.db, {
      code: 'room_viewer',
      name: '会议室订单查看',
      permissions: ['order:meetingRoom:view'],
    });
    await createUser(t.db, { username: 'room_viewer', password: 'Viewer@2024', roleCodes: ['room_viewer'] });
    await createUser(t.db, { username: 'no_booking', password: 'Nobody@2024' });
    const viewer = await t.auth('room_viewer', 'Viewer@2024');
    const nobody = await t.auth('no_booking', 'Nobody@2024');
    expect((await call(viewer, 'GET', `${room.page}?size=1`)).status).toBe(200);
    const before = await orderCount();
    for (const [headers, method, url] of [
      [viewer, 'POST', room.save],
      [viewer, 'GET', room.products],
      [viewer, 'GET', `${venue.page}?size=1`],
      [nobody, 'GET', `${room.page}?size=1`],
      [nobody, 'POST', room.save],
      [nobody, 'POST', meetingCard.save],
    ] as const) {
      const res = await call(
        headers,
        method,
        url,
        method === 'POST' ? booking(day, '10:00', '11:00') : undefined,
      );
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.msg).toBe('您没有权限进行此操作');
    }
    expect(await orderCount()).toBe(before);
    // 运营 manages orders, bookings included.
    const yunying = await t.auth(...demo.yunying);
    expect((await save(booking(day, '10:00', '11:00'), room.save, yunying)).status).toBe(200);
  });
});
