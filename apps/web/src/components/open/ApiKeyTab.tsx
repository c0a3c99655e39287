/**
 * 接口密钥: the `ck_…` keys other systems call the admin API with, from the api-key resource of the
 * contract (search, table, create drawer and buttons by permission come with ResourcePage). A new
 * key is shown once with the header to send it in; 吊销 asks first and the key is refused at once.
 */
import { useState } from 'react';
import { App, Button, Popconfirm, Tag, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  API_KEY_EDIT_PERMISSION,
  apiKey,
  apiKeyEndpoints,
  type ApiKeyCreated,
} from '@cowork/contract/resources/api-key';
import { formatTime } from '../../lib/format.ts';
import { api, settled } from '../../lib/request.ts';
import { usePermission } from '../PermissionGate.tsx';
import { ReferenceCell } from '../resource/field-input.tsx';
import { ResourcePage, type ResourceRecord } from '../resource/ResourcePage.tsx';
import { ShownOnceModal } from './ShownOnceModal.tsx';

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

export type ApiKeyState = 'active' | 'expired' | 'revoked';

/** 有效, 已过期 (its expiry passed) or 已吊销, as of `now`. */
export function apiKeyState(record: Record<string, unknown>, now = Date.now()): ApiKeyState {
  if (text(record.revokedAt)) return 'revoked';
  const expires = text(record.expiresAt);
  return expires && new Date(expires).getTime() <= now ? 'expired' : 'active';
}

const stateTags: Record<ApiKeyState, { color: string; label: string }> = {
  active: { color: 'green', label: '有效' },
  expired: { color: 'orange', label: '已过期' },
  revoked: { color: 'red', label: '已吊销' },
};

/** The created key, once, with how to send it. */
export function ApiKeyModal({
  name,
  apiKeyValue,
  onClose,
}: {
  name: string;
  apiKeyValue: string;
  onClose: () => void;
}) {
  const header = `Authorization: Bearer ${apiKeyValue}`;
  return (
    <ShownOnceModal title={`接口密钥：${name}`} what="接口密钥" value={apiKeyValue} onClose={onClose}>
      <Typography.Text>调用控制台接口时，在请求头中带上：</Typography.Text>
      <Typography.Paragraph
        copyable={{ text: header, tooltips: ['复制请求头', '已复制'] }}
        code
        style={{ wordBreak: 'break-all' }}
      >
        {header}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        密钥拥有所属角色的权限（限定楼宇时只能访问这些楼宇的数据），但不能调用密钥、角色、后台用户和菜单的接口；
        调用写入的操作会以“接口密钥：{name}”记入操作日志。
      </Typography.Paragraph>
    </ShownOnceModal>
  );
}

export function ApiKeyTab() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { can } = usePermission();
  const canEdit = can([API_KEY_EDIT_PERMISSION]);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const revoke = useMutation({
    mutationFn: (record: ResourceRecord) => api.post(apiKeyEndpoints.revoke, { id: record.id }),
    onSuccess: (_answer, record) => {
      message.success(`接口密钥“${String(record.name)}”已吊销，使用它的调用将立即被拒绝`);
      void queryClient.invalidateQueries({ queryKey: [apiKey.key] });
    },
  });
  return (
    <>
      <ResourcePage
        resource={apiKey}
        cells={{
          roleId: (_value, record) => text(record.roleName) ?? '—',
          buildingIds: (value) =>
            Array.isArray(value) && value.length > 0 ? (
              <ReferenceCell field={apiKey.fields.buildingIds} value={value} />
            ) : (
              '全部楼宇'
            ),
          expiresAt: (value) => (text(value) ? formatTime(text(value)) : '长期有效'),
        }}
        extraColumns={[
          {
            key: 'prefix',
            title: '前缀',
            render: (_: unknown, record: ResourceRecord) => (
              <Typography.Text code>{`${String(record.prefix)}…`}</Typography.Text>
            ),
          },
          {
            key: 'lastUsed',
            title: '最近使用',
            render: (_: unknown, record: ResourceRecord) =>
              text(record.lastUsedAt)
                ? `${formatTime(text(record.lastUsedAt))}（${text(record.lastUsedIp) ?? '地址未知'}）`
                : '从未使用',
          },
          {
            key: 'state',
            title: '状态',
            render: (_: unknown, record: ResourceRecord) => {
              const state = stateTags[apiKeyState(record)];
              return <Tag color={state.color}>{state.label}</Tag>;
            },
          },
        ]}
        rowActions={(record) =>
          canEdit && apiKeyState(record) !== 'revoked' ? (
            <Popconfirm
              title={`确定吊销接口密钥“${String(record.name)}”吗？`}
              description="吊销后使用该密钥的调用将立即被拒绝，且不可恢复；调用方需改用新的密钥。"
              okText="吊销"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => settled(revoke.mutateAsync(record))}
            >
              <Button type="link" size="small" danger>
                吊销
              </Button>
            </Popconfirm>
          ) : null
        }
        onSaved={(answer, isNew, values) => {
          if (isNew && isCreated(answer)) setCreated({ name: String(values.name ?? ''), key: answer.key });
        }}
      />
      {created && (
        <ApiKeyModal name={created.name} apiKeyValue={created.key} onClose={() => setCreated(null)} />
      )}
    </>
  );
}

const isCreated = (answer: unknown): answer is ApiKeyCreated =>
  typeof answer === 'object' && answer !== null && 'key' in answer && typeof answer.key === 'string';
