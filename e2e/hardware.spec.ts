import { expect, test } from '@playwright/test';
import { DEVELOPMENT_ENROL_KEY } from '../apps/server/src/config';
import { SimulatedDevice } from '../apps/server/src/devices/simulator';
import { MQTT_PORT } from '../playwright.config';
import { demo, signIn } from './helpers';

/**
 * 智能硬件 as 运营: a simulated door device (the protocol's simulator, over the console's embedded
 * broker) waits under 待注册, is registered from the console with its secret shown once, opens from
 * 远程开门, and the opening shows in 开门记录 credited to the staff member; its door code opens too.
 */
const url = `mqtt://127.0.0.1:${MQTT_PORT}`;
const devices: SimulatedDevice[] = [];
test.afterAll(async () => {
  await Promise.all(devices.map((d) => d.close().catch(() => undefined)));
});

test('a waiting device is registered, opened from the console, and the opening is logged', async ({
  page,
}) => {
  const sn = `E2E-${Date.now().toString(36).toUpperCase()}`;
  const enrolling = new SimulatedDevice({ url, sn, enrolKey: DEVELOPMENT_ENROL_KEY, model: 'SIM-E2E' });
  devices.push(enrolling);
  await enrolling.connect();

  await signIn(page, demo.yunying);
  await page.goto('/hardware/device');
  await expect(page.getByTestId('page-title')).toHaveText('设备管理');
  await page.getByRole('tab', { name: '待注册' }).click();
  const row = page.getByRole('row').filter({ hasText: sn });
  await expect(row).toContainText('SIM-E2E');
  await row.getByRole('button', { name: /注\s*册/ }).click();
  const dialog = page.getByRole('dialog', { name: `注册设备 ${sn}` });
  await dialog.getByRole('button', { name: /注\s*册/ }).click();
  await expect(dialog.getByText('请填写设备名称')).toBeVisible();
  await dialog.getByLabel('设备名称').fill('E2E 前台门禁');
  await dialog.getByRole('button', { name: /注\s*册/ }).click();

  const shown = page.getByRole('dialog', { name: '设备已注册' });
  await expect(shown.getByText('设备密钥只显示这一次')).toBeVisible();
  const secret = (await shown.getByTestId('device-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await shown.getByRole('button', { name: '我已保存密钥' }).click();

  // The device now connects with its secret, as its installer would configure it.
  await enrolling.close();
  const device = new SimulatedDevice({ url, sn, secret, model: 'SIM-E2E' });
  devices.push(device);
  await device.connect();

  const listed = page.getByRole('row').filter({ hasText: sn });
  await expect(listed).toContainText('E2E 前台门禁');
  await expect(listed).toContainText('在线');
  await listed.getByRole('button', { name: '远程开门' }).click();
  const open = page.getByRole('dialog', { name: '远程开门：E2E 前台门禁' });
  await open.getByRole('button', { name: /开\s*门/ }).click();
  await expect(page.getByText('设备“E2E 前台门禁”已确认开门 5 秒')).toBeVisible();
  expect(device.commands.some((c) => c.type === 'open-door' && c.params.durationS === 5)).toBe(true);

  // The door code the console shows opens the door at the device's keypad.
  await listed.getByRole('button', { name: '动态码' }).click();
  const code = (await page.getByTestId('totp-code').innerText()).trim();
  expect(code).toMatch(/^\d{6}$/);
  expect((await device.enterCode(code)).result).toBe('success');
  await page.keyboard.press('Escape');

  await page.goto('/hardware/log');
  await expect(page.getByTestId('page-title')).toHaveText('开门记录');
  await page.getByLabel('序列号').fill(sn);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  const remote = page.getByRole('row').filter({ hasText: '远程开门' });
  await expect(remote).toContainText('E2E 前台门禁');
  await expect(remote).toContainText('成功');
  await expect(remote).toContainText(demo.yunying.nickname);
  await expect(page.getByRole('row').filter({ hasText: '动态码' })).toContainText('成功');
});
