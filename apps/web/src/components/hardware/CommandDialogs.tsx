/**
 * The commands 设备管理 sends a device, each in its dialog: 远程开门 (for how long), 动态码 (the door
 * code of now, renewed as it expires), 刷新屏幕 / 清除 / 重置配置 (clear and reset-config ask why; the
 * audit log keeps it), and 注销 (a confirmation). A command counts once the device acked it.
 */
import { useEffect, useState } from 'react';
import { Alert, App, Form, InputNumber, Modal, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  deviceEndpoints,
  OPEN_DOOR_DEFAULT_S,
  OPEN_DOOR_MAX_S,
  OPEN_DOOR_MIN_S,
  type DeviceRecord,
} from '@cowork/contract';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { ReasonField } from './ReasonField.tsx';

/** Every device query (list, detail, lists) starts with it: a command refreshes them all. */
const deviceKey = ['device'];

export function OpenDoorModal({ device, onClose }: { device: DeviceRecord; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [durationS, setDuration] = useState<number>(OPEN_DOOR_DEFAULT_S);
  const open = useSubmit({
    mutationFn: () => api.post(deviceEndpoints.openDoor, { id: device.id, durationS }),
    onSuccess: () => {
      message.success(`设备“${device.name}”已确认开门 ${durationS} 秒`);
      void queryClient.invalidateQueries({ queryKey: deviceKey });
      onClose();
    },
  });
  return (
    <Modal
      open
      title={`远程开门：${device.name}`}
      okText="开门"
      confirmLoading={open.isPending}
      onOk={() => open.mutate()}
      onCancel={onClose}
    >
      <Form layout="vertical">
        <Form.Item
          label="开门时长（秒）"
          extra={`${OPEN_DOOR_MIN_S}–${OPEN_DOOR_MAX_S} 秒，设备确认后才算成功`}
        >
          <InputNumber
            min={OPEN_DOOR_MIN_S}
            max={OPEN_DOOR_MAX_S}
            precision={0}
            value={durationS}
            onChange={(v) => setDuration(v ?? OPEN_DOOR_DEFAULT_S)}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function TotpModal({ device, onClose }: { device: DeviceRecord; onClose: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  const code = useQuery({
    queryKey: [...deviceKey, 'totp', device.id],
    queryFn: () => api.get<{ code: string; expiresAt: number }>(deviceEndpoints.totpCode, { id: device.id }),
  });
  const left = code.data ? Math.max(0, Math.ceil((code.data.expiresAt - now) / 1000)) : 0;
  // The seconds left count down on the screen's clock, not by asking the server.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  // A new code as soon as this one expires.
  useEffect(() => {
    if (code.data && left === 0) void code.refetch();
  }, [code, left]);
  return (
    <Modal open title={`动态码：${device.name}`} footer={null} onCancel={onClose}>
      <Space orientation="vertical" align="center" style={{ display: 'flex' }}>
        <Typography.Title level={2} style={{ letterSpacing: 8, margin: 0 }} data-testid="totp-code">
          {code.data?.code ?? '······'}
        </Typography.Title>
        <Typography.Text type="secondary">{code.data ? `${left} 秒后更新` : '正在获取…'}</Typography.Text>
        <Typography.Text type="secondary">在设备键盘输入此码即可开门（前后 30 秒内有效）。</Typography.Text>
      </Space>
    </Modal>
  );
}

/** The commands sent from a dialog of their own: its title, what the toast says, whether it asks why. */
export const deviceCommands = {
  'refresh-screen': {
    title: '刷新屏幕',
    done: '已刷新屏幕',
    needsReason: false,
    path: deviceEndpoints.refreshScreen,
  },
  clear: {
    title: '清除',
    done: '已清除本地权限，将在下次同步时恢复',
    needsReason: true,
    path: deviceEndpoints.clear,
  },
  'reset-config': {
    title: '重置配置',
    done: '已重置配置并生成新密钥',
    needsReason: true,
    path: deviceEndpoints.resetConfig,
  },
} as const;
export type DeviceCommandKind = keyof typeof deviceCommands;

export function CommandModal({
  kind,
  device,
  onClose,
  onSecret,
}: {
  kind: DeviceCommandKind;
  device: DeviceRecord;
  onClose: () => void;
  onSecret: (secret: string) => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ reason?: string }>();
  const command = deviceCommands[kind];
  const send = useSubmit({
    mutationFn: (v: { reason?: string }) =>
      // reset-config answers the new secret, the others nothing.
      api.post<{ secret: string } | null>(command.path, {
        id: device.id,
        reason: v.reason?.trim() || undefined,
      }),
    onSuccess: (answer) => {
      message.success(`设备“${device.name}”${command.done}`);
      void queryClient.invalidateQueries({ queryKey: deviceKey });
      if (answer && 'secret' in answer) onSecret(answer.secret);
      else onClose();
    },
  });
  return (
    <Modal
      open
      title={`${command.title}：${device.name}`}
      okText={command.title}
      okButtonProps={{ danger: command.needsReason }}
      confirmLoading={send.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form form={form} name="device-command" layout="vertical" onFinish={(v) => send.mutate(v)}>
        {kind === 'reset-config' && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title="设备将改用新密钥重新连接，旧密钥立即作废；新密钥只显示一次。"
          />
        )}
        {command.needsReason ? (
          <ReasonField placeholder="如：更换门禁控制器" />
        ) : (
          <Typography.Text>确认向设备发送“{command.title}”指令？</Typography.Text>
        )}
      </Form>
    </Modal>
  );
}

/** 注销: asks first; the device's secret stops working at once and it is disconnected. */
export function useUnregister() {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  return (device: DeviceRecord) =>
    modal.confirm({
      title: `注销设备“${device.name}”？`,
      content: '注销后设备密钥立即失效、设备被断开；设备可用注册密钥重新进入“待注册”。',
      okText: '确认注销',
      okButtonProps: { danger: true },
      onOk: async () => {
        await api.post(deviceEndpoints.unregister, { id: device.id });
        message.success(`设备“${device.name}”已注销`);
        await queryClient.invalidateQueries({ queryKey: deviceKey });
      },
    });
}
