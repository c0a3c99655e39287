import { expect, test } from '@playwright/test';
import { bearerOf, demo, signIn, simulatedDoors } from './helpers';

/**
 * 告警记录: a simulated v1.1 door raises 门长时间未关; it shows in 告警记录 under its Chinese name, the
 * device's 详情 lists it as not yet recovered, and 运营 acknowledges it with a note (required).
 */
const doors = simulatedDoors();

test('an alarm a device raises shows in 告警记录 and its detail, and staff acknowledge it with a note', async ({
  page,
  request,
}) => {
  test.slow();
  const sn = `E2E-ALM-${Date.now().toString(36).toUpperCase()}`;
  const name = `告警门 ${sn.slice(-4)}`;
  const { device } = await doors.register(request, await bearerOf(request, demo.admin), { sn, name });
  // Kept until the broker acknowledged it, which it does once the server wrote it.
  await device.sendEvent('alarm', {
    kind: 'held-open',
    state: 'raised',
    at: Date.now(),
    detail: '门已打开超过 60 秒',
  });
  expect(device.keptEvents).toHaveLength(0);

  await signIn(page, demo.yunying, '/hardware/alarm');
  await expect(page.getByTestId('page-title')).toHaveText('告警记录');
  await page.getByLabel('设备序列号').fill(sn);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page).toHaveURL(/sn=/);
  const row = page.getByRole('row').filter({ hasText: sn });
  await expect(row).toContainText('门长时间未关');
  await expect(row).toContainText('未处理');
  await expect(row).toContainText(name);
  await expect(row).toContainText('门已打开超过 60 秒');

  // The device's 详情 lists it as not recovered.
  await page.goto(`/hardware/device?sn=${sn}`);
  const listed = page.getByRole('row').filter({ hasText: sn });
  await listed.getByRole('button', { name: '详情' }).click();
  const drawer = page.getByRole('dialog', { name: `设备详情：${name}` });
  await expect(drawer.getByText('未恢复的告警（1）')).toBeVisible();
  await expect(drawer.getByText('门长时间未关')).toBeVisible();
  await drawer.getByRole('link', { name: '查看告警记录' }).click();

  await expect(page.getByTestId('page-title')).toHaveText('告警记录');
  await expect(row).toContainText('门长时间未关');
  await row.getByRole('button', { name: /确\s*认/ }).click();
  const dialog = page.getByRole('dialog', { name: `确认告警：${name} · 门长时间未关` });
  await dialog.getByRole('button', { name: /确\s*认/ }).click();
  await expect(dialog.getByText('请填写处理说明，它会记入告警记录和操作日志')).toBeVisible();
  await dialog.getByLabel('处理说明').fill('已派保安到现场关门');
  await dialog.getByRole('button', { name: /确\s*认/ }).click();
  await expect(page.getByText('告警“门长时间未关”已确认')).toBeVisible();
  await expect(row).toContainText('已确认');
  await expect(row).toContainText('已派保安到现场关门');
  await expect(row.getByRole('button', { name: /确\s*认/ })).toHaveCount(0);
});
