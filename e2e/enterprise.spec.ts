import { expect, test } from '@playwright/test';
import { resourcePaths } from '@cowork/contract';
import { company } from '@cowork/contract/resources/company';
import { bearerOf, choose, dayFromToday, demo, itemInput, signIn, workbookFile } from './helpers';

const day = dayFromToday;

test('企业门禁组: a group of chosen people gets members from Excel and a demo door; removing a member syncs the door again', async ({
  page,
  request,
}) => {
  // The group's company (the 企业 screen has its own spec).
  const companyName = `端到端测试有限公司${Date.now() % 100_000}`;
  const saved = await request.post(resourcePaths(company).save, {
    headers: await bearerOf(request, demo.admin),
    data: { name: companyName, status: 'enabled' },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  await signIn(page, demo.yunying);
  await page.goto('/enterprise/accessControl');
  await expect(page.getByTestId('page-title')).toHaveText('企业门禁组');
  await expect(page.getByRole('row').filter({ hasText: '星河科技门禁组' })).toContainText('启用');

  const name = `E2E门禁组${Date.now() % 100_000}`;
  await page.getByRole('button', { name: '新建企业门禁组' }).click();
  const drawer = page.getByRole('dialog', { name: '新建企业门禁组' });
  await drawer.getByLabel('门禁组名称', { exact: true }).fill(name);
  await choose(page, '企业', companyName)(drawer);
  await choose(page, '成员范围', '指定人员')(drawer);
  await choose(page, '楼宇', '氪空间·望京SOHO')(drawer);
  await itemInput(drawer, '生效时间').fill(`${day(-1)} 09:00:00`);
  await itemInput(drawer, '生效时间').press('Enter');
  await itemInput(drawer, '失效时间').fill(`${day(-2)} 09:00:00`);
  await itemInput(drawer, '失效时间').press('Enter');
  await choose(page, '状态', '启用')(drawer);
  await drawer.getByRole('button', { name: /保\s*存/ }).click();
  // The server refuses a group ending before it starts, naming the field.
  await expect(page.getByText(/失效时间：失效时间必须晚于生效时间/)).toBeVisible();
  await itemInput(drawer, '失效时间').fill(`${day(60)} 18:00:00`);
  await itemInput(drawer, '失效时间').press('Enter');
  await drawer.getByRole('button', { name: /保\s*存/ }).click();
  await expect(drawer).toBeHidden();

  const row = page.getByRole('table').getByRole('row').filter({ hasText: name });
  await row.getByRole('button', { name: '成员与设备' }).click();
  const group = page.getByRole('dialog', { name: `企业门禁组：${name}` });

  // Members from Excel: a bad file imports nothing and lists its rows; a good one imports all.
  await group.getByRole('button', { name: /Excel 导入/ }).click();
  const importer = page.getByRole('dialog', { name: '导入门禁组成员' });
  const bad = await workbookFile(
    'kreator-bad.xlsx',
    ['姓名', '手机号'],
    [
      ['钱一', '17800001001'],
      ['孙二', '178000'],
    ],
  );
  await importer.locator('input[type=file]').setInputFiles(bad);
  await expect(importer.getByText(/有 1 行数据有误，未导入任何数据/)).toBeVisible();
  await expect(importer.getByRole('table', { name: '错误报告' })).toContainText('手机号');
  const good = await workbookFile(
    'kreator-good.xlsx',
    ['姓名', '手机号'],
    [
      ['钱一', '17800001001'],
      ['孙二', '17800001002'],
    ],
  );
  await importer.locator('input[type=file]').setInputFiles(good);
  await expect(importer.getByRole('progressbar')).toBeVisible();
  await expect(importer.getByText('已导入 2 条数据')).toBeVisible();
  await importer.getByRole('button', { name: 'Close' }).or(importer.getByLabel('Close')).first().click();
  const members = group.getByRole('tabpanel', { name: '成员' });
  await expect(members.getByRole('row').filter({ hasText: '17800001002' })).toContainText('孙二');

  // A door: added from the picker, shown 已同步 once the device has acked the group's members.
  await group.getByRole('tab', { name: '设备' }).click();
  const doors = group.getByRole('tabpanel', { name: '设备' });
  // The picker offers the group's building's devices only, each named with where it is.
  await doors.getByLabel('设备', { exact: true }).click();
  const offered = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(offered.first()).toBeVisible();
  for (const title of await offered.evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? '')))
    expect(title).toMatch(/^氪空间·望京SOHO \/ /);
  // Closed by a click beside it (Escape would close the drawer too).
  await group.getByText(`企业门禁组：${name}`).click();
  await choose(page, '设备', '氪空间·望京SOHO / 大堂闸机 / 大堂闸机（DEMO-001）')(doors);
  await doors.getByRole('button', { name: '添加设备' }).click();
  await expect(page.getByText('已添加 1 台设备，设备正在同步权限')).toBeVisible();
  const door = doors.getByRole('row').filter({ hasText: 'DEMO-001' });
  await expect(door).toContainText('已同步');

  // Revoking a member reaches the door: it syncs again and shows 已同步.
  await group.getByRole('tab', { name: '成员' }).click();
  const leaving = members.getByRole('row').filter({ hasText: '17800001001' });
  await leaving.getByRole('button', { name: /删\s*除/ }).click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /删\s*除/ })
    .click();
  await expect(leaving).toHaveCount(0);
  await group.getByRole('tab', { name: '设备' }).click();
  await expect(door).toContainText('已同步');
  await expect(door).toContainText('氪空间·望京SOHO / 大堂闸机');
  await page.keyboard.press('Escape');
  await expect(row).toContainText('1');

  // A group of another building (the demo's 国贸中心 group) is offered none of 望京SOHO's doors.
  await page
    .getByRole('table')
    .getByRole('row')
    .filter({ hasText: '云帆传媒门禁组' })
    .getByRole('button', { name: '成员与设备' })
    .click();
  const other = page.getByRole('dialog', { name: '企业门禁组：云帆传媒门禁组' });
  await other.getByRole('tab', { name: '设备' }).click();
  const otherDoors = other.getByRole('tabpanel', { name: '设备' });
  await otherDoors.getByLabel('设备', { exact: true }).click();
  await expect(page.locator('.ant-select-dropdown:visible')).toContainText('本楼宇没有匹配的设备');
  await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option')).toHaveCount(0);
  await page.keyboard.press('Escape');
});

test('企业会议卡: the demo card shows its staff this month; a top-up lands in the ledger and the balance', async ({
  page,
}) => {
  await signIn(page, demo.yunying);
  await page.goto('/enterprise/teamCard');
  await expect(page.getByTestId('page-title')).toHaveText('企业会议卡');
  const row = page.getByRole('table').getByRole('row').filter({ hasText: '上海星河科技有限公司' });
  await expect(row).toContainText('¥8,000.00');
  await row.getByRole('button', { name: '流水与充值' }).click();
  const drawer = page.getByRole('dialog', { name: /^企业会议卡：QY\d{8}$/ });
  await expect(drawer.getByRole('row').filter({ hasText: '17700000001' })).toContainText('¥2,000.00');

  const form = drawer.locator('form[id="company-card-top-up"]');
  await form.getByRole('button', { name: /充\s*值/ }).click();
  await expect(form).toContainText('请填写充值备注');
  await form.getByLabel('充值金额', { exact: true }).fill('100');
  await form.getByLabel('充值备注', { exact: true }).fill('端到端充值');
  await form.getByRole('button', { name: /充\s*值/ }).click();
  await expect(page.getByText('已充值 ¥100.00，当前余额 ¥8,100.00')).toBeVisible();
  const latest = drawer.getByRole('row').filter({ hasText: '端到端充值' });
  await expect(latest).toContainText('+¥100.00');
  await expect(latest).toContainText('¥8,100.00');
  await page.keyboard.press('Escape');
  await expect(row).toContainText('¥8,100.00');
});
