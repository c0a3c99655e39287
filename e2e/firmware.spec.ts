import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { SimulatedDevice } from '../apps/server/src/device-link/simulator';
import { bearerOf, choose, demo, signIn, simulatedDoors } from './helpers';

/**
 * 固件升级 as the administrator: a firmware file is uploaded from the console, rolled out to two
 * simulated v1.1 devices of its model one at a time, and the rollout's detail shows each device
 * download, check and restart on the new version until both are 已完成.
 */
const doors = simulatedDoors();

test('a firmware file is uploaded and rolled out to two devices, which finish on the new version', async ({
  page,
  request,
}) => {
  test.slow();
  const tag = Date.now().toString(36).toUpperCase();
  const model = `SIM-FW-${tag}`;
  const version = '2.0.0';
  const headers = await bearerOf(request, demo.admin);

  // Two v1.1 devices of the model, enrolled and registered through the API; they come back after
  // the restart a firmware update ends with.
  const named: string[] = [];
  const updating: SimulatedDevice[] = [];
  for (const n of [1, 2]) {
    const sn = `E2E-FW-${tag}-${n}`;
    const name = `固件门 ${tag}-${n}`;
    const door = { sn, name, model, firmware: '1.0.0', reconnectMs: 200 };
    updating.push((await doors.register(request, headers, door)).device);
    named.push(`${name}（${sn}，当前 1.0.0）`);
  }

  await signIn(page, demo.admin);
  await page.goto('/hardware/firmware');
  await expect(page.getByTestId('page-title')).toHaveText('固件升级');

  await page.getByRole('tab', { name: '固件文件' }).click();
  await page.getByRole('button', { name: '上传固件' }).click();
  const upload = page.getByRole('dialog', { name: '上传固件' });
  await upload.getByRole('button', { name: /上\s*传/ }).click();
  await expect(upload.getByText('请填写固件版本号')).toBeVisible();
  await upload.getByLabel('版本号').fill(version);
  await upload.getByLabel('适用设备型号').fill(model);
  await upload.locator('input[type=file]').setInputFiles({
    name: 'door.bin',
    mimeType: 'application/octet-stream',
    buffer: randomBytes(200 * 1024),
  });
  await upload.getByRole('button', { name: /上\s*传/ }).click();
  await expect(page.getByText(`固件 ${model} ${version} 已上传`)).toBeVisible();
  const fileRow = page.getByRole('row').filter({ hasText: model });
  await expect(fileRow).toContainText('200 KB');

  // 升级 from the file's row: the dialog opens with the file chosen and only its model's devices.
  await fileRow.getByRole('button', { name: /升\s*级/ }).click();
  const dialog = page.getByRole('dialog', { name: '新建升级' });
  await expect(dialog.getByText('使用 v1.1 协议的设备共 2 台可选')).toBeVisible();
  // Each option names the device, its sn and the version it runs.
  await choose(page, '升级设备', ...named)(dialog);
  await dialog.getByLabel('每批台数').fill('1');
  await dialog.getByRole('button', { name: '开始升级' }).click();

  // The detail opens and follows both devices to the new version.
  const drawer = page.locator('.ant-drawer').filter({ hasText: '升级任务 #' });
  await expect(drawer.getByTestId('rollout-state')).toHaveText('已完成', { timeout: 60_000 });
  for (let n = 1; n <= 2; n++)
    await expect(drawer.getByRole('row').filter({ hasText: `E2E-FW-${tag}-${n}` })).toContainText('已完成');
  await expect(drawer).toContainText('完成 2 / 失败 0 / 共 2 台');
  expect(updating.map((d) => d.firmware)).toEqual([version, version]);
});
