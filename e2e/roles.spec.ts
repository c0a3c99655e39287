import { expect, test, type Page } from '@playwright/test';
import { cookie, demo, removeRow, signIn, signInThroughForm } from './helpers';
import { walkCrudScreen } from './resource';

const api = '/api/user/admin/v1';

async function bearer(page: Page) {
  return { Authorization: `Bearer ${await cookie(page, 'access_token')}` };
}

test.describe('角色权限 and 菜单配置 as 超级管理员', () => {
  test.beforeEach(async ({ page }) => signIn(page, demo.admin));

  test('a role granting 来源配置 view only: its user sees exactly that menu and may only read', async ({
    page,
    browser,
  }) => {
    await page.goto('/system/role');
    await expect(page.getByRole('table')).toBeVisible();
    await page.getByRole('button', { name: '新建角色' }).click();
    const drawer = page.getByRole('dialog', { name: '新建角色' });
    await drawer.getByLabel('角色名称', { exact: true }).fill('来源查看员');
    await drawer.getByLabel('角色编码', { exact: true }).fill('source_viewer');
    // 系统配置 › 来源配置 › 查看
    const tree = drawer.locator('.ant-tree');
    const sourcePage = tree.locator('.ant-tree-treenode').filter({ hasText: /^来源配置$/ });
    await expect(sourcePage).toHaveCount(1);
    const view = tree.locator('.ant-tree-treenode').filter({ hasText: 'system:source:view' });
    await view.locator('.ant-tree-checkbox').click();
    await expect(drawer.getByTestId('granted-codes')).toHaveText('system:source:view');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('角色已新建')).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: '来源查看员' });
    await expect(row).toContainText('3 个菜单，1 个权限编码');

    // A user holding it, made through the 后台用户 API.
    const roles = await (
      await page.request.get(`${api}/sso-role/page?code=source_viewer`, { headers: await bearer(page) })
    ).json();
    const roleId = roles.data.records[0].id as number;
    const made = await page.request.post(`${api}/sso-user/save`, {
      headers: await bearer(page),
      data: { username: 'laiyuan', nickname: '来源查看员', password: 'Laiyuan@123', roleIds: [roleId] },
    });
    expect(made.status(), await made.text()).toBe(200);

    const context = await browser.newContext();
    const other = await context.newPage();
    await signInThroughForm(other, { username: 'laiyuan', password: 'Laiyuan@123' });
    const menu = other.getByTestId('side-menu');
    await expect(menu).toContainText('系统配置');
    await menu.getByText('系统配置').click();
    await expect(menu.getByRole('menuitem')).toHaveText(['首页', '系统配置', '来源配置']);
    await menu.getByText('来源配置').click();
    await expect(other).toHaveURL(/\/system\/source$/);
    await expect(other.getByRole('table')).toBeVisible();
    await expect(other.getByRole('button', { name: '新建来源' })).toHaveCount(0);
    const write = await other.request.post(`${api}/csr-source/save`, {
      headers: await bearer(other),
      data: { name: '越权', code: 'overreach' },
    });
    expect(write.status()).toBe(403);
    await context.close();

    // A role users hold is not removed.
    await removeRow(page, row);
    await expect(page.getByText('该角色仍有 1 个用户在使用')).toBeVisible();
  });

  test('角色权限: create, search, edit, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/system/role',
      label: '角色',
      requiredMessage: '请填写角色名称',
      create: { 角色名称: '临时巡检员', 角色编码: 'temp_inspector' },
      search: { 角色名称: '巡检' },
      edit: { 角色名称: '临时巡检员（夜班）' },
    });
  });

  test('菜单配置: a new page menu shows in the table and the side menu, and is deleted', async ({ page }) => {
    await page.goto('/system/menu');
    const table = page.getByRole('table');
    const side = page.getByTestId('side-menu');
    await table
      .getByRole('row')
      .filter({ hasText: /^系统配置/ })
      .getByRole('button', { name: '新建下级' })
      .click();
    const drawer = page.getByRole('dialog', { name: '新建菜单' });
    await drawer.getByLabel('菜单名称', { exact: true }).fill('帮助中心');
    await drawer.getByLabel('路由地址', { exact: true }).fill('/system/help');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('菜单已新建')).toBeVisible();
    const row = table.getByRole('row').filter({ hasText: /^帮助中心/ });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('/system/help');
    await expect(side).toContainText('帮助中心');

    await removeRow(page, row);
    await expect(page.getByText('菜单已删除')).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(side).not.toContainText('帮助中心');
  });

  test('菜单配置: rename, hide and sort show in the side menu without a reload', async ({ page }) => {
    await page.goto('/system/menu');
    const side = page.getByTestId('side-menu');
    const table = page.getByRole('table');
    await expect(table.getByRole('row').filter({ hasText: '操作日志' })).toHaveCount(1);
    // The page is not reloaded: a marker on window survives every change.
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

    const logRow = () =>
      table
        .getByRole('row')
        .filter({ hasText: /^操作日志|^审计日志/ })
        .first();
    await logRow()
      .getByRole('button', { name: /编\s*辑/ })
      .click();
    const drawer = page.getByRole('dialog', { name: '编辑菜单' });
    await drawer.getByLabel('菜单名称', { exact: true }).fill('审计日志');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('菜单已保存')).toBeVisible();
    await expect(side).toContainText('审计日志');
    await expect(side).not.toContainText('操作日志');

    // Sort: 审计日志 moves up one place, in the table and in the side menu.
    const systemItems = side
      .locator('.ant-menu-submenu')
      .filter({ hasText: '系统配置' })
      .getByRole('menuitem');
    const before = await systemItems.allTextContents();
    const at = before.indexOf('审计日志');
    expect(at).toBeGreaterThan(0);
    await logRow().getByRole('button', { name: '上移审计日志' }).click();
    await expect(page.getByText('排序已保存')).toBeVisible();
    const expected = [...before];
    [expected[at - 1], expected[at]] = [expected[at], expected[at - 1]];
    await expect(systemItems).toHaveText(expected);

    // Hide it: gone from the side menu, still in the table.
    await logRow().getByRole('switch', { name: '显示菜单审计日志' }).click();
    await expect(page.getByText('菜单已隐藏')).toBeVisible();
    await expect(side).not.toContainText('审计日志');
    await expect(logRow()).toBeVisible();

    // Put everything back for the other specs.
    await logRow().getByRole('switch', { name: '显示菜单审计日志' }).click();
    await expect(page.getByText('菜单已显示')).toBeVisible();
    await logRow().getByRole('button', { name: '下移审计日志' }).click();
    await expect(systemItems).toHaveText(before);
    await logRow()
      .getByRole('button', { name: /编\s*辑/ })
      .click();
    await page
      .getByRole('dialog', { name: '编辑菜单' })
      .getByLabel('菜单名称', { exact: true })
      .fill('操作日志');
    await page
      .getByRole('dialog', { name: '编辑菜单' })
      .getByRole('button', { name: /保\s*存/ })
      .click();
    await expect(side).toContainText('操作日志');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  });

  test('a menu with children is not removed; the API catalogue is searchable', async ({ page }) => {
    await page.goto('/system/menu');
    const row = page
      .getByRole('table')
      .getByRole('row')
      .filter({ hasText: /^来源配置/ });
    await removeRow(page, row);
    await expect(page.getByText('该菜单下还有 3 个下级菜单')).toBeVisible();

    await page.goto('/system/role');
    await page.getByRole('button', { name: '接口目录' }).click();
    const drawer = page.getByRole('dialog', { name: '接口目录' });
    await drawer.getByLabel('搜索接口').fill('system:source:edit');
    await drawer.getByLabel('搜索接口').press('Enter');
    await expect(
      drawer.getByRole('row').filter({ hasText: '/api/user/admin/v1/csr-source/save' }),
    ).toHaveCount(1);
    await expect(
      drawer.getByRole('row').filter({ hasText: '/api/user/admin/v1/csr-source/page' }),
    ).toHaveCount(0);
  });
});
