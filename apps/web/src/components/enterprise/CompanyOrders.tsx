/**
 * 订单与发票 of a company (企业 详情): the meeting-room and venue bookings its staff paid with its
 * cards, and the invoice requests made out to its tax number.
 */
import { Alert, Space, Typography } from 'antd';
import { formatYuan, resourcePaths, resourcePermissions } from '@cowork/contract';
import { companyEndpoints, type CompanyOrderRecord } from '@cowork/contract/resources/company';
import { invoice, invoiceStates } from '@cowork/contract/resources/invoice';
import { orderStates } from '@cowork/contract/resources/order';
import { usePermission } from '../PermissionGate.tsx';
import { OptionTag } from '../resource/field-input.tsx';
import { ListPage, type ListDef } from '../resource/ListPage.tsx';
import { formatTime } from '../../lib/format.ts';

const ordersList: ListDef<CompanyOrderRecord> = {
  queryKey: ['company', 'orders'],
  source: { page: companyEndpoints.orders, inAddress: false },
  columns: [
    { title: '订单号', value: 'orderNo', width: 180 },
    { title: '产品', width: 180, render: (o) => o.productName ?? '—' },
    { title: '会员手机号', value: 'memberPhone', width: 130 },
    { title: '实付', width: 110, render: (o) => formatYuan(o.paidFen) },
    {
      title: '状态',
      width: 90,
      render: (o) => <OptionTag options={orderStates.statuses} value={o.status} />,
    },
    { title: '企业会议卡', value: 'cardNo', width: 130 },
    { title: '支付时间', width: 170, render: (o) => formatTime(o.paidAt) },
  ],
  size: 'small',
  scrollX: 1000,
  emptyText: '还没有用该企业会议卡支付的订单',
};

interface InvoiceRow {
  id: number;
  title: string;
  amountFen: number;
  status: string;
  invoiceNo: string | null;
  createdAt: string;
}

const invoicesList: ListDef<InvoiceRow> = {
  queryKey: [invoice.key, 'company'],
  source: { page: resourcePaths(invoice).page, inAddress: false },
  columns: [
    { title: '发票抬头', value: 'title', width: 200 },
    { title: '开票金额', width: 120, render: (i) => formatYuan(i.amountFen) },
    {
      title: '开票状态',
      width: 100,
      render: (i) => <OptionTag options={invoiceStates.statuses} value={i.status} />,
    },
    { title: '发票号码', value: 'invoiceNo', width: 160 },
    { title: '申请时间', width: 170, render: (i) => formatTime(i.createdAt) },
  ],
  size: 'small',
  scrollX: 800,
  emptyText: '还没有开给该企业税号的发票',
};

export function CompanyOrders({ companyId, taxNo }: { companyId: number; taxNo: string | null }) {
  const { can } = usePermission();
  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        企业会议卡支付的订单
      </Typography.Title>
      <ListPage list={ordersList} framed={false} fixedFilters={{ id: companyId }} />
      <Typography.Title level={5} style={{ margin: 0 }}>
        发票
      </Typography.Title>
      {!can([resourcePermissions(invoice).view]) ? (
        <Alert type="info" showIcon title="查看发票需要“经营发票”的查看权限，请联系管理员开通。" />
      ) : taxNo ? (
        <ListPage list={invoicesList} framed={false} fixedFilters={{ taxNo }} />
      ) : (
        <Alert
          type="info"
          showIcon
          title="该企业还没有填写税号：编辑企业填写税号后，这里列出开给该税号的发票。"
        />
      )}
    </Space>
  );
}
