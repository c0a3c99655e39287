import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Page as Paged } from '@cowork/contract';
import {
  airportOrder,
  hallSeatOrder,
  officeSeatOrder,
  orderPaths,
  type OrderRecord,
  type OrderResource,
} from '@cowork/contract/resources/order';
import { bearerOf, demo, signIn } from './helpers';

/** A demo order of this resource in this status (the demo seeds every kind in every status). */
async function demoOrder(request: APIRequestContext, resource: OrderResource, status: string) {
  const headers = await bearerOf(request, demo.admin);
  const res = await request.get(`${orderPaths(resource).page}?status=${status}&size=1`, { headers });
  expect(res.status(), await res.text()).toBe(200);
  const [order] = ((await res.json()).data as Paged<OrderRecord>).records;
  expect(order, `the demo holds a ${status} ${resource.label}`).toBeTruthy();
  return order;
}

/** Searches the list by member phone and answers the order's row. */
async function findByPhone(page: Page, resource: OrderResource, order: OrderRecord) {
  const search = page.locator(`form[id="${resource.key}-search"]`);
  await search.getByLabel('会员手机号', { exact: true }).fill(order.memberPhone);
  await search.getByRole('button', { name: /查\s*询/ }).click();
  const row = page.getByRole('table').getByRole('row').filter({ hasText: order.orderNo });
  await expect(row).toBeVisible();
  // Only that member's orders are listed.
  // (Once the search has answered: the list before it may still show while the address changes.)
  await expect(
    page.locator('tbody tr.ant-table-row:visible').filter({ hasNotText: order.memberPhone }),
  ).toHaveCount(0);
  return row;
}

/** `2026-03-01T00:00:00.000+08:00` as the console shows it. */
const shown = (iso: string) => iso.slice(0, 16).replace('T', ' ');

test.describe('订单管理: 工位订单 and 机场贵宾厅订单', () => {
  test('办公室工位: filter by phone, read the booked period in the detail and 核销 a paid order', async ({
    page,
    request,
  }) => {
    const order = await demoOrder(request, officeSeatOrder, 'paid');
    await signIn(page, demo.yunying);
    await page.goto('/order/seat');
    await expect(page.getByRole('tab', { name: '办公室工位', selected: true })).toBeVisible();
    // At 1440 px the status column shows without scrolling, left of the fixed 操作 column.
    await page.setViewportSize({ width: 1440, height: 900 });
    const statusHeader = await page.getByRole('columnheader', { name: '订单状态' }).boundingBox();
    const actionsHeader = await page.getByRole('columnheader', { name: '操作' }).boundingBox();
    expect(statusHeader!.x + statusHeader!.width).toBeLessThanOrEqual(actionsHeader!.x);
    const row = await findByPhone(page, officeSeatOrder, order);
    await expect(row).toContainText('已支付');
    await expect(page.getByRole('columnheader', { name: '开始时间' })).toBeVisible();
    if (order.startAt) await expect(row).toContainText(shown(order.startAt));

    await row.getByRole('button', { name: '详情' }).click();
    const drawer = page.getByRole('dialog', { name: '办公室工位订单详情' });
    await expect(drawer).toContainText(order.orderNo);
    await expect(drawer).toContainText(order.productName!);
    await expect(drawer.getByText('结束时间', { exact: true })).toBeVisible();
    await drawer.getByRole('button', { name: /^核\s*销$/ }).click();
    const dialog = page.getByRole('dialog', { name: '核销' });
    await expect(dialog).toContainText('从「已支付」改为「已使用」');
    await dialog.getByRole('button', { name: '确认核销' }).click();
    await expect(dialog).toBeHidden();
    await expect(drawer.getByLabel('状态记录')).toContainText('已支付 → 已使用');
    await expect(drawer.getByLabel('状态记录')).toContainText(demo.yunying.nickname);
    await expect(drawer.getByRole('button', { name: /^核\s*销$/ })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(row).toContainText('已使用');
  });

  test('大厅工位: the tab stays on reload; filter by phone, open the detail and refund a paid order', async ({
    page,
    request,
  }) => {
    // Paid rather than pending: the demo cancels unpaid orders after a day, so few stay pending.
    const order = await demoOrder(request, hallSeatOrder, 'paid');
    await signIn(page, demo.caiwu);
    await page.goto('/order/seat');
    await page.getByRole('tab', { name: '大厅工位' }).click();
    await expect(page).toHaveURL(/[?&]tab=hall-seat/);
    await page.reload();
    await expect(page.getByRole('tab', { name: '大厅工位', selected: true })).toBeVisible();

    const row = await findByPhone(page, hallSeatOrder, order);
    await expect(row).toContainText('已支付');
    await row.getByRole('button', { name: '详情' }).click();
    const drawer = page.getByRole('dialog', { name: '大厅工位订单详情' });
    await expect(drawer).toContainText(order.orderNo);
    await drawer.getByRole('button', { name: /^退\s*款$/ }).click();
    const dialog = page.getByRole('dialog', { name: '退款' });
    await dialog.getByRole('button', { name: '确认退款' }).click();
    await expect(dialog).toContainText('请填写原因');
    await dialog.getByLabel('原因').fill('会员提前退租（端到端测试）');
    await dialog.getByRole('button', { name: '确认退款' }).click();
    await expect(dialog).toBeHidden();
    await expect(drawer.getByLabel('状态记录')).toContainText('已支付 → 已退款');
    await expect(drawer.getByLabel('状态记录')).toContainText('会员提前退租（端到端测试）');
    await expect(drawer.getByLabel('状态记录')).toContainText(demo.caiwu.nickname);
    await page.keyboard.press('Escape');
    await expect(row).toContainText('已退款');
  });

  test('机场贵宾厅订单: airport columns and filter instead of building, a read-only detail', async ({
    page,
    request,
  }) => {
    const order = await demoOrder(request, airportOrder, 'paid');
    expect(order.airportCode, 'demo airport orders carry the airport code in their snapshot').toBeTruthy();
    await signIn(page, demo.caiwu);
    await page.goto('/order/airport');
    const search = page.locator(`form[id="${airportOrder.key}-search"]`);
    await expect(search.getByLabel('楼宇', { exact: true })).toHaveCount(0);
    await search.getByLabel('机场', { exact: true }).fill(order.airportCode!.toLowerCase());
    const row = await findByPhone(page, airportOrder, order);
    for (const name of ['机场', '航站楼', '贵宾厅']) {
      await expect(page.getByRole('columnheader', { name, exact: true })).toBeVisible();
    }
    await expect(page.getByRole('columnheader', { name: '楼宇', exact: true })).toHaveCount(0);
    await expect(row).toContainText(order.airportCode!);
    if (order.loungeName) await expect(row).toContainText(order.loungeName);

    await row.getByRole('button', { name: '详情' }).click();
    const drawer = page.getByRole('dialog', { name: '机场贵宾厅订单详情' });
    await expect(drawer).toContainText(order.orderNo);
    await expect(drawer.getByText('机场三字码', { exact: true })).toBeVisible();
    await expect(drawer.getByLabel('状态记录')).toContainText('待支付 → 已支付');
    // Read-only: neither moves nor the referrer edit, although 财务 may move other orders.
    await expect(drawer.getByRole('button', { name: /^退\s*款$/ })).toHaveCount(0);
    await expect(drawer.getByRole('button', { name: /^核\s*销$/ })).toHaveCount(0);
    await expect(drawer.getByRole('button', { name: /^修\s*改$/ })).toHaveCount(0);
  });
});
