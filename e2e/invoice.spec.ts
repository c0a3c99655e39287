import { expect, test, type Page } from '@playwright/test';
import { formatYuan, type Page as Paged } from '@cowork/contract';
import {
  invoice,
  invoicePaths,
  tripartiteInvoice,
  type InvoiceOrder,
  type InvoiceRecord,
} from '@cowork/contract/resources/invoice';
import { orderPaths, userCardOrder, type OrderRecord } from '@cowork/contract/resources/order';
import { bearerOf, choose, demo, signIn } from './helpers';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** How the 订单号 select labels an order. */
const optionLabel = (o: InvoiceOrder) => `${o.orderNo} · ${o.productName} · ${formatYuan(o.paidFen)}`;

/** Opens 登记开票申请, picks the member's order and fills the title; answers the drawer. */
async function recordRequest(
  page: Page,
  order: InvoiceOrder,
  phone: string,
  title: { company?: { name: string; taxNo: string }; personal?: string },
) {
  await page.getByRole('button', { name: '登记开票申请' }).click();
  const drawer = page.getByRole('dialog', { name: '登记开票申请' });
  await drawer.getByLabel('会员手机号', { exact: true }).fill(phone);
  await choose(page, '订单号', optionLabel(order))(drawer);
  // The amount defaults to what the order paid.
  await expect(drawer.getByLabel('开票金额', { exact: true })).toHaveValue((order.paidFen / 100).toFixed(2));
  if (title.company) {
    await choose(page, '抬头类型', '企业')(drawer);
    await drawer.getByLabel('发票抬头', { exact: true }).fill(title.company.name);
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(drawer).toContainText('企业抬头须填写税号');
    await drawer.getByLabel('税号', { exact: true }).fill(title.company.taxNo);
  } else {
    await drawer.getByLabel('发票抬头', { exact: true }).fill(title.personal!);
  }
  await drawer.getByLabel('接收邮箱', { exact: true }).fill('finance@example.com');
  await drawer.getByRole('button', { name: /保\s*存/ }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByText('开票申请已登记')).toBeVisible();
}

/**
 * The list row of the request covering this order with this title, found through the 订单号
 * filter (a rejected demo request may name the same order).
 */
async function rowOf(page: Page, formId: string, orderNo: string, title: string) {
  const search = page.locator(`form[id="${formId}"]`);
  await search.getByLabel('订单号', { exact: true }).fill(orderNo);
  await search.getByRole('button', { name: /查\s*询/ }).click();
  const row = page
    .getByRole('table')
    .first()
    .getByRole('row')
    .filter({ hasText: orderNo })
    .filter({ hasText: title });
  await expect(row).toHaveCount(1);
  return row;
}

test.describe('发票管理: 经营发票 and 机场贵宾厅发票', () => {
  test('record an invoice request for a paid order, issue it with a number and a PDF, see it 已开票, then void it', async ({
    page,
    request,
  }) => {
    const headers = await bearerOf(request, demo.caiwu);
    // A member with a paid member-card order not yet invoiced (the demo leaves the newer ones free).
    const paid = await request.get(`${orderPaths(userCardOrder).page}?status=paid&size=20`, { headers });
    let chosen: { order: InvoiceOrder; phone: string } | undefined;
    for (const o of ((await paid.json()).data as Paged<OrderRecord>).records) {
      const res = await request.get(
        `${invoicePaths(invoice).invoiceableOrders}?memberPhone=${o.memberPhone}`,
        { headers },
      );
      const free = ((await res.json()).data as InvoiceOrder[]).find((x) => x.orderNo === o.orderNo);
      if (free) {
        chosen = { order: free, phone: o.memberPhone };
        break;
      }
    }
    expect(chosen, 'the demo holds a paid order without an invoice').toBeTruthy();
    const { order, phone } = chosen!;

    await signIn(page, demo.caiwu);
    await page.goto('/invoice/jingying');
    await recordRequest(page, order, phone, {
      company: { name: '北京端到端测试有限公司', taxNo: '91110105MA01E2E00X' },
    });

    const row = await rowOf(page, 'invoice-search', order.orderNo, '北京端到端测试有限公司');
    await expect(row).toContainText('待开票');
    await expect(row).toContainText('北京端到端测试有限公司');
    await expect(row).toContainText(formatYuan(order.paidFen));

    await row.getByRole('button', { name: '开票' }).click();
    const issue = page.getByRole('dialog', { name: '开票', exact: true });
    await issue.getByRole('button', { name: /保\s*存/ }).click();
    await expect(issue).toContainText('请填写发票号码');
    await expect(issue).toContainText('请上传发票 PDF 文件');
    const invoiceNo = `2611${String(Date.now()).slice(-12)}`;
    await issue.getByLabel('发票号码', { exact: true }).fill(invoiceNo);
    await issue.locator('input[type="file"]').setInputFiles({
      name: 'invoice.pdf',
      mimeType: 'application/pdf',
      buffer: PDF,
    });
    await expect(issue.getByText('invoice.pdf')).toBeVisible();
    await issue.getByRole('button', { name: /保\s*存/ }).click();
    await expect(issue).toBeHidden();
    await expect(row).toContainText('已开票');
    await expect(row).toContainText(invoiceNo);
    await expect(row.getByRole('button', { name: '开票' })).toHaveCount(0);

    await row.getByRole('button', { name: '详情' }).click();
    const detail = page.getByRole('dialog', { name: '经营发票详情' });
    await expect(detail).toContainText('已开票');
    await expect(detail.getByLabel('开票订单')).toContainText(order.orderNo);
    await expect(detail.getByRole('link', { name: '查看发票 PDF' })).toHaveAttribute(
      'href',
      /\/file\/uploads\/.+\.pdf$/,
    );

    // The order is now taken: the API says so, and the member's options no longer offer it.
    const check = await request.get(`${invoicePaths(invoice).checkOrder}?orderNo=${order.orderNo}`, {
      headers,
    });
    expect((await check.json()).data).toMatchObject({
      invoiced: true,
      invoice: { status: 'issued', invoiceNo },
    });

    // 作废 (after the red-letter invoice) frees the order again.
    await detail.getByRole('button', { name: /作\s*废/ }).click();
    const voiding = page.getByRole('dialog', { name: '作废发票' });
    await voiding.getByLabel('作废原因').fill('会员退款，已开红字发票（端到端测试）');
    await voiding.getByRole('button', { name: '确认作废' }).click();
    await expect(voiding).toBeHidden();
    await expect(page.getByText('发票已作废，所含订单可以退款或重新申请开票')).toBeVisible();
    await expect(detail).toContainText('会员退款，已开红字发票（端到端测试）');
    // 已作废 is its own status, not 已驳回, in the detail and the list.
    await expect(detail).toContainText('已作废');
    await expect(detail.getByText('作废原因', { exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(row).toContainText('已作废');
    const freed = await request.get(`${invoicePaths(invoice).checkOrder}?orderNo=${order.orderNo}`, {
      headers,
    });
    expect((await freed.json()).data).toMatchObject({ invoiced: false });
  });

  test('机场贵宾厅发票: record a request for an airport order, then reject it with a reason', async ({
    page,
    request,
  }) => {
    const headers = await bearerOf(request, demo.caiwu);
    const paths = invoicePaths(tripartiteInvoice);
    // A member with an airport order free to invoice (the demo's rejected requests free theirs).
    const list = await request.get(`${paths.page}?size=100`, { headers });
    let chosen: { order: InvoiceOrder; phone: string } | undefined;
    for (const phone of new Set(
      ((await list.json()).data as Paged<InvoiceRecord>).records.map((r) => r.memberPhone!),
    )) {
      const res = await request.get(`${paths.invoiceableOrders}?memberPhone=${phone}`, { headers });
      const [free] = (await res.json()).data as InvoiceOrder[];
      if (free) {
        chosen = { order: free, phone };
        break;
      }
    }
    expect(chosen, 'the demo holds an airport order without an invoice').toBeTruthy();
    const { order, phone } = chosen!;
    expect(order.kind).toBe('airport');

    await signIn(page, demo.caiwu);
    await page.goto('/invoice/airport');
    await expect(page.locator('form[id="tripartite-invoice-search"]')).toBeVisible();
    await recordRequest(page, order, phone, { personal: '李四' });

    const row = await rowOf(page, 'tripartite-invoice-search', order.orderNo, '李四');
    await expect(row).toContainText('待开票');
    await expect(row).toContainText('机场贵宾厅');
    await row.getByRole('button', { name: '驳回' }).click();
    const dialog = page.getByRole('dialog', { name: '驳回开票申请' });
    await dialog.getByRole('button', { name: '确认驳回' }).click();
    await expect(dialog).toContainText('请填写驳回原因');
    await dialog.getByLabel('驳回原因').fill('抬头有误，请会员重新申请（端到端测试）');
    await dialog.getByRole('button', { name: '确认驳回' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('已驳回');

    await row.getByRole('button', { name: '详情' }).click();
    const detail = page.getByRole('dialog', { name: '机场贵宾厅发票详情' });
    await expect(detail).toContainText('抬头有误，请会员重新申请（端到端测试）');
    // Rejecting freed the order: it can be invoiced again.
    const check = await request.get(`${paths.checkOrder}?orderNo=${order.orderNo}`, { headers });
    expect((await check.json()).data).toMatchObject({ invoiced: false });
  });
});
