import { expect, test } from '@playwright/test';
import { choose, cookie, demo, discardDrawer, signIn } from './helpers';
import { walkCrudScreen } from './resource';

test.describe('系统配置 screens as 超级管理员', () => {
  test.beforeEach(async ({ page }) => signIn(page, demo.admin));

  test('设施配置: create, search, edit, publish, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/system/facilities',
      label: '设施亮点',
      requiredMessage: '请填写名称',
      create: { 名称: '无线投屏', 类型: choose(page, '类型', '设施') },
      search: { 名称: '投屏' },
      edit: { 名称: '无线投屏与会议音响' },
      publish: true,
    });
  });

  test('数据字典: create, search, edit, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/system/dict',
      label: '数据字典',
      requiredMessage: '请填写字典编码',
      create: { 字典名称: '会议室设备', 字典编码: 'room_device', 描述: '会议室可预订的设备' },
      search: { 字典名称: '会议室' },
      edit: { 字典名称: '会议室设备清单' },
    });
  });

  test('机场三字码: create, search, edit, delete; a lower-case code is refused in the form', async ({
    page,
  }) => {
    await page.goto('/system/airport');
    await page.getByRole('button', { name: '新建机场三字码' }).click();
    const drawer = page.getByRole('dialog', { name: '新建机场三字码' });
    await drawer.getByLabel('三字码', { exact: true }).fill('aat');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(drawer.getByText('三字码须为三个大写英文字母，如 PEK')).toBeVisible();
    await discardDrawer(page, drawer);

    await walkCrudScreen(page, {
      path: '/system/airport',
      label: '机场三字码',
      requiredMessage: '请填写三字码',
      create: { 三字码: 'AAT', 城市: '阿勒泰', 机场名称: '阿勒泰雪都机场' },
      search: { 城市: '阿勒泰' },
      edit: { 机场名称: '阿勒泰机场' },
    });
  });

  test('行为项配置: create, search, edit, publish, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/system/rule',
      label: '行为项',
      requiredMessage: '请填写名称',
      create: { 名称: '禁止明火', 说明: '室内禁止使用明火与大功率电器。' },
      search: { 名称: '明火' },
      edit: { 名称: '禁止明火作业' },
      publish: true,
    });
  });

  test('数据字典: an item added to 行业 is offered by dict/key until it is disabled', async ({ page }) => {
    const token = await cookie(page, 'access_token');
    const options = async () => {
      const answer = await page.request.get('/api/basic/admin/v1/dict/key/industry', {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(answer.status()).toBe(200);
      return ((await answer.json()).data as { label: string; value: string }[]).map((o) => o.value);
    };
    expect(await options()).not.toContain('ai');

    await page.goto('/system/dict');
    await page
      .getByRole('row')
      .filter({ hasText: 'industry' })
      .getByRole('button', { name: '字典项' })
      .click();
    const items = page.getByRole('dialog', { name: '字典项：行业（industry）' });
    await expect(items.getByRole('row').filter({ hasText: '互联网/IT' })).toHaveCount(1);

    await items.getByRole('button', { name: '新建字典项' }).click();
    const editor = page.getByRole('dialog', { name: '新建字典项' });
    await editor.getByLabel('显示名称', { exact: true }).fill('人工智能');
    await editor.getByLabel('字典值', { exact: true }).fill('ai');
    await editor.getByLabel('排序', { exact: true }).fill('0');
    await editor.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('字典项已新建')).toBeVisible();
    const row = items.getByRole('row').filter({ hasText: '人工智能' });
    await expect(row).toHaveCount(1);
    expect((await options())[0]).toBe('ai');

    // The same value again in this dict is refused, naming the field.
    await items.getByRole('button', { name: '新建字典项' }).click();
    await editor.getByLabel('显示名称', { exact: true }).fill('AI');
    await editor.getByLabel('字典值', { exact: true }).fill('AI');
    await editor.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('同一所属字典下已存在字典值相同的字典项，请换一个字典值')).toBeVisible();
    await discardDrawer(page, editor);

    await row.getByRole('switch').click();
    await expect(page.getByText('字典项已停用')).toBeVisible();
    await expect(row.getByRole('switch')).toHaveAttribute('aria-checked', 'false');
    expect(await options()).not.toContain('ai');
  });
});
