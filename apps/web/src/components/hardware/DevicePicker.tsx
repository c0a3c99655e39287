/**
 * Picking door devices and listing them with their 权限同步 state, for the screens that give doors
 * to people (门禁联动, 企业门禁组): staff see a change reach every door.
 */
import { useState } from 'react';
import { Button, Select, Space, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import {
  deviceEndpoints,
  deviceSyncStateLabels,
  MAX_PAGE_SIZE,
  type DeviceRecord,
  type Page,
} from '@cowork/contract';
import { api } from '../../lib/request.ts';

/** Devices to pick from, searched by name on the server. */
export function DeviceSelect({ value, onChange }: { value?: number[]; onChange?: (ids: number[]) => void }) {
  const [name, setName] = useState('');
  const devices = useQuery({
    queryKey: ['device', 'page', 'options', name],
    queryFn: () =>
      api.get<Page<DeviceRecord>>(deviceEndpoints.page, { size: MAX_PAGE_SIZE, name: name || undefined }),
  });
  return (
    <Select
      mode="multiple"
      aria-label="设备"
      placeholder="输入名称搜索设备"
      filterOption={false}
      showSearch={{ onSearch: setName }}
      value={value}
      onChange={onChange}
      loading={devices.isLoading}
      options={(devices.data?.records ?? []).map((d) => ({ value: d.id, label: `${d.name}（${d.sn}）` }))}
    />
  );
}

/** The picker with its 添加设备 button, for the screens that give a set of people more doors. */
export function DeviceAdder({
  value,
  onChange,
  pending,
  onAdd,
}: {
  value: number[];
  onChange: (ids: number[]) => void;
  pending: boolean;
  onAdd: () => void;
}) {
  return (
    <Space.Compact style={{ width: '100%' }}>
      <div style={{ flex: 1 }}>
        <DeviceSelect value={value} onChange={onChange} />
      </div>
      <Button type="primary" disabled={value.length === 0} loading={pending} onClick={onAdd}>
        添加设备
      </Button>
    </Space.Compact>
  );
}

type Listed = Pick<DeviceRecord, 'id' | 'name' | 'sn' | 'status' | 'syncState'>;

/** Devices with their online status and whether they hold the latest access (已同步). */
export function DeviceSyncTable<T extends Listed>({
  devices,
  loading,
  onRemove,
  pagination = false,
}: {
  devices: T[];
  loading?: boolean;
  /** Shown as 移出 on each row when given (the caller may edit). */
  onRemove?: (device: T) => void;
  pagination?: false | object;
}) {
  return (
    <Table<T>
      rowKey="id"
      size="small"
      pagination={pagination}
      loading={loading}
      dataSource={devices}
      locale={{ emptyText: '还没有设备，请在上方添加' }}
      columns={[
        { title: '设备名称', dataIndex: 'name' },
        { title: '序列号', dataIndex: 'sn' },
        {
          title: '状态',
          dataIndex: 'status',
          render: (s: DeviceRecord['status']) =>
            s === 'online' ? <Tag color="green">在线</Tag> : <Tag>离线</Tag>,
        },
        {
          title: '权限同步',
          dataIndex: 'syncState',
          render: (s: DeviceRecord['syncState']) => (
            <Tag color={s === 'synced' ? 'green' : s === 'syncing' ? 'blue' : 'orange'}>
              {deviceSyncStateLabels[s]}
            </Tag>
          ),
        },
        ...(onRemove
          ? [
              {
                title: '操作',
                key: 'actions',
                render: (_: unknown, device: T) => (
                  <Button type="link" size="small" danger onClick={() => onRemove(device)}>
                    移出
                  </Button>
                ),
              },
            ]
          : []),
      ]}
    />
  );
}
