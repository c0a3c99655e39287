/**
 * The demo orders are consistent data, not just rows: bookings never overlap for one room and stay
 * inside its opening hours, card-paid bookings use a meeting card of the same member whose balance
 * is its face value minus its active bookings, every kind is there, order numbers are unique, and
 * all of it still holds after more orders are added to the same database (seed:demo run twice).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  merchantShareOrderPaths,
  type MerchantShareTotal,
} from '@cowork/contract/resources/merchant-share-order';
import { orderKindOptions } from '@cowork/contract/resources/order';
import { addDemoOrders, demoOrderCount } from '../src/modules/order/demo.ts';
import { buildTestApp, callApi, demo, engine, type TestApp } from './helper.ts';

const BOOKING_KINDS = `('office-station', 'activity-station')`;
const ACTIVE = `('pending', 'paid', 'used')`;

describe(`demo orders (${engine})`, () => {
  let t: TestApp;

  const one = async (query: string): Promise<number> => {
    const result = (await t.db.execute(sql.raw(query))) as unknown as { rows: Record<string, unknown>[] };
    return Number(Object.values(result.rows[0])[0]);
  };

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t?.close());

  /** Every consistency rule, as counts of the rows breaking it (each must be 0). */
  async function checkConsistency() {
    // No two active bookings of one room overlap (half-open intervals).
    expect(
      await one(`
        select count(*) from orders a join orders b
          on a.kind = b.kind and a.product_id = b.product_id and a.id < b.id
         and a.start_at < b.end_at and b.start_at < a.end_at
        where a.kind in ${BOOKING_KINDS} and a.status in ${ACTIVE} and b.status in ${ACTIVE}`),
      'overlapping bookings',
    ).toBe(0);

    // Each booking lies inside its room's opening hours on one Shanghai day, at least its minimum.
    for (const [kind, table] of [
      ['office-station', 'office_stations'],
      ['activity-station', 'activity_stations'],
    ]) {
      expect(
        await one(`
          select count(*) from orders o join ${table} s on s.id = o.product_id
          where o.kind = '${kind}' and not (
            o.start_at is not null and o.end_at > o.start_at
            and (o.start_at at time zone 'Asia/Shanghai')::date = (o.end_at at time zone 'Asia/Shanghai')::date
            and to_char(o.start_at at time zone 'Asia/Shanghai', 'HH24:MI') >= s.open_time
            and to_char(o.end_at at time zone 'Asia/Shanghai', 'HH24:MI') <= s.close_time
            and o.end_at - o.start_at >= s.min_booking_minutes * interval '1 minute'
            and o.building_id = s.building_id)`),
        `${kind} bookings outside opening hours`,
      ).toBe(0);
      expect(await one(`select count(*) from orders where kind = '${kind}'`)).toBeGreaterThan(0);
    }

    // Card payment and the paying card go together; the card is a paid meeting card of the same
    // member, valid in the booking's building when the booking was paid.
    expect(
      await one(`select count(*) from orders where (pay_method = 'card') <> (card_order_id is not null)`),
    ).toBe(0);
    expect(
      await one(`
        select count(*) from orders b join orders c on c.id = b.card_order_id
        left join team_cards p on p.id = c.product_id
        where not (b.kind = 'office-station' and c.kind = 'team-card' and c.status = 'paid'
          and c.member_id = b.member_id and c.member_phone = b.member_phone
          and b.building_id = any(p.building_ids)
          and c.valid_from <= b.paid_at and b.paid_at < c.valid_to
          and b.paid_fen = b.amount_fen)`),
      'card-paid bookings not matching their card',
    ).toBe(0);
    expect(await one(`select count(*) from orders where card_order_id is not null`)).toBeGreaterThan(0);

    // Balance = face value − active bookings paid by the card, never negative.
    expect(
      await one(`
        select count(*) from orders c
        where c.kind = 'team-card' and c.status in ('paid', 'used') and c.balance_fen is distinct from
          (c.product_snapshot ->> 'faceValueFen')::int - coalesce((
            select sum(b.paid_fen) from orders b
            where b.card_order_id = c.id and b.status in ${ACTIVE}), 0)`),
      'meeting cards whose balance is not face value minus active bookings',
    ).toBe(0);
    expect(await one(`select count(*) from orders where balance_fen < 0`)).toBe(0);
    // Some cards were spent on rooms, so the rule above is not only met by untouched cards.
    expect(
      await one(`
        select count(*) from orders where kind = 'team-card'
        and balance_fen < (product_snapshot ->> 'faceValueFen')::int`),
    ).toBeGreaterThan(0);

    // Every kind, unique numbers carrying the kind's prefix.
    const kinds = (await t.db.execute(sql`select distinct kind from orders`)) as unknown as {
      rows: { kind: string }[];
    };
    expect(kinds.rows.map((r) => r.kind).sort()).toEqual(orderKindOptions.map((o) => o.value).sort());
    expect(await one(`select count(*) - count(distinct order_no) from orders`)).toBe(0);
    for (const { value, prefix } of orderKindOptions) {
      expect(
        await one(
          `select count(*) from orders where kind = '${value}' and order_no !~ '^${prefix}\\d{14,}$'`,
        ),
      ).toBe(0);
    }

    // Card orders carry a card once paid; seat orders a period; lounges no building.
    expect(
      await one(`
        select count(*) from orders where kind in ('user-card', 'team-card')
        and (status in ('paid', 'used', 'refunded')) <> (card_no is not null and valid_from is not null
          and valid_to > valid_from)`),
    ).toBe(0);
    expect(
      await one(`
        select count(*) from orders where kind in ('office-seat', 'hall-seat')
        and not (start_at is not null and end_at > start_at and building_id is not null)`),
    ).toBe(0);
    expect(await one(`select count(*) from orders where kind = 'airport' and building_id is not null`)).toBe(
      0,
    );

    // Times and the timeline follow the status.
    expect(
      await one(`
        select count(*) from orders where not (
          (paid_at is not null) = (status in ('paid', 'used', 'refunded'))
          and (used_at is not null) = (status = 'used')
          and (refunded_at is not null) = (status = 'refunded')
          and (cancelled_at is not null) = (status = 'cancelled')
          and (paid_at is null or paid_at >= created_at)
          and (used_at is null or used_at >= paid_at)
          and (refunded_at is null or refunded_at >= paid_at)
          and paid_fen = case when paid_at is null then 0 else amount_fen - discount_fen end
          and (paid_at is null or paid_fen > 0)
          and discount_fen * 2 <= amount_fen
          and created_at <= now())`),
      'orders whose times or amounts do not match their status',
    ).toBe(0);
    expect(
      await one(`
        select count(*) from orders o where not exists (
          select 1 from order_events e where e.order_id = o.id and e.to_status = o.status)
        or not exists (select 1 from order_events e where e.order_id = o.id and e.from_status is null)`),
      'orders without the events of their status',
    ).toBe(0);
    expect(
      await one(`
        select count(*) from team_card_activities a where a.sold <> (select count(*) from orders o
          where o.activity_id = a.id and o.status in ('pending', 'paid', 'used'))`),
      'activities whose 已售 differs from their sales',
    ).toBe(0);
  }

  test('the demo holds every kind of order over the last year, consistent with rooms and cards', async () => {
    // DEMO_ORDERS counts the generated orders; the 会议卡活动 demo adds its few sales.
    expect(await one(`select count(*) from orders where activity_id is null`)).toBe(demoOrderCount());
    expect(
      await one(`select count(*) from orders where created_at < now() - interval '300 days'`),
    ).toBeGreaterThan(0);
    expect(await one(`select count(*) from orders where created_at < now() - interval '366 days'`)).toBe(0);
    await checkConsistency();
  });

  test('both desk kinds have paid orders to 核销 or refund, whatever the day', async () => {
    for (const kind of ['office-seat', 'hall-seat'])
      expect(
        await one(`select count(*) from orders where kind = '${kind}' and status = 'paid'`),
        `paid ${kind} orders`,
      ).toBeGreaterThanOrEqual(2);
  });

  test('revenue shares show for the demo orders paid inside the merchants’ rules', async () => {
    const admin = await t.auth(...demo.admin);
    const res = await callApi<MerchantShareTotal>(t, admin, 'GET', merchantShareOrderPaths.total);
    expect(res.status).toBe(200);
    expect(res.body.data.shareFen).toBeGreaterThan(0);
  });

  test('adding orders to an existing demo (seed:demo run again) keeps every rule', async () => {
    const before = await one(`select count(*) from orders`);
    const added = await t.db.transaction((tx) => addDemoOrders(tx, { count: 1500, seed: before }));
    expect(added.orders).toBe(1500);
    expect(Object.keys(added.byKind).sort()).toEqual(orderKindOptions.map((o) => o.value).sort());
    expect(await one(`select count(*) from orders`)).toBe(before + 1500);
    // One member per hundred orders at least.
    expect(await one(`select count(*) from members`)).toBeGreaterThanOrEqual((before + 1500) / 100);
    await checkConsistency();
  });

  test('DEMO_ORDERS must be a whole number; unset it is 3000', () => {
    expect(demoOrderCount({})).toBe(3000);
    expect(demoOrderCount({ DEMO_ORDERS: '0' })).toBe(0);
    expect(demoOrderCount({ DEMO_ORDERS: ' 120 ' })).toBe(120);
    expect(() => demoOrderCount({ DEMO_ORDERS: 'lots' })).toThrow(/DEMO_ORDERS/);
    expect(() => demoOrderCount({ DEMO_ORDERS: '-5' })).toThrow(/DEMO_ORDERS/);
  });
});
