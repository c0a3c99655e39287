/**
 * BUSINESS_TIME_ZONE (issue 16, point 7): a server set to America/New_York, a zone with daylight
 * saving, answers times with that zone's offset, reads date filters, numbers orders, counts 首页's
 * days, checks booking hours and tells the console the zone in its page, all in that zone; and the
 * order day totals follow a change of zone at start.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addDays, businessDay } from '@cowork/contract';
import { dashboardEndpoints, type DashboardSummary } from '@cowork/contract/resources/dashboard';
import {
  officeStationOrder,
  orderPaths,
  userCardOrder,
  type OrderDetail,
} from '@cowork/contract/resources/order';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { rowsOf } from '../src/db/client.ts';
import { buildings, members, officeStations } from '../src/db/schema.ts';
import { alignBusinessCalendar } from '../src/seed/business-calendar.ts';
import { buildTestApp, callApi, demo, engine, type TestApp } from './helper.ts';
import { insertOrder, orderNosOfPage } from './order-fixture.ts';

const zone = 'America/New_York';
const memberCards = orderPaths(userCardOrder);
const rooms = orderPaths(officeStationOrder);

test('BUSINESS_TIME_ZONE must be an IANA zone; Asia/Shanghai by default', () => {
  expect(loadConfig({}).timeZone).toBe('Asia/Shanghai');
  expect(loadConfig({ BUSINESS_TIME_ZONE: 'Europe/Berlin' }).timeZone).toBe('Europe/Berlin');
  expect(() => loadConfig({ BUSINESS_TIME_ZONE: 'Beijing' })).toThrow(ConfigError);
  expect(() => loadConfig({ BUSINESS_TIME_ZONE: 'Beijing' })).toThrow(/BUSINESS_TIME_ZONE must be an IANA/);
});

describe(`business time zone America/New_York (${engine})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let buyer: { id: number; phone: string };

  /** order_day_totals as stored, and as counted from the orders in `countZone`, for one kind. */
  async function totals(countZone: string) {
    const stored = await rowsOf<{ day: string; created: number; paid: number }>(
      t.db,
      sql`select day::text as day, created_count::int as created, paid_fen::float8 as paid
          from order_day_totals where kind = 'user-card' order by day`,
    );
    const counted = await rowsOf<{ day: string; created: number; paid: number }>(
      t.db,
      sql`select day::text as day, sum(created)::int as created, sum(paid)::float8 as paid from (
            select (created_at at time zone ${countZone}::text)::date as day, 1 as created, 0 as paid
              from orders where kind = 'user-card'
            union all
            select (paid_at at time zone ${countZone}::text)::date, 0, paid_fen from orders
              where kind = 'user-card' and paid_at is not null and status in ('paid', 'used')
          ) shares group by day having sum(created) <> 0 or sum(paid) <> 0 order by day`,
    );
    return { stored, counted };
  }

  const order = (createdAt: string, paidFen = 29_000) =>
    insertOrder(t.db, {
      kind: 'user-card',
      memberId: buyer.id,
      memberPhone: buyer.phone,
      createdAt: new Date(createdAt),
      paidAt: new Date(createdAt),
      paidFen,
    });

  beforeAll(async () => {
    t = await buildTestApp({ config: { timeZone: zone } });
    admin = await t.auth(...demo.admin);
    [buyer] = await t.db
      .insert(members)
      .values({ phone: '17900001111' })
      .returning({ id: members.id, phone: members.phone });
  });
  afterAll(() => t?.close());

  // Orders of 2024, before the demo's year, so they are the only ones of their days.
  test('a change of zone counts the order day totals again, once; later orders count in the new zone', async () => {
    // Written while the database still counted China Standard Time days.
    await order('2024-01-10T23:30:00-05:00');
    await order('2024-01-11T00:30:00-05:00');
    const before = await totals('Asia/Shanghai');
    expect(before.stored).toEqual(before.counted);
    expect(before.stored.filter((r) => r.day === '2024-01-11').map((r) => r.created)).toEqual([2]);

    expect(await alignBusinessCalendar(t.db, zone)).toBe(true);
    expect(await alignBusinessCalendar(t.db, zone)).toBe(false);
    const after = await totals(zone);
    expect(after.stored).toEqual(after.counted);
    const jan = after.stored.filter((r) => r.day === '2024-01-10' || r.day === '2024-01-11');
    expect(jan.map((r) => [r.day, r.created])).toEqual([
      ['2024-01-10', 1],
      ['2024-01-11', 1],
    ]);

    // 23:00 in New York is the next day in Shanghai.
    await order('2024-01-12T23:00:00-05:00');
    const later = await totals(zone);
    expect(later.stored).toEqual(later.counted);
    expect(later.stored.find((r) => r.day === '2024-01-12')?.created).toBe(1);
    expect(later.stored.find((r) => r.day === '2024-01-13')).toBeUndefined();
  });

  test('times leave with the offset of their instant, order numbers carry the local day, dates filter local days', async () => {
    const winter = await order('2024-02-03T23:15:00-05:00');
    const summer = await order('2024-07-03T23:15:00-04:00');
    expect(winter.orderNo).toContain('20240203');
    expect(summer.orderNo).toContain('20240703');

    const detail = await callApi<OrderDetail>(t, admin, 'GET', `${memberCards.detail}/${summer.id}`);
    expect(detail.status, detail.raw).toBe(200);
    expect(detail.body.data.createdAt).toBe('2024-07-03T23:15:00.000-04:00');
    const list = await callApi<{ records: { id: number; createdAt: string }[] }>(
      t,
      admin,
      'GET',
      `${memberCards.page}?memberPhone=${buyer.phone}&createdAtFrom=2024-02-03&createdAtTo=2024-02-03`,
    );
    expect(list.body.data.records.map((r) => [r.id, r.createdAt])).toEqual([
      [winter.id, '2024-02-03T23:15:00.000-05:00'],
    ]);
    const query = { memberPhone: buyer.phone };
    expect(
      await orderNosOfPage(t, admin, memberCards.page, {
        ...query,
        createdAtFrom: '2024-07-04',
        createdAtTo: '2024-07-04',
      }),
    ).not.toContain(summer.orderNo);
    expect(
      await orderNosOfPage(t, admin, memberCards.page, {
        ...query,
        createdAtFrom: '2024-07-03',
        createdAtTo: '2024-07-03',
      }),
    ).toEqual([summer.orderNo]);
  });

  test('首页 counts the New York day and month', async () => {
    await alignBusinessCalendar(t.db, zone);
    const summary = async () => {
      const res = await callApi<DashboardSummary>(t, admin, 'GET', dashboardEndpoints.summary);
      expect(res.status, res.raw).toBe(200);
      return res.body.data;
    };
    const before = await summary();
    const today = businessDay(new Date());
    expect(before.today).toEqual({ from: today, to: today });
    expect(before.month.from).toBe(`${today.slice(0, 7)}-01`);
    expect(before.revenue.days.at(-1)).toBe(today);
    await order(new Date().toISOString(), 12_345);
    const after = await summary();
    const cards = (s: DashboardSummary) => s.orders.find((o) => o.kind === 'user-card')!;
    expect(cards(after).todayCount).toBe(cards(before).todayCount + 1);
    expect(cards(after).todayPaidFen).toBe(cards(before).todayPaidFen + 12_345);
  });

  test('a booking keeps to the room’s hours on the New York clock', async () => {
    const [building] = await t.db.select({ id: buildings.id }).from(buildings).limit(1);
    await t.db
      .update(buildings)
      .set({ openTime: null, closeTime: null })
      .where(eq(buildings.id, building.id));
    const [room] = await t.db
      .insert(officeStations)
      .values({
        buildingId: building.id,
        name: '纽约时区会议室',
        capacity: 6,
        hourPriceFen: 10_000,
        minBookingMinutes: 60,
        openTime: '09:00',
        closeTime: '18:00',
        published: true,
      })
      .returning({ id: officeStations.id });
    const day = addDays(businessDay(new Date()), 3);
    const offset = localOffset(day);
    const book = (from: string, to: string) =>
      callApi<OrderDetail>(t, admin, 'POST', rooms.save, {
        memberPhone: buyer.phone,
        productId: room.id,
        payMethod: 'offline',
        startAt: `${day}T${from}:00${offset}`,
        endAt: `${day}T${to}:00${offset}`,
      });
    const early = await book('08:00', '09:30');
    expect(early.status, early.raw).toBe(400);
    expect(early.body.msg).toContain('09:00–18:00');
    const inHours = await book('09:00', '10:30');
    expect(inHours.status, inHours.raw).toBe(200);
    expect(inHours.body.data.startAt).toBe(`${day}T09:00:00.000${offset}`);
  });

  test('the console’s page names the zone', async () => {
    const dist = await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-zone-dist-'));
    await fs.writeFile(
      path.join(dist, 'index.html'),
      '<!doctype html><meta name="business-time-zone" content="Asia/Shanghai" /><title>控制台</title>',
    );
    const web = await buildApp({ config: { ...t.config, webDist: dist }, db: t.db, logger: false });
    try {
      const res = await web.inject({ url: '/order/member', headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<meta name="business-time-zone" content="America/New_York" />');
    } finally {
      await web.close();
      await fs.rm(dist, { recursive: true, force: true });
    }
  });
});

/** New York's offset on a day at noon, as ISO 8601 writes it (-05:00 or -04:00). */
function localOffset(day: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(Date.parse(`${day}T17:00:00Z`))
    .find((p) => p.type === 'timeZoneName')!.value;
  return name.replace('GMT', '');
}
