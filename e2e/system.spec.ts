import { expect, test } from '@playwright/test';
import { demo, signIn } from './helpers';
import { walkCrudScreen } from './resource';

test.describe('系统配置 as 超级管理员', () => {
  test.beforeEach(async ({ page }) => signIn(page, demo.admin));

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

test('运营 does not see 系统配置 and its API refuses them', async ({ page }) => {
  await signIn(page, demo.yunying);
  await expect(page.getByTestId('side-menu')).not.toContainText('系统配置');
  await page.goto('/system/source');
  await expect(page).toHaveURL(/\/$/);
  const token = (await page.context().cookies()).find((c) => c.name === 'access_token')?.value;
  const answer = await page.request.get('/api/user/admin/v1/csr-source/page', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.status()).toBe(403);
  expect((await answer.json()).msg).toBe('您没有权限进行此操作');
});
