import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from '@cowork/contract';
import {
  airportOrder,
  hallSeatOrder,
  orderStates,
  officeSeatOrder,
  orderActions,
  orderPaths,
  orderStatusOptions,
  userCardOrder,
  type OrderAction,
  type OrderDetail,
  type OrderRecord,
  type OrderStatus,
} from '@cowork/contract/resources/order';
import { auditLogs, buildings, members, orderEvents, orders } from '../src/db/schema.ts';
import { buildTestApp, callApi, createRole, createUser, demo, type TestApp } from './helper.ts';
import { insertOrder, orderNosOfPage, type OrderRow } from './order-fixture.ts';

const office = orderPaths(officeSeatOrder);
const hall = orderPaths(hallSeatOrder);

describe('seat orders (office-seat-order, hall-seat-order)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let buildingA: { id: number; name: string };
  let buildingB: { id: number; name: string };
  let buyer: { id: number; phone: string };
  let other: { id: number; phone: string };
  const known: Record<string, OrderRow> = {};

  const call = <T = unknown>(headers: Record<string, string>, method: string, url: string, body?: object) =>
    callApi<T>(t, headers, method, url, body);

  /** A seat order of the buyer in building A: a month of one seat from 1 March. */
  const seatOrder = (
    values: Partial<Parameters<typeof insertOrder>[1]> & { building?: { id: number; name: string } } = {},
  ) => {
    const { building = buildingA, ...rest } = values;
    return insertOrder(t.db, {
      kind: 'office-seat',
      memberId: buyer.id,
      memberPhone: buyer.phone,
      buildingId: building.id,
      productSnapshot: {
        name: '包月套餐',
        seatCode: 'A区-01',
        unit: 'month',
        priceFen: 30000,
        buildingName: building.name,
      },
      quantity: 2,
      startAt: new Date('2026-03-01T00:00:00+08:00'),
      endAt: new Date('2026-05-01T00:00:00+08:00'),
      ...rest,
    });
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth(...demo.admin);
    [buildingA, buildingB] = await t.db
      .select({ id: buildings.id, name: buildings.name })
      .from(buildings)
      .limit(2);
    [buyer, other] = await t.db
      .insert(members)
      .values([{ phone: '16600003331' }, { phone: '16600003332' }])
      .returning({ id: members.id, phone: members.phone });
    known.pending = await seatOrder({
      status: 'pending',
      payMethod: null,
      createdAt: new Date('2026-01-10T10:00:00+08:00'),
    });
    known.paid = await seatOrder({ building: buildingB, createdAt: new Date('2026-01-20T23:30:00+08:00') });
    known.alipay = await seatOrder({
      memberId: other.id,
      memberPhone: other.phone,
      payMethod: 'alipay',
      createdAt: new Date('2026-02-05T09:00:00+08:00'),
    });
    known.hall = await seatOrder({ kind: 'hall-seat', createdAt: new Date('2026-01-12T09:00:00+08:00') });
    known.airport = await insertOrder(t.db, {
      kind: 'airport',
      memberId: buyer.id,
      memberPhone: buyer.phone,
    });
  });
  afterAll(() => t?.close());

  const page = (query: Record<string, string>, path = office.page) => orderNosOfPage(t, admin, path, query);
  const numbers = (...rows: OrderRow[]) => rows.map((r) => r.orderNo).sort();

  test('each tab lists its own kind only, newest first, with the booked period and quantity', async () => {
    const res = await call<Page<OrderRecord>>(admin, 'GET', `${office.page}?memberPhone=${buyer.phone}`);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data.records.map((r) => r.orderNo)).toEqual([known.paid.orderNo, known.pending.orderNo]);
    expect(res.body.data.records[0]).toMatchObject({
      orderNo: expect.stringMatching(/^OS20260120\d{6,}$/),
      productName: '包月套餐',
      buildingName: buildingB.name,
      quantity: 2,
      startAt: '2026-03-01T00:00:00.000+08:00',
      endAt: '2026-05-01T00:00:00.000+08:00',
      paidFen: 29000,
    });
    expect(await page({ memberPhone: buyer.phone }, hall.page)).toEqual(numbers(known.hall));
    expect(known.hall.orderNo).toMatch(/^HS/);
    // The period is a column of seat lists, not of card lists.
    expect(officeSeatOrder.fields.startAt.list).toBe(true);
    expect(officeSeatOrder.fields.quantity.list).toBe(true);
    expect(userCardOrder.fields.startAt.list).toBe(false);
    expect(userCardOrder.fields.airportCode.list).toBe(false);
  });

  test('page filters by order number, phone, building, status, pay method and created date range', async () => {
    expect(await page({ orderNo: known.alipay.orderNo })).toEqual(numbers(known.alipay));
    expect(await page({ orderNo: known.hall.orderNo })).toEqual([]);
    expect(await page({ memberPhone: other.phone })).toEqual(numbers(known.alipay));
    expect(await page({ memberPhone: buyer.phone, buildingId: String(buildingB.id) })).toEqual(
      numbers(known.paid),
    );
    expect(await page({ memberPhone: buyer.phone, status: 'pending' })).toEqual(numbers(known.pending));
    expect(
      // The demo's own orders of the year are left out by the phone of this test's members.
      await page({
        memberPhone: other.phone,
        payMethod: 'alipay',
        createdAtFrom: '2026-02-01',
        createdAtTo: '2026-02-28',
      }),
    ).toEqual(numbers(known.alipay));
    // Whole Shanghai days: 23:30 on 20 January is inside a range ending that day.
    expect(
      await page({ memberPhone: buyer.phone, createdAtFrom: '2026-01-15', createdAtTo: '2026-01-20' }),
    ).toEqual(numbers(known.paid));
    expect(
      await page({ memberPhone: buyer.phone, createdAtFrom: '2026-01-21', createdAtTo: '2026-01-31' }),
    ).toEqual([]);
  });

  test('a one-sided date range is a 400 naming 下单时间, on page and export alike', async () => {
    for (const path of [office.page, hall.page, office.export]) {
      for (const query of ['createdAtFrom=2026-01-01', 'createdAtTo=2026-01-31']) {
        const res = await call(admin, 'GET', `${path}?${query}`);
        expect(res.status, `${path}?${query}`).toBe(400);
        expect(res.body.msg).toContain('下单时间');
        expect(res.body.msg).toContain('请选择时间段');
      }
    }
    const bad = await call(admin, 'GET', `${office.page}?memberPhone=${buyer.phone}&status=lost`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('订单状态');
  });

  test('detail answers the product as sold, the period and the timeline; another kind is 404', async () => {
    const res = await call<OrderDetail>(admin, 'GET', `${office.detail}/${known.paid.id}`);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({
      id: known.paid.id,
      startAt: '2026-03-01T00:00:00.000+08:00',
      endAt: '2026-05-01T00:00:00.000+08:00',
      productSnapshot: { name: '包月套餐', seatCode: 'A区-01', unit: 'month' },
      events: [expect.objectContaining({ fromStatus: null, toStatus: 'pending' })],
    });
    for (const id of [known.hall.id, known.airport.id, 999_999]) {
      const missing = await call(admin, 'GET', `${office.detail}/${id}`);
      expect(missing.status, String(id)).toBe(404);
      expect(missing.body.msg).toContain('办公室工位订单不存在');
    }
    const fromHall = await call(admin, 'GET', `${hall.detail}/${known.paid.id}`);
    expect(fromHall.status).toBe(404);
    expect(fromHall.body.msg).toContain('大厅工位订单不存在');
    // Seat orders are no cards: there is no card-number lookup.
    expect((await call(admin, 'GET', `${office.cardNo}/K1`)).status).toBe(404);
  });

  test('pay records the amount paid and no card; every legal move stamps, records and audits', async () => {
    const order = await seatOrder({ status: 'pending', payMethod: null, paidFen: 0 });
    const paid = await call<OrderDetail>(admin, 'PUT', office.pay, { id: order.id });
    expect(paid.status, paid.raw).toBe(200);
    expect(paid.body.data).toMatchObject({
      status: 'paid',
      paidFen: 29000,
      payMethod: 'offline',
      cardNo: null,
    });

    const path: [OrderAction, OrderStatus, 'paidAt' | 'usedAt' | 'cancelledAt' | 'refundedAt', string][] = [
      ['pay', 'pending', 'paidAt', 'office-seat'],
      ['use', 'paid', 'usedAt', 'hall-seat'],
      ['cancel', 'pending', 'cancelledAt', 'office-seat'],
      ['refund', 'paid', 'refundedAt', 'hall-seat'],
    ];
    for (const [action, from, stamp, kind] of path) {
      const target = await seatOrder({ status: from, kind: kind as 'office-seat' | 'hall-seat' });
      const paths = kind === 'office-seat' ? office : hall;
      const res = await call<OrderDetail>(admin, 'PUT', paths[action], {
        id: target.id,
        reason: `测试${action}`,
      });
      expect(res.status, `${action}: ${res.raw}`).toBe(200);
      const to = orderActions[action].to;
      expect(res.body.data.status).toBe(to);
      expect(res.body.data[stamp]).toEqual(expect.any(String));
      expect(res.body.data.events.at(-1)).toMatchObject({
        fromStatus: from,
        toStatus: to,
        reason: `测试${action}`,
        actorName: '系统管理员',
      });
      const [entry] = await t.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.resource, `${kind}-order`), eq(auditLogs.resourceId, String(target.id))));
      expect(entry, action).toMatchObject({ action, before: { status: from }, after: { status: to } });
    }
  });

  test('every illegal move is a 409 naming both states and changes nothing', async () => {
    for (const { value: status } of orderStatusOptions) {
      for (const action of Object.keys(orderActions) as OrderAction[]) {
        if (orderStates.movesFrom(status).includes(action)) continue;
        const order = await seatOrder({ status, kind: 'hall-seat' });
        const res = await call(admin, 'PUT', hall[action], { id: order.id });
        expect(res.status, `${status} ${action}`).toBe(409);
        expect(res.body.msg).toBe(orderStates.illegalMove(status, orderActions[action].to));
        const [after] = await t.db.select().from(orders).where(eq(orders.id, order.id));
        expect(after.status).toBe(status);
        expect(await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id))).toHaveLength(
          1,
        );
      }
    }
    // A move through the other tab's endpoint finds no such order.
    const order = await seatOrder({ status: 'paid' });
    expect((await call(admin, 'PUT', hall.refund, { id: order.id })).status).toBe(404);
  });

  test('edit-referrer-phone checks the phone, saves it and audits it', async () => {
    const order = await seatOrder({ kind: 'hall-seat' });
    const bad = await call(admin, 'PUT', hall.editReferrerPhone, { id: order.id, referrerPhone: '12345' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('手机号');
    const res = await call<OrderDetail>(admin, 'PUT', hall.editReferrerPhone, {
      id: order.id,
      referrerPhone: '13912345678',
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data.referrerPhone).toBe('13912345678');
    const [entry] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'edit-referrer-phone'), eq(auditLogs.resourceId, String(order.id))));
    expect(entry).toMatchObject({ resource: 'hall-seat-order', after: { referrerPhone: '13912345678' } });
  });

  test('export: the filtered rows with the booked period, under the tab’s name', async () => {
    const filter = new URLSearchParams({
      memberPhone: buyer.phone,
      createdAtFrom: '2026-01-01',
      createdAtTo: '2026-01-31',
    });
    const res = await t.app.inject({ method: 'GET', url: `${office.export}?${filter}`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const name = decodeURIComponent(
      /filename\*=UTF-8''(.+)$/.exec(String(res.headers['content-disposition']))![1],
    );
    expect(name).toMatch(/^办公室工位订单-\d{8}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const values = (n: number) => (sheet.getRow(n).values as ExcelJS.CellValue[]).slice(1);
    const headers = values(1);
    expect(headers.slice(0, 7)).toEqual([
      '订单号',
      '会员手机号',
      '产品',
      '楼宇',
      '数量',
      '开始时间',
      '结束时间',
    ]);
    expect(headers).not.toContain('卡号');
    expect(sheet.rowCount).toBe(3);
    const line = [values(2), values(3)].find((r) => r[0] === known.paid.orderNo)!;
    expect(line.slice(1, 7)).toEqual([
      buyer.phone,
      '包月套餐',
      buildingB.name,
      2,
      '2026-03-01 00:00:00',
      '2026-05-01 00:00:00',
    ]);
  });

  test('运营 and 财务 read and move seat orders; other roles get 403 and nothing changes', async () => {
    for (const [username, password] of [demo.caiwu, demo.yunying]) {
      const headers = await t.auth(username, password);
      expect((await call(headers, 'GET', `${hall.page}?size=1`)).status).toBe(200);
      const order = await seatOrder({ status: 'paid' });
      expect((await call(headers, 'PUT', office.use, { id: order.id })).status).toBe(200);
    }
    await createRole(t.db, { code: 'seat_viewer', name: '工位订单查看', permissions: ['order:seat:view'] });
    await createRole(t.db, {
      code: 'card_orders',
      name: '会员卡订单',
      permissions: ['order:member:view', 'order:member:edit'],
    });
    await createUser(t.db, { username: 'seat_viewer', password: 'Viewer@2024', roleCodes: ['seat_viewer'] });
    await createUser(t.db, { username: 'card_clerk', password: 'Clerk@2024', roleCodes: ['card_orders'] });
    const viewer = await t.auth('seat_viewer', 'Viewer@2024');
    const clerk = await t.auth('card_clerk', 'Clerk@2024');
    const order = await seatOrder({ status: 'paid' });
    expect((await call(viewer, 'GET', `${office.detail}/${order.id}`)).status).toBe(200);
    for (const [headers, method, url, body] of [
      [viewer, 'PUT', office.refund, { id: order.id }],
      [viewer, 'PUT', office.editReferrerPhone, { id: order.id, referrerPhone: '13912345678' }],
      [viewer, 'GET', `${orderPaths(airportOrder).page}?size=1`, undefined],
      [clerk, 'GET', `${office.page}?size=1`, undefined],
      [clerk, 'GET', `${hall.detail}/${known.hall.id}`, undefined],
      [clerk, 'GET', `${office.export}`, undefined],
      [clerk, 'PUT', office.refund, { id: order.id }],
    ] as const) {
      const res = await call(headers, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.msg).toBe('您没有权限进行此操作');
    }
    const [after] = await t.db.select().from(orders).where(eq(orders.id, order.id));
    expect(after.status).toBe('paid');
  });
});
