import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { choose, demo, signIn } from './helpers';

/**
 * 开放平台 as the administrator, against a receiver started here on 127.0.0.1 (the e2e server runs
 * with WEBHOOK_ALLOW_PRIVATE=true): a webhook is added and its signing secret shown once; 发送测试
 * reaches the receiver signed with that secret and shows 已送达 in 推送记录; with the receiver
 * failing the next test shows 待重试 and the 500, and once it answers again 重新发送 delivers it.
 * An API key is created and shown once, the admin API answers it 200, and once revoked 401.
 */

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** An HTTP receiver answering `status` (200 until told otherwise), keeping every request. */
function startReceiver() {
  const received: Received[] = [];
  const state = { status: 200 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(state.status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(state.status < 300 ? 'ok' : 'receiver is down');
    });
  });
  return {
    received,
    state,
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const receiver = startReceiver();
let port = 0;
test.beforeAll(async () => {
  port = await receiver.listen();
});
test.afterAll(async () => {
  await receiver.close();
});

/** Whether `Cowork-Signature: t=…,v1=…` holds an HMAC-SHA256 of `t.body` under `secret`. */
function signedWith(secret: string, request: Received): boolean {
  const header = String(request.headers['cowork-signature'] ?? '');
  const parts = header.split(',').map((part) => part.split('='));
  const t = parts.find(([key]) => key === 't')?.[1];
  const expected = createHmac('sha256', secret).update(`${t}.${request.body}`).digest('hex');
  return Boolean(t) && parts.some(([key, value]) => key === 'v1' && value === expected);
}

/** The test events received: the endpoint wants every event, and others may happen meanwhile. */
const tests = () => receiver.received.filter((r) => r.headers['cowork-event-type'] === 'webhook.test');

const tab = (page: Page, name: string) => page.getByRole('tab', { name });

/** The test events of the log, newest first (the list refreshes itself every few seconds). */
const testRows = (page: Page) => page.getByRole('tabpanel').getByRole('row').filter({ hasText: '测试事件' });

async function sendTest(page: Page, endpointRow: Locator) {
  await endpointRow.getByRole('button', { name: '发送测试' }).click();
  await expect(page.getByText(/测试事件已发送到/).last()).toBeVisible();
}

test('a webhook gets signed test events, failed ones are sent again; an API key works until revoked', async ({
  page,
}) => {
  test.slow();
  const tag = Date.now().toString(36).toUpperCase();
  const name = `E2E 推送 ${tag}`;
  await signIn(page, demo.admin, '/system/open');
  await expect(page.getByTestId('page-title')).toHaveText('开放平台');

  // 新建: every event through 全选; the signing secret is shown once.
  await page.getByRole('button', { name: /新建推送地址/ }).click();
  const drawer = page.getByRole('dialog', { name: '新建推送地址' });
  await drawer.getByLabel('名称').fill(name);
  await drawer.getByLabel('地址').fill(`http://127.0.0.1:${port}/hook`);
  await drawer.getByRole('checkbox', { name: '全选' }).check();
  await drawer.getByRole('button', { name: /保\s*存/ }).click();
  const shown = page.getByRole('dialog', { name: `签名密钥：${name}` });
  await expect(shown).toContainText('签名密钥只显示这一次');
  await expect(shown).toContainText('docs/webhooks.md');
  const secret = (await shown.getByTestId('shown-once-value').innerText()).trim();
  expect(secret).toMatch(/^whsec_/);
  await shown.getByRole('button', { name: '我已保存签名密钥' }).click();
  await expect(shown).toBeHidden();
  await expect(page.getByText(secret)).toHaveCount(0);

  const endpointRow = page.getByRole('row').filter({ hasText: name });
  await expect(endpointRow).toContainText('启用');
  await expect(endpointRow).toContainText(`127.0.0.1:${port}/hook`);

  // 发送测试: the receiver gets it signed with the secret just shown, and the log says 已送达.
  await sendTest(page, endpointRow);
  await expect.poll(() => tests().length).toBe(1);
  const [first] = tests();
  expect(signedWith(secret, first)).toBe(true);
  const firstEventId = String(first.headers['cowork-event-id']);

  await endpointRow.getByRole('button', { name: '推送记录' }).click();
  await expect(tab(page, '推送记录')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/tab=deliveries&endpointId=\d+/);
  await expect(testRows(page)).toHaveCount(1);
  await expect(testRows(page).first()).toContainText('已送达');
  await expect(testRows(page).first()).toContainText('200');

  // The receiver fails: the next test is 待重试 with its 500 and the answer kept.
  receiver.state.status = 500;
  await tab(page, '推送地址').click();
  await sendTest(page, endpointRow);
  await expect.poll(() => tests().length).toBe(2);
  await tab(page, '推送记录').click();
  await choose(page, '推送地址', name)(page.locator('#webhook-delivery-search'));
  await page.getByRole('button', { name: /查\s*询/ }).click();
  const failed = testRows(page).filter({ hasText: '待重试' });
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText('500');
  await expect(failed).toContainText('已尝试 1 次');
  await failed.getByRole('button', { name: /展开行|Expand row/ }).click();
  await expect(page.getByTestId('delivery-answer')).toHaveText('receiver is down');

  // It answers again: 重新发送 delivers the same event.
  receiver.state.status = 200;
  await failed.getByRole('button', { name: '重新发送' }).click();
  await expect(
    page.getByText('已重新排队 1 条推送记录，将立即开始推送，结果请稍后在列表中查看'),
  ).toBeVisible();
  await expect.poll(() => tests().length).toBe(3);
  const [, failedOnce, resent] = tests();
  expect(resent.headers['cowork-event-id']).toBe(failedOnce.headers['cowork-event-id']);
  expect(resent.headers['cowork-event-id']).not.toBe(firstEventId);
  expect(signedWith(secret, resent)).toBe(true);
  await expect(testRows(page).filter({ hasText: '已送达' })).toHaveCount(2);
  await expect(testRows(page).filter({ hasText: '待重试' })).toHaveCount(0);

  // 接口密钥: shown once with its header; it calls the admin API until revoked.
  const keyName = `E2E 密钥 ${tag}`;
  await tab(page, '接口密钥').click();
  await page.getByRole('button', { name: /新建接口密钥/ }).click();
  const keyDrawer = page.getByRole('dialog', { name: '新建接口密钥' });
  await keyDrawer.getByLabel('密钥名称').fill(keyName);
  await choose(page, '所属角色', '超级管理员')(keyDrawer);
  await keyDrawer.getByRole('button', { name: /保\s*存/ }).click();
  const keyShown = page.getByRole('dialog', { name: `接口密钥：${keyName}` });
  const key = (await keyShown.getByTestId('shown-once-value').innerText()).trim();
  expect(key).toMatch(/^ck_[A-Za-z0-9_-]{43}$/);
  await expect(keyShown).toContainText(`Authorization: Bearer ${key}`);
  await keyShown.getByRole('button', { name: '我已保存接口密钥' }).click();
  await expect(keyShown).toBeHidden();

  const call = () =>
    page.request.get('/api/building/admin/v1/building/page?current=1&size=1', {
      headers: { Authorization: `Bearer ${key}` },
    });
  const answered = await call();
  expect(answered.status(), await answered.text()).toBe(200);

  const keyRow = page.getByRole('row').filter({ hasText: keyName });
  await expect(keyRow).toContainText('有效');
  await expect(keyRow).toContainText(`${key.slice(0, 9)}…`);
  await keyRow.getByRole('button', { name: '吊销' }).click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /吊\s*销/ })
    .click();
  await expect(page.getByText(`接口密钥“${keyName}”已吊销，使用它的调用将立即被拒绝`)).toBeVisible();
  await expect(keyRow).toContainText('已吊销');
  await expect(keyRow.getByRole('button', { name: '吊销' })).toHaveCount(0);
  await expect.poll(async () => (await call()).status()).toBe(401);
});
