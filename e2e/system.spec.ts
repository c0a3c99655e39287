import { expect, test } from '@playwright/test';
import { bearerOf, demo, signIn } from './helpers';
import { walkCrudScreen } from './resource';

test.describe('系统配置 as 超级管理员', () => {
  test.beforeEach(async ({ page }) => signIn(page, demo.admin));

  test('操作日志: filter by 操作人', async ({ page, request }) => {
    // yunying's sign-in is an audited act.
    await bearerOf(request, demo.yunying);
    await page.goto('/system/log');
    const table = page.getByRole('table');
    await expect(table).toBeVisible();
    const search = page.locator('.audit-search');
    await search.getByLabel('操作人').click();
    await search.getByLabel('操作人').fill('yunying');
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: `${demo.yunying.nickname}（yunying）` })
      .click();
    await search.getByRole('button', { name: /查\s*询/ }).click();
    const rows = table.locator('tbody tr.ant-table-row');
    // The newest row before the search may already be yunying's sign-in: wait for the filtered
    // answer (no admin row left) before reading every row.
    await expect(rows.filter({ hasText: '（admin）' })).toHaveCount(0);
    await expect(rows.first()).toContainText(`${demo.yunying.nickname}（yunying）`);
    for (const row of await rows.all()) await expect(row).toContainText('（yunying）');
    // The search lives in the address: a reload keeps the chosen person, back clears it.
    const actor = search.locator('.ant-form-item').filter({ hasText: '操作人' }).locator('.ant-select');
    await page.reload();
    await expect(actor).toContainText(`${demo.yunying.nickname}（yunying）`);
    await page.goBack();
    await expect(actor).not.toContainText('yunying');
    await page.goForward();
    await expect(actor).toContainText(`${demo.yunying.nickname}（yunying）`);
  });

  test('操作日志: resources and actions in Chinese, an edit as a field-by-field diff', async ({
    page,
    request,
  }) => {
    const headers = await bearerOf(request, demo.admin);
    const created = await request.post('/api/user/admin/v1/csr-source/save', {
      headers,
      data: { name: '日志来源', code: 'audit_diff', sort: 3 },
    });
    const { id } = (await created.json()).data;
    await request.put('/api/user/admin/v1/csr-source/edit', {
      headers,
      data: { id, name: '日志来源（改）' },
    });

    await page.goto('/system/log');
    const search = page.locator('.audit-search');
    // The choices are long lists: typing narrows them, as staff would.
    await search.locator('#resource').fill('来源');
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: /^来源$/ })
      .click();
    await search.locator('#action').fill('修改');
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: /^修改$/ })
      .click();
    await search.getByRole('button', { name: /查\s*询/ }).click();
    const row = page
      .locator('tbody tr.ant-table-row')
      .filter({ hasText: String(id) })
      .first();
    await expect(row).toContainText('来源');
    await expect(row).toContainText('修改');
    await row.getByRole('button', { name: /展开行|Expand row/ }).click();
    const diff = page.locator('.audit-change');
    const changed = diff.locator('tr.audit-changed').filter({ hasText: '来源名称' });
    await expect(changed).toContainText('日志来源');
    await expect(changed).toContainText('日志来源（改）');
    await expect(diff).not.toContainText(/\bname\b/);
  });

  test('来源配置: create, search, edit, publish, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/system/source',
      label: '来源',
      requiredMessage: '请填写来源名称',
      create: { 来源名称: '抖音直播', 来源编码: 'douyin_live' },
      search: { 来源名称: '抖音' },
      edit: { 来源名称: '抖音直播间' },
      publish: true,
    });
  });
});

/** The page (or list) endpoint of every 系统配置 screen. */
const systemApis = [
  ['轮播图', '/api/basic/admin/v1/banner/page?type=banner'],
  ['案例新闻', '/api/basic/admin/v1/banner/page?type=news'],
  ['菜单配置', '/api/user/admin/v1/sso-menu/page'],
  ['菜单配置 · 全部菜单', '/api/user/admin/v1/sso-menu/menus'],
  ['角色权限', '/api/user/admin/v1/sso-role/page'],
  ['角色权限 · 接口目录', '/api/user/admin/v1/sso-resources/page'],
  ['来源配置', '/api/user/admin/v1/csr-source/page'],
  ['设施配置', '/api/building/admin/v1/building-bright-points/page'],
  ['数据字典', '/api/basic/admin/v1/dict/page'],
  ['隐私协议', '/api/user/admin/v1/csr-agreement/page'],
  ['机场三字码', '/api/tripartite/admin/v1/airport-code/page'],
  ['行为项配置', '/api/building/admin/v1/building-rule/page'],
  ['操作日志', '/api/user/admin/v1/audit-log/page'],
  ['操作日志 · 操作人', '/api/user/admin/v1/audit-log/actors'],
] as const;

test('运营 does not see 系统配置 and every 系统配置 API refuses them', async ({ page, request }) => {
  await signIn(page, demo.yunying, '/');
  await expect(page.getByTestId('side-menu')).not.toContainText('系统配置');
  await page.goto('/system/source');
  await expect(page).toHaveURL(/\/$/);

  const yunying = await bearerOf(request, demo.yunying);
  const admin = await bearerOf(request, demo.admin);
  for (const [screen, url] of systemApis) {
    const refused = await request.get(url, { headers: yunying });
    expect(refused.status(), `${screen} ${url}`).toBe(403);
    expect((await refused.json()).msg, screen).toBe('您没有权限进行此操作');
    // The same call works for 超级管理员: the 403 is the permission, not a wrong address.
    expect((await request.get(url, { headers: admin })).status(), `${screen} ${url}`).toBe(200);
  }
});
