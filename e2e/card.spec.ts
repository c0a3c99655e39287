import { expect, test, type Page } from '@playwright/test';
import { choose, demo, signIn } from './helpers';
import { leaveHeader, walkCrudScreen, type Entries } from './resource';

type Scope = ReturnType<Page['getByRole']>;

async function fillForm(scope: Scope, entries: Entries) {
  for (const [label, value] of Object.entries(entries)) {
    if (typeof value === 'function') await value(scope);
    else await scope.getByLabel(label, { exact: true }).fill(value);
  }
}

test.describe('产品管理: 会员卡 and 会议卡 as 超级管理员', () => {
  test.beforeEach(async ({ page }) => signIn(page, demo.admin));

  test('会员卡: create, search, edit, publish, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/product/member',
      label: '会员卡',
      requiredMessage: '请填写名称',
      create: {
        名称: '测试八次卡',
        卡类型: choose(page, '卡类型', '次卡'),
        有效天数: '60',
        次数: '8',
        售价: '399',
        适用楼宇: choose(page, '适用楼宇', '氪空间·望京SOHO', '梧桐树·陆家嘴'),
      },
      search: { 名称: '八次' },
      edit: { 名称: '测试八次卡（春季）' },
      publish: true,
    });
  });

  test('会员卡: prices in yuan become ¥ in the table, buildings by name, 次数 only on a times card, search by building', async ({
    page,
  }) => {
    await page.goto('/product/member');
    const table = page.getByRole('table');
    await expect(table.getByRole('row').filter({ hasText: '北京通用月卡' })).toContainText('¥1,599.00');

    await page.getByRole('button', { name: '新建会员卡' }).click();
    const drawer = page.getByRole('dialog', { name: '新建会员卡' });
    const times = drawer.getByLabel('次数', { exact: true });
    await expect(times).toHaveCount(0);
    await fillForm(drawer, { 卡类型: choose(page, '卡类型', '次卡'), 次数: '5' });
    // Switching to a month card hides 次数, and the 5 typed is not sent.
    await fillForm(drawer, {
      名称: '测试双城月卡',
      卡类型: choose(page, '卡类型', '月卡'),
      有效天数: '30',
      售价: '1288.5',
      适用楼宇: choose(page, '适用楼宇', '氪空间·国贸中心', '创客汇·科技园'),
    });
    await expect(times).toHaveCount(0);
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('会员卡已新建')).toBeVisible();
    await leaveHeader(page);

    const row = table.getByRole('row').filter({ hasText: '测试双城月卡' });
    await expect(row).toContainText('¥1,288.50');
    await expect(row).toContainText('月卡');
    await expect(row).toContainText('氪空间·国贸中心、创客汇·科技园');

    const search = page.locator('.resource-search');
    await choose(page, '适用楼宇', '创客汇·科技园')(search);
    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect(row).toHaveCount(1);
    await expect(table.getByRole('row').filter({ hasText: '深圳十次卡' })).toHaveCount(1);
    await expect(table.getByRole('row').filter({ hasText: '上海十次卡' })).toHaveCount(0);

    await choose(page, '卡类型', '次卡')(search);
    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect(table.getByRole('row').filter({ hasText: '深圳十次卡' })).toHaveCount(1);
    await expect(row).toHaveCount(0);
  });

  test('会议卡: create, search, edit, publish, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/product/meeting',
      label: '会议卡',
      requiredMessage: '请填写名称',
      create: {
        名称: '测试800元会议卡',
        面值: '800',
        售价: '720',
        有效天数: '180',
        适用楼宇: choose(page, '适用楼宇', '梧桐树·徐家汇', '创客汇·福田CBD'),
      },
      search: { 名称: '测试800' },
      edit: { 名称: '测试800元会议卡（限时）' },
      publish: true,
    });
  });

  test('会议卡: a price above the face value is refused; amounts show as ¥ with two decimals', async ({
    page,
  }) => {
    await page.goto('/product/meeting');
    const table = page.getByRole('table');
    await expect(table.getByRole('row').filter({ hasText: '500元会议卡' }).first()).toContainText('¥480.00');

    await page.getByRole('button', { name: '新建会议卡' }).click();
    const drawer = page.getByRole('dialog', { name: '新建会议卡' });
    await fillForm(drawer, {
      名称: '测试300元会议卡',
      面值: '300',
      售价: '350',
      有效天数: '90',
      适用楼宇: choose(page, '适用楼宇', '栖舍·西溪'),
    });
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('售价不能高于面值 ¥300.00，请调低售价或提高面值后再保存')).toBeVisible();
    await drawer.getByLabel('售价', { exact: true }).fill('288.8');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('会议卡已新建')).toBeVisible();

    const row = table.getByRole('row').filter({ hasText: '测试300元会议卡' });
    await expect(row).toContainText('¥300.00');
    await expect(row).toContainText('¥288.80');
    await expect(row).toContainText('栖舍·西溪');
  });
});
