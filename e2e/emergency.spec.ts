import { expect, test } from '@playwright/test';
import { prefixes, resourcePaths } from '@cowork/contract';
import {
  kreatorDeviceEndpoints,
  kreatorUserEndpoints,
  kreatorUserGroup,
} from '@cowork/contract/resources/kreator';
import { company } from '@cowork/contract/resources/company';
import { space } from '@cowork/contract/resources/space';
import { bearerOf, demo, memberCode, signIn, simulatedDoors } from './helpers';

/**
 * 紧急模式: the super admin locks a 楼栋 down from 物理空间 (the confirmation names how many doors
 * change, the answer lists the door as 已生效), 设备管理 shows the red banner, the simulated door
 * refuses a member's personal code that it admitted before, and back to 正常 the banner goes and
 * the code works again.
 */
const doors = simulatedDoors();

test('a 楼栋 locked down from 物理空间 refuses a member code, with a banner on 设备管理, until back to 正常', async ({
  page,
  request,
}) => {
  test.slow();
  const tag = Date.now().toString(36).toUpperCase();
  const sn = `E2E-EM-${tag}`;
  const spaceName = `应急楼栋 ${tag}`;
  const headers = await bearerOf(request, demo.admin);
  const post = async (path: string, data: object) => {
    const res = await request.post(path, { headers, data });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { data: { id: number } }).data;
  };

  // A 楼栋 with a floor of its own in a demo 楼宇, and a v1.1 door on the floor (through the API:
  // registering has its own test).
  const buildings = (await (await request.get(`${prefixes.building}/building/list`, { headers })).json()) as {
    data: { value: number }[];
  };
  const buildingId = buildings.data[0].value;
  const paths = resourcePaths(space);
  const top = await post(paths.save, { name: spaceName, kind: 'building', buildingId, parentId: null });
  const floor = await post(paths.save, { name: `${tag} 9F`, kind: 'floor', buildingId, parentId: top.id });
  const registered = await doors.register(request, headers, { sn, name: `应急门 ${tag}`, spaceId: floor.id });
  const { id: deviceId, secret, device: door } = registered;

  // A member of an enterprise access group holding the door: the door admits their personal code.
  const day = 86_400_000;
  const owner = await post(resourcePaths(company).save, {
    name: `应急测试公司 ${tag}`,
    buildingIds: [buildingId],
    status: 'enabled',
  });
  const group = await post(resourcePaths(kreatorUserGroup).save, {
    name: `应急测试门禁组 ${tag}`,
    companyId: owner.id,
    staffScope: 'people',
    buildingId,
    validFrom: new Date(Date.now() - day).toISOString(),
    validTo: new Date(Date.now() + 30 * day).toISOString(),
    status: 'enabled',
  });
  await post(kreatorDeviceEndpoints.add, { groupId: group.id, deviceIds: [deviceId] });
  await post(kreatorUserEndpoints.save, { groupId: group.id, name: '应急测试', phone: '17900009101' });
  await expect.poll(() => door.state.access.length).toBeGreaterThan(0);
  const { memberId } = door.state.access[0];
  expect((await door.enterCode(memberCode(secret, memberId))).result).toBe('success');

  // 封锁 from 物理空间: the confirmation names the one door, the answer shows it took the mode.
  await signIn(page, demo.admin, '/hardware/space');
  await expect(page.getByTestId('page-title')).toHaveText('物理空间');
  await page.getByLabel('空间名称').fill(spaceName);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: spaceName, exact: true }) });
  await row.getByRole('button', { name: '紧急模式' }).click();
  const dialog = page.getByRole('dialog', { name: `紧急模式：${spaceName}` });
  await expect(dialog).toContainText('1 台（含下级空间）');
  await dialog.getByText('封锁', { exact: true }).click();
  await dialog.getByRole('button', { name: '下一步' }).click();
  await expect(dialog.getByText('请填写切换紧急模式的原因，它会记入操作日志并显示在横幅上')).toBeVisible();
  await dialog.getByLabel('原因').fill('E2E 发现可疑人员');
  await dialog.getByRole('button', { name: '下一步' }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: '切换为封锁？' });
  await expect(confirm.getByTestId('mode-confirm-count')).toContainText('1 扇门');
  await confirm.getByRole('button', { name: '确认封锁' }).click();
  await expect(dialog.getByText('已切换为封锁：1/1 台设备已生效')).toBeVisible();
  await expect(dialog.getByRole('row').filter({ hasText: `应急门 ${tag}` })).toContainText('已生效');
  expect(door.state.mode).toBe('lockdown');
  await dialog.getByRole('button', { name: /完\s*成/ }).click();

  // Every hardware screen says so, in red.
  await page.goto('/hardware/device');
  await expect(page.getByTestId('page-title')).toHaveText('设备管理');
  const banner = page.locator('.mode-banner');
  await expect(banner.locator('.ant-alert-error')).toContainText(spaceName);
  await expect(banner).toContainText('封锁（原因：E2E 发现可疑人员');

  // The door refuses the member's code now.
  const refused = await door.enterCode(memberCode(secret, memberId));
  expect(refused.result).toBe('denied');

  // Back to 正常: the banner goes, the code works again.
  await page.goto('/hardware/space');
  await page.getByLabel('空间名称').fill(spaceName);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await row.getByRole('button', { name: '紧急模式' }).click();
  await expect(dialog).toContainText('当前模式封锁');
  await dialog.getByText('恢复正常', { exact: true }).click();
  await dialog.getByLabel('原因').fill('E2E 排查完毕');
  await dialog.getByRole('button', { name: '下一步' }).click();
  await page
    .getByRole('dialog')
    .filter({ hasText: '切换为正常？' })
    .getByRole('button', { name: '确认恢复正常' })
    .click();
  await expect(dialog.getByText('已切换为正常：1/1 台设备已生效')).toBeVisible();
  await dialog.getByRole('button', { name: /完\s*成/ }).click();
  await expect(page.locator('.mode-banner')).toHaveCount(0);
  expect(door.state.mode).toBe('normal');
  expect((await door.enterCode(memberCode(secret, memberId))).result).toBe('success');
});
