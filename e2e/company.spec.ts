import ExcelJS from 'exceljs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  accessViewEndpoints,
  creditCodeCheckChar,
  prefixes,
  resourcePaths,
  type DeviceAccessRow,
} from '@cowork/contract';
import { auditResourceLabel } from '@cowork/contract/resources/audit-vocabulary';
import { company, companyStaff } from '@cowork/contract/resources/company';
import { companyCardEndpoints } from '@cowork/contract/resources/company-card';
import { space } from '@cowork/contract/resources/space';
import { teamCard } from '@cowork/contract/resources/team-card';
import {
  bearerOf,
  choose,
  dayFromToday,
  demo,
  itemInput,
  memberCode,
  PNG,
  signIn,
  simulatedDoors,
} from './helpers';

/**
 * 企业 end to end: a company is created (its credit code's check digit checked), its staff imported
 * from the screen's own template, a group of 企业门禁组 takes all of them and a door of its building,
 * the door's 门禁权限查询 lists them with the group as the reason (the same members the simulated door
 * holds), a company card takes them all too, and marking one 离职 says what ended and takes them off
 * the door, the device's list and the card.
 */
const doors = simulatedDoors();

const building = '氪空间·望京SOHO';
const CHARSET = '0123456789ABCDEFGHJKLMNPQRTUWXY';

/** A valid 统一社会信用代码 made from a tag, and the same with a wrong check character. */
function creditCodes(seed: number) {
  const body = `91310000${String(seed).padStart(9, '0').slice(-9)}`;
  const check = creditCodeCheckChar(body);
  const wrong = CHARSET[(CHARSET.indexOf(check) + 1) % CHARSET.length];
  return { good: `${body}${check}`, bad: `${body}${wrong}` };
}

const staff = [
  ['郑一', '17600003001', '研发部'],
  ['钱二', '17600003002', '研发部'],
  ['孙三', '17600003003', '市场部'],
];

/** Closes the topmost drawer or dialog by its close button (Escape might close the one below too). */
async function closeDialog(dialog: Locator) {
  await dialog
    .getByRole('button', { name: /Close|关闭/ })
    .first()
    .click();
  await expect(dialog).toBeHidden();
}

/** Fills one of the edit drawer's date-time pickers. */
async function pickTime(drawer: Locator, label: string, value: string) {
  await itemInput(drawer, label).fill(value);
  await itemInput(drawer, label).press('Enter');
}

/** Opens a company's 详情 from the 企业 list. */
async function openCompany(page: Page, name: string) {
  await page.goto('/enterprise/company');
  await page
    .getByRole('table')
    .getByRole('row')
    .filter({ hasText: name })
    .getByRole('button', { name: '详情' })
    .click();
  const detail = page.getByRole('dialog', { name: '企业详情' });
  await expect(detail).toContainText(name);
  return detail;
}

test('企业: import staff, a group taking all of them opens a door, 离职 takes one off the door and the card', async ({
  page,
  request,
}) => {
  test.slow();
  const tag = Date.now() % 1_000_000_000;
  const companyName = `端到端企业${tag}`;
  const groupName = `全员门禁组${tag}`;
  const codes = creditCodes(tag);
  const headers = await bearerOf(request, demo.admin);
  const get = async <T>(path: string, params: Record<string, string | number> = {}) => {
    const res = await request.get(path, { headers, params });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { data: T }).data;
  };

  // A room of 望京SOHO with a door of its own (registered through the API: that has its own test).
  const buildings = await get<{ value: number; label: string }[]>(`${prefixes.building}/building/list`);
  const buildingId = buildings.find((b) => b.label === building)!.value;
  const roomName = `企业出入口 ${tag}`;
  const saved = await request.post(resourcePaths(space).save, {
    headers,
    data: { name: roomName, kind: 'gate', buildingId, parentId: null },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const roomId = ((await saved.json()) as { data: { id: number } }).data.id;
  const sn = `E2E-CO-${tag}`;
  const doorName = `企业门 ${tag}`;
  const {
    id: deviceId,
    secret,
    device: door,
  } = await doors.register(request, headers, {
    sn,
    name: doorName,
    spaceId: roomId,
  });

  // 新建企业: a credit code with a wrong check character is refused before anything is sent.
  await signIn(page, demo.admin, '/enterprise/company');
  await expect(page.getByTestId('page-title')).toHaveText('企业');
  await page.getByRole('button', { name: '新建企业' }).click();
  const form = page.getByRole('dialog', { name: '新建企业' });
  await form.getByLabel('企业名称', { exact: true }).fill(companyName);
  await form.getByLabel('统一社会信用代码', { exact: true }).fill(codes.bad);
  await form.getByLabel('联系人', { exact: true }).fill('王经理');
  await form.getByLabel('联系电话', { exact: true }).fill('13900001234');
  await choose(page, '入驻楼宇', building)(form);
  await choose(page, '状态', '合作中')(form);
  await form.getByLabel('发票抬头', { exact: true }).fill(`${companyName}（开票）`);
  await form.getByLabel('税号', { exact: true }).fill(codes.good);
  await form
    .locator('input[type=file]')
    .first()
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  await expect(form.locator('.ant-upload-list-item').first()).toBeVisible();
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(form).toContainText('校验位不正确');
  await form.getByLabel('统一社会信用代码', { exact: true }).fill(codes.good);
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(form).toBeHidden();

  // Found by its credit code; 详情 → 员工 → Excel 导入 from the screen's template.
  const search = page.locator('form#company-search');
  await search.getByLabel('统一社会信用代码').fill(codes.good.slice(0, 12));
  await search.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page.getByRole('table').getByRole('row').filter({ hasText: companyName })).toContainText(
    '合作中',
  );
  let detail = await openCompany(page, companyName);
  const staffTab = detail.getByRole('tabpanel', { name: '员工' });
  await staffTab.getByRole('button', { name: /Excel 导入/ }).click();
  const importer = page.getByRole('dialog', { name: '导入企业员工' });
  const [template] = await Promise.all([
    page.waitForEvent('download'),
    importer.getByRole('button', { name: '下载模板' }).click(),
  ]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await template.path());
  const sheet = book.worksheets[0];
  const headerRow = sheet.getRow(1).values as unknown[];
  const columnOf = (title: string) => headerRow.findIndex((v) => String(v).replace(/\*$/, '') === title);
  for (const [name, phone, department] of staff) {
    const row = sheet.addRow([]);
    row.getCell(columnOf('姓名')).value = name;
    row.getCell(columnOf('手机号')).value = phone;
    row.getCell(columnOf('部门')).value = department;
  }
  const filled = test.info().outputPath('company-staff.xlsx');
  await book.xlsx.writeFile(filled);
  await importer.locator('input[type=file]').setInputFiles(filled);
  await expect(importer.getByText('已导入 3 条数据')).toBeVisible();
  await closeDialog(importer);
  for (const [name, phone] of staff)
    await expect(staffTab.getByRole('row').filter({ hasText: phone })).toContainText(name);

  // 门禁组: a group of the company taking all its active staff, given the room's door.
  await detail.getByRole('tab', { name: '门禁组' }).click();
  const groupsTab = detail.getByRole('tabpanel', { name: '门禁组' });
  await groupsTab.getByRole('button', { name: '新建企业门禁组' }).click();
  const groupForm = page.getByRole('dialog', { name: '新建企业门禁组' });
  await groupForm.getByLabel('门禁组名称', { exact: true }).fill(groupName);
  await choose(page, '成员范围', '全部在职员工')(groupForm);
  await choose(page, '楼宇', building)(groupForm);
  await pickTime(groupForm, '生效时间', `${dayFromToday(-1)} 09:00:00`);
  await pickTime(groupForm, '失效时间', `${dayFromToday(60)} 18:00:00`);
  await choose(page, '状态', '启用')(groupForm);
  await groupForm.getByRole('button', { name: /保\s*存/ }).click();
  await expect(groupForm).toBeHidden();
  const groupRow = groupsTab.getByRole('row').filter({ hasText: groupName });
  await expect(groupRow).toContainText('全部在职员工');
  await groupRow.getByRole('button', { name: '成员与设备' }).click();
  const group = page.getByRole('dialog', { name: `企业门禁组：${groupName}` });
  await expect(group).toContainText('成员范围：全部在职员工');
  for (const [name] of staff) await expect(group.getByRole('row').filter({ hasText: name })).toHaveCount(1);
  await group.getByRole('tab', { name: '设备' }).click();
  const groupDoors = group.getByRole('tabpanel', { name: '设备' });
  await choose(page, '设备', `${building} / ${roomName} / ${doorName}（${sn}）`)(groupDoors);
  await groupDoors.getByRole('button', { name: '添加设备' }).click();
  await expect(groupDoors.getByRole('row').filter({ hasText: sn })).toContainText('已同步');
  await expect.poll(() => door.state.access.length).toBe(3);
  await closeDialog(group);

  // 会议卡: a card of the company open to all its active staff.
  const products = await get<{ value: number; label: string }[]>(resourcePaths(teamCard).list);
  await detail.getByRole('tab', { name: '会议卡' }).click();
  const cardsTab = detail.getByRole('tabpanel', { name: '会议卡' });
  await cardsTab.getByRole('button', { name: '新建企业会议卡' }).click();
  const cardForm = page.getByRole('dialog', { name: '新建企业会议卡' });
  await choose(page, '成员范围', '全部在职员工')(cardForm);
  await choose(page, '会议卡产品', products[0].label)(cardForm);
  await cardForm.getByLabel('余额', { exact: true }).fill('500');
  await pickTime(cardForm, '有效期至', `${dayFromToday(90)} 23:59:59`);
  await choose(page, '状态', '启用')(cardForm);
  await cardForm.getByRole('button', { name: /保\s*存/ }).click();
  await expect(cardForm).toBeHidden();
  const cardRow = cardsTab.getByRole('row').filter({ hasText: '¥500.00' });
  const cardNo = (await cardRow.getByText(/^QY\d{8}$/).textContent())!;
  await cardRow.getByRole('button', { name: '流水与充值' }).click();
  const card = page.getByRole('dialog', { name: `企业会议卡：${cardNo}` });
  for (const [, phone] of staff)
    await expect(card.getByRole('row').filter({ hasText: phone })).toHaveCount(1);
  await closeDialog(card);

  // 可开的门 of an employee: the door, the group as the reason, and 已同步.
  await detail.getByRole('tab', { name: '员工' }).click();
  await staffTab
    .getByRole('row')
    .filter({ hasText: '郑一' })
    .getByRole('button', { name: '可开的门' })
    .click();
  const doorsOfZheng = page.getByRole('dialog', { name: '可开的门：郑一' });
  const doorRow = doorsOfZheng.getByRole('row').filter({ hasText: doorName });
  await expect(doorRow).toContainText(`企业门禁组“${groupName}”`);
  await expect(doorRow).toContainText('已同步');
  await closeDialog(doorsOfZheng);
  await closeDialog(detail);

  // 门禁权限查询 on the door: all three, the group as the reason, the very members the door holds.
  await page.goto('/hardware/device');
  await page.getByLabel('序列号').fill(sn);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await page.getByRole('row').filter({ hasText: sn }).getByRole('button', { name: '更多' }).hover();
  await page.getByRole('menuitem', { name: '门禁权限查询' }).click();
  const who = page.getByRole('dialog', { name: `门禁权限查询：${doorName}` });
  for (const [name] of staff)
    await expect(who.getByRole('row').filter({ hasText: name })).toContainText(`企业门禁组“${groupName}”`);
  const listed = await get<DeviceAccessRow[]>(accessViewEndpoints.deviceAccessList, { id: deviceId });
  expect(listed.map((r) => r.memberId).sort()).toEqual(door.state.access.map((a) => a.memberId).sort());
  // Searched by name, then by company.
  await who.getByLabel('会员').fill('孙三');
  await who.getByRole('button', { name: /查\s*询/ }).click();
  await expect(who.locator('tbody tr.ant-table-row')).toHaveCount(1);
  await who.getByLabel('会员').fill(companyName);
  await who.getByRole('button', { name: /查\s*询/ }).click();
  await expect(who.locator('tbody tr.ant-table-row')).toHaveCount(3);
  await page.screenshot({ path: test.info().outputPath('device-access.png') });
  await closeDialog(who);

  // The door admits 郑一's personal code; 开门记录 finds the opening by the company's name.
  const zheng = listed.find((r) => r.name === '郑一')!;
  expect((await door.enterCode(memberCode(secret, zheng.memberId))).result).toBe('success');
  await page.goto('/hardware/log');
  await page.getByLabel('会员', { exact: true }).fill(companyName);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page.locator('tbody tr.ant-table-row').filter({ hasText: sn })).toHaveCount(1);

  // 离职: the sentence says what ended; the door, the device's list and the card drop 钱二.
  detail = await openCompany(page, companyName);
  await staffTab.getByRole('row').filter({ hasText: '钱二' }).getByRole('button', { name: '离职' }).click();
  const leave = page.getByRole('dialog', { name: '办理离职：钱二' });
  await leave.getByRole('button', { name: '确认离职' }).click();
  await expect(
    page.getByText(new RegExp(`钱二已离职：已移出门禁组“${groupName}”，不能再用企业会议卡“${cardNo}”支付`)),
  ).toBeVisible();
  await expect(staffTab.getByRole('row').filter({ hasText: '钱二' })).toContainText('离职');
  await expect.poll(() => door.state.access.length).toBe(2);
  await expect
    .poll(async () =>
      (await get<DeviceAccessRow[]>(accessViewEndpoints.deviceAccessList, { id: deviceId })).map(
        (r) => r.name,
      ),
    )
    .not.toContain('钱二');
  const qianCards = await get<{ cardNo: string }[]>(companyCardEndpoints.findListByPhone, {
    phone: staff[1][1],
  });
  expect(qianCards.map((c) => c.cardNo)).not.toContain(cardNo);
  await detail.getByRole('tab', { name: '会议卡' }).click();
  await cardsTab
    .getByRole('row')
    .filter({ hasText: cardNo })
    .getByRole('button', { name: '流水与充值' })
    .click();
  await expect(card.getByRole('row').filter({ hasText: staff[0][1] })).toHaveCount(1);
  await expect(card.getByRole('row').filter({ hasText: staff[1][1] })).toHaveCount(0);
  await closeDialog(card);

  // 操作记录: the company's own entries (its staff's 离职 among them), not the rest of the log: a
  // space renamed just now is left out.
  const renamed = await request.put(resourcePaths(space).edit, {
    headers,
    data: { id: roomId, name: roomName, kind: 'gate', buildingId, parentId: null },
  });
  expect(renamed.status(), await renamed.text()).toBe(200);
  await detail.getByRole('tab', { name: '操作记录' }).click();
  const log = detail.getByRole('tabpanel', { name: '操作记录' });
  await expect(
    log
      .getByRole('row')
      .filter({ hasText: auditResourceLabel(companyStaff.key) })
      .first(),
  ).toBeVisible();
  await expect(log.getByRole('table')).not.toContainText(auditResourceLabel(space.key));
  await page.screenshot({ path: test.info().outputPath('company-detail.png') });

  // The space's 门禁权限: the room's door with the two who stay.
  await closeDialog(detail);
  await page.goto('/hardware/space');
  await page.getByLabel('空间名称').fill(roomName);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await page.getByRole('row').filter({ hasText: roomName }).getByRole('button', { name: '门禁权限' }).click();
  const room = page.getByRole('dialog', { name: `门禁权限查询：${roomName}` });
  await expect(room.locator('tbody tr.ant-table-row')).toHaveCount(2);
  await expect(room.getByRole('row').filter({ hasText: '郑一' })).toContainText(doorName);
  await page.screenshot({ path: test.info().outputPath('space-access.png') });
});

test('开票: 从企业填入 fills the title and tax number from the company', async ({ page, request }) => {
  const tag = Date.now() % 1_000_000_000;
  const name = `开票企业${tag}`;
  const taxNo = creditCodes(tag + 1).good;
  const saved = await request.post(resourcePaths(company).save, {
    headers: await bearerOf(request, demo.admin),
    data: { name, status: 'enabled', invoiceTitle: `${name}（总部）`, taxNo },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  await signIn(page, demo.caiwu, '/invoice/jingying');
  await page.getByRole('button', { name: '登记开票申请' }).click();
  const drawer = page.getByRole('dialog', { name: '登记开票申请' });
  await choose(page, '从企业填入', name)(drawer);
  await expect(drawer.getByLabel('发票抬头', { exact: true })).toHaveValue(`${name}（总部）`);
  await expect(drawer.getByLabel('税号', { exact: true })).toHaveValue(taxNo);
  // The title type follows: a company's.
  await expect(drawer.locator('.ant-form-item').filter({ hasText: '抬头类型' })).toContainText('企业');
});
