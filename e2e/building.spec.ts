import { expect, test, type Page } from '@playwright/test';
import { choose, demo, signIn } from './helpers';
import { walkCrudScreen } from './resource';

type Scope = ReturnType<Page['getByRole']>;

/** Picks 省 → 市 → 区 in the 所在地区 cascader, one column after another. */
const pickArea = (page: Page, path: string[]) => async (scope: Scope) => {
  await scope.getByLabel('所在地区', { exact: true }).click();
  const dropdown = page.locator('.ant-cascader-dropdown:visible');
  for (const name of path) await dropdown.getByTitle(name, { exact: true }).click();
  await expect(dropdown).toBeHidden();
};

test.describe('楼宇管理 screens as 超级管理员', () => {
  test.beforeEach(async ({ page }) => signIn(page, demo.admin));

  test('楼宇列表: create, search, edit, publish, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/building/list',
      label: '楼宇',
      requiredMessage: '请填写楼宇名称',
      create: {
        楼宇名称: '氪空间·亦庄',
        所属商户: choose(page, '所属商户', '氪空间联合办公'),
        所在地区: pickArea(page, ['北京市', '市辖区', '大兴区']),
        详细地址: '荣华中路10号亦城国际中心',
      },
      search: { 楼宇名称: '亦庄' },
      edit: { 楼宇名称: '氪空间·亦庄经开区' },
      publish: true,
    });
  });

  test('楼宇列表: the area picked in the cascader and the merchant show in the table; filter by city', async ({
    page,
  }) => {
    await page.goto('/building/list');
    await page.getByRole('button', { name: '新建楼宇' }).click();
    const drawer = page.getByRole('dialog', { name: '新建楼宇' });
    await drawer.getByLabel('楼宇名称', { exact: true }).fill('梧桐树·前滩');
    await choose(page, '所属商户', '梧桐树办公')(drawer);
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(drawer.getByText('请选择所在地区（省份/城市/区县）')).toBeVisible();
    await pickArea(page, ['上海市', '市辖区', '浦东新区'])(drawer);
    await drawer.getByLabel('详细地址', { exact: true }).fill('东育路255弄前滩中心');
    await drawer.getByLabel('楼层', { exact: true }).fill('5F');
    await drawer.getByLabel('楼层', { exact: true }).press('Enter');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('楼宇已新建')).toBeVisible();

    const row = page.getByRole('row').filter({ hasText: '梧桐树·前滩' });
    await expect(row).toContainText('上海市 浦东新区');
    await expect(row).toContainText('梧桐树办公');

    // The search form offers the cities that have buildings: 上海市 now has three.
    const search = page.locator('.resource-search');
    await choose(page, '城市', '上海市（3）')(search);
    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect(page.getByText('共 3 条')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: '北京市' })).toHaveCount(0);

    // Editing shows the stored area by name.
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    const editor = page.getByRole('dialog', { name: '编辑楼宇' });
    await expect(editor.getByText('上海市 / 市辖区 / 浦东新区')).toBeVisible();
    await editor.getByRole('button', { name: /取\s*消/ }).click();
  });

  test('楼宇列表: a building that products and charge persons use cannot be deleted', async ({ page }) => {
    await page.goto('/building/list');
    const row = page.getByRole('row').filter({ hasText: '氪空间·中关村' });
    await expect(row).toContainText('北京市 海淀区');
    await row.getByRole('button', { name: /删\s*除/ }).click();
    await page
      .getByRole('tooltip')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    // The message names every kind of record that uses it (rooms, cards, seats… and its manager).
    await expect(page.getByText(/楼宇“氪空间·中关村”仍被.*楼宇负责人 1 位（李建国）.*使用/)).toBeVisible();
    await expect(row).toHaveCount(1);
  });

  test('楼宇负责人: create, search, edit, publish, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/building/person',
      label: '楼宇负责人',
      requiredMessage: '请填写姓名',
      create: {
        姓名: '孙丽',
        手机号: '13512345678',
        邮箱: 'sunli@example.cn',
        负责楼宇: choose(page, '负责楼宇', '氪空间·国贸中心'),
      },
      search: { 姓名: '孙丽' },
      edit: { 姓名: '孙丽娟' },
      publish: true,
    });
  });

  test('楼宇负责人: the table names the buildings; the search finds the persons of one building', async ({
    page,
  }) => {
    await page.goto('/building/person');
    await expect(page.getByRole('row').filter({ hasText: '张敏' })).toContainText(
      '氪空间·望京SOHO、氪空间·国贸中心',
    );
    const search = page.locator('.resource-search');
    await choose(page, '负责楼宇', '创客汇·科技园')(search);
    await search.getByRole('button', { name: /查\s*询/ }).click();
    await expect(page.getByText('共 2 条')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: '陈晓东' })).toHaveCount(1);
    await expect(page.getByRole('row').filter({ hasText: '刘洋' })).toHaveCount(1);
  });
});
