import { expect, test } from '@playwright/test';
import { DEVELOPMENT_ENROL_KEY } from '../apps/server/src/config';
import { SimulatedDevice } from '../apps/server/src/device-link/simulator';
import { MQTT_PORT } from '../playwright.config';
import { bearerOf, choose, demo, signIn } from './helpers';
import { walkCrudScreen } from './resource';

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
  // The whole life of a device in one flow (enrol, register, open, code, log, passwords): longer
  // than the default minute when the machine is busy.
  test.slow();
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
  // The dialog opens with dots and shows the code once the server has answered it.
  await expect(page.getByTestId('totp-code')).toHaveText(/^\s*\d{6}\s*$/);
  const code = (await page.getByTestId('totp-code').innerText()).trim();
  expect((await device.enterCode(code)).result).toBe('success');
  await page.keyboard.press('Escape');

  await page.goto('/hardware/log');
  await expect(page.getByTestId('page-title')).toHaveText('开门记录');
  await page.getByLabel('序列号').fill(sn);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  // Only this device's openings once the search has answered (the whole log shows before it).
  await expect(page).toHaveURL(/sn=/);
  await expect(page.locator('tbody tr.ant-table-row').filter({ hasNotText: sn })).toHaveCount(0);
  const remote = page.getByRole('row').filter({ hasText: '远程开门' });
  await expect(remote).toContainText('E2E 前台门禁');
  await expect(remote).toContainText('成功');
  await expect(remote).toContainText(demo.yunying.nickname);
  await expect(page.getByRole('row').filter({ hasText: '动态码' })).toContainText('成功');
  // The search lives in the address: back shows the whole log and an empty form, forward the search.
  await page.goBack();
  await expect(page.getByLabel('序列号')).toHaveValue('');
  await page.goForward();
  await expect(page.getByLabel('序列号')).toHaveValue(sn);
  await page.reload();
  await expect(page.getByLabel('序列号')).toHaveValue(sn);

  // 设备管理's search form follows the address too.
  await page.goto('/hardware/device');
  const deviceSearch = page.locator('form#device-search');
  await deviceSearch.getByLabel('序列号').fill(sn);
  await deviceSearch.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page).toHaveURL(/sn=/);
  await page.goBack();
  await expect(deviceSearch.getByLabel('序列号')).toHaveValue('');
  await page.goForward();
  await expect(deviceSearch.getByLabel('序列号')).toHaveValue(sn);

  // 管理员密码: added with a reason, synced at once, opening at the keypad.
  await page.goto('/hardware/device');
  await page.getByRole('row').filter({ hasText: sn }).getByRole('button', { name: '更多' }).click();
  await page.getByRole('menuitem', { name: '管理员密码' }).click();
  const passwords = page.getByRole('dialog', { name: '管理员密码：E2E 前台门禁' });
  await passwords.getByLabel('新管理员密码').fill('86753090');
  await passwords.getByRole('button', { name: '添加密码' }).click();
  await expect(passwords.getByText('请填写操作原因，它会记入操作日志')).toBeVisible();
  await passwords.getByLabel('操作原因').fill('夜间保洁');
  await passwords.getByRole('button', { name: '添加密码' }).click();
  await expect(page.getByText('管理员密码已保存并同步到设备')).toBeVisible();
  await expect(passwords.getByRole('row')).toHaveCount(2);
  expect((await device.enterPassword('86753090')).result).toBe('success');
});

test('门禁联动: a set with a demo device holds a space, shows its sync, lets it go and is removed', async ({
  page,
}) => {
  await signIn(page, demo.yunying);
  await page.goto('/hardware/map');
  await expect(page.getByTestId('page-title')).toHaveText('门禁联动');
  // The demo runs three simulated devices in one demo set.
  await expect(page.getByRole('row').filter({ hasText: '演示门禁联动' })).toContainText('3');

  await page.getByRole('button', { name: '新建门禁联动' }).click();
  const dialog = page.getByRole('dialog', { name: '新建门禁联动' });
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog.getByText('请填写联动名称')).toBeVisible();
  await dialog.getByLabel('联动名称').fill('E2E 联动');
  // A device is named with where it is: every demo building has its 大堂闸机. Other specs register
  // devices too, and the picker draws only the options that fit: search by name first, as staff do.
  await dialog.getByLabel('设备', { exact: true }).fill('大堂闸机');
  const door = '氪空间·望京SOHO / 大堂闸机 / 大堂闸机（DEMO-001）';
  await page.locator('.ant-select-dropdown:visible').getByTitle(door, { exact: true }).click();
  await expect(dialog.locator('.ant-select').filter({ hasText: door })).toBeVisible();
  // Closed by a click beside it (Escape would close the dialog too).
  await dialog.getByLabel('联动名称').click();
  await expect(page.locator('.ant-select-dropdown:visible')).toBeHidden();
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('门禁联动已创建，设备正在同步权限')).toBeVisible();

  const row = page.getByRole('row').filter({ hasText: 'E2E 联动' });
  await row.getByRole('button', { name: '设备与空间' }).click();
  const drawer = page.getByRole('dialog', { name: '门禁联动：E2E 联动' });
  await expect(drawer.getByRole('row').filter({ hasText: 'DEMO-001' })).toContainText('已同步');
  await expect(drawer.getByRole('row').filter({ hasText: 'DEMO-001' })).toContainText(
    '氪空间·望京SOHO / 大堂闸机',
  );

  await drawer.getByRole('tab', { name: '可关联空间' }).click();
  const free = drawer.getByRole('tabpanel', { name: '可关联空间' });
  await free.getByLabel('空间名称').fill('大堂闸机');
  await free.getByRole('button', { name: /查\s*询/ }).click();
  await free
    .getByRole('row')
    .filter({ hasText: '大堂闸机' })
    .first()
    .getByRole('button', { name: '关联' })
    .click();
  await expect(page.getByText('已关联 1 个空间，设备正在同步权限')).toBeVisible();

  await drawer.getByRole('tab', { name: '已关联空间' }).click();
  const held = drawer.getByRole('tabpanel', { name: '已关联空间' });
  const heldRow = held.getByRole('row').filter({ hasText: '大堂闸机' });
  await expect(heldRow).toBeVisible();
  await heldRow.getByRole('button', { name: '取消关联' }).click();
  await expect(page.getByText('已取消关联 1 个空间，设备正在同步权限')).toBeVisible();
  await expect(held.getByText('还没有关联空间')).toBeVisible();
  await page.keyboard.press('Escape');

  await row.getByRole('button', { name: '删除' }).click();
  await page
    .getByRole('dialog', { name: '删除门禁联动“E2E 联动”？' })
    .getByRole('button', { name: '确认删除' })
    .click();
  await expect(page.getByText('门禁联动“E2E 联动”已删除，相关设备正在同步权限')).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('物理空间: a floor created in the list shows in its building tree, with the gate under it', async ({
  page,
}) => {
  await signIn(page, demo.yunying);
  const building = '氪空间·中关村';
  await walkCrudScreen(page, {
    path: '/hardware/space',
    label: '空间',
    requiredMessage: '请填写空间名称',
    create: {
      空间名称: '12F',
      所属楼宇: choose(page, '所属楼宇', building),
      空间类型: choose(page, '空间类型', '楼层'),
    },
    search: { 空间名称: '12F' },
    edit: { 空间名称: '12F 办公区' },
  });

  // walkCrudScreen deleted it again: build the floor and a gate under it, and read the tree.
  await page.getByRole('button', { name: '新建空间' }).click();
  let drawer = page.getByRole('dialog', { name: '新建空间' });
  await drawer.getByLabel('空间名称', { exact: true }).fill('15F');
  await choose(page, '所属楼宇', building)(drawer);
  await choose(page, '空间类型', '楼层')(drawer);
  await drawer.getByRole('button', { name: /保\s*存/ }).click();
  // The drawer closes only once saved; the previous save's toast may still be showing beside this one.
  await expect(drawer).toBeHidden();
  await expect(page.getByText('空间已新建').first()).toBeVisible();

  await page.getByRole('button', { name: '新建空间' }).click();
  drawer = page.getByRole('dialog', { name: '新建空间' });
  await drawer.getByLabel('空间名称', { exact: true }).fill('15F 闸机');
  await choose(page, '所属楼宇', building)(drawer);
  // The parent is offered as its path from the building (every building has its floors).
  await choose(page, '上级空间', `${building} / 15F`)(drawer);
  await choose(page, '空间类型', '出入口')(drawer);
  await drawer.getByRole('button', { name: /保\s*存/ }).click();
  // The drawer closes only once saved; the previous save's toast may still be showing beside this one.
  await expect(drawer).toBeHidden();
  await expect(page.getByText('空间已新建').first()).toBeVisible();

  await choose(page, '楼宇', building)(page.locator('.ant-card').filter({ hasText: '空间结构' }));
  const tree = page.getByRole('tree');
  await expect(tree).toContainText('15F');
  await tree
    .locator('.ant-tree-treenode')
    .filter({ has: page.getByText('15F', { exact: true }) })
    .locator('.ant-tree-switcher')
    .click();
  await expect(tree).toContainText('15F 闸机');
});

test('注册 offers the chosen building’s spaces by path; 待注册 is counted; a device never connected says so, 状态 first on a phone', async ({
  page,
}) => {
  const sn = `E2E-PATH-${Date.now().toString(36).toUpperCase()}`;
  const enrolling = new SimulatedDevice({ url, sn, enrolKey: DEVELOPMENT_ENROL_KEY, model: 'SIM-PATH' });
  devices.push(enrolling);
  await enrolling.connect();

  await signIn(page, demo.yunying);
  await page.goto('/hardware/device');
  // The 待注册 tab says how many devices wait, without being opened.
  const waitingTab = page.getByRole('tab', { name: /待注册/ });
  await expect(waitingTab.locator('.ant-badge-count')).toHaveText(/^\s*[1-9]\d*\s*$/);
  await waitingTab.click();
  await page
    .getByRole('row')
    .filter({ hasText: sn })
    .getByRole('button', { name: /注\s*册/ })
    .click();
  const dialog = page.getByRole('dialog', { name: `注册设备 ${sn}` });
  await dialog.getByLabel('设备名称').fill('中关村测试门禁');
  await choose(page, '楼宇', '氪空间·中关村')(dialog);
  // Only that building's spaces, each as 楼宇 / 上级空间 / 空间.
  await dialog.getByLabel('所属空间').click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(options.first()).toBeVisible();
  for (const title of await options.evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? '')))
    expect(title).toMatch(/^氪空间·中关村 \/ /);
  // Closed by a click beside it (Escape would close the dialog too).
  await dialog.getByText(`注册设备 ${sn}`).click();
  await choose(page, '所属空间', '氪空间·中关村 / 大堂闸机')(dialog);
  await dialog.getByRole('button', { name: /注\s*册/ }).click();
  await page
    .getByRole('dialog', { name: '设备已注册' })
    .getByRole('button', { name: '我已保存密钥' })
    .click();
  await enrolling.close();

  // Registered and never connected with its secret: 从未连接, not 离线, and not 已同步.
  const row = page.getByRole('row').filter({ hasText: sn });
  await expect(row).toContainText('氪空间·中关村 / 大堂闸机');
  await expect(row).toContainText('从未连接');
  await expect(row).toContainText('未同步');
  await expect(row).not.toContainText('离线');
  await expect(row).not.toContainText('已同步');
  // Nothing waits any more: no count on the tab.
  await expect(waitingTab.locator('.ant-badge-count')).toHaveCount(0);

  // On a phone the state is the first thing in a row, without scrolling sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/hardware/device?sn=${sn}`);
  const phoneRow = page.getByRole('row').filter({ hasText: sn });
  const state = phoneRow.getByText('从未连接');
  await expect(state).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('columnheader', { name: '状态' })).toBeInViewport({ ratio: 1 });
  // Shown, not covered by another column pinned over it.
  const seen = await state.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return [r.left + 2, r.right - 2].every((x) =>
      el.contains(document.elementFromPoint(x, r.top + r.height / 2)),
    );
  });
  expect(seen).toBe(true);
  await page.screenshot({ path: test.info().outputPath('device-list-390.png') });
});

test('开门记录 refreshes itself on the page and filters shown; 查询 with unchanged filters asks again', async ({
  page,
  request,
}) => {
  await signIn(page, demo.yunying);
  await page.goto('/hardware/log');
  await expect(page.getByTestId('page-title')).toHaveText('开门记录');
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/open-log/page')) asked.push(r.url());
  });
  await page.getByLabel('序列号').fill('DEMO-002');
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page).toHaveURL(/sn=DEMO-002/);
  await expect(page.locator('tbody tr.ant-table-row').filter({ hasNotText: 'DEMO-002' })).toHaveCount(0);

  // 查询 again, filters unchanged: each click is one more request.
  for (const _ of [1, 2]) {
    const before = asked.length;
    const answered = page.waitForResponse((r) => r.url().includes('/open-log/page'));
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await answered;
    expect(asked.length).toBeGreaterThan(before);
  }

  // A door opened meanwhile (from the API) shows in the list without a reload, the search kept.
  const byAdmin = page
    .getByRole('row')
    .filter({ hasText: '远程开门' })
    .filter({ hasText: demo.admin.nickname });
  await expect(byAdmin).toHaveCount(0);
  const headers = await bearerOf(request, demo.admin);
  const found = await request.get('/api/hardware/admin/v1/device/page', {
    headers,
    params: { sn: 'DEMO-002' },
  });
  const [device] = (await found.json()).data.records as { id: number; name: string }[];
  const opened = await request.post('/api/hardware/admin/v1/device/open-door', {
    headers,
    data: { id: device.id, durationS: 7 },
  });
  expect(opened.status(), await opened.text()).toBe(200);
  let reloaded = false;
  page.on('load', () => (reloaded = true));
  await expect(byAdmin).toHaveCount(1);
  expect(reloaded).toBe(false);
  await expect(page).toHaveURL(/sn=DEMO-002/);
  await expect(page.getByLabel('序列号')).toHaveValue('DEMO-002');
});
