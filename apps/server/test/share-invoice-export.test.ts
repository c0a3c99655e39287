/**
 * Exports of 商户分账 and invoices, and the per-merchant monthly 结算单: every row of the list's
 * filters, and totals that equal the screen's to the fen. The demo's orders and invoices are the data.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from '@cowork/contract';
import { invoice, invoicePaths } from '@cowork/contract/resources/invoice';
import {
  merchantShareOrderPaths as paths,
  type MerchantShareTotal,
} from '@cowork/contract/resources/merchant-share-order';
import { buildTestApp, callApi, demo, engine, type TestApp } from './helper.ts';

async function sheetOf(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: ExcelJS.CellValue[][] = [];
  sheet.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
  return rows;
}

describe(`share and invoice exports (${engine})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const download = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
  const yuan = (fen: number) => Math.round(fen) / 100;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth(...demo.admin);
  });
  afterAll(() => t.close());

  test('商户分账: every row of the filters, then a total row equal to the screen’s 合计', async () => {
    const filters = new URLSearchParams({ siteType: 'meeting-room' });
    const total = (await callApi<MerchantShareTotal>(t, admin, 'GET', `${paths.total}?${filters}`)).body.data;
    expect(total.count).toBeGreaterThan(0);
    const res = await download(`${paths.export}?${filters}`);
    expect(res.statusCode).toBe(200);
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toMatch(/商户分账-\d{8}\.xlsx/);
    const rows = await sheetOf(res.rawPayload);
    expect(rows[0]).toEqual([
      '订单号',
      '产品类型',
      '商户',
      '楼宇',
      '分账规则',
      '分账比例（%）',
      '实付金额（元）',
      '分账金额（元）',
      '支付时间',
    ]);
    const body = rows.slice(1, -1);
    expect(body).toHaveLength(total.count);
    for (const row of body) expect(row[1]).toBe('会议室');
    const last = rows.at(-1)!;
    expect(last[0]).toBe(`合计（${total.count} 笔）`);
    expect(last[6]).toBe(yuan(total.paidFen));
    expect(last[7]).toBe(yuan(total.shareFen));
    // The rows add up to the total row, fen by fen.
    const shareSum = body.reduce((sum, row) => sum + Math.round(Number(row[7] ?? 0) * 100), 0);
    expect(shareSum).toBe(total.shareFen);
  });

  test('结算单: one merchant’s month, its total equal to the screen filtered the same way', async () => {
    const page = await callApi<Page<{ merchantId: number | null; paidAt: string }>>(
      t,
      admin,
      'GET',
      `${paths.page}?size=100&sortField=paidAt&sortOrder=descend`,
    );
    const sample = page.body.data.records.find((r) => r.merchantId !== null)!;
    const month = sample.paidAt.slice(0, 7);
    const [year, m] = month.split('-').map(Number) as [number, number];
    const lastDay = new Date(Date.UTC(year, m, 0)).getUTCDate();
    const filters = new URLSearchParams({
      merchantId: String(sample.merchantId),
      paidAtFrom: `${month}-01`,
      paidAtTo: `${month}-${String(lastDay).padStart(2, '0')}`,
    });
    const total = (await callApi<MerchantShareTotal>(t, admin, 'GET', `${paths.total}?${filters}`)).body.data;
    const res = await download(`${paths.statement}?merchantId=${sample.merchantId}&month=${month}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain(`分账结算单-`);
    const rows = await sheetOf(res.rawPayload);
    expect(rows.slice(1, -1)).toHaveLength(total.count);
    for (const row of rows.slice(1, -1)) expect(String(row[8])).toMatch(new RegExp(`^${month}-`));
    expect(rows.at(-1)![7]).toBe(yuan(total.shareFen));

    const bad = await callApi(
      t,
      admin,
      'GET',
      `${paths.statement}?merchantId=${sample.merchantId}&month=2026-13`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('结算月份：结算月份格式不正确，请按 年-月 选择，如 2026-11');
    const none = await callApi(t, admin, 'GET', `${paths.statement}?month=2026-01`);
    expect(none.status).toBe(400);
    expect(none.body.msg).toContain('请选择商户');
  });

  test('经营发票: every row of the filters with Chinese headers and labels', async () => {
    const page = (
      await callApi<Page<unknown>>(t, admin, 'GET', `${invoicePaths(invoice).page}?status=issued`)
    ).body.data;
    const res = await download(`${invoicePaths(invoice).export}?status=issued`);
    expect(res.statusCode).toBe(200);
    const rows = await sheetOf(res.rawPayload);
    expect(rows[0]).toContain('发票抬头');
    expect(rows[0]).toContain('开票金额');
    expect(rows.slice(1)).toHaveLength(page.total);
    const status = rows[0]!.indexOf('开票状态');
    for (const row of rows.slice(1)) expect(row[status]).toBe('已开票');
  });

  test('exports need the list’s view permission', async () => {
    const res = await t.app.inject({ method: 'GET', url: paths.export });
    expect(res.statusCode).toBe(401);
  });
});
