/**
 * 商户分账: each paid order with its merchant, the 分账规则 in force when it was paid, the ratio and
 * the share, on the shared ResourcePage (read-only: page only). Above the table, the count, paid
 * amount and share over the current search come from `total`, so they cover every page of rows.
 * The product types of the search form come from `site-type`.
 */
import { useState } from 'react';
import { Alert, App, Button, DatePicker, Form, Modal, Select, Space, Statistic, Typography } from 'antd';
import { FileTextOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { businessDay, businessTimeZoneName, cleanPayload, formatYuan, type Option } from '@cowork/contract';
import {
  merchantShareOrder,
  merchantShareOrderPaths as paths,
  NO_SHARE_RULE,
  type MerchantShareTotal,
} from '@cowork/contract/resources/merchant-share-order';
import { ExportButton } from '../../components/ExportButton.tsx';
import { useListOptions } from '../../components/resource/field-input.tsx';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';
import { api, saveFile } from '../../lib/request.ts';

function SiteTypeSelect(props: { value?: string; onChange?: (value?: string) => void; id?: string }) {
  const siteTypes = useQuery({
    queryKey: ['list', paths.siteType],
    queryFn: () => api.get<Option[]>(paths.siteType),
    staleTime: 60_000,
  });
  return (
    <Select
      {...props}
      allowClear
      placeholder="请选择产品类型"
      style={{ minWidth: 180 }}
      loading={siteTypes.isLoading}
      options={siteTypes.data ?? []}
    />
  );
}

function ShareSummary({ filters }: { filters: Record<string, unknown> }) {
  const total = useQuery({
    queryKey: [merchantShareOrder.key, 'total', filters],
    queryFn: () => api.get<MerchantShareTotal>(paths.total, cleanPayload(filters)),
    placeholderData: keepPreviousData,
  });
  return (
    <Space orientation="vertical" size={8} style={{ display: 'flex', marginBottom: 12 }}>
      <Space size={48} className="share-summary" aria-label="分账合计">
        <Statistic title="订单笔数" value={total.data?.count ?? 0} loading={total.isLoading} />
        <Statistic title="实付合计" value={formatYuan(total.data?.paidFen ?? 0)} loading={total.isLoading} />
        <Statistic title="分账合计" value={formatYuan(total.data?.shareFen ?? 0)} loading={total.isLoading} />
      </Space>
      <Alert
        type="info"
        showIcon
        title={`只统计已支付与已使用的订单，已退款的订单不参与分账。分账金额 = 实付金额 × 支付时有效的分账规则比例，每笔四舍五入到分；支付时没有有效规则的订单显示「${NO_SHARE_RULE}」，分账金额为 ¥0.00。`}
      />
    </Space>
  );
}

/** 结算单: one merchant's month as Excel (orders, rule, share, total), picked in a small form. */
function SettlementButton() {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ merchantId?: number; month?: Dayjs }>();
  const merchants = useListOptions(merchantShareOrder.fields.merchantId.listEndpoint);
  const download = useMutation({
    mutationFn: ({ merchantId, month }: { merchantId: number; month: Dayjs }) =>
      api.downloadFile(paths.statement, { merchantId, month: month.format('YYYY-MM') }),
    onSuccess: ({ blob, fileName }) => {
      saveFile(blob, fileName ?? '分账结算单.xlsx');
      message.success('结算单已导出，请在浏览器的下载中查看文件');
      setOpen(false);
    },
  });
  return (
    <>
      <Button icon={<FileTextOutlined />} onClick={() => setOpen(true)}>
        月度结算单
      </Button>
      <Modal
        title="导出商户月度结算单"
        open={open}
        okText="导出"
        confirmLoading={download.isPending}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          initialValues={{ month: dayjs(businessDay(new Date())).subtract(1, 'month') }}
          onFinish={(values) => download.mutate(values as { merchantId: number; month: Dayjs })}
        >
          <Form.Item name="merchantId" label="商户" rules={[{ required: true, message: '请选择商户' }]}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="请选择商户"
              loading={merchants.isLoading}
              options={merchants.data?.map((o) => ({ value: o.value, label: o.label }))}
            />
          </Form.Item>
          <Form.Item name="month" label="结算月份" rules={[{ required: true, message: '请选择结算月份' }]}>
            <DatePicker picker="month" style={{ width: '100%' }} />
          </Form.Item>
          <Typography.Text type="secondary">
            结算单列出该商户当月（{businessTimeZoneName()}
            ）每笔已支付或已使用的订单、支付时有效的分账规则、分账金额与合计，合计与本页筛选该商户、该月时的合计一致。
          </Typography.Text>
        </Form>
      </Modal>
    </>
  );
}

export default function MerchantShareOrderPage() {
  return (
    <ResourcePage
      resource={merchantShareOrder}
      searchInputs={{ siteType: <SiteTypeSelect /> }}
      summary={(filters) => <ShareSummary filters={filters} />}
      toolbar={(filters) => (
        <>
          <ExportButton path={paths.export} filters={filters} label="商户分账" />
          <SettlementButton />
        </>
      )}
    />
  );
}
