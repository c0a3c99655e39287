/**
 * 设备管理: registered door devices with live status (the list refreshes itself; 状态 comes first,
 * so a phone shows it without scrolling sideways: online, mode, open alarms, the state version held
 * and the offline lease in one cell), the devices waiting to be registered (counted on their tab
 * while any waits), and the commands of the device protocol (docs/devices.md): 远程开门, 动态码,
 * 刷新屏幕, 清除, 重置配置, 重启, 注销. A secret is shown once, when it is issued (register, reset-config).
 * The dialogs live in components/hardware.
 */
import { useState } from 'react';
import { Badge, Button, Card, Dropdown, Space, Tabs } from 'antd';
import {
  DEVICE_EDIT_PERMISSION,
  DEVICE_REMOVE_PERMISSION,
  deviceEndpoints,
  deviceStatusLabels,
  type DeviceRecord,
} from '@cowork/contract';
import { useUnregister } from '../../components/hardware/CommandDialogs.tsx';
import {
  DeviceDialogs,
  isDeviceDialogKind,
  type DeviceDialog,
} from '../../components/hardware/DeviceDialogs.tsx';
import { DeviceHealth, RebootModal } from '../../components/hardware/DeviceHealth.tsx';
import { placeOf } from '../../components/hardware/DevicePicker.tsx';
import { LinkBanner } from '../../components/hardware/LinkBanner.tsx';
import { DEVICE_REFRESH_MS, useWaitingDevices, WaitingList } from '../../components/hardware/WaitingList.tsx';
import { usePermission } from '../../components/PermissionGate.tsx';
import { ListPage, type ListDef } from '../../components/resource/ListPage.tsx';
import { formatTime } from '../../lib/format.ts';

// 状态 first: on a phone the table scrolls sideways, and the state is what staff look for.
const deviceList: ListDef<DeviceRecord> = {
  queryKey: ['device', 'page'],
  source: { page: deviceEndpoints.page },
  // Online state and last seen change by themselves: the list follows them.
  refreshMs: DEVICE_REFRESH_MS,
  formName: 'device-search',
  filters: {
    sn: { kind: 'text', label: '序列号', placeholder: '序列号开头' },
    name: { kind: 'text', label: '设备名称' },
    status: { kind: 'choice', label: '状态', options: deviceStatusLabels, width: 120 },
  },
  columns: [
    { title: '状态', width: 260, render: (device) => <DeviceHealth device={device} /> },
    { title: '设备名称', value: 'name', width: 160 },
    { title: '序列号', value: 'sn', width: 160 },
    { title: '位置（楼宇 / 空间）', width: 240, render: placeOf },
    { title: '最后在线', width: 170, render: (device) => formatTime(device.lastSeenAt) },
    {
      title: '型号 / 固件',
      width: 150,
      render: (device) => [device.model, device.firmware].filter(Boolean).join(' / ') || '—',
    },
  ],
  scrollX: 1400,
  actionsWidth: 250,
};

export default function DevicePage() {
  const [dialog, setDialog] = useState<DeviceDialog | null>(null);
  const [tab, setTab] = useState('devices');
  const waiting = useWaitingDevices().data?.length ?? 0;
  const [rebooting, setRebooting] = useState<DeviceRecord | null>(null);
  const actions = useDeviceActions(setDialog, setRebooting);
  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <LinkBanner />
      <Card size="small">
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: 'devices',
              label: '设备列表',
              children: <ListPage list={deviceList} framed={false} rowActions={actions} />,
            },
            {
              key: 'waiting',
              label: (
                <Space size={6}>
                  待注册
                  {/* How many wait, while any does: a device enrolling is seen without opening the tab. */}
                  <Badge count={waiting} size="small" title={`${waiting} 台设备待注册`} />
                </Space>
              ),
              children: (
                <WaitingList onRegister={(device) => setDialog({ kind: 'register', waiting: device })} />
              ),
            },
          ]}
        />
      </Card>
      <DeviceDialogs dialog={dialog} onDialog={setDialog} onRegistered={() => setTab('devices')} />
      {rebooting && <RebootModal device={rebooting} onClose={() => setRebooting(null)} />}
    </Space>
  );
}

/**
 * A device row's buttons: 远程开门, 动态码, 详情, and 更多 for 门禁权限查询, the lists, the commands
 * and 注销.
 */
function useDeviceActions(
  onDialog: (dialog: DeviceDialog) => void,
  onReboot: (device: DeviceRecord) => void,
) {
  const { can } = usePermission();
  const unregister = useUnregister();
  const canEdit = can([DEVICE_EDIT_PERMISSION]);
  const canRemove = can([DEVICE_REMOVE_PERMISSION]);
  const more = (device: DeviceRecord) => [
    // Who can open it now and why: for everyone who sees the devices.
    { key: 'access', label: '门禁权限查询' },
    ...(canEdit
      ? [
          { key: 'admin-passwords', label: '管理员密码' },
          { key: 'card-rules', label: '卡规则' },
          { key: 'refresh-screen', label: '刷新屏幕' },
          { key: 'clear', label: '清除' },
          { key: 'reset-config', label: '重置配置' },
          // v1 devices have no reboot command: restarted on site.
          { key: 'reboot', label: '重启', disabled: device.protocol !== '1.1' },
        ]
      : []),
    ...(canRemove ? [{ key: 'unregister', label: '注销', danger: true }] : []),
  ];
  return (device: DeviceRecord) => (
    <>
      {canEdit && (
        <Button type="link" size="small" onClick={() => onDialog({ kind: 'open', device })}>
          远程开门
        </Button>
      )}
      <Button type="link" size="small" onClick={() => onDialog({ kind: 'totp', device })}>
        动态码
      </Button>
      <Button type="link" size="small" onClick={() => onDialog({ kind: 'detail', device })}>
        详情
      </Button>
      <Dropdown
        menu={{
          items: more(device),
          onClick: ({ key }) => {
            if (key === 'unregister') unregister(device);
            else if (key === 'reboot') onReboot(device);
            else if (isDeviceDialogKind(key)) onDialog({ kind: key, device });
          },
        }}
      >
        <Button type="link" size="small">
          更多
        </Button>
      </Dropdown>
    </>
  );
}
