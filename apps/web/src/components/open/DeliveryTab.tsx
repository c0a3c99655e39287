/**
 * 推送记录: every delivery of an event to an endpoint, newest first, filtered by endpoint, event,
 * status and days; it refreshes itself, so a test sent shows 已送达 within seconds. An expanded row
 * shows the event id, why the last attempt failed and the first 2 KB of the receiver's answer.
 * Staff with the edit code send again one delivery, the ones picked, or every failed one of the
 * chosen endpoint in the chosen days.
 */
import { useState } from 'react';
import { App, Button, Descriptions, Select, Space, Tag, Tooltip, Typography, type SelectProps } from 'antd';
import { RedoOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_PAGE_SIZE, webhookEventLabels, type Page } from '@cowork/contract';
import {
  WEBHOOK_EDIT_PERMISSION,
  webhookApi,
  webhookDeliveryStatusLabels,
  type WebhookDeliveryRecord,
  type WebhookRecord,
} from '@cowork/contract/resources/webhook';
import { formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { usePermission } from '../PermissionGate.tsx';
import { ListPage, type ListDef } from '../resource/ListPage.tsx';
import { webhookKey } from './EndpointDrawer.tsx';
import { eventNames } from './EventPicker.tsx';

/** The endpoints, for the log's filter (an operator has a handful: one page holds them). */
function EndpointSelect(props: SelectProps<number>) {
  const endpoints = useQuery({
    queryKey: [...webhookKey, 'options'],
    queryFn: () => api.get<Page<WebhookRecord>>(webhookApi.page, { current: 1, size: MAX_PAGE_SIZE }),
    staleTime: 30_000,
  });
  return (
    <Select<number>
      {...props}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder="全部"
      loading={endpoints.isLoading}
      options={endpoints.data?.records.map((e) => ({ value: e.id, label: e.name }))}
    />
  );
}

/** 待发送 before the first attempt, 待重试 after a failed one, 已送达, 已放弃; with the attempts made. */
export function DeliveryState({ delivery }: { delivery: WebhookDeliveryRecord }) {
  const { status, attempts } = delivery;
  const tag =
    status === 'delivered' ? (
      <Tag color="green">{webhookDeliveryStatusLabels.delivered}</Tag>
    ) : status === 'failed' ? (
      <Tag color="red">{webhookDeliveryStatusLabels.failed}</Tag>
    ) : attempts > 0 ? (
      <Tag color="orange">待重试</Tag>
    ) : (
      <Tag color="blue">{webhookDeliveryStatusLabels.pending}</Tag>
    );
  return (
    <Space size={4}>
      {tag}
      <Typography.Text type="secondary">{attempts > 0 ? `已尝试 ${attempts} 次` : '未尝试'}</Typography.Text>
    </Space>
  );
}

const deliveryList: ListDef<WebhookDeliveryRecord> = {
  queryKey: [...webhookKey, 'deliveries'],
  source: { page: webhookApi.deliveryPage },
  // Attempts land by themselves: a test sent shows its answer without a reload.
  refreshMs: 3_000,
  formName: 'webhook-delivery-search',
  filters: {
    endpointId: {
      kind: 'custom',
      label: '推送地址',
      numeric: true,
      input: <EndpointSelect style={{ width: 180 }} />,
    },
    eventType: {
      kind: 'choice',
      label: '事件',
      options: webhookEventLabels,
      searchable: true,
      width: 180,
    },
    status: { kind: 'choice', label: '状态', options: webhookDeliveryStatusLabels, width: 120 },
    at: { kind: 'range', label: '时间', bounds: ['atFrom', 'atTo'] },
  },
  columns: [
    { title: '时间', width: 170, render: (d) => formatTime(d.createdAt) },
    { title: '推送地址', value: 'endpointName', width: 150, ellipsis: true },
    {
      title: '事件',
      width: 170,
      render: (d) => <span title={d.eventType}>{eventNames([d.eventType])[0]}</span>,
    },
    { title: '状态', width: 190, render: (d) => <DeliveryState delivery={d} /> },
    {
      title: '状态码',
      width: 80,
      render: (d) =>
        d.lastStatusCode === null ? (
          '—'
        ) : (
          <Typography.Text type={d.lastStatusCode < 300 ? undefined : 'danger'}>
            {d.lastStatusCode}
          </Typography.Text>
        ),
    },
    { title: '耗时', width: 90, render: (d) => (d.lastDurationMs === null ? '—' : `${d.lastDurationMs} ms`) },
    { title: '最近推送', width: 170, render: (d) => formatTime(d.lastAttemptAt) },
    {
      title: '下次重试',
      width: 170,
      render: (d) => (d.status === 'pending' && d.attempts > 0 ? formatTime(d.nextAttemptAt) : '—'),
    },
  ],
  scrollX: 1400,
  actionsWidth: 110,
};

/** An expanded row: the event id, why the last attempt failed, and the start of the answer. */
export function DeliveryDetail({ delivery }: { delivery: WebhookDeliveryRecord }) {
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      items={[
        {
          key: 'eventId',
          label: '事件编号',
          children: (
            <Typography.Text copyable code>
              {delivery.eventId}
            </Typography.Text>
          ),
        },
        {
          key: 'error',
          label: '失败原因',
          children: delivery.lastError ? (
            <Typography.Text type="danger">{delivery.lastError}</Typography.Text>
          ) : (
            '—'
          ),
        },
        {
          key: 'answer',
          label: '接收方应答（前 2 KB）',
          children: delivery.answer ? (
            <pre
              data-testid="delivery-answer"
              style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
            >
              {delivery.answer}
            </pre>
          ) : (
            '—'
          ),
        },
      ]}
    />
  );
}

/** The resend's message: how many were queued, or that there was nothing to send. */
const queuedText = (queued: number, what: string) =>
  queued > 0
    ? `已重新排队 ${queued} 条${what}，将立即开始推送，结果请稍后在列表中查看`
    : `没有可重新发送的${what}，请调整筛选条件后重试`;

export function DeliveryTab() {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const { can } = usePermission();
  const canEdit = can([WEBHOOK_EDIT_PERMISSION]);
  const [picked, setPicked] = useState<WebhookDeliveryRecord[]>([]);
  const resend = useSubmit({
    mutationFn: (ids: number[]) => api.post<{ queued: number }>(webhookApi.deliveryResend, { ids }),
    onSuccess: ({ queued }) => {
      message.success(queuedText(queued, '推送记录'));
      setPicked([]);
      void queryClient.invalidateQueries({ queryKey: webhookKey });
    },
  });
  const resendFailed = (filters: Record<string, unknown>) =>
    modal.confirm({
      title: '重新发送失败的记录？',
      content: `将把所选推送地址在 ${formatTime(String(filters.atFrom))} 至 ${formatTime(String(filters.atTo))} 之间推送失败的记录重新排队并立即推送；接收方可能因此再次收到同一事件，请按事件编号去重。`,
      okText: '重新发送',
      cancelText: '取消',
      onOk: async () => {
        const { queued } = await api.post<{ queued: number }>(webhookApi.deliveryResend, {
          endpointId: Number(filters.endpointId),
          atFrom: filters.atFrom,
          atTo: filters.atTo,
        });
        message.success(queuedText(queued, '失败的推送记录'));
        void queryClient.invalidateQueries({ queryKey: webhookKey });
      },
    });
  return (
    <ListPage
      list={deliveryList}
      framed={false}
      expandedRow={(delivery) => <DeliveryDetail delivery={delivery} />}
      selection={canEdit ? { keys: picked.map((d) => d.id), onChange: (rows) => setPicked(rows) } : undefined}
      toolbar={
        canEdit
          ? (filters) => {
              const ranged = Boolean(filters.endpointId && filters.atFrom && filters.atTo);
              return (
                <>
                  <Button
                    icon={<RedoOutlined />}
                    disabled={picked.length === 0}
                    loading={resend.isPending && resend.variables.length > 1}
                    onClick={() => resend.mutate(picked.map((d) => d.id))}
                  >
                    重新发送选中的记录{picked.length > 0 ? `（${picked.length}）` : ''}
                  </Button>
                  <Tooltip title={ranged ? undefined : '请先选择推送地址和时间范围并查询'}>
                    <Button danger disabled={!ranged} onClick={() => resendFailed(filters)}>
                      重新发送失败的记录
                    </Button>
                  </Tooltip>
                </>
              );
            }
          : undefined
      }
      rowActions={
        canEdit
          ? (delivery) => (
              <Button
                type="link"
                size="small"
                loading={
                  resend.isPending && resend.variables.length === 1 && resend.variables[0] === delivery.id
                }
                onClick={() => resend.mutate([delivery.id])}
              >
                重新发送
              </Button>
            )
          : undefined
      }
    />
  );
}
