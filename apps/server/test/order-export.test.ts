import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from '@cowork/contract';
import { orderPaths, teamCardOrder, userCardOrder } from '@cowork/contract/resources/order';
import { members, orders } from '../src/db/schema.ts';
import { formatOrderNo, reserveOrderIds } from '../src/modules/order/order-number.ts';
import { buildTestApp, callApi, createRole, createUser, demo, type TestApp } from './helper.ts';

const member = orderPaths(userCardOrder);
const meeting = orderPaths(teamCardOrder);
type Row = Record<string, unknown> & { id: number; orderNo: string };

async function readSheet(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  return workbook.worksheets[0];
}
const rowValues = (row: ExcelJS.Row) => (row.values as ExcelJS.CellValue[]).slice(1);

describe('order export (Excel, streamed)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let buyer: { id: number; phone: string };

  const download = (headers: Record<string, string>, url: string) =>
    t.app.inject({ method: 'GET', url, headers });

  async function insertOrder(values: Partial<typeof orders.$inferInsert> & { name?: string }) {
    const createdAt = values.createdAt ?? new Date('2026-03-01T10:00:00+08:00');
    const [id] = await reserveOrderIds(t.db, 1);
    const [row] = await t.db
      .insert(orders)
      .values({
        id,
        kind: 'user-card',
        orderNo: formatOrderNo(values.kind ?? 'user-card', id, createdAt),
        memberId: buyer.id,
        memberPhone: buyer.phone,
        productId: 1,
        productSnapshot: { name: values.name ?? '北京通用月卡', buildingName: '国贸大厦' },
        amountFen: 159900,
        discountFen: 900,
        paidFen: 159000,
        payMethod: 'wechat',
        status: 'paid',
        ...values,
        createdAt,
      })
      .returning();
    return row;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth(...demo.admin);
    [buyer] = await t.db
      .insert(members)
      .values({ phone: '17711112222' })
      .returning({ id: members.id, phone: members.phone });
    await insertOrder({ paidAt: new Date('2026-03-01T02:05:06Z'), referrerPhone: '13800001111' });
    await insertOrder({
      status: 'pending',
      paidFen: 0,
      payMethod: null,
      createdAt: new Date('2026-03-02T10:00:00+08:00'),
    });
    await insertOrder({
      status: 'refunded',
      payMethod: 'alipay',
      createdAt: new Date('2026-03-03T23:59:00+08:00'),
    });
  });
  afterAll(() => t?.close());

  test('a filtered export has Chinese headers, a Chinese file name and exactly the rows page lists', async () => {
    const filter = new URLSearchParams({
      memberPhone: buyer.phone,
      createdAtFrom: '2026-03-01',
      createdAtTo: '2026-03-03',
    });
    const page = await callApi<Page<Row>>(t, admin, 'GET', `${member.page}?${filter}&size=100`);
    expect(page.status, page.raw).toBe(200);
    expect(page.body.data.total).toBe(3);

    const res = await download(admin, `${member.export}?${filter}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const disposition = String(res.headers['content-disposition']);
    const name = decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition)![1]);
    expect(name).toMatch(/^会员卡订单-\d{8}\.xlsx$/);
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+";/);

    const sheet = await readSheet(res.rawPayload);
    expect(rowValues(sheet.getRow(1))).toEqual([
      '订单号',
      '会员手机号',
      '产品',
      '楼宇',
      '数量',
      '订单金额(元)',
      '优惠(元)',
      '实付(元)',
      '支付方式',
      '状态',
      '推荐人手机号',
      '下单时间',
      '支付时间',
      '卡号',
      '生效时间',
      '到期时间',
      '备注',
    ]);
    const exported = sheet.getRows(2, sheet.rowCount - 1)!.map(rowValues);
    expect(exported.map((r) => r[0]).sort()).toEqual(page.body.data.records.map((r) => r.orderNo).sort());

    const paid = page.body.data.records.find((r) => r.referrerPhone === '13800001111')!;
    const line = exported.find((r) => r[0] === paid.orderNo)!;
    expect(line.slice(1, 13)).toEqual([
      buyer.phone,
      '北京通用月卡',
      '国贸大厦',
      1,
      1599,
      9,
      1590,
      '微信支付',
      '已支付',
      '13800001111',
      '2026-03-01 10:00:00',
      '2026-03-01 10:05:06',
    ]);
    expect(sheet.getRow(sheet.rowCount).getCell(6).numFmt).toBe('0.00');
    const statuses = exported.map((r) => r[9]).sort();
    expect(statuses).toEqual(['已支付', '已退款', '待支付']);
  });

  test('meeting-card orders export only their own kind, with the balance column', async () => {
    const res = await download(admin, `${meeting.export}?memberPhone=${buyer.phone}`);
    expect(res.statusCode).toBe(200);
    const sheet = await readSheet(res.rawPayload);
    expect(rowValues(sheet.getRow(1))).toContain('余额(元)');
    expect(sheet.rowCount).toBe(1);
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain('会议卡订单-');
  });

  test('text that a spreadsheet could run as a formula reads back as a string, never a formula', async () => {
    const payloads = ['=SUM(A1)', '+1', '-1', '@x', '\t=1'];
    for (const [i, text] of payloads.entries()) {
      await insertOrder({ name: text, remark: text, memberPhone: `1990000000${i}` });
    }
    for (const [i, text] of payloads.entries()) {
      const res = await download(admin, `${member.export}?memberPhone=1990000000${i}`);
      expect(res.statusCode).toBe(200);
      const sheet = await readSheet(res.rawPayload);
      for (const column of [3, 17]) {
        const cell = sheet.getRow(2).getCell(column);
        expect(cell.type, text).toBe(ExcelJS.ValueType.String);
        expect(cell.formula).toBeUndefined();
        expect(cell.value).toBe(`'${text}`);
      }
    }
    // Text that merely contains those characters stays as it is.
    await insertOrder({ name: '月卡 = 优惠 + 赠品', memberPhone: '19900000009' });
    const res = await download(admin, `${member.export}?memberPhone=19900000009`);
    expect((await readSheet(res.rawPayload)).getRow(2).getCell(3).value).toBe('月卡 = 优惠 + 赠品');
  });

  test('a bad filter is a 400 naming the field, before any file is sent', async () => {
    const res = await download(admin, `${member.export}?createdAtFrom=2026-03-01`);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('下单时间');
  });

  test('exporting needs the view permission of the order screen', async () => {
    await createRole(t.db, {
      code: 'export-other',
      name: '只看会议卡订单',
      permissions: ['order:meeting:view'],
    });
    await createUser(t.db, { username: 'exporter', password: 'Exporter@123', roleCodes: ['export-other'] });
    const other = await t.auth('exporter', 'Exporter@123');
    const denied = await download(other, member.export);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().msg).toBe('您没有权限进行此操作');
    expect((await download(other, `${meeting.export}?memberPhone=${buyer.phone}`)).statusCode).toBe(200);
  });

  test('20 000 orders stream out in keyset batches, every one of them, newest first', async () => {
    await t.db.execute(sql`
      insert into orders (kind, order_no, member_id, member_phone, product_id, product_snapshot,
                          amount_fen, discount_fen, paid_fen, pay_method, status, created_at)
      select 'user-card', 'BULK' || lpad(n::text, 8, '0'), ${buyer.id}, '18800000000', 1,
             jsonb_build_object('name', '批量月卡', 'buildingName', '国贸大厦'),
             10000 + n, 0, 10000 + n, 'wechat', 'paid', now() - n * interval '1 minute'
      from generate_series(1, 20000) as n`);
    const res = await download(admin, `${member.export}?memberPhone=18800000000`);
    expect(res.statusCode).toBe(200);
    const sheet = await readSheet(res.rawPayload);
    expect(sheet.rowCount).toBe(20001);
    const numbers = sheet.getRows(2, 20000)!.map((r) => String(r.getCell(1).value));
    expect(new Set(numbers).size).toBe(20000);
    expect(numbers[0]).toBe('BULK00020000');
    expect(sheet.getRow(20001).getCell(6).value).toBe(100.01);
  });
});
