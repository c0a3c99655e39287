/**
 * Picking door devices and listing them with their 权限同步 state, for the screens that give doors
 * to people (门禁联动, 企业门禁组): staff see a change reach every door. A device is named with
 * where it is (`楼宇 / 空间 / 设备`): the demo has a 大堂闸机 in every building.
 */
import { useState } from 'react';
import { Badge, Button, Select, Space, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import {
  deviceEndpoints,
  deviceStatusLabels,
  deviceSyncStateLabels,
  MAX_PAGE_SIZE,
  prefixes,
  type DeviceRecord,
  type ListOption,
  type Page,
} from '@cowork/contract';
import { spaceListPath, type SpaceOption } from '@cowork/contract/resources/space';
import { api } from '../../lib/request.ts';

/** Shown instead of 离线 for a device that has never connected (no last seen). */
const NEVER_SEEN = '从未连接';

/** 在线, 离线, or 从未连接 for a device registered that has never connected. */
export function StatusBadge({ device }: { device: Pick<DeviceRecord, 'status' | 'lastSeenAt'> }) {
  if (device.status === 'online') return <Badge status="success" text={deviceStatusLabels.online} />;
  return (
    <Badge
      status={device.lastSeenAt ? 'default' : 'warning'}
      text={device.lastSeenAt ? deviceStatusLabels.offline : NEVER_SEEN}
    />
  );
}

/** 权限同步 as a tag; a device that never connected has nothing synced (the server says 未同步). */
export function SyncTag({ state }: { state: DeviceRecord['syncState'] }) {
  return (
    <Tag color={state === 'synced' ? 'green' : state === 'syncing' ? 'blue' : 'orange'}>
      {deviceSyncStateLabels[state]}
    </Tag>
  );
}

/** Where a device is: its space's path from the building, or 未分配空间. */
export const placeOf = (device: Pick<DeviceRecord, 'spacePath'>) => device.spacePath ?? '未分配空间';

/** The buildings, for narrowing a picker (cached with every other building select). */
export function useBuildingOptions() {
  const path = `${prefixes.building}/building/list`;
  return useQuery({ queryKey: ['list', path], queryFn: () => api.get<ListOption[]>(path) });
}

/**
 * Every space as an option `楼宇 / 上级空间 / 空间`, only `buildingId`'s when one is chosen; `fits`
 * says whether a space picked may stay when the building changes to `buildingId`.
 */
export function useSpaceOptions(buildingId?: number) {
  const spaces = useQuery({
    queryKey: ['list', spaceListPath],
    queryFn: () => api.get<SpaceOption[]>(spaceListPath),
  });
  const all = spaces.data ?? [];
  return {
    options: all
      .filter((s) => !buildingId || s.buildingId === buildingId)
      .map(({ value, label }) => ({ value, label })),
    loading: spaces.isLoading,
    fits: (spaceId: unknown, building?: number) =>
      !building || all.every((s) => s.value !== spaceId || s.buildingId === building),
  };
}

/**
 * Devices to pick from, searched by name on the server, each as `楼宇 / 空间 / 设备（序列号）`;
 * with `buildingId`, only the devices placed in that building.
 */
export function DeviceSelect({
  value,
  onChange,
  buildingId,
}: {
  value?: number[];
  onChange?: (ids: number[]) => void;
  buildingId?: number;
}) {
  const [name, setName] = useState('');
  const devices = useQuery({
    queryKey: ['device', 'page', 'options', name, buildingId],
    queryFn: () =>
      api.get<Page<DeviceRecord>>(deviceEndpoints.page, {
        size: MAX_PAGE_SIZE,
        name: name || undefined,
        buildingId,
      }),
  });
  return (
    <Select
      mode="multiple"
      aria-label="设备"
      placeholder={buildingId ? '输入名称搜索本楼宇的设备' : '输入名称搜索设备'}
      filterOption={false}
      showSearch={{ onSearch: setName }}
      value={value}
      onChange={onChange}
      loading={devices.isLoading}
      notFoundContent={buildingId ? '本楼宇没有匹配的设备（设备按所属空间归属楼宇）' : '没有匹配的设备'}
      options={(devices.data?.records ?? []).map((d) => ({
        value: d.id,
        label: `${placeOf(d)} / ${d.name}（${d.sn}）`,
      }))}
    />
  );
}

/**
 * The picker with its 添加设备 button, for the screens that give a set of people more doors: the
 * devices of `buildingId` (a 企业门禁组's building), or, without one, of the building chosen
 * beside the picker (any building when none is).
 */
export function DeviceAdder({
  value,
  onChange,
  pending,
  onAdd,
  buildingId,
}: {
  value: number[];
  onChange: (ids: number[]) => void;
  pending: boolean;
  onAdd: () => void;
  buildingId?: number;
}) {
  const [chosen, setChosen] = useState<number>();
  const buildings = useBuildingOptions();
  return (
    <Space.Compact style={{ width: '100%' }}>
      {buildingId === undefined && (
        <Select
          aria-label="设备所在楼宇"
          allowClear
          placeholder="全部楼宇"
          style={{ width: 180 }}
          value={chosen}
          onChange={(id?: number) => {
            setChosen(id);
            onChange([]);
          }}
          options={buildings.data ?? []}
        />
      )}
      <div style={{ flex: 1, minWidth: 0 }}>
        <DeviceSelect value={value} onChange={onChange} buildingId={buildingId ?? chosen} />
      </div>
      <Button type="primary" disabled={value.length === 0} loading={pending} onClick={onAdd}>
        添加设备
      </Button>
    </Space.Compact>
  );
}

type Listed = Pick<DeviceRecord, 'id' | 'name' | 'sn' | 'status' | 'lastSeenAt' | 'syncState' | 'spacePath'>;

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
        { title: '位置（楼宇 / 空间）', key: 'place', render: (_: unknown, d: T) => placeOf(d) },
        { title: '状态', key: 'status', render: (_: unknown, d: T) => <StatusBadge device={d} /> },
        {
          title: '权限同步',
          dataIndex: 'syncState',
          render: (s: DeviceRecord['syncState']) => <SyncTag state={s} />,
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
