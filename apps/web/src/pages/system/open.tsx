/**
 * 开放平台: what the console tells other systems. 推送地址 (signed webhooks and 企业微信 / 钉钉 /
 * 飞书 group robots), 推送记录 (every delivery, with 重新发送) and 接口密钥 (`ck_…` keys for
 * server-to-server calls, a tab only for staff holding its own view code). The tab is kept in the
 * address (`?tab=deliveries`), so a reload or a link (the bell's alert) opens the same tab; each tab's
 * filters are its own and start empty. Docs for receivers: docs/webhooks.md.
 */
import { Card, Result, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { messages } from '@cowork/contract';
import { API_KEY_VIEW_PERMISSION } from '@cowork/contract/resources/api-key';
import { WEBHOOK_VIEW_PERMISSION } from '@cowork/contract/resources/webhook';
import { ApiKeyTab } from '../../components/open/ApiKeyTab.tsx';
import { DeliveryTab } from '../../components/open/DeliveryTab.tsx';
import { EndpointTab } from '../../components/open/EndpointTab.tsx';
import { usePermission } from '../../components/PermissionGate.tsx';

export default function OpenPlatformPage() {
  const [search, setSearch] = useSearchParams();
  const { can } = usePermission();
  // Another tab starts from its own unfiltered first page, unless a filter is handed to it.
  const open = (tab: string, filters: Record<string, string> = {}) =>
    setSearch(() => new URLSearchParams({ tab, ...filters }), { replace: !Object.keys(filters).length });
  const items = [
    can([WEBHOOK_VIEW_PERMISSION]) && {
      key: 'endpoints',
      label: '推送地址',
      children: (
        <EndpointTab onDeliveries={(endpoint) => open('deliveries', { endpointId: String(endpoint.id) })} />
      ),
    },
    can([WEBHOOK_VIEW_PERMISSION]) && { key: 'deliveries', label: '推送记录', children: <DeliveryTab /> },
    can([API_KEY_VIEW_PERMISSION]) && { key: 'api-keys', label: '接口密钥', children: <ApiKeyTab /> },
  ].filter((item) => item !== false);
  if (items.length === 0) return <Result status="403" subTitle={messages.noPermission} />;
  const tab = items.find((item) => item.key === search.get('tab'))?.key ?? items[0].key;
  return (
    <Card size="small">
      <Tabs destroyOnHidden activeKey={tab} onChange={(key) => open(key)} items={items} />
    </Card>
  );
}
