import { expect, test, type Page } from '@playwright/test';
import { choose, demo, signIn, workbookFile } from './helpers';
import { walkCrudScreen, type Entries } from './resource';

type Scope = ReturnType<Page['getByRole']>;

/** Types a time of day into an antd TimePicker and confirms it. */
const time = (label: string, value: string) => async (scope: Scope) => {
  const input = scope.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(value);
  await input.press('Enter');
};

/** A room in a demo building, on one of its floors (the first entry is what the table must show). */
const station = (page: Page, name: string): Entries => ({
  名称: name,
  所属楼宇: choose(page, '所属楼宇', '氪空间·望京SOHO'),
  楼层: choose(page, '楼层', '9F'),
  容纳人数: '10',
  '面积（㎡）': '28.5',
  每小时价格: '150',
  开放时间: time('开放时间', '09:00'),
  关闭时间: time('关闭时间', '21:00'),
});

/** The import template's header (every form field but the gallery). */
const IMPORT_HEADERS = [
  '名称',
  '所属楼宇名称',
  '楼层',
  '容纳人数',
  '面积（㎡）',
  '每小时价格（元）',
  '开放时间',
  '关闭时间',
  '最短预订时长',
  '设施名称',
  '发布状态',
];

test.describe('产品管理: 会议室, 活动场地 and 机场贵宾厅 as 超级管理员', () => {
  test.beforeEach(async ({ page }) => signIn(page, demo.admin));

  test('会议室: create, search, edit, publish, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/product/meetingRoom',
      label: '会议室',
      requiredMessage: '请填写名称',
      create: station(page, '灵感会议室'),
      search: { 名称: '灵感' },
      edit: { 名称: '灵感会议室（大）', 容纳人数: '14' },
      publish: true,
    });
  });

  test('会议室: the table shows the cover, building, floor, ¥ price and hours; the floor select offers the chosen building’s floors', async ({
    page,
  }) => {
    await page.goto('/product/meetingRoom');
    const search = page.locator('.resource-search');
    await choose(page, '所属楼宇', '氪空间·望京SOHO')(search);
    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect(page.getByText('共 2 条')).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: '创想厅' });
    await expect(row).toContainText('氪空间·望京SOHO');
    await expect(row).toContainText('¥120.00');
    await expect(row).toContainText('08:00');
    await expect(row.locator('img.resource-thumb')).toBeVisible();

    await page.getByRole('button', { name: '新建会议室' }).click();
    const drawer = page.getByRole('dialog', { name: '新建会议室' });
    await expect(drawer.getByLabel('楼层', { exact: true })).toBeDisabled();
    await choose(page, '所属楼宇', '氪空间·望京SOHO')(drawer);
    await choose(page, '楼层', '9F')(drawer);
    await expect(drawer.getByTitle('9F')).toBeVisible();
    // 中关村 has 5F–7F only: the floor kept from 望京SOHO is cleared and not offered.
    await choose(page, '所属楼宇', '氪空间·中关村')(drawer);
    await expect(drawer.getByTitle('9F')).toHaveCount(0);
    await drawer.getByLabel('楼层', { exact: true }).click();
    const options = page.locator('.ant-select-dropdown:visible');
    await expect(options.getByTitle('6F')).toBeVisible();
    await expect(options.getByTitle('9F')).toHaveCount(0);
  });

  test('活动场地: create, search, edit, delete on the same page', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/product/activityVenue',
      label: '活动场地',
      requiredMessage: '请填写名称',
      create: station(page, '星光路演厅'),
      search: { 名称: '星光' },
      edit: { 名称: '星光路演大厅' },
    });
    // The venue never shows among the meeting rooms.
    await page.goto('/product/meetingRoom');
    await expect(page.getByRole('table')).toBeVisible();
    await expect(page.getByText('屋顶花园')).toHaveCount(0);
  });

  test('会议室 Excel import: a good file imported whole, then a file with bad rows refused with its report', async ({
    page,
  }) => {
    await page.goto('/product/meetingRoom');
    await page.getByRole('button', { name: /Excel 导入/ }).click();
    const dialog = page.getByRole('dialog', { name: '导入会议室' });
    const close = () =>
      dialog.getByRole('button', { name: 'Close' }).or(dialog.getByLabel('Close')).first().click();

    const good = await workbookFile('rooms-good.xlsx', IMPORT_HEADERS, [
      ['E2E导入厅一', '氪空间·中关村', '6F', 10, 30, 150, '09:00', '21:00', 30, '高速WiFi、茶水间', '是'],
      // Within the building's hours (08:30–21:30): a room cannot open before its building.
      ['E2E导入厅二', '氪空间·中关村', '7F', 4, 12.5, 66.5, '08:30', '20:00', null, null, '否'],
    ]);
    await dialog.locator('input[type=file]').setInputFiles(good);
    await expect(dialog.getByRole('progressbar')).toBeVisible();
    await expect(dialog.getByText('已导入 2 条数据')).toBeVisible();
    await close();

    const search = page.locator('.resource-search');
    await search.getByLabel('名称', { exact: true }).fill('E2E导入厅');
    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect(page.getByText('共 2 条')).toBeVisible();
    const second = page.getByRole('table').getByRole('row').filter({ hasText: 'E2E导入厅二' });
    await expect(second).toContainText('¥66.50');
    await expect(second).toContainText('7F');

    await page.getByRole('button', { name: /Excel 导入/ }).click();
    const bad = await workbookFile('rooms-bad.xlsx', IMPORT_HEADERS, [
      ['E2E导入厅三', '氪空间·中关村', '6F', 10, 30, 150, '09:00', '21:00', 30, null, '否'],
      ['E2E导入厅四', '氪空间·中关村', '9F', 10, 30, 150, '09:00', '21:00', 30, null, '否'],
      ['E2E导入厅五', '氪空间·中关村', '6F', 10, 30, 150, '09:00', '21:00', 30, '地铁直达', '否'],
    ]);
    await dialog.locator('input[type=file]').setInputFiles(bad);
    await expect(dialog.getByRole('progressbar')).toBeVisible();
    await expect(dialog.getByText(/有 2 行数据有误，未导入任何数据/)).toBeVisible();
    const report = dialog.getByRole('table');
    await expect(report.getByRole('row').filter({ hasText: '该楼宇没有“9F”' })).toContainText('楼层');
    await expect(report.getByRole('row').filter({ hasText: '地铁直达' })).toContainText('设施名称');
    await expect(dialog.getByRole('button', { name: /下载错误报告/ })).toBeVisible();
    await close();

    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect(page.getByText('共 2 条')).toBeVisible();
    await expect(page.getByRole('table').getByRole('row').filter({ hasText: 'E2E导入厅三' })).toHaveCount(0);
  });

  test('机场贵宾厅: init makes the missing products, a ¥0 one cannot go on sale, priced it can', async ({
    page,
  }) => {
    await page.goto('/product/airport');
    const table = page.getByRole('table');
    await expect(table.getByRole('row').filter({ hasText: 'PEK' })).toContainText('北京首都国际机场');

    await page.getByRole('button', { name: '初始化贵宾厅产品' }).click();
    await page
      .getByRole('tooltip')
      .getByRole('button', { name: /生\s*成/ })
      .click();
    await expect(page.getByText('已为 3 个机场生成贵宾厅产品，请补充价格后上架')).toBeVisible();

    const search = page.locator('.resource-search');
    await search.getByLabel('机场', { exact: true }).fill('HRB');
    await search.getByRole('button', { name: /查\s*询/ }).click();
    const row = table.getByRole('row').filter({ hasText: '哈尔滨太平国际机场贵宾厅' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('哈尔滨');
    await expect(row).toContainText('¥0.00');

    await row.getByRole('switch').click();
    await expect(page.getByText('价格：价格为 ¥0.00 的贵宾厅不能上架，请先设置价格')).toBeVisible();
    await expect(row.getByRole('switch')).toHaveAttribute('aria-checked', 'false');

    await row.getByRole('button', { name: /编\s*辑/ }).click();
    const editor = page.getByRole('dialog', { name: '编辑机场贵宾厅' });
    await editor.getByLabel('价格', { exact: true }).fill('188');
    await editor.getByLabel('航站楼', { exact: true }).fill('T2');
    await editor.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('机场贵宾厅已保存')).toBeVisible();
    await expect(row).toContainText('¥188.00');

    await row.getByRole('switch').click();
    await expect(page.getByText('机场贵宾厅已发布')).toBeVisible();
    await expect(row.getByRole('switch')).toHaveAttribute('aria-checked', 'true');

    await page.getByRole('button', { name: '初始化贵宾厅产品' }).click();
    await page
      .getByRole('tooltip')
      .getByRole('button', { name: /生\s*成/ })
      .click();
    await expect(page.getByText('所有机场都已有贵宾厅产品，无需生成')).toBeVisible();
  });
});
