/**
 * 商户分账: each paid order with its merchant, the 分账规则 in force when it was paid, the ratio and
 * the share, on the shared ResourcePage (read-only: page only). Above the table, the count, paid
 * amount and share over the current search come from `total`, so they cover every page of rows.
 * The product types of the search form come from `site-type`.
 */
import { Alert, Select, Space, Statistic } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { cleanPayload, formatYuan, type Option } from '@cowork/contract';
import {
  merchantShareOrder,
  merchantShareOrderPaths as paths,
  NO_SHARE_RULE,
  type MerchantShareTotal,
} from '@cowork/contract/resources/merchant-share-order';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';
import { api } from '../../lib/request.ts';

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

export default function MerchantShareOrderPage() {
  return (
    <ResourcePage
      resource={merchantShareOrder}
      searchInputs={{ siteType: <SiteTypeSelect /> }}
      summary={(filters) => <ShareSummary filters={filters} />}
    />
  );
}
