/**
 * 首页 dashboard summary: orders, revenue, new members and new leads of today and this month, the 30-day
 * revenue series and meeting-room utilisation, checked to the fen against rows inserted at known
 * times around the Shanghai day and month edges (expected values come from a plain model of those
 * rows), against the lists the numbers link to, and per permission.
 */
import { and, eq, gte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths, type Page } from '@cowork/contract';
import { dashboardEndpoints, type DashboardSummary } from '@cowork/contract/resources/dashboard';
import { csrCapitalSite } from '@cowork/contract/resources/csr-capital-site';
import { csrCapitalWebsite } from '@cowork/contract/resources/csr-capital-website';
import { member as memberResource } from '@cowork/contract/resources/member';
import {
  merchantShareOrderPaths,
  siteTypeOfKind,
  type MerchantShareTotal,
} from '@cowork/contract/resources/merchant-share-order';
import {
  orderPaths,
  teamCardOrder,
  userCardOrder,
  type OrderKind,
  type OrderStatus,
} from '@cowork/contract/resources/order';
import {
  buildings,
  csrCapitalSites,
  csrCapitalWebsites,
  members,
  merchants,
  officeStations,
  orders,
} from '../src/db/schema.ts';
import { formatOrderNo, reserveOrderIds } from '../src/modules/order/order-number.ts';
import { buildTestApp, callApi, createRole, createUser, demo, engine, type TestApp } from './helper.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const OFFSET = 8 * HOUR;

/** Shanghai day and month edges of the moment the test runs, as instants. */
const now = Date.now();
const local = new Date(now + OFFSET);
const dayStart = Math.floor((now + OFFSET) / DAY) * DAY - OFFSET;
const dayEnd = dayStart + DAY;
const monthStart = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - OFFSET;
const monthEnd = Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1) - OFFSET;
const monthDays = Math.round((monthEnd - monthStart) / DAY);
const dateOf = (instant: number) => new Date(instant + OFFSET).toISOString().slice(0, 10);
const today = dateOf(dayStart);
const seriesDays = Array.from({ length: 30 }, (_, i) => dateOf(dayStart - (29 - i) * DAY));

interface Planned {
  kind: OrderKind;
  status: OrderStatus;
  createdAt: number;
  paidAt?: number;
  paidFen?: number;
  /** Bookings: the room and the booked time. */
  room?: number;
  startAt?: number;
  endAt?: number;
}

const within = (t: number | undefined, from: number, to: number) => t !== undefined && t >= from && t < to;
const isRevenue = (o: Planned) => o.status === 'paid' || o.status === 'used';
const overlapMinutes = (o: Planned, from: number, to: number) =>
  Math.max(0, Math.min(o.endAt!, to) - Math.max(o.startAt!, from)) / MINUTE;

describe(`dashboard summary (${engine})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const planned: Planned[] = [];
  const registered: number[] = [];
  /** When the leads of each kind came in, around the same edges. */
  const leadsAt = {
    site: [dayStart + MINUTE, dayStart - 1000, monthStart + MINUTE, monthStart - MINUTE, dayStart - 50 * DAY],
    website: [dayStart + 20 * HOUR, dayEnd - 1000, dayEnd, monthStart + 2 * HOUR],
  };
  let rooms: { a1: number; a2: number; hidden: number; c1: number };
  let buildingA: number;
  let buildingC: number;

  const call = <T>(headers: Record<string, string>, url: string) => callApi<T>(t, headers, 'GET', url);
  const summary = async (headers = admin) => {
    const res = await call<DashboardSummary>(headers, dashboardEndpoints.summary);
    expect(res.status, res.raw).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    // Users, roles and menus only: every order, member and room below is one this test placed.
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);

    const [merchant] = await t.db.insert(merchants).values({ name: '看板测试商户' }).returning();
    const place = {
      merchantId: merchant.id,
      provinceCode: '110000',
      cityCode: '110100',
      address: '测试路 1 号',
    };
    const [a, b, c] = await t.db
      .insert(buildings)
      .values([
        { ...place, name: '看板A座', sort: 1 },
        { ...place, name: '看板B座', sort: 2 },
        { ...place, name: '看板C座', sort: 3 },
      ])
      .returning();
    [buildingA, buildingC] = [a.id, c.id];
    const room = { capacity: 8, hourPriceFen: 10000 };
    const [a1, a2, hidden, , c1] = await t.db
      .insert(officeStations)
      .values([
        { ...room, buildingId: a.id, name: 'A1', openTime: '09:00', closeTime: '18:00', published: true },
        { ...room, buildingId: a.id, name: 'A2', openTime: '08:00', closeTime: '22:00', published: true },
        // Unpublished rooms are neither capacity nor bookings; B has only such a room.
        { ...room, buildingId: a.id, name: 'A3', openTime: '09:00', closeTime: '18:00', published: false },
        { ...room, buildingId: b.id, name: 'B1', openTime: '09:00', closeTime: '18:00', published: false },
        { ...room, buildingId: c.id, name: 'C1', openTime: '10:00', closeTime: '20:00', published: true },
      ])
      .returning();
    rooms = { a1: a1.id, a2: a2.id, hidden: hidden.id, c1: c1.id };

    registered.push(
      dayStart + MINUTE,
      dayStart + 20 * HOUR,
      dayStart - 1000, // yesterday 23:59:59
      monthStart + MINUTE,
      monthStart - MINUTE, // last month
      dayStart - 40 * DAY,
    );
    await t.db.insert(members).values(
      registered.map((at, i) => ({
        phone: `1770000${String(1000 + i)}`,
        registeredAt: new Date(at),
      })),
    );
    const [buyer] = await t.db.select({ id: members.id, phone: members.phone }).from(members).limit(1);
    for (const [table, times] of [
      [csrCapitalSites, leadsAt.site],
      [csrCapitalWebsites, leadsAt.website],
    ] as const) {
      await t.db
        .insert(table)
        .values(
          times.map((at) => ({ contactName: '看板', contactPhone: '13800138000', createdAt: new Date(at) })),
        );
    }

    const at = (base: number, hours: number) => base + hours * HOUR;
    planned.push(
      // 会员卡: today in every status; refunded and pending ones are orders but not revenue.
      {
        kind: 'user-card',
        status: 'paid',
        createdAt: at(dayStart, 0.1),
        paidAt: at(dayStart, 0.2),
        paidFen: 10000,
      },
      { kind: 'user-card', status: 'pending', createdAt: at(dayStart, 1) },
      {
        kind: 'user-card',
        status: 'used',
        createdAt: at(dayStart, 2),
        paidAt: at(dayStart, 2.1),
        paidFen: 20000,
      },
      {
        kind: 'user-card',
        status: 'refunded',
        createdAt: at(dayStart, 3),
        paidAt: at(dayStart, 3.1),
        paidFen: 30000,
      },
      // Ordered a second before midnight, paid a few seconds after: yesterday's order, today's money.
      {
        kind: 'user-card',
        status: 'paid',
        createdAt: dayStart - 1000,
        paidAt: dayStart + 5000,
        paidFen: 40000,
      },
      {
        kind: 'user-card',
        status: 'paid',
        createdAt: monthStart + MINUTE,
        paidAt: monthStart + 2 * MINUTE,
        paidFen: 50000,
      },
      // Last month, paid half a minute before this month began.
      {
        kind: 'user-card',
        status: 'paid',
        createdAt: monthStart - MINUTE,
        paidAt: monthStart - 30_000,
        paidFen: 60000,
      },
      {
        kind: 'user-card',
        status: 'used',
        createdAt: dayStart - 40 * DAY,
        paidAt: dayStart - 40 * DAY,
        paidFen: 70000,
      },
      // 会议卡.
      {
        kind: 'team-card',
        status: 'paid',
        createdAt: at(dayStart, 4),
        paidAt: at(dayStart, 4.5),
        paidFen: 80000,
      },
      { kind: 'team-card', status: 'cancelled', createdAt: at(dayStart, 5) },
      {
        kind: 'team-card',
        status: 'used',
        createdAt: at(dayStart - 10 * DAY, 3),
        paidAt: at(dayStart - 10 * DAY, 3.5),
        paidFen: 90000,
      },
      {
        kind: 'team-card',
        status: 'paid',
        createdAt: at(dayStart - 29 * DAY, 1),
        paidAt: at(dayStart - 29 * DAY, 1),
        paidFen: 1234,
      },
      {
        kind: 'team-card',
        status: 'paid',
        createdAt: at(dayStart - 30 * DAY, 23),
        paidAt: at(dayStart - 30 * DAY, 23.9),
        paidFen: 4321,
      },
      // Kinds whose screens are still to come count all the same.
      { kind: 'airport', status: 'used', createdAt: at(dayStart, 6), paidAt: at(dayStart, 6), paidFen: 5000 },
      // 会议室 bookings: paid and used ones use the rooms; refunded, pending and unpublished ones do not.
      {
        kind: 'office-station',
        status: 'paid',
        createdAt: at(dayStart, 0.5),
        paidAt: at(dayStart, 0.5),
        paidFen: 20000,
        room: rooms.a1,
        startAt: at(dayStart, 10),
        endAt: at(dayStart, 12),
      },
      {
        kind: 'office-station',
        status: 'used',
        createdAt: at(dayStart, 0.6),
        paidAt: at(dayStart, 0.6),
        paidFen: 15000,
        room: rooms.a2,
        startAt: at(dayStart, 14),
        endAt: at(dayStart, 15.5),
      },
      {
        kind: 'office-station',
        status: 'refunded',
        createdAt: at(dayStart, 0.7),
        paidAt: at(dayStart, 0.7),
        paidFen: 10000,
        room: rooms.a1,
        startAt: at(dayStart, 16),
        endAt: at(dayStart, 17),
      },
      {
        kind: 'office-station',
        status: 'pending',
        createdAt: at(dayStart, 0.8),
        room: rooms.a1,
        startAt: at(dayStart, 13),
        endAt: at(dayStart, 14),
      },
      {
        kind: 'office-station',
        status: 'paid',
        createdAt: at(dayStart, 0.9),
        paidAt: at(dayStart, 0.9),
        paidFen: 10000,
        room: rooms.hidden,
        startAt: at(dayStart, 9),
        endAt: at(dayStart, 18),
      },
      // Straddling the start of the month: only the hour inside it counts for the month.
      {
        kind: 'office-station',
        status: 'paid',
        createdAt: monthStart - DAY,
        paidAt: monthStart - DAY,
        paidFen: 20000,
        room: rooms.a2,
        startAt: monthStart - HOUR,
        endAt: monthStart + HOUR,
      },
      // Two days on: this month's use unless the month ends first.
      {
        kind: 'office-station',
        status: 'paid',
        createdAt: at(dayStart, 1.5),
        paidAt: at(dayStart, 1.5),
        paidFen: 30000,
        room: rooms.a2,
        startAt: at(dayStart + 2 * DAY, 9),
        endAt: at(dayStart + 2 * DAY, 12),
      },
    );

    const ids = await reserveOrderIds(t.db, planned.length);
    await t.db.insert(orders).values(
      planned.map((o, i) => ({
        id: ids[i],
        kind: o.kind,
        orderNo: formatOrderNo(o.kind, ids[i], new Date(o.createdAt)),
        memberId: buyer.id,
        memberPhone: buyer.phone,
        productId: o.room ?? 1,
        productSnapshot: { name: '看板测试产品' },
        buildingId: o.room ? buildingA : null,
        amountFen: o.paidFen ?? 10000,
        paidFen: o.paidFen ?? 0,
        payMethod: o.paidAt ? ('wechat' as const) : null,
        status: o.status,
        createdAt: new Date(o.createdAt),
        paidAt: o.paidAt ? new Date(o.paidAt) : null,
        startAt: o.startAt ? new Date(o.startAt) : null,
        endAt: o.endAt ? new Date(o.endAt) : null,
      })),
    );
  });
  afterAll(() => t?.close());

  /** What the model of the placed rows says about a kind. */
  const expectedOfKind = (kind: OrderKind) => {
    const ofKind = planned.filter((o) => o.kind === kind);
    const paid = (from: number, to: number) =>
      ofKind.filter((o) => isRevenue(o) && within(o.paidAt, from, to)).reduce((s, o) => s + o.paidFen!, 0);
    return {
      kind,
      todayCount: ofKind.filter((o) => within(o.createdAt, dayStart, dayEnd)).length,
      monthCount: ofKind.filter((o) => within(o.createdAt, monthStart, monthEnd)).length,
      todayPaidFen: paid(dayStart, dayEnd),
      monthPaidFen: paid(monthStart, monthEnd),
    };
  };

  test('401 without a token or with an unknown one', async () => {
    const res = await t.app.inject({ method: 'GET', url: dashboardEndpoints.summary });
    expect(res.statusCode).toBe(401);
    const bad = await call({ authorization: 'Bearer not-a-token' }, dashboardEndpoints.summary);
    expect(bad.status).toBe(401);
  });

  test('the periods are today and this calendar month in Shanghai', async () => {
    const data = await summary();
    expect(data.today).toEqual({ from: today, to: today });
    expect(data.month).toEqual({ from: dateOf(monthStart), to: dateOf(monthEnd - DAY) });
  });

  test('orders and revenue of every kind, today and this month, to the fen', async () => {
    const data = await summary();
    const kinds: OrderKind[] = [
      'user-card',
      'team-card',
      'office-seat',
      'hall-seat',
      'office-station',
      'activity-station',
      'airport',
    ];
    expect(data.orders).toEqual(kinds.map(expectedOfKind));
    // The model's own figures for 会员卡 today, spelled out: 4 of today's orders (pending and
    // refunded included; the one at 23:59:59 is yesterday's), revenue 100 + 200 + 400 元 (the
    // refunded 300 元 is not revenue; the 400 元 was paid five seconds after midnight).
    expect(data.orders[0]).toMatchObject({ todayCount: 4, todayPaidFen: 70000 });
    expect(data.orders.find((o) => o.kind === 'airport')).toMatchObject({
      todayCount: 1,
      todayPaidFen: 5000,
    });
  });

  test('a refund takes its revenue out of the payment day, a remark moves nothing, and undoing restores it', async () => {
    const before = await summary();
    const userCard = (data: DashboardSummary) => data.orders.find((o) => o.kind === 'user-card')!;
    const [paidToday] = await t.db
      .select({ id: orders.id, paidFen: orders.paidFen })
      .from(orders)
      .where(
        and(eq(orders.kind, 'user-card'), eq(orders.status, 'paid'), gte(orders.paidAt, new Date(dayStart))),
      )
      .limit(1);
    await t.db.update(orders).set({ remark: '看板备注' }).where(eq(orders.id, paidToday.id));
    expect(await summary()).toEqual(before);
    await t.db.update(orders).set({ status: 'refunded' }).where(eq(orders.id, paidToday.id));
    const refunded = await summary();
    expect(userCard(refunded)).toEqual({
      ...userCard(before),
      todayPaidFen: userCard(before).todayPaidFen - paidToday.paidFen,
      monthPaidFen: userCard(before).monthPaidFen - paidToday.paidFen,
    });
    expect(refunded.revenue.series[0].paidFen.at(-1)).toBe(
      before.revenue.series[0].paidFen.at(-1)! - paidToday.paidFen,
    );
    await t.db.update(orders).set({ status: 'paid', remark: null }).where(eq(orders.id, paidToday.id));
    expect(await summary()).toEqual(before);
  });

  test('new members by registration time', async () => {
    const data = await summary();
    expect(data.members).toEqual({
      today: registered.filter((at) => within(at, dayStart, dayEnd)).length,
      month: registered.filter((at) => within(at, monthStart, monthEnd)).length,
    });
    expect(data.members!.today).toBe(2);
  });

  test('new leads by creation time, per kind', async () => {
    const data = await summary();
    const counts = (times: number[]) => ({
      today: times.filter((at) => within(at, dayStart, dayEnd)).length,
      month: times.filter((at) => within(at, monthStart, monthEnd)).length,
    });
    expect(data.leads).toEqual({ site: counts(leadsAt.site), website: counts(leadsAt.website) });
    expect(data.leads.site!.today).toBe(1);
    expect(data.leads.website!.today).toBe(2);
  });

  test('the 30-day revenue series: every day up to today, zeros included, per kind to the fen', async () => {
    const data = await summary();
    expect(data.revenue.days).toEqual(seriesDays);
    for (const { kind, paidFen } of data.revenue.series) {
      const expected = seriesDays.map((day) =>
        planned
          .filter(
            (o) => o.kind === kind && isRevenue(o) && o.paidAt !== undefined && dateOf(o.paidAt) === day,
          )
          .reduce((s, o) => s + o.paidFen!, 0),
      );
      expect(paidFen, kind).toEqual(expected);
    }
    const teamCard = data.revenue.series.find((s) => s.kind === 'team-card')!.paidFen;
    // 29 days ago is the first day of the series; 30 days ago is not in it.
    expect(teamCard[0]).toBe(1234);
    expect(teamCard[29]).toBe(80000);
    expect(teamCard.reduce((s, v) => s + v, 0)).toBe(1234 + 90000 + 80000);
    expect(data.revenue.series.find((s) => s.kind === 'office-seat')!.paidFen).toEqual(Array(30).fill(0));
  });

  test('meeting-room utilisation by building: booked minutes of published rooms over their open minutes', async () => {
    const data = await summary();
    const booked = (from: number, to: number) =>
      planned
        .filter((o) => o.kind === 'office-station' && isRevenue(o) && o.room !== rooms.hidden)
        .reduce((s, o) => s + overlapMinutes(o, from, to), 0);
    const openPerDay = 9 * 60 + 14 * 60;
    const share = (minutes: number, open: number) => ({
      bookedMinutes: minutes,
      openMinutes: open,
      percent: Math.round((minutes * 1000) / open) / 10,
    });
    expect(data.utilisation).toEqual([
      {
        buildingId: buildingA,
        buildingName: '看板A座',
        rooms: 2,
        today: share(booked(dayStart, dayEnd), openPerDay),
        month: share(booked(monthStart, monthEnd), openPerDay * monthDays),
      },
      // B has no published room, so it is not listed; C has one and no bookings.
      {
        buildingId: buildingC,
        buildingName: '看板C座',
        rooms: 1,
        today: { bookedMinutes: 0, openMinutes: 600, percent: 0 },
        month: { bookedMinutes: 0, openMinutes: 600 * monthDays, percent: 0 },
      },
    ]);
    // Today: 2 h in A1 and 1.5 h in A2 of 23 open hours = 15.2 % (plus the straddling booking's
    // first hour when today is the 1st).
    if (dayStart !== monthStart) expect(data.utilisation![0].today).toEqual(share(210, openPerDay));
  });

  test('each number counts what the list it links to shows', async () => {
    const data = await summary();
    const range = (key: string, period: { from: string; to: string }) =>
      `${key}From=${period.from}&${key}To=${period.to}`;
    for (const [resource, kind] of [
      [userCardOrder, 'user-card'],
      [teamCardOrder, 'team-card'],
    ] as const) {
      const row = data.orders.find((o) => o.kind === kind)!;
      for (const [period, count, paid] of [
        [data.today, row.todayCount, row.todayPaidFen],
        [data.month, row.monthCount, row.monthPaidFen],
      ] as const) {
        const list = await call<Page<unknown>>(
          admin,
          `${orderPaths(resource).page}?${range('createdAt', period)}`,
        );
        expect(list.body.data.total, `${kind} ${period.from}`).toBe(count);
        const share = await call<MerchantShareTotal>(
          admin,
          `${merchantShareOrderPaths.total}?siteType=${siteTypeOfKind[kind]}&${range('paidAt', period)}`,
        );
        expect(share.body.data.paidFen, `${kind} revenue ${period.from}`).toBe(paid);
      }
    }
    for (const [period, count] of [
      [data.today, data.members!.today],
      [data.month, data.members!.month],
    ] as const) {
      const list = await call<Page<unknown>>(
        admin,
        `${resourcePaths(memberResource).page}?${range('registeredAt', period)}`,
      );
      expect(list.body.data.total).toBe(count);
    }
    for (const [resource, counts] of [
      [csrCapitalSite, data.leads.site!],
      [csrCapitalWebsite, data.leads.website!],
    ] as const) {
      for (const [period, count] of [
        [data.today, counts.today],
        [data.month, counts.month],
      ] as const) {
        const list = await call<Page<unknown>>(
          admin,
          `${resourcePaths(resource).page}?${range('createdAt', period)}`,
        );
        expect(list.body.data.total, `${resource.key} ${period.from}`).toBe(count);
      }
    }
  });

  test('a caller sees only the blocks of the lists they may view', async () => {
    await createRole(t.db, { code: 'dash_cards', name: '会员卡订单', permissions: ['order:member:view'] });
    await createRole(t.db, { code: 'dash_members', name: '会员查看', permissions: ['user:member:view'] });
    await createUser(t.db, { username: 'dash_cards', password: 'Cards@2024', roleCodes: ['dash_cards'] });
    await createUser(t.db, {
      username: 'dash_members',
      password: 'Members@2024',
      roleCodes: ['dash_members'],
    });
    await createUser(t.db, { username: 'dash_nobody', password: 'Nobody@2024' });
    await createRole(t.db, { code: 'dash_place', name: '定制场地查看', permissions: ['clue:place:view'] });
    await createUser(t.db, { username: 'dash_place', password: 'Place@2024', roleCodes: ['dash_place'] });

    const cards = await summary(await t.auth('dash_cards', 'Cards@2024'));
    expect(cards.orders).toEqual([expectedOfKind('user-card')]);
    expect(cards.revenue.series.map((s) => s.kind)).toEqual(['user-card']);
    expect(cards.members).toBeNull();
    expect(cards.utilisation).toBeNull();
    expect(cards.leads).toEqual({ site: null, website: null });

    const place = await summary(await t.auth('dash_place', 'Place@2024'));
    expect(place.leads).toEqual({ site: (await summary()).leads.site, website: null });
    expect(place.orders).toEqual([]);
    expect(place.members).toBeNull();

    const staff = await summary(await t.auth('dash_members', 'Members@2024'));
    expect(staff.orders).toEqual([]);
    expect(staff.revenue).toEqual({ days: seriesDays, series: [] });
    expect(staff.members).toEqual((await summary()).members);
    expect(staff.utilisation).toBeNull();

    const nobody = await summary(await t.auth('dash_nobody', 'Nobody@2024'));
    expect(nobody).toEqual({
      today: { from: today, to: today },
      month: nobody.month,
      orders: [],
      members: null,
      leads: { site: null, website: null },
      revenue: { days: seriesDays, series: [] },
      utilisation: null,
      devices: null,
      doorEvents: null,
      alarms: null,
    });
  });
});
