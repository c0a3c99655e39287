import { expect, test, type Page } from '@playwright/test';
import { demo, signIn } from './helpers';
import { leaveHeader, walkCrudScreen } from './resource';

/**
 * 线索管理: 定制场地 walked as a resource screen; an 物业合作 lead created with its city, then followed
 * up in the detail drawer: the record shows in the timeline and the lead moves to 跟进中.
 */

type Scope = ReturnType<Page['getByRole']>;

/** Picks 省 → 市 in the 城市 cascader: clicking the city chooses it. */
const pickCity = (page: Page, path: string[]) => async (scope: Scope) => {
  await scope.getByLabel('城市', { exact: true }).click();
  const dropdown = page.locator('.ant-cascader-dropdown:visible');
  for (const name of path) await dropdown.getByTitle(name, { exact: true }).click();
  await expect(dropdown).toBeHidden();
};

test.describe('线索管理 as 运营', () => {
  test.beforeEach(async ({ page }) => signIn(page, demo.yunying));

  test('定制场地: create, search, edit, delete', async ({ page }) => {
    await walkCrudScreen(page, {
      path: '/clue/place',
      label: '定制场地线索',
      requiredMessage: '请填写联系人',
      create: {
        联系人: '钱晓东',
        联系电话: '13811112222',
        公司名称: '上海测试科技有限公司',
        城市: pickCity(page, ['上海市', '市辖区']),
        人数: '25',
      },
      search: { 联系电话: '13811112222' },
      edit: { 联系人: '钱晓冬' },
    });
  });

  test('物业合作: a follow-up in the drawer shows in the timeline and moves the lead to 跟进中', async ({
    page,
  }) => {
    await page.goto('/clue/cooperate');
    await page.getByRole('button', { name: '新建物业合作线索' }).click();
    const drawer = page.getByRole('dialog', { name: '新建物业合作线索' });
    await drawer.getByLabel('联系人', { exact: true }).fill('孙跟进');
    await drawer.getByLabel('联系电话', { exact: true }).fill('13622223333');
    await drawer.getByLabel('物业地址', { exact: true }).fill('深圳市南山区科兴科学园 C 栋');
    await pickCity(page, ['广东省', '深圳市'])(drawer);
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('物业合作线索已新建')).toBeVisible();
    await leaveHeader(page);

    const row = page.getByRole('row').filter({ hasText: '孙跟进' });
    await expect(row).toContainText('新线索');
    await expect(row).toContainText('深圳市');
    await row.getByRole('button', { name: /详\s*情/ }).click();
    const detail = page.getByRole('dialog', { name: '物业合作线索详情' });
    await expect(detail.getByText('暂无跟进记录')).toBeVisible();

    // An empty follow-up is refused in the form.
    await detail.getByRole('button', { name: '添加跟进记录' }).click();
    await expect(detail.getByText('请填写跟进内容')).toBeVisible();
    await detail.getByLabel('跟进内容', { exact: true }).fill('已电话联系业主，约定下周实地看楼');
    await detail.getByRole('button', { name: '添加跟进记录' }).click();
    await expect(page.getByText('跟进记录已保存')).toBeVisible();

    await expect(detail.locator('.ant-timeline')).toContainText('已电话联系业主，约定下周实地看楼');
    await expect(detail.locator('.ant-timeline')).toContainText(demo.yunying.nickname);
    await expect(detail.locator('.ant-descriptions')).toContainText('跟进中');
    await detail.getByRole('button', { name: 'Close' }).or(detail.getByLabel('Close')).first().click();
    await expect(row).toContainText('跟进中');
  });
});
