/**
 * 推送地址: the webhooks and group robots, searched by name, kind and whether enabled. 状态 says
 * when deliveries fail and, in red, why the console turned one off. Staff with the edit code add and
 * edit them, send a test event, rotate a webhook's secret (the old one signs beside the new for
 * 24 h); with the remove code, delete them. 推送记录 opens the log filtered to one endpoint.
 */
import { useState } from 'react';
import { App, Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  WEBHOOK_EDIT_PERMISSION,
  WEBHOOK_REMOVE_PERMISSION,
  WEBHOOK_SECRET_OVERLAP_MS,
  webhookApi,
  webhookKindLabels,
  type WebhookRecord,
} from '@cowork/contract/resources/webhook';
import { formatTime } from '../../lib/format.ts';
import { api, settled } from '../../lib/request.ts';
import { usePermission } from '../PermissionGate.tsx';
import { ListPage, type ListDef } from '../resource/ListPage.tsx';
import { EndpointDrawer, webhookKey } from './EndpointDrawer.tsx';
import { eventNames } from './EventPicker.tsx';
import { ShownOnceModal, SignatureHowTo } from './ShownOnceModal.tsx';

/** 启用 / 停用, 推送失败中 while its deliveries fail, and in red why the console turned it off. */
export function EndpointState({ endpoint }: { endpoint: WebhookRecord }) {
  return (
    <Space orientation="vertical" size={2}>
      <Space size={4} wrap>
        {endpoint.enabled ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>}
        {endpoint.failing && (
          <Tooltip
            title={endpoint.failingSince ? `自 ${formatTime(endpoint.failingSince)} 起推送失败` : undefined}
          >
            <Tag color="red">推送失败中</Tag>
          </Tooltip>
        )}
      </Space>
      {endpoint.disabledReason && (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {endpoint.disabledReason}
        </Typography.Text>
      )}
    </Space>
  );
}

const endpointList: ListDef<WebhookRecord> = {
  queryKey: [...webhookKey, 'endpoints'],
  source: { page: webhookApi.page },
  // 状态 and 最近推送时间 move by themselves as deliveries succeed or fail.
  refreshMs: 10_000,
  formName: 'webhook-search',
  filters: {
    name: { kind: 'text', label: '名称' },
    kind: { kind: 'choice', label: '类型', options: webhookKindLabels, width: 180 },
    enabled: { kind: 'choice', label: '启用', options: { true: '启用', false: '停用' }, width: 110 },
  },
  columns: [
    { title: '名称', value: 'name', width: 160 },
    { title: '类型', width: 170, render: (e) => webhookKindLabels[e.kind] },
    {
      title: '地址',
      width: 280,
      ellipsis: true,
      render: (e) => <span title={e.url}>{e.url}</span>,
    },
    {
      title: '事件',
      width: 110,
      render: (e) => (
        <Tooltip title={eventNames(e.events).join('、')}>
          <Typography.Text underline style={{ cursor: 'help' }}>
            {e.events.length} 个事件
          </Typography.Text>
        </Tooltip>
      ),
    },
    { title: '状态', width: 220, render: (e) => <EndpointState endpoint={e} /> },
    { title: '最近推送时间', width: 170, render: (e) => formatTime(e.lastDeliveryAt) },
    { title: '备注', value: 'remark', ellipsis: true },
  ],
  scrollX: 1400,
  actionsWidth: 300,
};

type Dialog =
  | { kind: 'edit'; endpoint: WebhookRecord | 'new' }
  | { kind: 'secret'; name: string; secret: string; rotated: boolean };

const overlapHours = WEBHOOK_SECRET_OVERLAP_MS / 3_600_000;

export function EndpointTab({ onDeliveries }: { onDeliveries: (endpoint: WebhookRecord) => void }) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const { can } = usePermission();
  const canEdit = can([WEBHOOK_EDIT_PERMISSION]);
  const canRemove = can([WEBHOOK_REMOVE_PERMISSION]);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKey });

  const test = useMutation({
    mutationFn: (endpoint: WebhookRecord) => api.post(webhookApi.test, { id: endpoint.id }),
    onSuccess: (_answer, endpoint) => {
      message.success(`测试事件已发送到“${endpoint.name}”的推送队列，可在“推送记录”中查看结果`);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (endpoint: WebhookRecord) => api.deleteById(webhookApi.remove, endpoint.id),
    onSuccess: (_answer, endpoint) => {
      message.success(`推送地址“${endpoint.name}”已删除，它的推送记录也已一并删除`);
      void refresh();
    },
  });
  const rotate = (endpoint: WebhookRecord) =>
    modal.confirm({
      title: `更换“${endpoint.name}”的签名密钥？`,
      content: `将立即生成新密钥。旧密钥在 ${overlapHours} 小时内仍会同时签名（请求头中带两个 v1 签名），请在此期间把接收方改用新密钥；之后只用新密钥签名。`,
      okText: '更换密钥',
      cancelText: '取消',
      onOk: async () => {
        const { secret } = await api.post<{ secret: string }>(webhookApi.rotateSecret, { id: endpoint.id });
        message.success(`“${endpoint.name}”的签名密钥已更换`);
        setDialog({ kind: 'secret', name: endpoint.name, secret, rotated: true });
        void refresh();
      },
    });

  return (
    <>
      <ListPage
        list={endpointList}
        framed={false}
        toolbar={
          canEdit && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setDialog({ kind: 'edit', endpoint: 'new' })}
            >
              新建推送地址
            </Button>
          )
        }
        rowActions={(endpoint) => (
          <>
            {canEdit && (
              <Button type="link" size="small" onClick={() => setDialog({ kind: 'edit', endpoint })}>
                编辑
              </Button>
            )}
            {canEdit && (
              <Button
                type="link"
                size="small"
                disabled={!endpoint.enabled}
                title={endpoint.enabled ? undefined : '推送地址已停用，请先启用'}
                loading={test.isPending && test.variables.id === endpoint.id}
                onClick={() => test.mutate(endpoint)}
              >
                发送测试
              </Button>
            )}
            {canEdit && endpoint.kind === 'webhook' && (
              <Button type="link" size="small" onClick={() => rotate(endpoint)}>
                更换密钥
              </Button>
            )}
            <Button type="link" size="small" onClick={() => onDeliveries(endpoint)}>
              推送记录
            </Button>
            {canRemove && (
              <Popconfirm
                title={`确定删除推送地址“${endpoint.name}”吗？`}
                description="删除后不再推送，它的推送记录也会一并删除，且不可恢复。"
                okText="删除"
                cancelText="取消"
                okButtonProps={{ danger: true }}
                onConfirm={() => settled(remove.mutateAsync(endpoint))}
              >
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>
            )}
          </>
        )}
      />
      {dialog?.kind === 'edit' && (
        <EndpointDrawer
          editing={dialog.endpoint}
          onClose={() => setDialog(null)}
          onSecret={(name, secret) => setDialog({ kind: 'secret', name, secret, rotated: false })}
        />
      )}
      {dialog?.kind === 'secret' && (
        <ShownOnceModal
          title={dialog.rotated ? `新的签名密钥：${dialog.name}` : `签名密钥：${dialog.name}`}
          what="签名密钥"
          value={dialog.secret}
          onClose={() => setDialog(null)}
        >
          {dialog.rotated && (
            <Typography.Paragraph style={{ marginBottom: 0 }}>
              旧密钥在 {overlapHours} 小时内仍会同时签名，请在此期间把接收方改用新密钥。
            </Typography.Paragraph>
          )}
          <SignatureHowTo />
        </ShownOnceModal>
      )}
    </>
  );
}
