import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from '@cowork/contract';
import {
  airportOrder,
  officeSeatOrder,
  orderPaths,
  type OrderDetail,
  type OrderRecord,
} from '@cowork/contract/resources/order';
import { members, orderEvents, orders } from '../src/db/schema.ts';
import { buildTestApp, callApi, createRole, createUser, demo, type TestApp } from './helper.ts';
import { insertOrder, type OrderRow } from './order-fixture.ts';

const airport = orderPaths(airportOrder);

describe('airport orders (airport-order, read-only)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let buyer: { id: number; phone: string };
  let other: { id: number; phone: string };
  const known: Record<string, OrderRow> = {};

  const call = <T = unknown>(headers: Record<string, string>, method: string, url: string, body?: object) =>
    callApi<T>(t, headers, method, url, body);

  /** An airport lounge order of the buyer: no building, the lounge in the product as sold. */
  const lounge = (
    airportCode: string,
    terminal: string,
    values: Partial<Parameters<typeof insertOrder>[1]> = {},
  ) =>
    insertOrder(t.db, {
      kind: 'airport',
      memberId: buyer.id,
      memberPhone: buyer.phone,
      buildingId: null,
      productSnapshot: {
        name: `${airportCode}贵宾厅`,
        airportCode,
        airportCity: airportCode === 'PEK' ? '北京' : '上海',
        terminal,
        loungeName: `${airportCode} ${terminal} 贵宾厅`,
        priceFen: 30000,
      },
      ...values,
    });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth(...demo.admin);
    [buyer, other] = await t.db
      .insert(members)
      .values([{ phone: '16600004441' }, { phone: '16600004442' }])
      .returning({ id: members.id, phone: members.phone });
    known.pek = await lounge('PEK', 'T3', { createdAt: new Date('2026-01-20T23:30:00+08:00') });
    known.pending = await lounge('PEK', 'T2', {
      status: 'pending',
      payMethod: null,
      createdAt: new Date('2026-01-10T10:00:00+08:00'),
    });
    known.sha = await lounge('SHA', 'T2', {
      memberId: other.id,
      memberPhone: other.phone,
      payMethod: 'alipay',
      createdAt: new Date('2026-02-05T09:00:00+08:00'),
    });
    known.seat = await insertOrder(t.db, {
      kind: 'office-seat',
      memberId: buyer.id,
      memberPhone: buyer.phone,
    });
  });
  afterAll(() => t?.close());

  const page = async (query: Record<string, string>) => {
    const res = await call<Page<OrderRecord>>(
      admin,
      'GET',
      `${airport.page}?${new URLSearchParams({ size: '100', ...query })}`,
    );
    expect(res.status, res.raw).toBe(200);
    return res.body.data.records.map((r) => r.orderNo).sort();
  };
  const numbers = (...rows: OrderRow[]) => rows.map((r) => r.orderNo).sort();

  test('lives under the tripartite prefix and lists airport orders with airport, terminal and lounge', async () => {
    expect(airport.page).toBe('/api/tripartite/admin/v1/airport-order/page');
    const res = await call<Page<OrderRecord>>(admin, 'GET', `${airport.page}?memberPhone=${buyer.phone}`);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data.records.map((r) => r.orderNo)).toEqual([known.pek.orderNo, known.pending.orderNo]);
    expect(res.body.data.records[0]).toMatchObject({
      orderNo: expect.stringMatching(/^AP20260120\d{6,}$/),
      productName: 'PEK贵宾厅',
      airportCode: 'PEK',
      terminal: 'T3',
      loungeName: 'PEK T3 贵宾厅',
      buildingId: null,
      buildingName: null,
    });
    // The list shows the lounge's place instead of a building, which is no filter here.
    expect(airportOrder.fields.airportCode).toMatchObject({ list: true, search: 'eq' });
    expect(airportOrder.fields.buildingName.list).toBe(false);
    expect(airportOrder.fields.buildingId.search).toBeUndefined();
  });

  test('page filters by airport code (any case), order number, phone, status, pay method and date range', async () => {
    expect(await page({ memberPhone: buyer.phone, airportCode: 'PEK' })).toEqual(
      numbers(known.pek, known.pending),
    );
    expect(await page({ airportCode: 'sha', memberPhone: other.phone })).toEqual(numbers(known.sha));
    expect(await page({ airportCode: 'SHA', memberPhone: buyer.phone })).toEqual([]);
    expect(await page({ orderNo: known.sha.orderNo })).toEqual(numbers(known.sha));
    expect(await page({ orderNo: known.seat.orderNo })).toEqual([]);
    expect(await page({ memberPhone: buyer.phone, status: 'pending' })).toEqual(numbers(known.pending));
    expect(
      // The demo's own orders of the year are left out by the phone of this test's members.
      await page({
        memberPhone: other.phone,
        payMethod: 'alipay',
        createdAtFrom: '2026-02-01',
        createdAtTo: '2026-02-28',
      }),
    ).toEqual(numbers(known.sha));
    expect(
      await page({ memberPhone: buyer.phone, createdAtFrom: '2026-01-15', createdAtTo: '2026-01-20' }),
    ).toEqual(numbers(known.pek));
  });

  test('a one-sided date range is a 400 naming 下单时间, on page and export', async () => {
    for (const path of [airport.page, airport.export]) {
      for (const query of ['createdAtFrom=2026-01-01', 'createdAtTo=2026-01-31']) {
        const res = await call(admin, 'GET', `${path}?${query}`);
        expect(res.status, `${path}?${query}`).toBe(400);
        expect(res.body.msg).toContain('下单时间');
        expect(res.body.msg).toContain('请选择时间段');
      }
    }
  });

  test('detail answers the lounge as sold and the timeline; a seat order id is 404', async () => {
    const res = await call<OrderDetail>(admin, 'GET', `${airport.detail}/${known.pek.id}`);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({
      airportCode: 'PEK',
      productSnapshot: { airportCode: 'PEK', terminal: 'T3', loungeName: 'PEK T3 贵宾厅' },
      events: [expect.objectContaining({ fromStatus: null, toStatus: 'pending' })],
    });
    for (const id of [known.seat.id, 999_999]) {
      const missing = await call(admin, 'GET', `${airport.detail}/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body.msg).toContain('机场贵宾厅订单不存在');
    }
    const fromSeat = await call(admin, 'GET', `${orderPaths(officeSeatOrder).detail}/${known.pek.id}`);
    expect(fromSeat.status).toBe(404);
  });

  test('read-only: no moves and no referrer edit are served, and the order stays as it was', async () => {
    expect(airportOrder.readOnly).toBe(true);
    const routes = t.app.routeCatalogue.filter((r) => r.url.startsWith(airportOrder.base)).map((r) => r.url);
    expect(routes.sort()).toEqual([airport.export, `${airport.detail}/:id`, airport.page].sort());
    for (const url of [airport.pay, airport.refund, airport.cancel, airport.use, airport.editReferrerPhone]) {
      const res = await call(admin, 'PUT', url, { id: known.pek.id, referrerPhone: '13912345678' });
      expect(res.status, url).toBe(404);
    }
    const [after] = await t.db.select().from(orders).where(eq(orders.id, known.pek.id));
    expect(after).toMatchObject({ status: 'paid', referrerPhone: null });
    expect(await t.db.select().from(orderEvents).where(eq(orderEvents.orderId, known.pek.id))).toHaveLength(
      1,
    );
  });

  test('export: airport, terminal and lounge columns instead of the building, rows as filtered', async () => {
    const filter = new URLSearchParams({ airportCode: 'PEK', memberPhone: buyer.phone });
    const res = await t.app.inject({ method: 'GET', url: `${airport.export}?${filter}`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const name = decodeURIComponent(
      /filename\*=UTF-8''(.+)$/.exec(String(res.headers['content-disposition']))![1],
    );
    expect(name).toMatch(/^机场贵宾厅订单-\d{8}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const values = (n: number) => (sheet.getRow(n).values as ExcelJS.CellValue[]).slice(1);
    expect(values(1).slice(0, 7)).toEqual([
      '订单号',
      '会员手机号',
      '产品',
      '机场',
      '航站楼',
      '贵宾厅',
      '数量',
    ]);
    expect(values(1)).not.toContain('楼宇');
    expect(values(1)).not.toContain('开始时间');
    expect(sheet.rowCount).toBe(3);
    const line = [values(2), values(3)].find((r) => r[0] === known.pek.orderNo)!;
    expect(line.slice(1, 6)).toEqual([buyer.phone, 'PEK贵宾厅', 'PEK', 'T3', 'PEK T3 贵宾厅']);
  });

  test('运营 and 财务 read airport orders; a role with other order codes only gets 403', async () => {
    for (const [username, password] of [demo.caiwu, demo.yunying]) {
      const headers = await t.auth(username, password);
      expect((await call(headers, 'GET', `${airport.page}?size=1`)).status).toBe(200);
      expect((await call(headers, 'GET', `${airport.detail}/${known.sha.id}`)).status).toBe(200);
    }
    await createRole(t.db, {
      code: 'seat_orders',
      name: '工位订单',
      permissions: ['order:seat:view', 'order:seat:edit'],
    });
    await createUser(t.db, { username: 'seat_clerk', password: 'Clerk@2024', roleCodes: ['seat_orders'] });
    await createUser(t.db, { username: 'nobody', password: 'Nobody@2024' });
    for (const [username, password] of [
      ['seat_clerk', 'Clerk@2024'],
      ['nobody', 'Nobody@2024'],
    ]) {
      const headers = await t.auth(username, password);
      for (const url of [`${airport.page}?size=1`, `${airport.detail}/${known.pek.id}`, airport.export]) {
        const res = await call(headers, 'GET', url);
        expect(res.status, `${username} ${url}`).toBe(403);
        expect(res.body.msg).toBe('您没有权限进行此操作');
      }
    }
  });
});
