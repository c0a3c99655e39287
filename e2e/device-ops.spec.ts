import { expect, test } from '@playwright/test';
import { prefixes, resourcePaths } from '@cowork/contract';
import { building } from '@cowork/contract/resources/building';
import { space } from '@cowork/contract/resources/space';
import { bearerOf, demo, signIn, simulatedDoors } from './helpers';

/**
 * 门禁运维 on 设备管理: a simulated v1.1 door shows 已同步 with its state version and its offline
 * lease; 重启 from its detail restarts it (the command listed as 已确认); a building's
 * 门禁离线授权时长 edited on 楼宇列表 is saved and shown on the door's detail.
 */
const doors = simulatedDoors();

test('a v1.1 door shows 已同步 with its version, reboots from its detail, and takes its building’s lease', async ({
  page,
  request,
}) => {
  test.slow();
  const tag = Date.now().toString(36).toUpperCase();
  const sn = `E2E-OPS-${tag}`;
  const name = `运维门 ${tag}`;
  const headers = await bearerOf(request, demo.admin);
  const post = async <T = { id: number }>(path: string, data: object) => {
    const res = await request.post(path, { headers, data });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { data: T }).data;
  };

  // A v1.1 door in a space of its own in a demo 楼宇 (through the API: registering has its own test).
  const buildings = (await (await request.get(`${prefixes.building}/building/list`, { headers })).json()) as {
    data: { value: number; label: string }[];
  };
  const { value: buildingId, label: buildingName } = buildings.data[buildings.data.length - 1];
  const room = await post(resourcePaths(space).save, {
    name: `运维楼栋 ${tag}`,
    kind: 'building',
    buildingId,
    parentId: null,
  });
  const { device: door } = await doors.register(request, headers, { sn, name, spaceId: room.id });

  await signIn(page, demo.admin);
  await page.goto('/hardware/device');
  await expect(page.getByTestId('page-title')).toHaveText('设备管理');
  const row = page.getByRole('row').filter({ hasText: sn });
  await expect(row.getByTestId('device-sync')).toContainText(/已同步 v\d+/);
  await expect(row.getByTestId('device-lease')).toContainText('离线授权至');

  // 重启 from the detail: the device acks, restarts, and the command shows with its fate.
  await row.getByRole('button', { name: '详情' }).click();
  const drawer = page.getByRole('dialog', { name: `设备详情：${name}` });
  await drawer.getByRole('button', { name: /重\s*启/ }).click();
  const confirm = page.getByRole('dialog', { name: `重启：${name}` });
  await confirm.getByLabel('操作原因（选填）').fill('屏幕无响应');
  await confirm.getByRole('button', { name: /重\s*启/ }).click();
  await expect(page.getByText(`设备“${name}”已确认重启`)).toBeVisible();
  expect(door.commands.some((c) => c.type === 'reboot')).toBe(true);
  const rebootRow = drawer.getByRole('row').filter({ hasText: '重启' });
  await expect(rebootRow).toContainText('屏幕无响应');
  await expect(rebootRow).toContainText('已确认');
  await page.keyboard.press('Escape');

  // The building's lease, edited on 楼宇列表, is saved and reaches the door's detail.
  await page.goto('/building/list');
  const buildingRow = page.getByRole('row').filter({ hasText: buildingName });
  await buildingRow.getByRole('button', { name: /编\s*辑/ }).click();
  const editor = page.getByRole('dialog', { name: '编辑楼宇' });
  const lease = editor.getByLabel('门禁离线授权时长（小时）');
  await lease.fill('200');
  await editor.getByRole('button', { name: /保\s*存/ }).click();
  await expect(editor.getByText('门禁离线授权时长（小时）不能大于 168')).toBeVisible();
  await lease.fill('12');
  await editor.getByRole('button', { name: /保\s*存/ }).click();
  await expect(editor).toBeHidden();
  const stored = (await (
    await request.get(`${resourcePaths(building).detail}/${buildingId}`, { headers })
  ).json()) as { data: { deviceLeaseHours: number } };
  expect(stored.data.deviceLeaseHours).toBe(12);

  await page.goto('/hardware/device');
  await page.getByRole('row').filter({ hasText: sn }).getByRole('button', { name: '详情' }).click();
  await expect(
    page.getByRole('dialog', { name: `设备详情：${name}` }).getByTestId('device-lease'),
  ).toContainText('楼宇设定 12 小时');
});
