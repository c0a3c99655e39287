import { expect, test, type Page } from '@playwright/test';
import { demo, signIn } from './helpers';

/**
 * 首页: each number read on the dashboard, clicked, opens a list that shows the same number. The
 * numbers are read, never assumed: the demo data moves with the day the test runs.
 */

/** A count as shown, with or without thousands separators (1,234). */
const count = (text: string) => Number(text.replace(/,/g, ''));

/** Opens 首页, reads the number of the link named `name` and follows it. */
async function follow(page: Page, name: string): Promise<string> {
  await page.goto('/');
  const link = page.getByRole('link', { name, exact: true });
  await expect(link).toBeVisible();
  const value = (await link.innerText()).trim();
  await link.click();
  return value;
}

/** A list's total as its pagination shows it (an empty list shows no pagination, but 暂无数据). */
async function expectListTotal(page: Page, count: number) {
  // The list's own search form: the dashboard's tables have left the page.
  await expect(page.locator('form.resource-search')).toBeVisible();
  await expect(page.locator('.ant-table-tbody')).toBeVisible();
  if (count === 0) {
    await expect(page.locator('.ant-table-tbody')).toContainText('暂无数据');
  } else {
    await expect(page.locator('.ant-pagination-total-text')).toHaveText(`共 ${count} 条`);
  }
}

/** The two days the search form's date range shows under `label`. */
const rangeInputs = (page: Page, label: string) =>
  page.locator('form.resource-search .ant-form-item').filter({ hasText: label }).locator('input');

test.describe('首页 dashboard', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, demo.admin, '/');
  });

  test("today's and this month's 会员卡 orders open the order list showing the same count", async ({
    page,
  }) => {
    for (const period of ['今日', '本月'] as const) {
      const value = await follow(page, `${period}会员卡订单数`);
      await expect(page).toHaveURL(/\/order\/member\?createdAtFrom=\d{4}-\d{2}-\d{2}&createdAtTo=/);
      const from = new URL(page.url()).searchParams.get('createdAtFrom')!;
      const to = new URL(page.url()).searchParams.get('createdAtTo')!;
      // The search form shows the filter the list applies.
      await expect(rangeInputs(page, '下单时间').first()).toHaveValue(from);
      await expect(rangeInputs(page, '下单时间').last()).toHaveValue(to);
      await expectListTotal(page, count(value));
    }
    // The month holds today.
    await page.goto('/');
    const today = count(await page.getByRole('link', { name: '今日会员卡订单数', exact: true }).innerText());
    const month = count(await page.getByRole('link', { name: '本月会员卡订单数', exact: true }).innerText());
    expect(month).toBeGreaterThanOrEqual(today);
  });

  test("this month's 会议卡 orders, and the order total of the month is the sum of the types", async ({
    page,
  }) => {
    const value = await follow(page, '本月会议卡订单数');
    await expect(page).toHaveURL(/\/order\/meeting\?/);
    await expectListTotal(page, count(value));

    await page.goto('/');
    const total = count(await page.getByRole('link', { name: '本月订单数', exact: true }).innerText());
    const byKind = page.getByRole('table').first();
    // The table draws in the pass after the period numbers: read it once it is there.
    await expect(byKind.getByRole('link', { name: /^本月.+订单数$/ }).first()).toBeVisible();
    const counts = await byKind.getByRole('link', { name: /^本月.+订单数$/ }).allInnerTexts();
    const titled = await byKind.locator('[title^="本月"][title*="订单数"]').allInnerTexts();
    const sum = [...counts, ...titled].reduce((s, t) => s + count(t), 0);
    expect(total).toBe(sum);
  });

  test("this month's 会员卡 revenue opens 商户分账 whose 实付合计 is the same amount", async ({ page }) => {
    const value = await follow(page, '本月会员卡实收金额');
    await expect(page).toHaveURL(/\/merchant\/share\?siteType=member-card&paidAtFrom=/);
    const summary = page.getByLabel('分账合计');
    await expect(summary.locator('.ant-statistic').filter({ hasText: '实付合计' })).toContainText(value);
    const rows = count(
      await summary
        .locator('.ant-statistic')
        .filter({ hasText: '订单笔数' })
        .locator('.ant-statistic-content')
        .innerText(),
    );
    await expectListTotal(page, rows);
  });

  test('new members of the month open 会员 registered in the month', async ({ page }) => {
    const value = await follow(page, '本月新增会员');
    await expect(page).toHaveURL(/\/user\/member\?registeredAtFrom=/);
    await expect(rangeInputs(page, '注册时间').first()).toHaveValue(/^\d{4}-\d{2}-01$/);
    await expectListTotal(page, count(value));
  });

  test('new leads of today and of the month open 定制场地 / 物业合作 created in the period', async ({
    page,
  }) => {
    for (const [name, path] of [
      ['今日新增定制场地线索', '/clue/place'],
      ['本月新增物业合作线索', '/clue/cooperate'],
    ] as const) {
      const value = await follow(page, name);
      await expect(page).toHaveURL(new RegExp(`${path}\\?createdAtFrom=`));
      const from = new URL(page.url()).searchParams.get('createdAtFrom')!;
      await expect(rangeInputs(page, '创建时间').first()).toHaveValue(from);
      // The demo has leads that came in today.
      expect(count(value)).toBeGreaterThan(0);
      await expectListTotal(page, count(value));
    }
  });

  test('the revenue chart and the utilisation table are shown with their titles', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('img', { name: /近 30 天每日实收/ })).toBeVisible();
    await expect(page.getByRole('list', { name: '图例' })).toContainText('会员卡');
    await expect(page.getByText('会议室使用率（按楼宇）')).toBeVisible();
    await expect(page.getByText('快捷入口')).toBeVisible();
  });
});
