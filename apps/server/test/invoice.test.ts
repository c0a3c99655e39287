/**
 * Invoices (经营发票 invoice, 机场贵宾厅发票 tripartite-invoice): page filters, detail with the
 * orders covered, save and its limits (orders of the right kind, paid or used, one kind and one
 * member, never invoiced twice, amount within what was paid), issue, reject, check/order-ticket,
 * the refund guard and permissions.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { uploadEndpoints, type Page, type UploadedFileInfo } from '@cowork/contract';
import {
  alreadyInvoicedMessage,
  invoiceStates,
  invoice,
  invoiceAmountTooHighMessage,
  invoicePaths,
  invoicedRefundMessage,
  taxNoMessages,
  tripartiteInvoice,
  type InvoiceDetail,
  type InvoiceRecord,
  type InvoiceSaveValues,
  type OrderTicketCheck,
} from '@cowork/contract/resources/invoice';
import {
  orderPaths,
  userCardOrder,
  type OrderKind,
  type OrderStatus,
} from '@cowork/contract/resources/order';
import { auditLogs, invoices, members, orderEvents, orders } from '../src/db/schema.ts';
import { formatOrderNo, reserveOrderIds } from '../src/modules/order/order-number.ts';
import {
  buildTestApp,
  callApi,
  createRole,
  createUser,
  demo,
  multipartFile,
  type TestApp,
} from './helper.ts';

const jy = invoicePaths(invoice);
const ap = invoicePaths(tripartiteInvoice);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type Order = typeof orders.$inferSelect;
type Buyer = { id: number; phone: string };

describe('invoices (invoice, tripartite-invoice)', () => {
  let t: TestApp;
  let dataDir: string;
  let admin: Record<string, string>;
  let buyer: Buyer;
  let other: Buyer;
  let pdfUrl: string;
  let pngUrl: string;

  const call = <T = unknown>(headers: Record<string, string>, method: string, url: string, body?: object) =>
    callApi<T>(t, headers, method, url, body);

  /** One order written straight to the table (the member app creates them). */
  async function insertOrder(
    values: { kind?: OrderKind; status?: OrderStatus; member?: Buyer; paidFen?: number } = {},
  ): Promise<Order> {
    const kind = values.kind ?? 'user-card';
    const status = values.status ?? 'paid';
    const member = values.member ?? buyer;
    const [id] = await reserveOrderIds(t.db, 1);
    const createdAt = new Date('2026-03-01T10:00:00+08:00');
    const paid = status === 'paid' || status === 'used' || status === 'refunded';
    const [row] = await t.db
      .insert(orders)
      .values({
        id,
        kind,
        orderNo: formatOrderNo(kind, id, createdAt),
        memberId: member.id,
        memberPhone: member.phone,
        productId: 1,
        productSnapshot: { name: kind === 'airport' ? '首都机场贵宾厅' : '北京通用月卡' },
        amountFen: 50_000,
        paidFen: paid ? (values.paidFen ?? 50_000) : 0,
        payMethod: 'wechat',
        status,
        paidAt: paid ? createdAt : null,
        createdAt,
      })
      .returning();
    await t.db.insert(orderEvents).values({ orderId: id, toStatus: 'pending', at: createdAt });
    return row;
  }

  /** The ids a list search answers (first 100). */
  const ids = async (query: Record<string, string>, paths = jy) => {
    const res = await call<Page<InvoiceRecord>>(
      admin,
      'GET',
      `${paths.page}?${new URLSearchParams({ size: '100', ...query })}`,
    );
    expect(res.status, res.raw).toBe(200);
    return res.body.data.records.map((r) => r.id);
  };

  const request = (orderList: Order[], extra: Partial<InvoiceSaveValues> = {}): InvoiceSaveValues => ({
    orderNos: orderList.map((o) => o.orderNo),
    titleType: 'personal',
    title: '张三',
    invoiceType: 'normal',
    amountFen: orderList.reduce((sum, o) => sum + o.paidFen, 0),
    email: 'zhangsan@example.com',
    ...extra,
  });

  async function saved(paths = jy, orderList: Order[], extra: Partial<InvoiceSaveValues> = {}) {
    const res = await call<InvoiceDetail>(admin, 'POST', paths.save, request(orderList, extra));
    expect(res.status, res.raw).toBe(200);
    return res.body.data;
  }

  const invoiceIdOf = async (orderId: number) =>
    (await t.db.select({ invoiceId: orders.invoiceId }).from(orders).where(eq(orders.id, orderId)))[0]
      .invoiceId;
  const invoiceCount = async () => (await t.db.select({ n: count() }).from(invoices))[0].n;

  async function uploadFile(name: string, content: Buffer) {
    const body = multipartFile(name, content);
    const res = await t.app.inject({
      method: 'POST',
      url: uploadEndpoints.upload,
      headers: { ...admin, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json<{ data: UploadedFileInfo }>().data as UploadedFileInfo).url;
  }

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-invoice-'));
    t = await buildTestApp({ config: { dataDir } });
    admin = await t.auth(...demo.admin);
    [buyer, other] = await t.db
      .insert(members)
      .values([{ phone: '17711110001' }, { phone: '17711110002' }])
      .returning({ id: members.id, phone: members.phone });
    pdfUrl = await uploadFile('发票.pdf', PDF);
    pngUrl = await uploadFile('photo.png', PNG);
  });
  afterAll(async () => {
    await t?.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  test('the demo holds requests of both kinds in every status (作废 too), and only pending or issued ones hold their orders', async () => {
    const rows = await t.db.select().from(invoices);
    for (const kind of ['invoice', 'tripartite'] as const) {
      for (const status of ['pending', 'issued', 'rejected', 'voided'] as const) {
        expect(
          rows.some((r) => r.kind === kind && r.status === status),
          `${kind} ${status}`,
        ).toBe(true);
      }
    }
    expect(rows.filter((r) => r.kind === 'invoice').length).toBeGreaterThanOrEqual(24);
    for (const row of rows) {
      const covered = await t.db.select().from(orders).where(inArray(orders.orderNo, row.orderNos));
      expect(covered).toHaveLength(row.orderNos.length);
      expect(row.amountFen).toBeLessThanOrEqual(covered.reduce((sum, o) => sum + o.paidFen, 0));
      for (const order of covered) {
        expect(order.invoiceId, `${row.status} ${order.orderNo}`).toBe(
          row.status === 'rejected' || row.status === 'voided' ? null : row.id,
        );
        expect(['paid', 'used']).toContain(order.status);
        expect(order.kind === 'airport').toBe(row.kind === 'tripartite');
      }
      if (row.status === 'issued' || row.status === 'voided')
        expect(row.invoiceNo && row.fileUrl && row.issuedAt).toBeTruthy();
    }
  });

  test('save records a request for paid and used orders, claims them, audits it; detail shows the orders', async () => {
    const paid = await insertOrder();
    const used = await insertOrder({ status: 'used', paidFen: 30_000 });
    const created = await saved(jy, [paid, used], {
      titleType: 'company',
      title: '北京星河科技有限公司',
      taxNo: '91110105MA01ABCD1X',
      invoiceType: 'special',
      amountFen: 80_000,
    });
    expect(created).toMatchObject({
      status: 'pending',
      orderType: 'user-card',
      memberPhone: buyer.phone,
      amountFen: 80_000,
      taxNo: '91110105MA01ABCD1X',
      invoiceNo: null,
    });
    expect(await invoiceIdOf(paid.id)).toBe(created.id);
    expect(await invoiceIdOf(used.id)).toBe(created.id);
    const detail = await call<InvoiceDetail>(admin, 'GET', `${jy.detail}/${created.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data.orders).toEqual([
      expect.objectContaining({ orderNo: paid.orderNo, kind: 'user-card', paidFen: 50_000, status: 'paid' }),
      expect.objectContaining({ orderNo: used.orderNo, kind: 'user-card', paidFen: 30_000, status: 'used' }),
    ]);
    const [entry] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.resource, 'invoice'), eq(auditLogs.resourceId, String(created.id))));
    expect(entry).toMatchObject({ action: 'save' });
    // The other kind's screen does not know it.
    expect((await call(admin, 'GET', `${ap.detail}/${created.id}`)).status).toBe(404);
    expect((await call(admin, 'GET', `${jy.detail}/999999`)).status).toBe(404);
  });

  test('save refuses what breaks a rule with a Chinese message naming it, and changes nothing', async () => {
    const paid = await insertOrder();
    const second = await insertOrder({ kind: 'team-card' });
    const othersOrder = await insertOrder({ member: other });
    const airport = await insertOrder({ kind: 'airport' });
    const invoiced = await insertOrder();
    const held = await saved(jy, [invoiced]);
    const before = await invoiceCount();
    const cases: [string, number, object, string][] = [
      ['unknown order', 400, request([paid], { orderNos: ['UC20260101999999'] }), 'UC20260101999999 不存在'],
      ['no orders', 400, request([paid], { orderNos: [] }), '订单号'],
      ['airport order on 经营发票', 400, request([airport]), '不能开具经营发票'],
      ['mixed kinds', 400, request([paid, second]), '同一类订单'],
      ['mixed members', 400, request([paid, othersOrder]), '同一会员'],
      ['already invoiced', 409, request([paid, invoiced]), alreadyInvoicedMessage(invoiced.orderNo, held.id)],
      ['amount above paid', 400, request([paid], { amountFen: 50_001 }), invoiceAmountTooHighMessage(50_000)],
      ['amount zero', 400, request([paid], { amountFen: 0 }), '开票金额'],
      ['company without tax number', 400, request([paid], { titleType: 'company' }), taxNoMessages.required],
      [
        'bad tax number',
        400,
        request([paid], { titleType: 'company', taxNo: '91110105ma01abcd1x' }),
        taxNoMessages.invalid,
      ],
      ['short tax number', 400, request([paid], { titleType: 'company', taxNo: '12345' }), '税号'],
      [
        'special for a person',
        400,
        request([paid], { invoiceType: 'special' }),
        taxNoMessages.specialNeedsCompany,
      ],
      ['no title', 400, request([paid], { title: ' ' }), '发票抬头'],
      ['bad email', 400, request([paid], { email: 'nope' }), '邮箱'],
    ];
    for (const [name, status, body, message] of cases) {
      const res = await call(admin, 'POST', jy.save, body);
      expect(res.status, `${name}: ${res.raw}`).toBe(status);
      expect(res.body.msg, name).toContain(message);
    }
    expect(invoiceAmountTooHighMessage(50_000)).toContain('开票金额');
    expect(invoiceAmountTooHighMessage(50_000)).toContain('¥500.00');
    for (const status of ['pending', 'cancelled', 'refunded'] as const) {
      const order = await insertOrder({ status });
      const res = await call(admin, 'POST', jy.save, request([order], { amountFen: 1 }));
      expect(res.status, status).toBe(400);
      expect(res.body.msg).toContain('只有已支付或已使用的订单可以开票');
    }
    // 机场贵宾厅发票 takes airport orders only.
    const wrong = await call(admin, 'POST', ap.save, request([paid]));
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toContain('不能开具机场贵宾厅发票');
    expect(await invoiceCount()).toBe(before);
    expect(await invoiceIdOf(paid.id)).toBeNull();
  });

  test('parallel saves of one order: exactly one wins, the others are 409 and leave no request', async () => {
    const order = await insertOrder();
    const before = await invoiceCount();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call(admin, 'POST', jy.save, request([order], { title: `并发${i}` })),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const winner = results.find((r) => r.status === 200)!.body.data as InvoiceDetail;
    for (const lost of results.filter((r) => r.status === 409)) {
      expect(lost.body.msg).toContain(`订单 ${order.orderNo} 已开具发票`);
    }
    expect(await invoiceCount()).toBe(before + 1);
    expect(await invoiceIdOf(order.id)).toBe(winner.id);
  });

  test('issue needs a unique invoice number and an uploaded PDF, and only from pending', async () => {
    const first = await saved(jy, [await insertOrder()]);
    const second = await saved(jy, [await insertOrder()]);
    const bad: [object, string][] = [
      [{ id: first.id, invoiceNo: '', fileUrl: pdfUrl }, '请填写发票号码'],
      [{ id: first.id, invoiceNo: '12-34', fileUrl: pdfUrl }, '发票号码'],
      [{ id: first.id, invoiceNo: '12345678' }, '发票 PDF'],
      [{ id: first.id, invoiceNo: '12345678', fileUrl: pngUrl }, 'PDF'],
      [{ id: first.id, invoiceNo: '12345678', fileUrl: '/file/uploads/20260101/nope.pdf' }, 'PDF'],
      [{ id: first.id, invoiceNo: '12345678', fileUrl: 'https://evil.example/x.pdf' }, '发票文件'],
    ];
    for (const [body, message] of bad) {
      const res = await call(admin, 'PUT', jy.issue, body);
      expect(res.status, res.raw).toBe(400);
      expect(res.body.msg).toContain(message);
    }
    const issued = await call<InvoiceDetail>(admin, 'PUT', jy.issue, {
      id: first.id,
      invoiceNo: '26112000000012345678',
      fileUrl: pdfUrl,
    });
    expect(issued.status, issued.raw).toBe(200);
    expect(issued.body.data).toMatchObject({
      status: 'issued',
      invoiceNo: '26112000000012345678',
      fileUrl: pdfUrl,
    });
    expect(issued.body.data.issuedAt).toEqual(expect.any(String));

    const dup = await call(admin, 'PUT', jy.issue, {
      id: second.id,
      invoiceNo: '26112000000012345678',
      fileUrl: pdfUrl,
    });
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toContain('发票号码 26112000000012345678 已被');
    const again = await call(admin, 'PUT', jy.issue, {
      id: first.id,
      invoiceNo: '99999999',
      fileUrl: pdfUrl,
    });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe(invoiceStates.illegalMove('issued', 'issued'));
    expect(
      (await call(admin, 'PUT', jy.issue, { id: 999_999, invoiceNo: '88888888', fileUrl: pdfUrl })).status,
    ).toBe(404);
    const [entry] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'issue'), eq(auditLogs.resourceId, String(first.id))));
    expect(entry).toMatchObject({ before: { status: 'pending' }, after: { status: 'issued' } });
  });

  test('reject needs a reason, frees the orders to be invoiced again, and never twice', async () => {
    const order = await insertOrder();
    const held = await saved(jy, [order]);
    const empty = await call(admin, 'PUT', jy.reject, { id: held.id, reason: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toContain('驳回原因');
    const res = await call<InvoiceDetail>(admin, 'PUT', jy.reject, { id: held.id, reason: '抬头有误' });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'rejected', rejectReason: '抬头有误' });
    // The rejected request still names its orders.
    expect(res.body.data.orders.map((o) => o.orderNo)).toEqual([order.orderNo]);
    expect(await invoiceIdOf(order.id)).toBeNull();
    const twice = await call(admin, 'PUT', jy.reject, { id: held.id, reason: '再驳回' });
    expect(twice.status).toBe(409);
    expect(twice.body.msg).toBe(invoiceStates.illegalMove('rejected', 'rejected'));
    const [entry] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'reject'), eq(auditLogs.resourceId, String(held.id))));
    expect(entry).toMatchObject({ after: { status: 'rejected', reason: '抬头有误' } });
    const again = await saved(jy, [order]);
    expect(await invoiceIdOf(order.id)).toBe(again.id);
  });

  test('check/order-ticket says whether an order holds a pending or issued invoice, and which', async () => {
    const order = await insertOrder();
    const url = (no: string, paths = jy) => `${paths.checkOrder}?orderNo=${encodeURIComponent(no)}`;
    const free = await call<OrderTicketCheck>(admin, 'GET', url(order.orderNo));
    expect(free.status).toBe(200);
    expect(free.body.data).toEqual({ orderNo: order.orderNo, invoiced: false, invoice: null });
    const held = await saved(jy, [order], { amountFen: 12_300 });
    const taken = await call<OrderTicketCheck>(admin, 'GET', url(order.orderNo));
    expect(taken.body.data).toMatchObject({
      invoiced: true,
      invoice: { id: held.id, status: 'pending', amountFen: 12_300, invoiceNo: null },
    });
    await call(admin, 'PUT', jy.reject, { id: held.id, reason: '重开' });
    expect((await call<OrderTicketCheck>(admin, 'GET', url(order.orderNo))).body.data.invoiced).toBe(false);
    for (const bad of [url('UC20260101999999'), url(order.orderNo, ap)]) {
      const res = await call(admin, 'GET', bad);
      expect(res.status).toBe(404);
      expect(res.body.msg).toContain('不存在');
    }
    expect((await call(admin, 'GET', jy.checkOrder)).status).toBe(400);
  });

  test('机场贵宾厅发票 serves airport orders through the same rules', async () => {
    const airport = await insertOrder({ kind: 'airport', paidFen: 39_800 });
    const held = await saved(ap, [airport]);
    expect(held).toMatchObject({ orderType: 'airport', status: 'pending' });
    const page = await call<Page<InvoiceRecord>>(admin, 'GET', `${ap.page}?orderNo=${airport.orderNo}`);
    expect(page.body.data.records.map((r) => r.id)).toEqual([held.id]);
    expect(
      (await call<Page<InvoiceRecord>>(admin, 'GET', `${jy.page}?orderNo=${airport.orderNo}`)).body.data
        .total,
    ).toBe(0);
    const check = await call<OrderTicketCheck>(admin, 'GET', `${ap.checkOrder}?orderNo=${airport.orderNo}`);
    expect(check.body.data.invoiced).toBe(true);
    const issued = await call(admin, 'PUT', ap.issue, {
      id: held.id,
      invoiceNo: 'AP12345678',
      fileUrl: pdfUrl,
    });
    expect(issued.status, issued.raw).toBe(200);
  });

  test('page filters by status, title, order number, member phone and a whole created-date range', async () => {
    const mine = await insertOrder({ member: other });
    const held = await saved(jy, [mine], {
      title: '上海筛选测试有限公司',
      titleType: 'company',
      taxNo: '91310115MA1HXYZ23K',
    });
    expect(await ids({ orderNo: mine.orderNo })).toEqual([held.id]);
    expect(await ids({ title: '筛选测试' })).toEqual([held.id]);
    expect(await ids({ memberPhone: other.phone, status: 'pending' })).toContain(held.id);
    expect(await ids({ memberPhone: other.phone, status: 'issued' })).not.toContain(held.id);
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    expect(await ids({ title: '筛选测试', createdAtFrom: today, createdAtTo: today })).toEqual([held.id]);
    expect(await ids({ title: '筛选测试', createdAtFrom: '2020-01-01', createdAtTo: '2020-01-31' })).toEqual(
      [],
    );
    const all = await call<Page<InvoiceRecord>>(admin, 'GET', `${jy.page}?size=100`);
    expect(all.body.data.records.every((r) => r.orderType !== 'airport')).toBe(true);
    const tripartite = await call<Page<InvoiceRecord>>(admin, 'GET', `${ap.page}?size=100`);
    expect(tripartite.body.data.records.every((r) => r.orderType === 'airport')).toBe(true);
    for (const query of ['createdAtFrom=2026-01-01', 'createdAtTo=2026-01-31']) {
      const res = await call(admin, 'GET', `${jy.page}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.msg).toContain('申请时间');
      expect(res.body.msg).toContain('请选择时间段');
    }
    expect((await call(admin, 'GET', `${jy.page}?status=lost`)).status).toBe(400);
  });

  test('invoiceable-orders lists the member’s paid or used orders of the kind without an invoice', async () => {
    const free = await insertOrder({ member: other, status: 'used' });
    const taken = await insertOrder({ member: other });
    await saved(jy, [taken]);
    const refunded = await insertOrder({ member: other, status: 'refunded' });
    const res = await call<{ orderNo: string }[]>(
      admin,
      'GET',
      `${jy.invoiceableOrders}?memberPhone=${other.phone}`,
    );
    expect(res.status).toBe(200);
    const numbers = res.body.data.map((o) => o.orderNo);
    expect(numbers).toContain(free.orderNo);
    expect(numbers).not.toContain(taken.orderNo);
    expect(numbers).not.toContain(refunded.orderNo);
    const bad = await call(admin, 'GET', `${jy.invoiceableOrders}?memberPhone=123`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('手机号');
  });

  test('an order with a pending or issued invoice cannot be refunded; once rejected it can', async () => {
    const refund = orderPaths(userCardOrder).refund;
    const order = await insertOrder();
    const held = await saved(jy, [order]);
    const res = await call(admin, 'PUT', refund, { id: order.id, reason: '会员申请退款' });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe(invoicedRefundMessage(order.orderNo, held.id, 'pending'));
    expect(res.body.msg).toContain('请先驳回开票申请或作废已开的发票后再退款');

    const issuedOrder = await insertOrder();
    const issued = await saved(jy, [issuedOrder]);
    await call(admin, 'PUT', jy.issue, { id: issued.id, invoiceNo: '77777777', fileUrl: pdfUrl });
    const blocked = await call(admin, 'PUT', refund, { id: issuedOrder.id, reason: '会员申请退款' });
    expect(blocked.status).toBe(409);
    expect(blocked.body.msg).toContain('已开票');
    const [still] = await t.db.select().from(orders).where(eq(orders.id, issuedOrder.id));
    expect(still.status).toBe('paid');

    await call(admin, 'PUT', jy.reject, { id: held.id, reason: '会员要退款' });
    const after = await call(admin, 'PUT', refund, { id: order.id, reason: '会员申请退款' });
    expect(after.status, after.raw).toBe(200);

    // An issued invoice is voided (作废) through reject: audited as void, the order freed to refund.
    const voided = await call<InvoiceDetail>(admin, 'PUT', jy.reject, {
      id: issued.id,
      reason: '已开红字发票',
    });
    expect(voided.status, voided.raw).toBe(200);
    expect(voided.body.data).toMatchObject({
      status: 'voided',
      invoiceNo: '77777777',
      rejectReason: '已开红字发票',
    });
    const [voidEntry] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'void'), eq(auditLogs.resourceId, String(issued.id))));
    expect(voidEntry).toMatchObject({ before: { status: 'issued' }, after: { status: 'voided' } });
    // 已作废 is its own status in the list filter, apart from 已驳回.
    expect(await ids({ status: 'voided' })).toContain(issued.id);
    expect(await ids({ status: 'rejected' })).not.toContain(issued.id);
    const refunded = await call(admin, 'PUT', refund, { id: issuedOrder.id, reason: '会员申请退款' });
    expect(refunded.status, refunded.raw).toBe(200);
    // A voided invoice is not voided twice.
    const twice = await call(admin, 'PUT', jy.reject, { id: issued.id, reason: '再作废' });
    expect(twice.status).toBe(409);
    // A refunded order can no longer be invoiced.
    const res2 = await call(admin, 'POST', jy.save, request([order], { amountFen: 1 }));
    expect(res2.status).toBe(400);
  });

  test('a refund racing an invoice request for one order: never both succeed', async () => {
    const refund = orderPaths(userCardOrder).refund;
    for (let round = 0; round < 4; round += 1) {
      const order = await insertOrder();
      const saving = () => call(admin, 'POST', jy.save, request([order]));
      const refunding = () => call(admin, 'PUT', refund, { id: order.id, reason: '并发退款' });
      // Either may start first.
      const [save, back] =
        round % 2
          ? await Promise.all([saving(), refunding()])
          : await Promise.all([refunding(), saving()]).then(([b, a]) => [a, b]);
      const [after] = await t.db.select().from(orders).where(eq(orders.id, order.id));
      if (save.status === 200) {
        expect(back.status, back.raw).toBe(409);
        expect(after).toMatchObject({ status: 'paid', invoiceId: (save.body.data as InvoiceDetail).id });
      } else {
        expect([400, 409]).toContain(save.status);
        expect(back.status, back.raw).toBe(200);
        expect(after).toMatchObject({ status: 'refunded', invoiceId: null });
      }
    }
  });

  test('财务 manages both kinds; a role without the codes gets 403, a viewer cannot write', async () => {
    const caiwu = await t.auth(...demo.caiwu);
    const order = await insertOrder();
    for (const paths of [jy, ap]) expect((await call(caiwu, 'GET', `${paths.page}?size=1`)).status).toBe(200);
    const byCaiwu = await call<InvoiceDetail>(caiwu, 'POST', jy.save, request([order]));
    expect(byCaiwu.status, byCaiwu.raw).toBe(200);

    await createRole(t.db, {
      code: 'invoice_viewer',
      name: '发票查看',
      permissions: ['invoice:jingying:view'],
    });
    await createUser(t.db, {
      username: 'inv_viewer',
      password: 'Viewer@2024',
      roleCodes: ['invoice_viewer'],
    });
    await createUser(t.db, { username: 'inv_nobody', password: 'Nobody@2024' });
    const viewer = await t.auth('inv_viewer', 'Viewer@2024');
    const nobody = await t.auth('inv_nobody', 'Nobody@2024');
    const yunying = await t.auth(...demo.yunying);
    expect((await call(viewer, 'GET', `${jy.page}?size=1`)).status).toBe(200);
    expect((await call(viewer, 'GET', `${jy.detail}/${byCaiwu.body.data.id}`)).status).toBe(200);
    const fresh = await insertOrder();
    const cases: [Record<string, string>, string, string, object | undefined][] = [
      [viewer, 'POST', jy.save, request([fresh])],
      [viewer, 'PUT', jy.issue, { id: byCaiwu.body.data.id, invoiceNo: '66666666', fileUrl: pdfUrl }],
      [viewer, 'PUT', jy.reject, { id: byCaiwu.body.data.id, reason: '无权' }],
      [viewer, 'GET', `${jy.invoiceableOrders}?memberPhone=${buyer.phone}`, undefined],
      [viewer, 'GET', `${ap.page}?size=1`, undefined],
      [nobody, 'GET', `${jy.page}?size=1`, undefined],
      [nobody, 'GET', `${jy.detail}/${byCaiwu.body.data.id}`, undefined],
      [nobody, 'GET', `${jy.checkOrder}?orderNo=${fresh.orderNo}`, undefined],
      [yunying, 'GET', `${jy.page}?size=1`, undefined],
      [yunying, 'POST', ap.save, request([fresh])],
    ];
    for (const [headers, method, url, body] of cases) {
      const res = await call(headers, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.msg).toBe('您没有权限进行此操作');
    }
    expect(await invoiceIdOf(fresh.id)).toBeNull();
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, byCaiwu.body.data.id));
    expect(row.status).toBe('pending');
  });
});
