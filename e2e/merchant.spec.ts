import { expect, test, type Locator } from '@playwright/test';
import { choose, demo, discardDrawer, removeRow, signIn } from './helpers';
import { walkCrudScreen } from './resource';

/** A 1×1 PNG for the logo upload. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Types a moment into the date picker of a form item found by its label, and confirms it. */
const pickTime = (label: string, value: string) => async (scope: Locator) => {
  const input = scope
    .locator('.ant-form-item')
    .filter({ has: scope.page().getByText(label, { exact: true }) })
    .locator('input');
  await input.fill(value);
  await input.press('Enter');
};

test.describe('商户服务 screens as 超级管理员', () => {
  test.beforeEach(async ({ page }) => signIn(page, demo.admin));

  test('商户管理: create with a logo, search, edit, publish, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/merchant/brand',
      label: '商户',
      requiredMessage: '请填写商户名称',
      create: {
        商户名称: '星河创想空间',
        商户Logo: async (scope) => {
          await scope.locator('input[type=file]').first().setInputFiles({
            name: 'logo.png',
            mimeType: 'image/png',
            buffer: PNG,
          });
          await expect(scope.locator('.ant-upload-list-item').first()).toBeVisible();
        },
        联系人: '赵星河',
        联系电话: '13800138123',
        银行账号: '6222021234567890',
      },
      search: { 商户名称: '星河' },
      edit: { 商户名称: '星河创想空间（旗舰店）' },
      publish: true,
    });
  });

  test('商户管理: a bad account number is refused in the form; a merchant in use is not deleted', async ({
    page,
  }) => {
    await page.goto('/merchant/brand');
    const table = page.getByRole('table');
    const row = table.getByRole('row').filter({ hasText: '氪空间联合办公' });
    // 超级管理员 may edit merchants, so the account number is shown in full.
    await expect(row).toContainText('6214830100012001');

    await page.getByRole('button', { name: '新建商户' }).click();
    const drawer = page.getByRole('dialog', { name: '新建商户' });
    await drawer.getByLabel('商户名称', { exact: true }).fill('账号有误的商户');
    await drawer.getByLabel('银行账号', { exact: true }).fill('6222-0212');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(drawer.getByText('银行账号只能是 8–30 位数字，请核对后重新填写')).toBeVisible();
    // Closing with unsaved changes asks first; 继续编辑 keeps what was typed.
    await drawer.getByRole('button', { name: /取\s*消/ }).click();
    const question = page.getByRole('dialog', { name: '放弃未保存的修改？' });
    await question.getByRole('button', { name: '继续编辑' }).click();
    await expect(question).toBeHidden();
    await expect(drawer.getByLabel('商户名称', { exact: true })).toHaveValue('账号有误的商户');
    await discardDrawer(page, drawer);

    await row.getByRole('button', { name: /删\s*除/ }).click();
    await page
      .getByRole('tooltip')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await expect(
      page.getByText(
        /^商户“氪空间联合办公”下还有 3 个楼宇（.+ 等）和 \d+ 条分账规则，不能删除；请先处理这些记录，或将商户下架$/,
      ),
    ).toBeVisible();
    await expect(row).toHaveCount(1);
  });

  test('分账规则: create, search, edit, delete', async ({ page }) => {
    // 西湖栖舍 has no demo rules, so searching by it finds only the new one.
    await walkCrudScreen(page, {
      path: '/merchant/rule',
      label: '分账规则',
      requiredMessage: '请填写分账比例',
      create: {
        分账比例: '12.5',
        商户: choose(page, '商户', '西湖栖舍'),
        产品类型: choose(page, '产品类型', '大厅工位'),
        生效时间: pickTime('生效时间', '2030-01-01 00:00:00'),
      },
      search: { 商户: choose(page, '商户', '西湖栖舍') },
      edit: { 分账比例: '13.75' },
    });
  });

  test('分账规则: the table shows names, labels, percentages and windows; an overlap is refused with a toast', async ({
    page,
  }) => {
    await page.goto('/merchant/rule');
    const table = page.getByRole('table');
    const seats = table
      .getByRole('row')
      .filter({ hasText: '氪空间联合办公' })
      .filter({ hasText: '办公区工位' });
    await expect(seats.filter({ hasText: '12.00%' })).toContainText('2025-01-01 至 2026-01-01');
    await expect(seats.filter({ hasText: '15.00%' })).toContainText('2026-01-01 起长期有效');

    await page.getByRole('button', { name: '新建分账规则' }).click();
    const drawer = page.getByRole('dialog', { name: '新建分账规则' });
    await choose(page, '商户', '氪空间联合办公')(drawer);
    await choose(page, '产品类型', '会议室')(drawer);
    await drawer.getByLabel('分账比例', { exact: true }).fill('20');
    await pickTime('生效时间', '2026-06-01 00:00:00')(drawer);
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(
      page.getByText(
        /^与已有分账规则 #\d+（会议室 15\.00%，2026-01-01 起长期有效）时间重叠，请调整生效或失效时间$/,
      ),
    ).toBeVisible();
    await expect(drawer).toBeVisible();
  });
});

test.describe('分账规则 in a browser that is not on Beijing time', () => {
  test.use({ timezoneId: 'America/Los_Angeles' });
  test.beforeEach(async ({ page }) => signIn(page, demo.admin));

  test('the form and the list read the same Beijing time', async ({ page }) => {
    // Create, check, edit and remove in one flow: more than a minute on a busy machine.
    test.slow();
    await page.goto('/merchant/rule');
    const table = page.getByRole('table');
    const drawer = page.getByRole('dialog', { name: '新建分账规则' });
    // Times are Beijing time in the form and the list, whatever the browser's zone (Los Angeles here):
    // 23:30 on 28 February stays that day, not 07:30 on 1 March.
    await page.getByRole('button', { name: '新建分账规则' }).click();
    await choose(page, '商户', '西湖栖舍')(drawer);
    await choose(page, '产品类型', '会议室')(drawer);
    await drawer.getByLabel('分账比例', { exact: true }).fill('9');
    await pickTime('生效时间', '2031-02-28 23:30:00')(drawer);
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('分账规则已新建')).toBeVisible();
    const late = table.getByRole('row').filter({ hasText: '西湖栖舍' }).filter({ hasText: '9.00%' });
    await expect(late).toContainText('2031-02-28 23:30 起长期有效');
    await late.getByRole('button', { name: /编\s*辑/ }).click();
    const editor = page.getByRole('dialog', { name: '编辑分账规则' });
    await expect(
      editor.locator('.ant-form-item').filter({ hasText: '生效时间' }).locator('input').first(),
    ).toHaveValue('2031-02-28 23:30:00');
    await editor.getByRole('button', { name: /取\s*消/ }).click();
    await removeRow(page, late);
    await expect(page.getByText('已删除 1 条分账规则')).toBeVisible();
  });
});
