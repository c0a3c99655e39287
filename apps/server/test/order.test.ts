import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths, type Page } from '@cowork/contract';
import { building } from '@cowork/contract/resources/building';
import { userCard } from '@cowork/contract/resources/user-card';
import {
  orderStates,
  orderActions,
  orderPaths,
  orderStatusOptions,
  teamCardOrder,
  userCardOrder,
  type OrderAction,
  type OrderDetail,
  type OrderKind,
  type OrderStatus,
} from '@cowork/contract/resources/order';
import { auditLogs, buildings, members, orderEvents, orders } from '../src/db/schema.ts';
import { buildTestApp, callApi, createRole, createUser, demo, type TestApp } from './helper.ts';
import { insertOrder as insertFixtureOrder, orderNosOfPage } from './order-fixture.ts';

const member = orderPaths(userCardOrder);
const meeting = orderPaths(teamCardOrder);
type Row = Record<string, unknown> & { id: number; orderNo: string };

describe('orders (user-card-order, team-card-order)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let buildingA: { id: number; name: string };
  let buildingB: { id: number; name: string };
  let buyer: { id: number; phone: string };
  let other: { id: number; phone: string };
  const known: Record<string, Row> = {};

  const call = <T = unknown>(headers: Record<string, string>, method: string, url: string, body?: object) =>
    callApi<T>(t, headers, method, url, body);

  /**
   * A card order written straight to the table (the member app creates them), of the buyer (or
   * `phone`) in building A (or `building`), pending unless told.
   */
  async function insertOrder(values: {
    kind?: OrderKind;
    status?: OrderStatus;
    phone?: { id: number; phone: string };
    building?: { id: number; name: string };
    createdAt?: string;
    payMethod?: 'wechat' | 'alipay' | 'card' | 'offline' | null;
    cardNo?: string | null;
  }): Promise<Row> {
    const kind = values.kind ?? 'user-card';
    const building = values.building ?? buildingA;
    const buyerOf = values.phone ?? buyer;
    const status = values.status ?? 'pending';
    const row = await insertFixtureOrder(t.db, {
      kind,
      memberId: buyerOf.id,
      memberPhone: buyerOf.phone,
      productSnapshot: {
        name: kind === 'team-card' ? '1000元会议卡' : '北京通用月卡',
        priceFen: 159900,
        validDays: 30,
        faceValueFen: 100000,
        buildingName: building.name,
      },
      buildingId: building.id,
      amountFen: 159900,
      discountFen: 900,
      paidFen: status !== 'pending' && status !== 'cancelled' ? 159000 : 0,
      payMethod: values.payMethod === undefined ? 'wechat' : values.payMethod,
      status,
      cardNo: values.cardNo ?? null,
      createdAt: new Date(values.createdAt ?? '2026-03-01T10:00:00+08:00'),
    });
    return row as unknown as Row;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth(...demo.admin);
    const rows = await t.db.select({ id: buildings.id, name: buildings.name }).from(buildings).limit(2);
    [buildingA, buildingB] = rows;
    [buyer, other] = await t.db
      .insert(members)
      .values([{ phone: '17700001111' }, { phone: '17700002222' }])
      .returning({ id: members.id, phone: members.phone });
    known.pending = await insertOrder({ createdAt: '2026-01-10T10:00:00+08:00', payMethod: null });
    known.paid = await insertOrder({
      status: 'paid',
      building: buildingB,
      createdAt: '2026-01-20T23:30:00+08:00',
      cardNo: 'KTEST0001',
    });
    known.alipay = await insertOrder({
      status: 'paid',
      phone: other,
      payMethod: 'alipay',
      createdAt: '2026-02-05T09:00:00+08:00',
    });
    known.meeting = await insertOrder({ kind: 'team-card', status: 'paid', cardNo: 'KTEST0002' });
  });
  afterAll(() => t?.close());

  const page = (query: Record<string, string>, path = member.page) => orderNosOfPage(t, admin, path, query);
  const numbers = (...rows: Row[]) => rows.map((r) => r.orderNo).sort();

  test('the demo holds card orders of both kinds in every status, numbered by kind and date', async () => {
    const demoOrders = await t.db.select().from(orders);
    for (const kind of ['user-card', 'team-card'] as const) {
      const ofKind = demoOrders.filter((o) => o.kind === kind);
      expect(ofKind.length).toBeGreaterThan(50);
      for (const { value } of orderStatusOptions) {
        if (value !== 'pending')
          expect(
            ofKind.some((o) => o.status === value),
            `${kind} ${value}`,
          ).toBe(true);
      }
    }
    const sample = demoOrders.find((o) => o.kind === 'user-card' && o.status === 'used')!;
    expect(sample.orderNo).toMatch(/^UC\d{8}\d{6,}$/);
    expect(sample.paidAt!.getTime()).toBeGreaterThan(sample.createdAt.getTime());
    expect(sample.usedAt!.getTime()).toBeGreaterThanOrEqual(sample.paidAt!.getTime());
    const timeline = await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, sample.id));
    expect(timeline.map((e) => e.toStatus).sort()).toEqual(['paid', 'pending', 'used']);
  });

  test('page lists one kind only, newest first, with product and building names from the snapshot', async () => {
    const res = await call<Page<Row>>(admin, 'GET', `${member.page}?memberPhone=${buyer.phone}`);
    expect(res.status).toBe(200);
    expect(res.body.data.records.map((r) => r.orderNo)).toEqual([known.paid.orderNo, known.pending.orderNo]);
    expect(res.body.data.records[0]).toMatchObject({
      productName: '北京通用月卡',
      buildingName: buildingB.name,
      status: 'paid',
      paidFen: 159000,
      memberPhone: buyer.phone,
    });
    expect(await page({ memberPhone: buyer.phone }, meeting.page)).toEqual(numbers(known.meeting));
  });

  test('page filters by order number, building, status, pay method and created date range', async () => {
    expect(await page({ orderNo: known.alipay.orderNo })).toEqual(numbers(known.alipay));
    expect(await page({ orderNo: known.meeting.orderNo })).toEqual([]);
    expect(await page({ memberPhone: buyer.phone, buildingId: String(buildingB.id) })).toEqual(
      numbers(known.paid),
    );
    expect(await page({ memberPhone: buyer.phone, status: 'pending' })).toEqual(numbers(known.pending));
    // The demo's own orders of the year are left out by the phone of this test's member.
    const alipay = await page({
      memberPhone: other.phone,
      payMethod: 'alipay',
      createdAtFrom: '2026-02-01',
      createdAtTo: '2026-02-28',
    });
    expect(alipay).toEqual(numbers(known.alipay));
    // A date range takes whole Shanghai days: 23:30 on 20 January is inside a range ending that day.
    expect(
      await page({ memberPhone: buyer.phone, createdAtFrom: '2026-01-15', createdAtTo: '2026-01-20' }),
    ).toEqual(numbers(known.paid));
  });

  test('page answers 400 for a one-sided date range and for unknown statuses', async () => {
    for (const query of ['createdAtFrom=2026-01-01', 'createdAtTo=2026-01-31']) {
      const res = await call(admin, 'GET', `${member.page}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.msg).toContain('请选择时间段');
      expect(res.body.msg).toContain('下单时间');
    }
    const status = await call(admin, 'GET', `${member.page}?status=lost`);
    expect(status.status).toBe(400);
    expect(status.body.msg).toContain('订单状态');
    const phone = await call(admin, 'GET', `${member.page}?payMethod=cash`);
    expect(phone.status).toBe(400);
    expect(phone.body.msg).toContain('支付方式');
  });

  test('detail answers the product as sold and the status timeline; another kind is 404', async () => {
    const res = await call<OrderDetail>(admin, 'GET', `${member.detail}/${known.paid.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.productSnapshot).toMatchObject({
      name: '北京通用月卡',
      buildingName: buildingB.name,
    });
    expect(res.body.data.events).toEqual([
      expect.objectContaining({ fromStatus: null, toStatus: 'pending' }),
    ]);
    expect(res.body.data.cardNo).toBe('KTEST0001');
    for (const url of [`${member.detail}/${known.meeting.id}`, `${member.detail}/999999`]) {
      const missing = await call(admin, 'GET', url);
      expect(missing.status).toBe(404);
      expect(missing.body.msg).toContain('会员卡订单不存在');
    }
  });

  test('detail/card-no finds a card order by its card number within its kind', async () => {
    const found = await call<OrderDetail>(admin, 'GET', `${member.cardNo}/KTEST0001`);
    expect(found.status).toBe(200);
    expect(found.body.data.id).toBe(known.paid.id);
    const meetingCard = await call<OrderDetail>(admin, 'GET', `${meeting.cardNo}/KTEST0002`);
    expect(meetingCard.body.data.id).toBe(known.meeting.id);
    const other = await call(admin, 'GET', `${member.cardNo}/KTEST0002`);
    expect(other.status).toBe(404);
    expect(other.body.msg).toContain('KTEST0002');
  });

  test('pay issues the card: amount paid, card number, validity; a meeting card gets its face value', async () => {
    const order = await insertOrder({ payMethod: null });
    const res = await call<OrderDetail>(admin, 'PUT', member.pay, { id: order.id });
    expect(res.status, res.raw).toBe(200);
    const paid = res.body.data;
    expect(paid).toMatchObject({
      status: 'paid',
      paidFen: 159000,
      payMethod: 'offline',
      cardNo: `K${order.orderNo}`,
    });
    const days = (Date.parse(paid.validTo!) - Date.parse(paid.validFrom!)) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    expect(paid.paidAt).not.toBeNull();
    expect(paid.balanceFen).toBeNull();

    const card = await insertOrder({ kind: 'team-card' });
    const meetingPaid = await call<OrderDetail>(admin, 'PUT', meeting.pay, { id: card.id });
    expect(meetingPaid.body.data.balanceFen).toBe(100000);
  });

  test('every legal move changes the status, stamps its time, records the event and the audit entry', async () => {
    const path: [OrderAction, OrderStatus, keyof OrderDetail][] = [
      ['pay', 'pending', 'paidAt'],
      ['use', 'paid', 'usedAt'],
      ['cancel', 'pending', 'cancelledAt'],
      ['refund', 'paid', 'refundedAt'],
    ];
    for (const [action, from, stamp] of path) {
      const order = await insertOrder({ status: from });
      const res = await call<OrderDetail>(admin, 'PUT', member[action], {
        id: order.id,
        reason: `测试${action}`,
      });
      expect(res.status, `${action}: ${res.raw}`).toBe(200);
      const to = orderActions[action].to;
      expect(res.body.data.status).toBe(to);
      expect(res.body.data[stamp as keyof OrderDetail]).toEqual(expect.any(String));
      expect(res.body.data.events.at(-1)).toMatchObject({
        fromStatus: from,
        toStatus: to,
        reason: `测试${action}`,
        actorName: expect.any(String),
      });
      const [entry] = await t.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.resource, 'user-card-order'), eq(auditLogs.resourceId, String(order.id))));
      expect(entry).toMatchObject({ action, before: { status: from }, after: { status: to } });
    }
  });

  test('every illegal move is a 409 naming both states and changes nothing', async () => {
    for (const { value: status, label } of orderStatusOptions) {
      for (const action of Object.keys(orderActions) as OrderAction[]) {
        if (orderStates.movesFrom(status).includes(action)) continue;
        const order = await insertOrder({ status });
        const res = await call(admin, 'PUT', member[action], { id: order.id });
        expect(res.status, `${status} ${action}`).toBe(409);
        expect(res.body.msg).toBe(orderStates.illegalMove(status, orderActions[action].to));
        expect(res.body.msg).toContain(`「${label}」`);
        const [after] = await t.db.select().from(orders).where(eq(orders.id, order.id));
        expect(after.status).toBe(status);
        const events = await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
        expect(events).toHaveLength(1);
      }
    }
    expect(orderStates.illegalMove('cancelled', 'refunded')).toBe('订单当前为「已取消」，不能改为「已退款」');
  });

  test('moves on a missing order, or one of another kind, are 404; a bad id or long reason is 400', async () => {
    expect((await call(admin, 'PUT', member.refund, { id: 999_999 })).status).toBe(404);
    expect((await call(admin, 'PUT', member.refund, { id: known.meeting.id })).status).toBe(404);
    const bad = await call(admin, 'PUT', member.refund, { id: 'x' });
    expect(bad.status).toBe(400);
    const order = await insertOrder({ status: 'paid' });
    const long = await call(admin, 'PUT', member.refund, { id: order.id, reason: '长'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.msg).toContain('原因');
  });

  test('two concurrent refunds of one order: one succeeds, the other is a 409', async () => {
    const order = await insertOrder({ status: 'paid' });
    const results = await Promise.all(
      [1, 2].map(() => call(admin, 'PUT', member.refund, { id: order.id, reason: '并发退款' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.msg).toBe(
      orderStates.illegalMove('refunded', 'refunded'),
    );
    const events = await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(events.filter((e) => e.toStatus === 'refunded')).toHaveLength(1);
  });

  test('edit-referrer-phone checks the phone, saves it and audits the change', async () => {
    const order = await insertOrder({ status: 'paid' });
    for (const referrerPhone of ['12345', '', '12800001111']) {
      const res = await call(admin, 'PUT', member.editReferrerPhone, { id: order.id, referrerPhone });
      expect(res.status, referrerPhone).toBe(400);
      expect(res.body.msg).toContain('手机号');
    }
    const res = await call<OrderDetail>(admin, 'PUT', member.editReferrerPhone, {
      id: order.id,
      referrerPhone: '13912345678',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.referrerPhone).toBe('13912345678');
    const [entry] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'edit-referrer-phone'), eq(auditLogs.resourceId, String(order.id))));
    expect(entry).toMatchObject({ before: { referrerPhone: null }, after: { referrerPhone: '13912345678' } });
    const missing = await call(admin, 'PUT', member.editReferrerPhone, {
      id: 999_999,
      referrerPhone: '13912345678',
    });
    expect(missing.status).toBe(404);
  });

  test('a building that orders were placed in cannot be removed: 409 naming the orders', async () => {
    const res = await call(admin, 'DELETE', `${resourcePaths(building).remove}/${buildingB.id}`);
    expect(res.status).toBe(409);
    expect(res.body.msg).toMatch(/订单 \d+ 个（/);
  });

  test('a card that has been sold cannot be removed: 409 naming its orders and pointing to unpublishing', async () => {
    const [sold] = await t.db
      .select({ productId: orders.productId })
      .from(orders)
      .where(eq(orders.kind, 'user-card'))
      .limit(1);
    const path = `${resourcePaths(userCard).remove}/${sold.productId}`;
    const res = await call(admin, 'DELETE', path);
    expect(res.status).toBe(409);
    expect(res.body.msg).toMatch(/^该会员卡已有订单 \d+ 个（UC\d+.*），不能删除；请改为下架，停止销售$/);
  });

  test('财务 and 运营 read and move orders; a user without order codes gets 403', async () => {
    for (const [username, password] of [demo.caiwu, demo.yunying]) {
      const headers = await t.auth(username, password);
      expect((await call(headers, 'GET', `${member.page}?size=1`)).status).toBe(200);
      expect((await call(headers, 'GET', `${meeting.detail}/${known.meeting.id}`)).status).toBe(200);
      const order = await insertOrder({ status: 'paid' });
      expect((await call(headers, 'PUT', member.use, { id: order.id })).status).toBe(200);
    }
    await createRole(t.db, {
      code: 'member_orders',
      name: '会员卡订单查看',
      permissions: ['order:member:view'],
    });
    await createUser(t.db, {
      username: 'order_viewer',
      password: 'Viewer@2024',
      roleCodes: ['member_orders'],
    });
    await createUser(t.db, { username: 'no_orders', password: 'Nobody@2024' });
    const viewer = await t.auth('order_viewer', 'Viewer@2024');
    const nobody = await t.auth('no_orders', 'Nobody@2024');
    const order = await insertOrder({ status: 'paid' });
    expect((await call(viewer, 'GET', `${member.page}?size=1`)).status).toBe(200);
    for (const [headers, method, url, body] of [
      [viewer, 'PUT', member.refund, { id: order.id }],
      [viewer, 'PUT', member.editReferrerPhone, { id: order.id, referrerPhone: '13912345678' }],
      [viewer, 'GET', `${meeting.page}?size=1`, undefined],
      [nobody, 'GET', `${member.page}?size=1`, undefined],
      [nobody, 'GET', `${member.detail}/${order.id}`, undefined],
      [nobody, 'GET', `${member.cardNo}/KTEST0001`, undefined],
      [nobody, 'PUT', member.refund, { id: order.id }],
    ] as const) {
      const res = await call(headers, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.msg).toBe('您没有权限进行此操作');
    }
    const [after] = await t.db.select().from(orders).where(eq(orders.id, order.id));
    expect(after.status).toBe('paid');
  });
});
