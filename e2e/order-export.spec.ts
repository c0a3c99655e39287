import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import type { Page as Paged } from '@cowork/contract';
import { orderPaths, userCardOrder, type OrderRecord } from '@cowork/contract/resources/order';
import { bearerOf, demo, signIn } from './helpers';

const paths = orderPaths(userCardOrder);

test('导出Excel downloads the filtered member-card orders under a Chinese file name, readable by exceljs', async ({
  page,
  request,
}) => {
  const headers = await bearerOf(request, demo.caiwu);
  const [order] = (
    (await (await request.get(`${paths.page}?status=paid&size=1`, { headers })).json())
      .data as Paged<OrderRecord>
  ).records;
  const listed = (
    (await (await request.get(`${paths.page}?memberPhone=${order.memberPhone}&size=100`, { headers })).json())
      .data as Paged<OrderRecord>
  ).records;

  await signIn(page, demo.caiwu);
  await page.goto('/order/member');
  const search = page.locator('form[id="user-card-order-search"]');
  await search.getByLabel('会员手机号', { exact: true }).fill(order.memberPhone);
  await search.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page.getByRole('table').getByRole('row').filter({ hasText: order.orderNo })).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出Excel' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^会员卡订单-\d{8}\.xlsx$/);

  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await download.path());
  const sheet = workbook.worksheets[0];
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  expect(header.slice(0, 4)).toEqual(['订单号', '会员手机号', '产品', '楼宇']);
  expect(header).toContain('实付(元)');
  // Only the filtered member's orders, all of them.
  const numbers = sheet.getRows(2, sheet.rowCount - 1)!.map((row) => String(row.getCell(1).value));
  expect(numbers.sort()).toEqual(listed.map((o) => o.orderNo).sort());
});
