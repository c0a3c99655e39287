import { expect, test, type APIRequestContext } from '@playwright/test';
import { alertEndpoints, REFUSAL_ALERT_COUNT } from '@cowork/contract';
import { bearerOf, demo, signIn, simulatedDoors } from './helpers';

/**
 * 告警通知: a simulated door refuses a card again and again while 运营 has the console open; the
 * alert shows in the header's bell within 5 seconds without a reload, opening it marks it read and
 * goes to the door's refusals in 开门记录, and 全部已读 clears the count. An alarm raised at a door
 * shows there too, opens 告警记录 and closes when the door clears it. 财务 has no bell.
 */
const doors = simulatedDoors();

/** A registered door of this spec (refusals need no more than protocol 1; alarms need v1.1). */
async function registeredDevice(request: APIRequestContext, protocol: '1' | '1.1' = '1') {
  const sn = `E2E-AL-${Date.now().toString(36).toUpperCase()}`;
  const name = `告警测试门 ${sn.slice(-4)}`;
  const headers = await bearerOf(request, demo.admin);
  const { id, device } = await doors.register(request, headers, { sn, name, protocol });
  return { id, name, device };
}

test('repeated refusals at a door reach the open bell within 5 s; read one, then all', async ({
  page,
  request,
}) => {
  test.slow();
  const { id, name, device } = await registeredDevice(request);

  await signIn(page, demo.yunying, '/');
  const bell = page.getByTestId('alert-bell');
  await expect(bell).toBeVisible();
  await bell.click();
  const panel = page.getByTestId('alert-panel');
  await expect(panel.getByText('告警通知')).toBeVisible();
  const item = panel.getByTestId('alert-item').filter({ hasText: `${name} 频繁拒绝开门` });
  await expect(item).toHaveCount(0);

  for (let i = 0; i < REFUSAL_ALERT_COUNT; i++)
    expect((await device.swipeCard(`E2E-NO-SUCH-CARD-${i}`)).result).toBe('denied');
  const refused = Date.now();
  // No reload: the open panel follows the server.
  await expect(item).toBeVisible({ timeout: 5_000 });
  expect(Date.now() - refused).toBeLessThan(5_000);
  await expect(item).toContainText('频繁拒绝开门');
  await expect(item).toContainText('未恢复');
  await expect(item).toHaveClass(/alert-item-unread/);
  await expect(bell).toHaveAccessibleName(/告警通知，\d+ 条未读/);

  await item.click();
  await expect(page).toHaveURL(new RegExp(`/hardware/log\\?deviceId=${id}&result=denied`));
  await expect(page.getByTestId('page-title')).toHaveText('开门记录');
  await bell.click();
  await expect(item).not.toHaveClass(/alert-item-unread/);

  await panel.getByRole('button', { name: '全部已读' }).click();
  await expect(bell).toHaveAccessibleName('告警通知');
  await expect(panel.locator('.alert-item-unread')).toHaveCount(0);
  // The server agrees: nothing unread for 运营.
  const yunying = await bearerOf(request, demo.yunying);
  const list = await request.get(alertEndpoints.list, { headers: yunying });
  expect(((await list.json()) as { data: { unread: number } }).data.unread).toBe(0);
});

test('staff without hardware permissions have no bell', async ({ page }) => {
  await signIn(page, demo.caiwu, '/');
  await expect(page.getByTestId('user-dropdown')).toBeVisible();
  await expect(page.getByTestId('alert-bell')).toHaveCount(0);
});

test('an alarm raised at a door shows in the bell and opens 告警记录', async ({ page, request }) => {
  test.slow();
  const { name, device } = await registeredDevice(request, '1.1');
  await signIn(page, demo.yunying, '/');
  const bell = page.getByTestId('alert-bell');
  await bell.click();
  const item = page
    .getByTestId('alert-panel')
    .getByTestId('alert-item')
    .filter({ hasText: `${name}：强行开门` });
  await expect(item).toHaveCount(0);

  expect(await device.raiseAlarm('forced', '门磁异常打开')).toBe(true);
  await expect(item).toBeVisible({ timeout: 5_000 });
  await expect(item).toContainText('设备告警');
  await expect(item).toContainText('门磁异常打开');
  await item.click();
  await expect(page).toHaveURL(/\/hardware\/alarm\?state=open/);
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('强行开门');

  // The device says it ended: the alert closes by itself.
  expect(await device.clearAlarm('forced')).toBe(true);
  await bell.click();
  await expect(item).toContainText('已恢复');
});
