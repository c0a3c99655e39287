import { expect, test } from '@playwright/test';
import { chooseUserMenuEntry, demo, PNG, signInThroughForm } from './helpers';

test('个人中心: edit one’s nickname and email; the header follows without a reload', async ({ page }) => {
  await signInThroughForm(page, demo.yunying);
  // A labelled entry of the user menu (the name card above it links there too).
  await chooseUserMenuEntry(page, '个人中心', () =>
    expect(page).toHaveURL(/\/personal$/, { timeout: 5_000 }),
  );
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

test('个人中心: upload an avatar; the header shows it at once, and removing it clears it', async ({
  page,
}) => {
  await signInThroughForm(page, demo.caiwu);
  await page.goto('/personal');
  const header = page.getByTestId('user-dropdown');
  await expect(header.locator('img')).toHaveCount(0);

  const form = page.locator('form#profile');
  await form
    .locator('input[type=file]')
    .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: PNG });
  await expect(form.locator('.ant-upload-list-item-done').first()).toBeVisible();
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('个人资料已保存')).toBeVisible();
  const avatar = header.locator('img');
  await expect(avatar).toHaveAttribute('src', /\.png$/);
  // The served file is the picture uploaded.
  const served = await page.request.get((await avatar.getAttribute('src'))!);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toContain('image/png');

  // Kept after a reload, then removed for the other specs.
  await page.reload();
  await expect(header.locator('img')).toHaveAttribute('src', /\.png$/);
  await form.locator('.ant-upload-list-item').first().hover();
  await form
    .getByRole('button', { name: /删除|remove|delete/i })
    .first()
    .click();
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('个人资料已保存')).toBeVisible();
  await expect(header.locator('img')).toHaveCount(0);
});
