import { expect, test } from '@playwright/test';
import { demo, signIn } from './helpers';

test('个人中心: edit one’s nickname and email; the header follows without a reload', async ({ page }) => {
  await signIn(page, demo.yunying);
  await page.getByTestId('user-dropdown').hover();
  await page.getByTitle('个人中心').click();
  await expect(page).toHaveURL(/\/personal$/);
  await expect(page.getByText('运营', { exact: true })).toBeVisible();

  const form = page.locator('form#profile');
  await form.getByLabel('昵称').fill('');
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(form.getByText('请填写昵称')).toBeVisible();
  await form.getByLabel('邮箱').fill('wrong');
  await expect(form.getByText('请填写正确的邮箱')).toBeVisible();

  await form.getByLabel('昵称').fill('运营小王');
  await form.getByLabel('邮箱').fill('wang@cowork.example');
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('个人资料已保存')).toBeVisible();
  await expect(page.getByTestId('user-dropdown')).toContainText('运营小王');

  // Kept after a reload: it was saved on the server, not only in the browser.
  await page.reload();
  await expect(page.getByTestId('user-dropdown')).toContainText('运营小王');
  await form.getByLabel('昵称').fill(demo.yunying.nickname);
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByTestId('user-dropdown')).toContainText(demo.yunying.nickname);
});
