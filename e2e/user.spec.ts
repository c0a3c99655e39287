import { expect, test, type Page } from '@playwright/test';
import { choose, cookie, demo, signIn, signInThroughForm } from './helpers';
import { walkCrudScreen } from './resource';

/** Creates a staff account through the API with the signed-in admin's token. */
async function createStaff(page: Page, body: Record<string, unknown>) {
  const answer = await page.request.post('/api/user/admin/v1/sso-user/save', {
    headers: { Authorization: `Bearer ${await cookie(page, 'access_token')}` },
    data: body,
  });
  expect(answer.status()).toBe(200);
}

test.describe('用户管理 as 超级管理员', () => {
  test.beforeEach(async ({ page }) => signIn(page, demo.admin));

  test('后台用户: create with a role, search, edit, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/user/admin',
      label: '后台用户',
      requiredMessage: '请填写昵称',
      create: {
        用户名: 'e2e_zhao',
        昵称: '赵测试',
        初始密码: 'Zhao@2024',
        角色: choose(page, '角色', '运营'),
      },
      search: { 用户名: 'e2e_zhao' },
      edit: { 昵称: '赵测试主管' },
    });
  });

  test('后台用户: the role shows by name; disable, enable and reset the password', async ({
    page,
    browser,
  }) => {
    await createStaff(page, {
      username: 'e2e_qian',
      nickname: '钱测试',
      password: 'Qian@2024',
      roleIds: [],
    });
    await page.goto('/user/admin');
    const search = page.locator('.resource-search');
    await search.getByLabel('用户名', { exact: true }).fill('e2e_qian');
    await search.getByRole('button', { name: /查\s*询/ }).click();
    const row = page.getByRole('table').getByRole('row').filter({ hasText: 'e2e_qian' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('启用');

    // One's own row offers neither 停用 nor 重置密码.
    await search.getByLabel('用户名', { exact: true }).fill('admin');
    await search.getByRole('button', { name: /查\s*询/ }).click();
    const own = page.getByRole('table').getByRole('row').filter({ hasText: '当前账号' });
    await expect(own).toContainText('超级管理员');
    await expect(own.getByRole('button', { name: /停\s*用/ })).toHaveCount(0);
    await search.getByLabel('用户名', { exact: true }).fill('e2e_qian');
    await search.getByRole('button', { name: /查\s*询/ }).click();

    await row.getByRole('button', { name: /停\s*用/ }).click();
    await page
      .getByRole('tooltip')
      .getByRole('button', { name: /停\s*用/ })
      .click();
    await expect(page.getByText('账号已停用，其登录已全部失效')).toBeVisible();
    await expect(row).toContainText('停用');
    const refused = await page.request.post('/api/auth/oauth/token', {
      form: {
        grant_type: 'password',
        username: 'e2e_qian',
        password: 'Qian@2024',
        client_id: 'admin',
        client_secret: 'admin',
      },
    });
    expect(refused.status()).not.toBe(200);

    await row.getByRole('button', { name: /启\s*用/ }).click();
    await page
      .getByRole('tooltip')
      .getByRole('button', { name: /启\s*用/ })
      .click();
    await expect(page.getByText('账号已启用')).toBeVisible();

    await row.getByRole('button', { name: '重置密码' }).click();
    const dialog = page.getByRole('dialog', { name: /重置密码/ });
    await dialog.getByLabel('新密码').fill('short');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(dialog.getByText('密码至少需要 8 个字符，请重新输入')).toBeVisible();
    await dialog.getByLabel('新密码').fill('NewQian@2025');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(page.getByText('已重置钱测试的密码，请把新密码告知本人')).toBeVisible();
    await expect(dialog).toBeHidden();

    // The user signs in with the new password in a browser of their own.
    const context = await browser.newContext();
    const theirs = await context.newPage();
    await signInThroughForm(theirs, { username: 'e2e_qian', password: 'NewQian@2025' });
    await expect(theirs.getByText('钱测试').first()).toBeVisible();
    await context.close();
  });

  test('会员: search by phone, masked ID in the list, detail, edit the nickname', async ({ page }) => {
    await page.goto('/user/member');
    await expect(page.getByRole('button', { name: /新建会员/ })).toHaveCount(0);
    const search = page.locator('.resource-search');
    await search.getByLabel('手机号', { exact: true }).fill('13812345601');
    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect(page.getByText('共 1 条')).toBeVisible();
    const row = page.getByRole('table').getByRole('row').filter({ hasText: '13812345601' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(/310104\*{8}051[\dX]/);
    await expect(row).toContainText('微信小程序');
    await expect(row.getByRole('button', { name: /删\s*除/ })).toHaveCount(0);

    await row.getByRole('button', { name: /详\s*情/ }).click();
    const detail = page.getByRole('dialog', { name: '会员详情' });
    await expect(detail).toContainText('林晓峰');
    await expect(detail).toContainText(/31010419900312051[\dX]/);
    await page.keyboard.press('Escape');
    await expect(detail).toBeHidden();

    await row.getByRole('button', { name: /编\s*辑/ }).click();
    const editor = page.getByRole('dialog', { name: '编辑会员' });
    await expect(editor.getByLabel('身份证号', { exact: true })).toHaveValue(/^31010419900312051[\dX]$/);
    await editor.getByLabel('昵称', { exact: true }).fill('小林同学');
    await editor.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('会员已保存')).toBeVisible();
    await expect(row).toContainText('小林同学');
  });

  test('会员: the search and the page live in the address; reload, back and forward keep them', async ({
    page,
  }) => {
    await page.goto('/user/member');
    const search = page.locator('.resource-search');
    const phone = search.getByLabel('手机号', { exact: true });
    // Every member's phone starts with 1: a filter with many pages.
    await phone.fill('1');
    // The list is drawn again for the search once its answer is in: the page turn starts from it.
    const searched = page.waitForResponse(
      (r) => r.url().includes('phone=1') && r.url().includes('current=1'),
    );
    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect(page).toHaveURL(/\/user\/member\?phone=1$/);
    await searched;
    await page.locator('.ant-pagination-item-2').click();
    await expect(page).toHaveURL(/phone=1&current=2|current=2&phone=1$/);

    await page.reload();
    await expect(phone).toHaveValue('1');
    await expect(page.locator('.ant-pagination-item-active')).toHaveText('2');
    for (const cell of await page
      .getByRole('table')
      .getByRole('row')
      .filter({ hasText: /1\d{10}/ })
      .all())
      await expect(cell).toContainText(/1\d{10}/);

    await page.goBack();
    await expect(page.locator('.ant-pagination-item-active')).toHaveText('1');
    await expect(phone).toHaveValue('1');
    await page.goBack();
    await expect(phone).toHaveValue('');
    await page.goForward();
    await expect(phone).toHaveValue('1');
  });
});
