import { expect, test, type Locator } from '@playwright/test';
import { bearerOf, demo, itemInput, PNG, removeRow, signIn } from './helpers';
import { walkCrudScreen } from './resource';

/** Fills the 图片 field, whether it is an upload control or a URL input. */
async function fillImage(scope: Locator) {
  const file = scope.locator('input[type=file]');
  if ((await file.count()) > 0) {
    await file.first().setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG });
    await expect(scope.locator('.ant-upload-list-item-done, .ant-upload-list-item').first()).toBeVisible();
  } else {
    await scope.getByLabel('图片', { exact: true }).fill('/demo/banner-1.svg');
  }
}

test.describe('轮播图, 案例新闻 and 隐私协议 as 超级管理员', () => {
  test.beforeEach(async ({ page }) => signIn(page, demo.admin));

  test('轮播图: create, search, edit, publish, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/system/banner',
      label: '轮播图',
      requiredMessage: '请填写标题',
      create: { 标题: '国庆工位特惠', 图片: fillImage, 跳转链接: '/pages/product/seat' },
      search: { 标题: '国庆' },
      edit: { 标题: '国庆工位特惠（延期）' },
      publish: true,
    });
  });

  test('each menu lists only its own type, with the schedule state; banners have no article', async ({
    page,
  }) => {
    await page.goto('/system/banner');
    const table = page.getByRole('table');
    await expect(table).toContainText('会议室按小时预订');
    await expect(table).not.toContainText('某科技公司 60 人团队整层入驻');
    for (const state of ['未开始', '展示中', '已结束']) await expect(table).toContainText(state);
    await page.getByRole('button', { name: '新建轮播图' }).click();
    const drawer = page.getByRole('dialog', { name: '新建轮播图' });
    await expect(drawer.getByLabel('标题', { exact: true })).toBeVisible();
    await expect(drawer.getByText('正文', { exact: true })).toHaveCount(0);
    await expect(drawer.getByText('类型', { exact: true })).toHaveCount(0);
    await drawer.getByRole('button', { name: /取\s*消/ }).click();

    await page.getByTestId('side-menu').getByText('案例新闻').click();
    await expect(page).toHaveURL(/\/system\/news$/);
    await expect(table).toContainText('某科技公司 60 人团队整层入驻');
    await expect(table).not.toContainText('会议室按小时预订');
    await expect(page.getByText('共 3 条')).toBeVisible();
  });

  test('案例新闻: an article is previewed as it will be stored, saved sanitized', async ({ page }) => {
    await page.goto('/system/news');
    await page.getByRole('button', { name: '新建案例新闻' }).click();
    const drawer = page.getByRole('dialog', { name: '新建案例新闻' });
    await drawer.getByLabel('标题', { exact: true }).fill('设计工作室入驻记');
    await fillImage(drawer);
    await drawer.getByText('HTML 源码').click();
    await drawer
      .getByLabel('正文', { exact: true })
      .fill('<h2>小而美</h2><p onclick="alert(1)">入驻<strong>故事</strong><script>alert(1)</script></p>');
    const preview = drawer.getByRole('region', { name: '正文预览' });
    await expect(preview.getByRole('heading', { name: '小而美' })).toBeVisible();
    await expect(preview).toContainText('入驻故事');
    expect(await preview.innerHTML()).not.toMatch(/script|onclick/);
    // A window that ends before it starts is refused by the server, naming 结束时间.
    await itemInput(drawer, '开始时间').fill('2030-05-02 10:00:00');
    await itemInput(drawer, '开始时间').press('Enter');
    await itemInput(drawer, '结束时间').fill('2030-05-01 10:00:00');
    await itemInput(drawer, '结束时间').press('Enter');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('结束时间须晚于开始时间，请重新选择结束时间')).toBeVisible();
    await itemInput(drawer, '结束时间').fill('2030-06-01 10:00:00');
    await itemInput(drawer, '结束时间').press('Enter');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('案例新闻已新建')).toBeVisible();

    const row = page.getByRole('table').getByRole('row').filter({ hasText: '设计工作室入驻记' });
    await expect(row).toContainText('未开始');
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    const editor = page.getByRole('dialog', { name: '编辑案例新闻' });
    // The visual editor opens with the stored article.
    await expect(editor.getByLabel('可视化编辑区').getByRole('heading', { name: '小而美' })).toBeVisible();
    await editor.getByText('HTML 源码').click();
    await expect(editor.getByLabel('正文', { exact: true })).toHaveValue(
      '<h2>小而美</h2><p>入驻<strong>故事</strong></p>',
    );
  });

  test('案例新闻: the visual editor writes the formatting it shows', async ({ page }) => {
    await page.goto('/system/news');
    await page.getByRole('button', { name: '新建案例新闻' }).click();
    const drawer = page.getByRole('dialog', { name: '新建案例新闻' });
    await drawer.getByLabel('标题', { exact: true }).fill('共享空间的一天');
    await fillImage(drawer);
    const area = drawer.getByLabel('可视化编辑区');
    await area.click();
    await page.keyboard.type('清晨');
    await drawer.getByRole('button', { name: '小标题' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('第一杯咖啡');
    await page.keyboard.press('Shift+Home');
    await drawer.getByRole('button', { name: '加粗' }).click();
    await expect(area.locator('h2')).toHaveText('清晨');
    await expect(area.locator('strong')).toHaveText('第一杯咖啡');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('案例新闻已新建')).toBeVisible();

    const row = page.getByRole('table').getByRole('row').filter({ hasText: '共享空间的一天' });
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    const editor = page.getByRole('dialog', { name: '编辑案例新闻' });
    await editor.getByText('HTML 源码').click();
    await expect(editor.getByLabel('正文', { exact: true })).toHaveValue(
      '<h2>清晨</h2><p><strong>第一杯咖啡</strong></p>',
    );
  });

  test('隐私协议: create, search, edit, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/system/agreement',
      label: '协议',
      requiredMessage: '请填写标题',
      create: {
        标题: '会员服务协议',
        协议类型: async (scope) => {
          await scope.getByLabel('协议类型', { exact: true }).click();
          await scope.page().locator('.ant-select-item-option[title="服务协议"]').click();
        },
        版本号: 'v9.1',
        协议内容: async (scope) => {
          await scope.getByLabel('可视化编辑区').click();
          await scope.page().keyboard.type('服务条款');
        },
      },
      search: { 标题: '会员服务' },
      edit: { 标题: '会员服务协议（修订）' },
    });
  });

  test('隐私协议: publishing a version unpublishes the other of its type; a published one is not removed', async ({
    page,
  }) => {
    await page.goto('/system/agreement');
    const rows = page.getByRole('table').getByRole('row').filter({ hasText: '隐私政策' });
    const v10 = rows.filter({ hasText: 'v1.0' });
    const v11 = rows.filter({ hasText: 'v1.1' });
    await expect(v11.getByRole('switch')).toHaveAttribute('aria-checked', 'true');
    await v10.getByRole('switch').click();
    await expect(page.getByText('协议已发布')).toBeVisible();
    await expect(v10.getByRole('switch')).toHaveAttribute('aria-checked', 'true');
    await expect(v11.getByRole('switch')).toHaveAttribute('aria-checked', 'false');
    // The 用户协议 stays published.
    const user = page.getByRole('table').getByRole('row').filter({ hasText: '用户协议' });
    await expect(user.getByRole('switch')).toHaveAttribute('aria-checked', 'true');

    // The refused delete is a message on screen, not an uncaught error in the page as well.
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await removeRow(page, v10);
    await expect(page.getByText('协议版本 v1.0 正在发布中，不能删除：请先下架，再删除')).toBeVisible();
    await expect(v10).toHaveCount(1);
    expect(pageErrors).toEqual([]);
  });
});

test('a role granted only 案例新闻 works on news and never sees banners', async ({ page, request }) => {
  const admin = await bearerOf(request, demo.admin);
  type Node = { id: number; url: string; name: string; permission: string | null; children: Node[] };
  const tree = (await (await request.get('/api/user/admin/v1/sso-menu/menus', { headers: admin })).json())
    .data as Node[];
  const system = tree.find((n) => n.name === '系统配置')!;
  const news = system.children.find((n) => n.url === '/system/news')!;
  const role = await request.post('/api/user/admin/v1/sso-role/save', {
    headers: admin,
    data: {
      name: '案例新闻编辑',
      code: 'news_only',
      menuIds: [system.id, news.id, ...news.children.map((n) => n.id)],
    },
  });
  expect(role.status(), await role.text()).toBe(200);
  expect((await role.json()).data.permissions.sort()).toEqual(
    ['system:news:edit', 'system:news:remove', 'system:news:view'].sort(),
  );
  const user = { username: 'xinwen', password: 'Xinwen@123' };
  const made = await request.post('/api/user/admin/v1/sso-user/save', {
    headers: admin,
    data: { ...user, nickname: '新闻编辑', roleIds: [(await role.json()).data.id] },
  });
  expect(made.status(), await made.text()).toBe(200);

  await signIn(page, user, '/');
  const menu = page.getByTestId('side-menu');
  await menu.getByText('系统配置').click();
  await expect(menu.getByRole('menuitem')).toHaveText(['首页', '系统配置', '案例新闻']);
  await menu.getByText('案例新闻').click();
  await expect(page).toHaveURL(/\/system\/news$/);
  await expect(page.getByRole('table')).toContainText('某科技公司 60 人团队整层入驻');
  await expect(page.getByRole('button', { name: '新建案例新闻' })).toBeVisible();
  await page.goto('/system/banner');
  await expect(page).toHaveURL(/\/$/);

  const editor = await bearerOf(request, user);
  const rows = (
    await (await request.get('/api/basic/admin/v1/banner/page?size=100', { headers: editor })).json()
  ).data.records as { type: string }[];
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((r) => r.type === 'news')).toBe(true);
  const bannerId = (
    await (await request.get('/api/basic/admin/v1/banner/page?type=banner&size=1', { headers: admin })).json()
  ).data.records[0].id;
  const refused = await request.get(`/api/basic/admin/v1/banner/detail/${bannerId}`, { headers: editor });
  expect(refused.status()).toBe(403);
});
