import { expect, test } from '@playwright/test';
import { formatYuan, type Page as Paged } from '@cowork/contract';
import {
  orderPaths,
  teamCardOrder,
  userCardOrder,
  type OrderDetail,
  type OrderRecord,
} from '@cowork/contract/resources/order';
import { invoice, invoicePaths } from '@cowork/contract/resources/invoice';
import { bearerOf, demo, signIn } from './helpers';

const paths = orderPaths(userCardOrder);

/** A demo date as a Shanghai calendar day, the way the range picker takes it. */
const shanghaiDay = (iso: string) => iso.slice(0, 10);

test.describe('订单管理: 会员卡订单 and 会议卡订单', () => {
  test('find an order by phone and date range, open its detail, refund it and see status and timeline change', async ({
    page,
    request,
  }) => {
    // A paid demo order to work on, with no invoice (that would stop the refund): its member's
    // phone and the day it was placed.
    const headers = await bearerOf(request, demo.caiwu);
    const res = await request.get(`${paths.page}?status=paid&size=20`, { headers });
    let found: OrderRecord | undefined;
    for (const paid of ((await res.json()).data as Paged<OrderRecord>).records) {
      const check = await request.get(`${invoicePaths(invoice).checkOrder}?orderNo=${paid.orderNo}`, {
        headers,
      });
      if (!(await check.json()).data.invoiced) {
        found = paid;
        break;
      }
    }
    expect(found, 'the demo holds a paid member-card order without an invoice').toBeTruthy();
    const order = found!;
    const day = shanghaiDay(order.createdAt);

    await signIn(page, demo.caiwu);
    await page.goto('/order/member');
    const search = page.locator('form[id="user-card-order-search"]');
    await search.getByLabel('会员手机号', { exact: true }).fill(order.memberPhone);
    await search.getByPlaceholder('开始日期').click();
    await search.getByPlaceholder('开始日期').fill(day);
    await search.getByPlaceholder('结束日期').fill(day);
    await search.getByPlaceholder('结束日期').press('Enter');
    await search.getByRole('button', { name: /查\s*询/ }).click();

    const table = page.getByRole('table');
    const row = table.getByRole('row').filter({ hasText: order.orderNo });
    await expect(row).toBeVisible();
    // Only that member's orders of that day are listed.
    const rows = table.locator('tbody tr.ant-table-row');
    await expect(rows.filter({ hasNotText: order.memberPhone })).toHaveCount(0);
    await expect(row).toContainText('已支付');
    await expect(row).toContainText(formatYuan(order.paidFen));

    await row.getByRole('button', { name: '详情' }).click();
    const drawer = page.getByRole('dialog', { name: '会员卡订单详情' });
    await expect(drawer).toContainText(order.orderNo);
    await expect(drawer).toContainText(order.productName!);
    await expect(drawer.getByLabel('状态记录')).toContainText('待支付 → 已支付');
    // Only the moves a paid order allows.
    await expect(drawer.getByRole('button', { name: '取消订单' })).toHaveCount(0);
    await drawer.getByRole('button', { name: /^退\s*款$/ }).click();

    const dialog = page.getByRole('dialog', { name: '退款' });
    await dialog.getByRole('button', { name: '确认退款' }).click();
    await expect(dialog).toContainText('请填写原因');
    await dialog.getByLabel('原因').fill('会员申请退款：行程变更（端到端测试）');
    await dialog.getByRole('button', { name: '确认退款' }).click();
    await expect(dialog).toBeHidden();

    await expect(drawer.locator('.ant-descriptions').first()).toContainText('已退款');
    await expect(drawer.getByLabel('状态记录')).toContainText('已支付 → 已退款');
    await expect(drawer.getByLabel('状态记录')).toContainText('会员申请退款：行程变更（端到端测试）');
    await expect(drawer.getByRole('button', { name: /^退\s*款$/ })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(row).toContainText('已退款');
  });

  test('会议卡订单: a paid card shows its number and balance, and 核销 marks it used after confirmation', async ({
    page,
    request,
  }) => {
    const headers = await bearerOf(request, demo.yunying);
    const res = await request.get(`${orderPaths(teamCardOrder).page}?status=paid&size=1`, { headers });
    const [order] = ((await res.json()).data as Paged<OrderRecord>).records;
    expect(order, 'the demo holds a paid meeting-card order').toBeTruthy();

    await signIn(page, demo.yunying);
    await page.goto('/order/meeting');
    const search = page.locator('form[id="team-card-order-search"]');
    await search.getByLabel('订单号', { exact: true }).fill(order.orderNo);
    await search.getByRole('button', { name: /查\s*询/ }).click();
    const row = page.getByRole('table').getByRole('row').filter({ hasText: order.orderNo });
    await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(1);
    await row.getByRole('button', { name: '详情' }).click();

    const drawer = page.getByRole('dialog', { name: '会议卡订单详情' });
    await expect(drawer).toContainText(order.cardNo!);
    await expect(drawer).toContainText(formatYuan(order.balanceFen!));
    await drawer.getByRole('button', { name: /^核\s*销$/ }).click();
    const dialog = page.getByRole('dialog', { name: '核销' });
    await expect(dialog).toContainText('从「已支付」改为「已使用」');
    await dialog.getByRole('button', { name: '确认核销' }).click();
    await expect(dialog).toBeHidden();
    await expect(drawer.getByLabel('状态记录')).toContainText('已支付 → 已使用');
    await expect(drawer.getByLabel('状态记录')).toContainText(demo.yunying.nickname);
  });

  test('会议卡订单详情 → 购买时的产品: a card sold in a 会议卡活动 shows every field under a Chinese label', async ({
    page,
    request,
  }) => {
    // A demo sale in a 会议卡活动: sold at the activity's price, so with a discount.
    const headers = await bearerOf(request, demo.yunying);
    const res = await request.get(`${orderPaths(teamCardOrder).page}?size=100`, { headers });
    const sold = ((await res.json()).data as Paged<OrderRecord>).records.filter((o) => o.discountFen > 0);
    let order: OrderDetail | undefined;
    for (const candidate of sold) {
      const detail = await request.get(`${orderPaths(teamCardOrder).detail}/${candidate.id}`, { headers });
      const found = (await detail.json()).data as OrderDetail;
      if (typeof found.productSnapshot.activityTitle === 'string') {
        order = found;
        break;
      }
    }
    expect(order, 'the demo sells meeting cards in a 会议卡活动').toBeTruthy();

    await signIn(page, demo.yunying);
    await page.goto('/order/meeting');
    const search = page.locator('form[id="team-card-order-search"]');
    await search.getByLabel('订单号', { exact: true }).fill(order!.orderNo);
    await search.getByRole('button', { name: /查\s*询/ }).click();
    const row = page.getByRole('table').getByRole('row').filter({ hasText: order!.orderNo });
    await row.getByRole('button', { name: '详情' }).click();

    const drawer = page.getByRole('dialog', { name: '会议卡订单详情' });
    const product = drawer.locator('.ant-descriptions').filter({ hasText: '购买时的产品' });
    await expect(product).toContainText('会议卡活动');
    await expect(product).toContainText(String(order!.productSnapshot.activityTitle));
    const labels = await product.locator('.ant-descriptions-item-label').allInnerTexts();
    expect(labels.length).toBeGreaterThan(3);
    for (const label of labels) expect(label).not.toMatch(/[A-Za-z]/);
  });
});
