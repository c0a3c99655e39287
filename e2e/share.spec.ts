import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { choose, demo, signIn } from './helpers';

const fen = (text: string) => Math.round(Number(text.replace(/[¥,\s]/g, '')) * 100);

/** The figure of one statistic of the summary bar (订单笔数, 实付合计, 分账合计). */
const statistic = (page: Page, title: string) =>
  page
    .getByLabel('分账合计')
    .locator('.ant-statistic')
    .filter({ hasText: title })
    .locator('.ant-statistic-content');

/** The texts of one column of the table, by its header. */
async function columnTexts(page: Page, header: string): Promise<string[]> {
  const headers = (await page.locator('.ant-table-thead th').allTextContents()).map((h) => h.trim());
  const index = headers.indexOf(header);
  expect(index, `column ${header} in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  return page.locator(`.ant-table-tbody tr.ant-table-row > td:nth-child(${index + 1})`).allTextContents();
}

test('商户分账 as 财务: the total of a search matches the rows it shows, to the fen', async ({ page }) => {
  await signIn(page, demo.caiwu);
  await page.goto('/merchant/share');
  await expect(page.getByText('已退款的订单不参与分账')).toBeVisible();

  const search = page.locator('form.resource-search');
  await choose(page, '商户', '梧桐树办公')(search);
  await choose(page, '产品类型', '会议卡')(search);
  await search.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page).toHaveURL(/siteType=/);

  // All rows of the search on one page.
  // A click on the size list while it is still moving into place can pick nothing: try again.
  const sizes = page.locator('.ant-select-dropdown:visible');
  await expect(async () => {
    if (!(await sizes.isVisible())) await page.locator('.ant-pagination-options .ant-select').click();
    await sizes.getByTitle('100 条/页').click({ timeout: 2_000 });
    await expect(page).toHaveURL(/size=100/, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  // The summary and the rows are of the search once both have answered.
  const listed = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect
    .poll(async () => Number(await statistic(page, '订单笔数').textContent()) === (await listed.count()))
    .toBe(true);

  const count = Number(await statistic(page, '订单笔数').textContent());
  expect(count).toBeGreaterThan(0);
  await expect(page.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(count);
  await expect(page.getByText(`共 ${count} 条`)).toBeVisible();
  for (const merchant of await columnTexts(page, '商户')) expect(merchant).toBe('梧桐树办公');
  for (const siteType of await columnTexts(page, '产品类型')) expect(siteType).toBe('会议卡');

  const sum = (texts: string[]) => texts.reduce((s, t) => s + fen(t), 0);
  const paid = fen((await statistic(page, '实付合计').textContent()) ?? '');
  const share = fen((await statistic(page, '分账合计').textContent()) ?? '');
  expect(share).toBeGreaterThan(0);
  expect(sum(await columnTexts(page, '实付金额'))).toBe(paid);
  expect(sum(await columnTexts(page, '分账金额'))).toBe(share);
  expect(await columnTexts(page, '分账比例')).toContain('6.00%');
});

test('商户分账 as 财务: the export and the monthly 结算单 carry the screen’s totals to the fen', async ({
  page,
}) => {
  await signIn(page, demo.caiwu);
  await page.goto('/merchant/share');
  const search = page.locator('form.resource-search');
  await choose(page, '商户', '梧桐树办公')(search);
  await search.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page).toHaveURL(/merchantId=/);

  const exporting = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出Excel' }).click();
  const exported = await exporting;
  expect(exported.suggestedFilename()).toMatch(/^商户分账-\d{8}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await exported.path());
  const sheet = workbook.worksheets[0];
  const last = sheet.getRow(sheet.rowCount);
  expect(String(last.getCell(1).value)).toMatch(/^合计（\d+ 笔）$/);
  // The export's total row is the screen's 分账合计, to the fen.
  const exportedShare = Math.round(Number(last.getCell(8).value) * 100);
  await expect
    .poll(async () => fen((await statistic(page, '分账合计').textContent()) ?? ''))
    .toBe(exportedShare);

  await page.getByRole('button', { name: '月度结算单' }).click();
  const dialog = page.getByRole('dialog', { name: '导出商户月度结算单' });
  await choose(page, '商户', '梧桐树办公')(dialog);
  const statement = page.waitForEvent('download');
  await dialog.getByRole('button', { name: /导\s*出/ }).click();
  expect((await statement).suggestedFilename()).toMatch(/^分账结算单-梧桐树办公-\d{4}-\d{2}\.xlsx$/);
  await expect(page.getByText('结算单已导出，请在浏览器的下载中查看文件')).toBeVisible();
});
