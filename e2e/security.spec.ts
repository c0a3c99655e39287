import { expect, test } from '@playwright/test';
import type { Page as Paged } from '@cowork/contract';
import { source } from '@cowork/contract/resources/source';
import { SHORT_TOKEN_PORT } from '../playwright.config';
import { bearerOf, demo, signIn } from './helpers';

/**
 * Hardening finding 17, as a user meets it: a double click on 保存 made two records and two success
 * messages (来源配置: a success and a 名称已存在). Now the second click is ignored while the first
 * saves, and the create carries an Idempotency-Key the server honours.
 */
test('a double click on 保存 creates one 来源 and says so once', async ({ page, request }) => {
  await signIn(page, demo.admin);
  await page.goto('/system/source');
  await page.getByRole('button', { name: '新建来源' }).click();
  const drawer = page.getByRole('dialog', { name: '新建来源' });
  await drawer.getByLabel('来源名称', { exact: true }).fill('双击测试来源');
  await drawer.getByLabel('来源编码', { exact: true }).fill('double_click');
  const saves: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith(`${source.base}/save`))
      saves.push(r.headers()['idempotency-key'] ?? '');
  });
  await drawer.getByRole('button', { name: /保\s*存/ }).dblclick();
  await expect(drawer).toBeHidden();
  await expect(page.getByText('来源已新建')).toHaveCount(1);
  await expect(page.getByText('名称已存在')).toHaveCount(0);
  expect(saves).toHaveLength(1);
  expect(saves[0]).toMatch(/^[0-9a-f]{32}$/);

  const headers = await bearerOf(request, demo.admin);
  const list = await request.get(`${source.base}/page?name=${encodeURIComponent('双击测试来源')}`, {
    headers,
  });
  expect(((await list.json()).data as Paged<{ name: string }>).total).toBe(1);
});

test.describe('a form filled slowly', () => {
  // This server issues access tokens that live 4 seconds.
  test.use({ baseURL: `http://127.0.0.1:${SHORT_TOKEN_PORT}` });

  test('outlives its access token: saved without a reload, nothing typed lost (finding 16)', async ({
    page,
  }) => {
    await signIn(page, demo.admin);
    await page.goto('/system/source?current=1');
    await page.getByRole('button', { name: '新建来源' }).click();
    const drawer = page.getByRole('dialog', { name: '新建来源' });
    await drawer.getByLabel('来源名称', { exact: true }).fill('慢慢填写的来源');
    await drawer.getByLabel('来源编码', { exact: true }).fill('slow_form');
    const refreshes: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('grant_type=refresh_token')) refreshes.push(r.url());
    });
    let reloaded = false;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloaded = true;
    });
    // Past the token's life while the drawer is open.
    await page.waitForTimeout(6_000);
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.getByText('来源已新建')).toBeVisible();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('table')).toContainText('慢慢填写的来源');
    expect(refreshes).toHaveLength(1);
    expect(reloaded).toBe(false);
  });
});
