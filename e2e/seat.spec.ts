import ExcelJS from 'exceljs';
import { expect, test } from '@playwright/test';
import { IMPORT_HELP_SHEET } from '@cowork/contract';
import { choose, demo, signIn, workbookFile } from './helpers';
import { walkCrudScreen } from './resource';

const HEADERS = [
  '楼宇名称',
  '楼层',
  '工位编号',
  '工位名称',
  '工位类型',
  '日租价格（元）',
  '月租价格（元）',
  '状态',
  '发布状态',
];

test.describe('工位 as 超级管理员', () => {
  test.beforeEach(async ({ page }) => signIn(page, demo.admin));

  test('办公区工位: create, search, edit, publish, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/product/seat',
      label: '办公区工位',
      requiredMessage: '请填写工位编号',
      create: {
        工位编号: 'E2E-01',
        楼宇: choose(page, '楼宇', '氪空间·望京SOHO'),
        楼层: choose(page, '楼层', '8F'),
        工位名称: 'E2E靠窗工位',
        工位类型: choose(page, '工位类型', '固定工位'),
        日租价格: '88',
      },
      search: { 工位编号: 'E2E-0' },
      edit: { 工位名称: 'E2E靠窗工位（已改）' },
      publish: true,
    });
  });

  test('大厅工位: create with goods (add, disable, delete), then delete', async ({ page }) => {
    // The longest walk of the screen: a seat, its goods drawer and form, and two removals.
    test.slow();
    await page.goto('/product/seat');
    await page.getByRole('tab', { name: '大厅工位' }).click();
    await page.getByRole('button', { name: '新建大厅工位' }).click();
    const drawer = page.getByRole('dialog', { name: '新建大厅工位' });
    await drawer.getByLabel('工位编号', { exact: true }).fill('E2E-H1');
    await choose(page, '楼宇', '氪空间·中关村')(drawer);
    // The floor is chosen among the building's (one it lacks is refused by the server: seat.test.ts).
    await choose(page, '楼层', '5F')(drawer);
    await drawer.getByLabel('工位名称', { exact: true }).fill('E2E大厅工位');
    await choose(page, '工位类型', '灵活工位')(drawer);
    await drawer.getByLabel('日租价格', { exact: true }).fill('50');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('大厅工位已新建')).toBeVisible();

    const search = page.locator('.resource-search');
    await search.getByLabel('工位编号', { exact: true }).fill('E2E-H1');
    await search.getByRole('button', { name: /查\s*询/ }).click();
    const row = page.getByRole('table').getByRole('row').filter({ hasText: 'E2E大厅工位' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('¥50.00');

    await row.getByRole('button', { name: /套\s*餐/ }).click();
    const goods = page.getByRole('dialog', { name: '套餐：E2E大厅工位（E2E-H1）' });
    await expect(goods.getByText('该工位还没有套餐')).toBeVisible();
    await goods.getByRole('button', { name: '新建套餐' }).click();
    const form = page.getByRole('dialog', { name: '新建套餐' });
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await expect(form.getByText('请填写套餐名称')).toBeVisible();
    await form.getByLabel('套餐名称', { exact: true }).fill('周末日租');
    await form.getByLabel('价格', { exact: true }).fill('45');
    await choose(page, '计价单位', '按天')(form);
    await form.getByLabel('库存', { exact: true }).fill('20');
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('套餐已新建')).toBeVisible();
    const item = goods.getByRole('row').filter({ hasText: '周末日租' });
    await expect(item).toContainText('¥45.00');
    await expect(item).toContainText('按天');

    const toggle = item.getByRole('switch');
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await toggle.click();
    await expect(page.getByText('套餐已停用')).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');

    await item.getByRole('button', { name: /删\s*除/ }).click();
    await page
      .getByRole('tooltip')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await expect(page.getByText('套餐已删除')).toBeVisible();
    await expect(goods.getByText('该工位还没有套餐')).toBeVisible();
    await goods.getByRole('button', { name: 'Close' }).or(goods.getByLabel('Close')).first().click();

    await row.getByRole('button', { name: /删\s*除/ }).click();
    await page
      .getByRole('tooltip')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await expect(page.getByText('已删除 1 条大厅工位')).toBeVisible();
    await expect(page.getByRole('table').getByRole('row').filter({ hasText: 'E2E大厅工位' })).toHaveCount(0);
  });

  test('Excel import: template, a good file imported whole, a bad file refused with its report', async ({
    page,
  }) => {
    await page.goto('/product/seat');
    await page.getByRole('button', { name: /Excel 导入/ }).click();
    const dialog = page.getByRole('dialog', { name: '导入办公区工位' });

    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: /下载模板/ }).click();
    expect((await download).suggestedFilename()).toBe('导入办公区工位模板.xlsx');

    // The template holds no example row (it is on the 说明 sheet): a filled template imports only
    // what was typed. Typed as a template downloaded earlier: the example in row 2, skipped.
    const template = new ExcelJS.Workbook();
    await template.xlsx.readFile(await (await download).path());
    const sheet = template.worksheets[0];
    expect(sheet.actualRowCount).toBe(1);
    const help = template.getWorksheet(IMPORT_HELP_SHEET)!;
    const example = HEADERS.map(
      (header) =>
        help
          .getRows(2, HEADERS.length)!
          .find((r) => r.getCell(1).value === header)!
          .getCell(4).value,
    );
    sheet.addRow(example);
    sheet.addRow(['氪空间·中关村', '6F', 'E2E-TPL-01', '模板里填的工位', '固定工位', 10, null, '启用', '否']);
    const filled = `${await (await download).path()}-filled.xlsx`;
    await template.xlsx.writeFile(filled);
    await dialog.locator('input[type=file]').setInputFiles(filled);
    await expect(dialog.getByText('已导入 1 条数据；第 2 行是模板的示例，未导入')).toBeVisible();

    const good = await workbookFile('seats-good.xlsx', HEADERS, [
      ['氪空间·中关村', '6F', 'E2E-IMP-01', '导入工位一', '固定工位', null, 1200, '启用', '是'],
      ['氪空间·中关村', '6F', 'E2E-IMP-02', '导入工位二', '灵活工位', 66.5, null, '启用', '否'],
    ]);
    await dialog.locator('input[type=file]').setInputFiles(good);
    await expect(dialog.getByRole('progressbar')).toBeVisible();
    await expect(dialog.getByText('已导入 2 条数据')).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).or(dialog.getByLabel('Close')).first().click();

    const search = page.locator('.resource-search');
    await search.getByLabel('工位编号', { exact: true }).fill('E2E-IMP');
    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect(page.getByText('共 2 条')).toBeVisible();
    await expect(page.getByRole('table').getByRole('row').filter({ hasText: '导入工位二' })).toContainText(
      '¥66.50',
    );

    await page.getByRole('button', { name: /Excel 导入/ }).click();
    const bad = await workbookFile('seats-bad.xlsx', HEADERS, [
      ['氪空间·中关村', '6F', 'E2E-IMP-03', '本行无误', '固定工位', 10, null, '启用', '是'],
      ['不存在的楼宇', '6F', 'E2E-IMP-04', '楼宇错', '固定工位', 10, null, '启用', '是'],
      ['氪空间·中关村', '6F', 'E2E-IMP-01', '编号已存在', '固定工位', 10, null, '启用', '是'],
    ]);
    await dialog.locator('input[type=file]').setInputFiles(bad);
    const report = dialog.getByRole('table');
    await expect(
      report.getByRole('row').filter({ hasText: '楼宇名称' }).filter({ hasText: '3' }),
    ).toHaveCount(1);
    await expect(
      report.getByRole('row').filter({
        hasText: '工位编号 E2E-IMP-01 已在「氪空间·中关村」中，请删除这一行后重新导入',
      }),
    ).toContainText('4');
    await expect(dialog.getByText(/有 2 行数据有误，未导入任何数据/)).toBeVisible();
    await expect(dialog.getByRole('button', { name: /下载错误报告/ })).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).or(dialog.getByLabel('Close')).first().click();

    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect(page.getByText('共 2 条')).toBeVisible();
    await expect(page.getByRole('table').getByRole('row').filter({ hasText: '本行无误' })).toHaveCount(0);
  });
});
