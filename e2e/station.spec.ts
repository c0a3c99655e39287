import { expect, test, type Page } from '@playwright/test';
import { demo, signIn } from './helpers';
import { walkCrudScreen, type Entries } from './resource';

type Scope = ReturnType<Page['getByRole']>;

/** Picks an option of an antd Select in a form scope by its label. */
const choose = (page: Page, label: string, option: string) => async (scope: Scope) => {
  await scope.getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
};

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
