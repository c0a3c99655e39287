import { Descriptions, Table } from 'antd';
import { formatYuan, optionLabel } from '@cowork/contract';
import {
  invoicePaths,
  invoiceStates,
  invoiceStatusOptions,
  type InvoiceDetail,
  type InvoiceMove,
  type InvoiceOrder,
  type InvoiceResource,
} from '@cowork/contract/resources/invoice';
import { orderKindOptions } from '@cowork/contract/resources/order';
import { OrderStatusTag } from '../order/OrderPage.tsx';
import { FieldCell, OptionTag } from '../resource/field-input.tsx';
import { ResourceShow } from '../resource/ResourceShow.tsx';
import { mayMove, type InvoiceRights } from './invoice-rights.ts';

/** An invoice's detail: the request, the issued invoice or why it was turned down, and its orders. */
export function DetailDrawer({
  resource,
  id,
  can,
  onClose,
  onAction,
}: {
  resource: InvoiceResource;
  id: number | null;
  can: InvoiceRights;
  onClose: () => void;
  onAction: (kind: InvoiceMove, id: number) => void;
}) {
  return (
    <ResourceShow<InvoiceDetail, InvoiceMove>
      resource={resource}
      detailPath={invoicePaths(resource).detail}
      id={id}
      onClose={onClose}
      size={720}
      moves={{
        states: invoiceStates,
        may: mayMove(can),
        onMove: (move) => id !== null && onAction(move, id),
      }}
    >
      {(item) => {
        const cell = (key: keyof InvoiceResource['fields']) => (
          <FieldCell field={resource.fields[key]} value={Reflect.get(item, key)} />
        );
        return (
          <>
            <Descriptions title="申请信息" column={2} bordered size="small">
              <Descriptions.Item label="开票状态">
                <OptionTag options={invoiceStatusOptions} value={item.status} />
              </Descriptions.Item>
              <Descriptions.Item label="订单类型">{cell('orderType')}</Descriptions.Item>
              <Descriptions.Item label="会员手机号">{cell('memberPhone')}</Descriptions.Item>
              <Descriptions.Item label="申请时间">{cell('createdAt')}</Descriptions.Item>
              <Descriptions.Item label="抬头类型">{cell('titleType')}</Descriptions.Item>
              <Descriptions.Item label="发票类型">{cell('invoiceType')}</Descriptions.Item>
              <Descriptions.Item label="发票抬头" span={2}>
                {cell('title')}
              </Descriptions.Item>
              {item.taxNo && (
                <Descriptions.Item label="税号" span={2}>
                  {cell('taxNo')}
                </Descriptions.Item>
              )}
              <Descriptions.Item label="开票金额">{cell('amountFen')}</Descriptions.Item>
              <Descriptions.Item label="接收邮箱">{cell('email')}</Descriptions.Item>
              <Descriptions.Item label="备注" span={2}>
                {cell('remark')}
              </Descriptions.Item>
            </Descriptions>
            {item.invoiceNo && (
              <Descriptions title="开票结果" column={2} bordered size="small">
                <Descriptions.Item label="发票号码">{cell('invoiceNo')}</Descriptions.Item>
                <Descriptions.Item label="开票时间">{cell('issuedAt')}</Descriptions.Item>
                <Descriptions.Item label="发票文件" span={2}>
                  {item.fileUrl ? (
                    <a href={item.fileUrl} target="_blank" rel="noreferrer">
                      查看发票 PDF
                    </a>
                  ) : (
                    '—'
                  )}
                </Descriptions.Item>
              </Descriptions>
            )}
            {(item.status === 'rejected' || item.status === 'voided') && (
              <Descriptions
                title={item.status === 'voided' ? '作废' : '驳回'}
                column={2}
                bordered
                size="small"
              >
                <Descriptions.Item label={item.status === 'voided' ? '作废原因' : '驳回原因'} span={2}>
                  {cell('rejectReason')}
                </Descriptions.Item>
                <Descriptions.Item label={item.status === 'voided' ? '作废时间' : '驳回时间'}>
                  {cell('rejectedAt')}
                </Descriptions.Item>
              </Descriptions>
            )}
            <Table<InvoiceOrder>
              aria-label="开票订单"
              title={() => '开票订单'}
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={item.orders}
              columns={[
                { key: 'orderNo', title: '订单号', dataIndex: 'orderNo' },
                {
                  key: 'kind',
                  title: '订单类型',
                  dataIndex: 'kind',
                  render: (v: string) => optionLabel(orderKindOptions, v),
                },
                {
                  key: 'productName',
                  title: '产品',
                  dataIndex: 'productName',
                  render: (v: string | null) => v ?? '—',
                },
                {
                  key: 'paidFen',
                  title: '实付金额',
                  dataIndex: 'paidFen',
                  render: (v: number) => formatYuan(v),
                },
                {
                  key: 'status',
                  title: '订单状态',
                  dataIndex: 'status',
                  render: (v: string) => <OrderStatusTag status={v} />,
                },
              ]}
            />
          </>
        );
      }}
    </ResourceShow>
  );
}
