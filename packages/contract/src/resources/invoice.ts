/**
 * Invoices (发票管理): 经营发票 (`invoice`, the operator's own orders) and 机场贵宾厅发票
 * (`tripartite-invoice`, airport orders), both built by `defineInvoice` from the same fields. Staff
 * record an invoice request for a member's paid orders, then issue it (invoice number and PDF) or
 * reject it (reason). An order is covered by at most one pending or issued request, and a request
 * never asks for more than its orders paid.
 */
import { z } from 'zod';
import { ownFileUrl } from '../urls.ts';
import { TAX_NO_PATTERN, taxNoMessages } from '../credit-code.ts';
import { idOf } from '../validators.ts';
import { defineStates } from '../states.ts';
import { prefixes } from '../endpoints.ts';
import { defineResource, field, formatYuan, recordSchema, type ResourceDef } from '../resource.ts';
import { orderKindOptions, orderStatusLabel, type OrderKind } from './order.ts';

/**
 * An invoice request's statuses and moves. 作废 (void) takes back an issued invoice once the
 * red-letter invoice is issued in the tax system; it is asked for by the same reject call as 驳回
 * (the request's status decides which). Either way the orders are freed to be refunded or
 * invoiced again.
 */
export const invoiceStates = defineStates({
  noun: '发票申请',
  statuses: [
    { value: 'pending', label: '待开票', color: 'gold' },
    { value: 'issued', label: '已开票', color: 'green' },
    { value: 'rejected', label: '已驳回', color: 'red' },
    { value: 'voided', label: '已作废', color: 'default' },
  ],
  moves: {
    issue: { from: ['pending'], to: 'issued', label: '开票' },
    reject: { from: ['pending'], to: 'rejected', label: '驳回', danger: true },
    void: { from: ['issued'], to: 'voided', label: '作废', danger: true },
  },
  hint: '只有待开票的申请可以开票，待开票的可以驳回、已开票的可以作废',
});
export const invoiceStatusOptions = invoiceStates.statuses;
type InvoiceStatus = (typeof invoiceStatusOptions)[number]['value'];
export type InvoiceMove = keyof typeof invoiceStates.moves;

const invoiceTitleTypeOptions = [
  { value: 'personal', label: '个人' },
  { value: 'company', label: '企业' },
] as const;

const invoiceTypeOptions = [
  { value: 'normal', label: '增值税普通发票' },
  { value: 'special', label: '增值税专用发票' },
] as const;

const invoiceStatusLabel = invoiceStates.labelOf;

// The taxpayer number's rule is shared with 企业 (its 税号 prefills 开票).
export { TAX_NO_PATTERN, taxNoMessages } from '../credit-code.ts';

/** An invoice number as printed: 8–20 digits or letters (8-digit paper numbers, 20-digit 全电发票). */
export const INVOICE_NO_PATTERN = /^[0-9A-Za-z]{8,20}$/;

/** The 400 of an amount above what the orders paid, naming 开票金额 and the maximum in yuan. */
export const invoiceAmountTooHighMessage = (maxFen: number) =>
  `开票金额：不能超过所选订单的实付合计 ${formatYuan(maxFen)}，请改为不超过该金额后重试`;

/** The 409 of refunding an order whose invoice is pending or issued. */
export const invoicedRefundMessage = (orderNo: string, invoiceId: number, status: string) =>
  `该订单（${orderNo}）已开具发票（发票申请 #${invoiceId}，${invoiceStatusLabel(status)}），不能退款；请先驳回开票申请或作废已开的发票后再退款`;

/** The order of an invoice that is not open to one (the status rule). */
export const notInvoiceableMessage = (orderNo: string, status: string) =>
  `订单 ${orderNo} 当前为「${orderStatusLabel(status)}」，只有已支付或已使用的订单可以开票`;

export const alreadyInvoicedMessage = (orderNo: string, invoiceId?: number | null) =>
  `订单 ${orderNo} 已开具发票${invoiceId ? `（发票申请 #${invoiceId}）` : ''}，一个订单只能开一次发票；如需重开，请先驳回原申请`;

/** Statuses of orders that may be invoiced. */
export const invoiceableOrderStatuses = ['paid', 'used'] as const;

const invoiceFields = (kinds: readonly OrderKind[]) => ({
  orderNos: {
    ...field.tags('订单号', { max: 32 }),
    schema: z
      .array(
        z
          .string({ error: '订单号必须是文字' })
          .trim()
          .min(1, '订单号不能为空')
          .max(32, '订单号最多 32 个字符'),
        {
          error: '请选择要开票的订单号',
        },
      )
      .min(1, '请选择要开票的订单号')
      .max(50, '一张发票最多包含 50 个订单'),
    list: true,
  },
  /** Filter only: requests covering this order number (held in orderNos). */
  orderNo: {
    ...field.text('订单号', { max: 32, optional: true, search: 'prefix' }),
    form: false,
    writeOnly: true,
  },
  orderType: {
    ...field.enumeration(
      '订单类型',
      orderKindOptions.filter((o) => kinds.includes(o.value)).map(({ value, label }) => ({ value, label })),
    ),
    form: false,
  },
  memberPhone: { ...field.phone('会员手机号', { search: 'prefix' }), form: false },
  titleType: { ...field.enumeration('抬头类型', invoiceTitleTypeOptions), search: undefined },
  title: field.text('发票抬头', { max: 100, search: 'like' }),
  // Searched exactly: a company's invoices (企业 detail) are those of its tax number.
  taxNo: { ...field.text('税号', { max: 20, optional: true, search: 'eq' }), list: false },
  invoiceType: {
    ...field.enumeration('发票类型', invoiceTypeOptions),
    schema: z.enum(['normal', 'special'], { error: '请选择发票类型' }).default('normal'),
    search: undefined,
  },
  amountFen: field.money('开票金额', { min: 1 }),
  email: { ...field.email('接收邮箱', { optional: true }), list: false },
  status: { ...field.enumeration('开票状态', invoiceStatusOptions), form: false },
  invoiceNo: { ...field.text('发票号码', { optional: true }), form: false },
  fileUrl: { ...field.text('发票文件', { optional: true, max: 500 }), form: false, list: false },
  issuedAt: { ...field.datetime('开票时间', { optional: true }), form: false, sortable: true },
  rejectReason: { ...field.text('驳回原因', { optional: true, max: 200 }), form: false, list: false },
  rejectedAt: { ...field.datetime('驳回时间', { optional: true }), form: false, list: false },
  remark: field.textarea('备注', { optional: true, max: 200 }),
  createdAt: {
    label: '申请时间',
    kind: 'datetime' as const,
    schema: z.string().nullish(),
    form: false,
    search: 'range' as const,
    sortable: true,
  },
});

export type InvoiceFields = ReturnType<typeof invoiceFields>;

export interface InvoiceResource extends ResourceDef<InvoiceFields> {
  /** invoices.kind of its rows. */
  kind: 'invoice' | 'tripartite';
  /** The order kinds it may cover. */
  orderKinds: readonly OrderKind[];
}

/** An invoice resource serving one kind of invoice request. */
export function defineInvoice(def: {
  key: string;
  base: string;
  kind: InvoiceResource['kind'];
  label: string;
  permission: string;
  orderKinds: readonly OrderKind[];
}): InvoiceResource {
  return {
    ...defineResource({
      key: def.key,
      base: def.base,
      label: def.label,
      permission: def.permission,
      actions: ['page'],
      fields: invoiceFields(def.orderKinds),
      defaultSort: { field: 'createdAt', order: 'descend' },
    }),
    kind: def.kind,
    orderKinds: def.orderKinds,
  };
}

export const invoice = defineInvoice({
  key: 'invoice',
  base: `${prefixes.order}/invoice`,
  kind: 'invoice',
  label: '经营发票',
  permission: 'invoice:jingying',
  orderKinds: ['user-card', 'team-card', 'office-seat', 'hall-seat', 'office-station', 'activity-station'],
});

export const tripartiteInvoice = defineInvoice({
  key: 'tripartite-invoice',
  base: `${prefixes.tripartite}/tripartite-invoice`,
  kind: 'tripartite',
  label: '机场贵宾厅发票',
  permission: 'invoice:airport',
  orderKinds: ['airport'],
});

/**
 * Invoice moves with their own permission codes (the role screen lists them under the invoice page):
 * 开票 issues a pending request or rejects it (驳回); 作废 voids an issued invoice.
 */
export const invoiceOperations = { issue: '开票与驳回', void: '作废' } as const;
type InvoiceOperation = keyof typeof invoiceOperations;
export const invoiceOperationPermission = (resource: Pick<ResourceDef, 'permission'>, op: InvoiceOperation) =>
  `${resource.permission}:${op}`;

/** Endpoint paths of an invoice resource. */
export const invoicePaths = (def: Pick<ResourceDef, 'base'>) => ({
  page: `${def.base}/page`,
  detail: `${def.base}/detail`,
  save: `${def.base}/save`,
  issue: `${def.base}/issue`,
  reject: `${def.base}/reject`,
  /** GET: the page's filters as Excel, every row. */
  export: `${def.base}/export`,
  /** GET ?orderNo=: whether the order already has a pending or issued invoice, and which. */
  checkOrder: `${def.base}/check/order-ticket`,
  /** GET ?memberPhone=: that member's paid orders without an invoice (the save drawer's options). */
  invoiceableOrders: `${def.base}/invoiceable-orders`,
});

const invoiceId = idOf('发票申请编号必须是正整数');

/**
 * Body of save: the writable fields plus the title rules (a company title needs a valid tax number;
 * a special invoice needs a company title).
 */
export const invoiceSaveBody = (def: InvoiceResource) => {
  const f = def.fields;
  return z
    .object({
      orderNos: f.orderNos.schema,
      titleType: f.titleType.schema,
      title: f.title.schema,
      taxNo: f.taxNo.schema,
      invoiceType: f.invoiceType.schema,
      amountFen: f.amountFen.schema,
      email: f.email.schema,
      remark: f.remark.schema,
    })
    .superRefine((v, ctx) => {
      const taxNo = typeof v.taxNo === 'string' ? v.taxNo : '';
      if (v.titleType === 'company') {
        if (!taxNo) ctx.addIssue({ code: 'custom', path: ['taxNo'], message: taxNoMessages.required });
        else if (!TAX_NO_PATTERN.test(taxNo))
          ctx.addIssue({ code: 'custom', path: ['taxNo'], message: taxNoMessages.invalid });
      } else if (taxNo && !TAX_NO_PATTERN.test(taxNo)) {
        ctx.addIssue({ code: 'custom', path: ['taxNo'], message: taxNoMessages.invalid });
      }
      if (v.invoiceType === 'special' && v.titleType !== 'company') {
        ctx.addIssue({ code: 'custom', path: ['invoiceType'], message: taxNoMessages.specialNeedsCompany });
      }
    });
};
/** A save body as the server reads it after validation. */
export interface InvoiceSaveValues {
  orderNos: string[];
  titleType: 'personal' | 'company';
  title: string;
  taxNo?: string | null;
  invoiceType: 'normal' | 'special';
  amountFen: number;
  email?: string | null;
  remark?: string | null;
}

/** Body of issue. */
export const invoiceIssueBody = z.object({
  id: invoiceId,
  invoiceNo: z
    .string({ error: '请填写发票号码' })
    .trim()
    .min(1, '请填写发票号码')
    .regex(INVOICE_NO_PATTERN, '发票号码须为 8–20 位数字或字母，请核对后重试'),
  fileUrl: ownFileUrl('发票 PDF 文件'),
});

/** Body of reject. */
export const invoiceRejectBody = z.object({
  id: invoiceId,
  reason: z
    .string({ error: '请填写驳回原因' })
    .trim()
    .min(1, '请填写驳回原因')
    .max(200, '驳回原因最多 200 个字符，请删减后重试'),
});

/** An order as an invoice shows it. */
export const invoiceOrder = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  kind: z.string(),
  paidFen: z.number().int(),
  status: z.string(),
  productName: z.string().nullable(),
  paidAt: z.string().nullable(),
});
export type InvoiceOrder = z.infer<typeof invoiceOrder>;

/** What detail (and save, issue, reject) answers: the record plus the orders it covers. */
export const invoiceDetail = recordSchema(invoice).extend({ orders: z.array(invoiceOrder) });

/** What check/order-ticket answers. */
export const orderTicketCheck = z.object({
  orderNo: z.string(),
  invoiced: z.boolean(),
  invoice: z
    .object({
      id: z.number().int(),
      status: z.string(),
      invoiceNo: z.string().nullable(),
      title: z.string(),
      amountFen: z.number().int(),
    })
    .nullable(),
});
export type OrderTicketCheck = z.infer<typeof orderTicketCheck>;

/** An invoice request as page answers it (times ISO 8601 with the business time zone's offset). */
export interface InvoiceRecord {
  id: number;
  orderNos: string[];
  orderType: OrderKind;
  memberPhone: string | null;
  titleType: 'personal' | 'company';
  title: string;
  taxNo: string | null;
  invoiceType: 'normal' | 'special';
  amountFen: number;
  email: string | null;
  status: InvoiceStatus;
  invoiceNo: string | null;
  fileUrl: string | null;
  issuedAt: string | null;
  rejectReason: string | null;
  rejectedAt: string | null;
  remark: string | null;
  createdAt: string;
  updatedAt: string;
}

export type InvoiceDetail = InvoiceRecord & { orders: InvoiceOrder[] };
