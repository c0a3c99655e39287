/**
 * How a door is doing, as 设备管理 and the device detail show it: the state version it holds
 * against the current one (已同步 v12 / 未同步 v10 → v12, since when), its space's mode when not
 * 正常, its offline lease (v1.1: until when it may admit members cut off from the server), its open
 * alarms (linking to 告警记录), and 重启 (v1.1 devices only; v1 devices are restarted on site).
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { App, Badge, Button, Form, Input, Modal, Space, Tag, Tooltip, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  DEVICE_EDIT_PERMISSION,
  deviceEndpoints,
  deviceSyncStateLabels,
  optionalReason,
  spaceModeLabels,
  type DeviceRecord,
} from '@cowork/contract';
import { usePermission } from '../PermissionGate.tsx';
import { contractRules } from '../resource/contract-rules.ts';
import { formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { StatusBadge } from './DevicePicker.tsx';

/** Less than this left of a lease shows in the warning colour: staff have time to reconnect the door. */
const LEASE_WARNING_MS = 2 * 3_600_000;

/** 刚刚, 5 分钟前, 3 小时前, 2 天前: how long ago, as staff read it at a glance. */
export function ago(iso: string, now = Date.now()): string {
  const minutes = Math.floor((now - new Date(iso).getTime()) / 60_000);
  if (minutes < 1) return '刚刚';
  if (minutes < 60) return `${minutes} 分钟前`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)} 小时前`;
  return `${Math.floor(minutes / (24 * 60))} 天前`;
}

type SyncView = Pick<DeviceRecord, 'syncState' | 'syncedVersion' | 'currentVersion' | 'syncSince'>;

/** 已同步 v12, or 同步中 / 未同步 v10 → v12, with since when beside it (the exact time on hover). */
export function SyncStateTag({ device }: { device: SyncView }) {
  const { syncState, syncedVersion, currentVersion, syncSince } = device;
  const versions =
    syncState === 'synced' ? `v${currentVersion}` : `v${syncedVersion ?? '—'} → v${currentVersion}`;
  const color = syncState === 'synced' ? 'green' : syncState === 'syncing' ? 'blue' : 'orange';
  return (
    <Tooltip
      title={
        syncSince
          ? `${deviceSyncStateLabels[syncState]}，自 ${formatTime(syncSince)} 起`
          : '设备尚未收到过权限'
      }
    >
      <Space size={4} data-testid="device-sync">
        <Tag color={color} style={{ marginInlineEnd: 0 }}>
          {deviceSyncStateLabels[syncState]} {versions}
        </Tag>
        {syncSince && <Typography.Text type="secondary">{ago(syncSince)}</Typography.Text>}
      </Space>
    </Tooltip>
  );
}

/** 封锁 (red) or 全部常开 (orange); nothing while 正常. */
export function ModeTag({ mode }: { mode: DeviceRecord['mode'] }) {
  if (mode === 'normal') return null;
  return <Tag color={mode === 'lockdown' ? 'red' : 'orange'}>{spaceModeLabels[mode]}</Tag>;
}

/** 离线授权至 …: v1.1 devices only (v1 devices have no lease); warning colour when short or past. */
export function LeaseText({
  device,
  withHours = false,
}: {
  device: Pick<DeviceRecord, 'protocol' | 'leaseUntil' | 'leaseHours'>;
  /** Also say how long the building grants (the detail). */
  withHours?: boolean;
}) {
  if (device.protocol !== '1.1') return withHours ? <>v1 设备无离线授权期限</> : null;
  const hours = withHours ? `（楼宇设定 ${device.leaseHours} 小时）` : '';
  if (!device.leaseUntil) return <Typography.Text type="secondary">离线授权未下发{hours}</Typography.Text>;
  const left = new Date(device.leaseUntil).getTime() - Date.now();
  return (
    <Tooltip title="设备与服务器断开后，只在此时间前放行会员和卡；连接时服务器会自动续期">
      <Typography.Text type={left < LEASE_WARNING_MS ? 'warning' : 'secondary'} data-testid="device-lease">
        {left <= 0 ? '离线授权已过期' : '离线授权至'} {formatTime(device.leaseUntil)}
        {hours}
      </Typography.Text>
    </Tooltip>
  );
}

/** The open alarms as a red count linking to 告警记录 of this device; nothing without any. */
export function AlarmBadge({ device }: { device: Pick<DeviceRecord, 'id' | 'openAlarms'> }) {
  if (device.openAlarms === 0) return null;
  return (
    <Link to={`/hardware/alarm?deviceId=${device.id}&state=open`} title="查看未处理的告警">
      <Badge count={device.openAlarms} size="small" offset={[6, -2]}>
        <Tag color="red" style={{ marginInlineEnd: 0 }}>
          告警
        </Tag>
      </Badge>
    </Link>
  );
}

/** The list's 状态 cell: online state, mode and alarms; then the sync state; then the lease. */
export function DeviceHealth({ device }: { device: DeviceRecord }) {
  return (
    <Space orientation="vertical" size={2}>
      <Space size={6} wrap>
        <StatusBadge device={device} />
        <ModeTag mode={device.mode} />
        <AlarmBadge device={device} />
      </Space>
      <SyncStateTag device={device} />
      <LeaseText device={device} />
    </Space>
  );
}

/** 重启: a reason if staff want one, a confirmation, and the answer once the device acked. */
export function RebootModal({ device, onClose }: { device: DeviceRecord; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ reason?: string }>();
  const reboot = useSubmit({
    mutationFn: (v: { reason?: string }) =>
      api.post(deviceEndpoints.reboot, { id: device.id, reason: v.reason?.trim() || undefined }),
    onSuccess: () => {
      message.success(`设备“${device.name}”已确认重启，将在重新连接后恢复在线`);
      void queryClient.invalidateQueries({ queryKey: ['device'] });
      onClose();
    },
  });
  return (
    <Modal
      open
      title={`重启：${device.name}`}
      okText="重启"
      okButtonProps={{ danger: true }}
      confirmLoading={reboot.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form form={form} name="device-reboot" layout="vertical" onFinish={(v) => reboot.mutate(v)}>
        <Typography.Paragraph>
          设备确认后立即重启，重启期间（通常不到一分钟）门禁无法使用，重新连接后自动同步权限。
        </Typography.Paragraph>
        <Form.Item name="reason" label="操作原因（选填）" {...contractRules('操作原因', optionalReason)}>
          <Input.TextArea rows={2} placeholder="如：屏幕无响应" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The detail's 重启 button: for staff who may edit devices; a v1 device says why it has none. */
export function RebootButton({ device }: { device: DeviceRecord }) {
  const { can } = usePermission();
  const [open, setOpen] = useState(false);
  if (!can([DEVICE_EDIT_PERMISSION])) return null;
  const v1 = device.protocol !== '1.1';
  return (
    <>
      <Tooltip title={v1 ? 'v1 设备不支持远程重启，请到现场重启' : undefined}>
        <Button danger disabled={v1} onClick={() => setOpen(true)}>
          重启
        </Button>
      </Tooltip>
      {open && <RebootModal device={device} onClose={() => setOpen(false)} />}
    </>
  );
}
