/**
 * A device's 管理员密码 and 卡规则 (设备管理 → 更多): the lists the device holds, each change saved
 * and synced to the device at once (the message says when the device will only get it later).
 * Passwords leave the browser once, to be hashed; only their ids and SHA-256 come back.
 */
import { useState } from 'react';
import { App, Button, DatePicker, Form, Input, Modal, Popconfirm, Space, Table, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import {
  ADMIN_PASSWORD_MAX_DIGITS,
  ADMIN_PASSWORD_MIN_DIGITS,
  adminPasswordSaveBody,
  cardRuleSaveBody,
  deviceEndpoints,
  deviceMessages,
  type AdminPasswordRow,
  type CardRuleRow,
  type DeviceListChanged,
  type DeviceRecord,
} from '@cowork/contract';
import { contractRules } from '../resource/contract-rules.ts';
import { formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { ReasonField } from './ReasonField.tsx';

/**
 * One of a device's lists and its changes: each change refreshes it and says whether the device
 * already has it or will get it when back online.
 */
function useDeviceList<T>(device: DeviceRecord, path: string, what: string) {
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const list = useQuery({
    queryKey: ['device', path, device.id],
    queryFn: () => api.get<T[]>(path, { id: device.id }),
  });
  const submit = useSubmit({
    mutationFn: ({ to, body }: { to: string; body: object; after?: () => void }) =>
      api.post<DeviceListChanged>(to, { id: device.id, ...body }),
    onSuccess: async (answer, { after }) => {
      if (answer.synced) message.success(deviceMessages.listSynced(what));
      else message.warning(deviceMessages.listPending(what, answer.pending ?? '设备离线'));
      after?.();
      await queryClient.invalidateQueries({ queryKey: ['device'] });
    },
  });
  const run = (to: string, body: object, after?: () => void) => submit.mutate({ to, body, after });
  return { list, run, pending: submit.isPending };
}

export function AdminPasswordsModal({ device, onClose }: { device: DeviceRecord; onClose: () => void }) {
  const [form] = Form.useForm<{ password: string; reason: string }>();
  const [removing, setRemoving] = useState<AdminPasswordRow>();
  const { list, run, pending } = useDeviceList<AdminPasswordRow>(
    device,
    deviceEndpoints.adminPwdList,
    '管理员密码',
  );
  return (
    <Modal open title={`管理员密码：${device.name}`} footer={null} onCancel={onClose} width={640}>
      <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
        <Typography.Text type="secondary">
          管理员密码可在设备键盘上直接开门，只保存其 SHA-256 摘要，保存后立即同步到设备。
        </Typography.Text>
        <Table<AdminPasswordRow>
          rowKey="id"
          size="small"
          pagination={false}
          loading={list.isLoading}
          dataSource={list.data ?? []}
          locale={{ emptyText: '暂无管理员密码' }}
          columns={[
            { title: '编号', dataIndex: 'id', width: 120 },
            { title: 'SHA-256 摘要', key: 'sha256', render: (_, p) => `${p.sha256.slice(0, 16)}…` },
            {
              title: '操作',
              key: 'actions',
              width: 80,
              render: (_, p) => (
                <Button type="link" size="small" danger onClick={() => setRemoving(p)}>
                  删除
                </Button>
              ),
            },
          ]}
        />
        <Form
          form={form}
          name="admin-password"
          layout="vertical"
          onFinish={(v) =>
            run(deviceEndpoints.adminPwdSave, { password: v.password, reason: v.reason.trim() }, () =>
              form.resetFields(),
            )
          }
        >
          <Form.Item
            name="password"
            label="新管理员密码"
            {...contractRules('新管理员密码', adminPasswordSaveBody.shape.password)}
          >
            <Input.Password
              autoComplete="new-password"
              placeholder={`${ADMIN_PASSWORD_MIN_DIGITS}–${ADMIN_PASSWORD_MAX_DIGITS} 位数字`}
            />
          </Form.Item>
          <ReasonField placeholder="如：夜间保洁进出" />
          <Button type="primary" htmlType="submit" loading={pending}>
            添加密码
          </Button>
        </Form>
      </Space>
      {removing && (
        <RemovePasswordModal
          password={removing}
          pending={pending}
          onCancel={() => setRemoving(undefined)}
          onConfirm={(reason) =>
            run(deviceEndpoints.adminPwdRemove, { pwdId: removing.id, reason }, () => setRemoving(undefined))
          }
        />
      )}
    </Modal>
  );
}

function RemovePasswordModal({
  password,
  pending,
  onCancel,
  onConfirm,
}: {
  password: AdminPasswordRow;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (reason: string) => void;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Modal
      open
      title={`删除管理员密码 ${password.id}`}
      okText="删除"
      okButtonProps={{ danger: true }}
      confirmLoading={pending}
      onOk={() => form.submit()}
      onCancel={onCancel}
    >
      <Form
        form={form}
        name="admin-password-remove"
        layout="vertical"
        onFinish={(v) => onConfirm(v.reason.trim())}
      >
        <ReasonField placeholder="如：保洁合同结束" />
      </Form>
    </Modal>
  );
}

export function CardRulesModal({ device, onClose }: { device: DeviceRecord; onClose: () => void }) {
  const [form] = Form.useForm<{ cardNo: string; range: [Dayjs, Dayjs] }>();
  const { list, run, pending } = useDeviceList<CardRuleRow>(device, deviceEndpoints.cardRuleList, '卡规则');
  return (
    <Modal open title={`卡规则：${device.name}`} footer={null} onCancel={onClose} width={720}>
      <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
        <Typography.Text type="secondary">
          在有效期内刷这些卡即可开门；同一卡号再次保存会替换原规则。保存后立即同步到设备。
        </Typography.Text>
        <Table<CardRuleRow>
          rowKey="cardNo"
          size="small"
          loading={list.isLoading}
          dataSource={list.data ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          locale={{ emptyText: '暂无卡规则' }}
          columns={[
            { title: '卡号', dataIndex: 'cardNo' },
            {
              title: '生效时间',
              key: 'validFrom',
              render: (_, r) => formatTime(r.validFrom),
            },
            {
              title: '失效时间',
              key: 'validTo',
              render: (_, r) => formatTime(r.validTo),
            },
            {
              title: '操作',
              key: 'actions',
              width: 80,
              render: (_, r) => (
                <Popconfirm
                  title={`删除卡 ${r.cardNo} 的规则？`}
                  okText="删除"
                  okButtonProps={{ danger: true }}
                  onConfirm={() => run(deviceEndpoints.cardRuleRemove, { cardNo: r.cardNo })}
                >
                  <Button type="link" size="small" danger>
                    删除
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
        <Form
          form={form}
          name="card-rule"
          layout="inline"
          onFinish={(v) =>
            run(
              deviceEndpoints.cardRuleSave,
              { cardNo: v.cardNo.trim(), validFrom: v.range[0].valueOf(), validTo: v.range[1].valueOf() },
              () => form.resetFields(),
            )
          }
        >
          <Form.Item name="cardNo" label="卡号" {...contractRules('卡号', cardRuleSaveBody.shape.cardNo)}>
            <Input style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="range" label="有效期" rules={[{ required: true, message: '请选择卡的有效期' }]}>
            <DatePicker.RangePicker showTime />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={pending}>
              保存规则
            </Button>
          </Form.Item>
        </Form>
      </Space>
    </Modal>
  );
}
