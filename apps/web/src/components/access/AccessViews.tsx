/**
 * 门禁权限查询: who can open a door (a device, or every door of a space) and why, and which doors a
 * member can open, why, until when and whether the device holds it yet. The server answers both from
 * the query the devices are synced from, so these lists and the doors agree. 设备管理 and 物理空间
 * open `WhoCanOpenDrawer`; 会员 详情 and a company's 员工 show `DoorList`.
 */
import { Drawer, Space, Tag, Typography } from 'antd';
import {
  accessKeyword,
  accessViewEndpoints,
  type AccessSource,
  type DeviceAccessRow,
  type MemberDoorRow,
  type SpaceAccessRow,
} from '@cowork/contract';
import { ExportButton } from '../ExportButton.tsx';
import { DEVICE_REFRESH_MS } from '../hardware/WaitingList.tsx';
import { ListPage, type ListColumn, type ListDef } from '../resource/ListPage.tsx';
import { formatTime } from '../../lib/format.ts';

const sourceColors: Record<AccessSource['kind'], string> = {
  booking: 'blue',
  'member-card': 'purple',
  'access-group': 'green',
};

/** Why a member may open a door: one tag per source (预订 #…, 会员卡 #…, 企业门禁组“…”). */
export function SourceTags({ sources }: { sources: readonly AccessSource[] }) {
  return (
    <Space size={[0, 4]} wrap>
      {sources.map((s) => (
        <Tag key={`${s.kind}-${s.id}`} color={sourceColors[s.kind]}>
          {s.label}
        </Tag>
      ))}
    </Space>
  );
}

/** From when to when, in business time. */
export const periodOf = (row: { validFrom: string; validTo: string }) =>
  `${formatTime(row.validFrom)} 至 ${formatTime(row.validTo)}`;

/** A door its row names: 楼宇 / 空间 / 设备, leaving out what the device lacks. */
export const doorOf = (row: Pick<MemberDoorRow, 'buildingName' | 'spaceName' | 'deviceName'>) =>
  [row.buildingName, row.spaceName, row.deviceName].filter(Boolean).join(' / ');

/** A member may hold two windows on one door (a booking next month beside today's): one row each. */
const entryKey = (row: { memberId: number; validFrom: string; deviceId?: number }) =>
  `${row.deviceId ?? ''}-${row.memberId}-${row.validFrom}`;

const keywordFilter = {
  kind: 'text',
  label: '会员',
  placeholder: '姓名、手机号或企业',
  width: 200,
  schema: accessKeyword,
} as const;

const memberColumns: ListColumn<DeviceAccessRow>[] = [
  { title: '姓名', width: 120, render: (row) => row.name ?? '—' },
  { title: '手机号', value: 'phone', width: 130 },
  { title: '原因', render: (row) => <SourceTags sources={row.sources} /> },
  { title: '有效期', width: 330, render: periodOf },
];

/** A who-can-open list: the same search, paging and refresh for a device's and a space's. */
const accessList = <Row extends DeviceAccessRow>(
  key: string,
  path: string,
  columns: ListColumn<Row>[],
  emptyText: string,
): ListDef<Row> => ({
  queryKey: [key, 'access-list'],
  source: { list: path },
  // A change (a booking paid, someone leaving a company) reaches the list as it reaches the door.
  refreshMs: DEVICE_REFRESH_MS,
  formName: `${key}-access-search`,
  filters: { keyword: keywordFilter },
  columns,
  rowKey: entryKey,
  size: 'small',
  pageSize: 20,
  scrollX: 900,
  emptyText,
});

const deviceAccessList = accessList<DeviceAccessRow>(
  'device',
  accessViewEndpoints.deviceAccessList,
  memberColumns,
  '当前没有会员可以打开这扇门',
);

const spaceAccessList = accessList<SpaceAccessRow>(
  'space',
  accessViewEndpoints.spaceAccessList,
  [{ title: '门禁设备', value: 'deviceName', width: 140 }, ...memberColumns],
  '当前没有会员可以打开这个空间的门',
);

export interface AccessTarget {
  kind: 'device' | 'space';
  id: number;
  name: string;
}

/** Who can open a device, or the doors of a space (its devices and those of the spaces under it). */
export function WhoCanOpen({ target }: { target: AccessTarget }) {
  const device = target.kind === 'device';
  const exportPath = device ? accessViewEndpoints.deviceAccessExport : accessViewEndpoints.spaceAccessExport;
  const toolbar = (filters: Record<string, unknown>) => (
    <ExportButton
      path={exportPath}
      filters={{ ...filters, id: target.id }}
      label={`${target.name}门禁权限`}
    />
  );
  const note = (
    <Typography.Text type="secondary">
      与设备上的权限名单一致：每行一位会员和一段有效期，原因列出带来这段权限的预订、会员卡或企业门禁组。
    </Typography.Text>
  );
  return device ? (
    <ListPage
      list={deviceAccessList}
      framed={false}
      fixedFilters={{ id: target.id }}
      toolbar={toolbar}
      beforeTable={note}
    />
  ) : (
    <ListPage
      list={spaceAccessList}
      framed={false}
      fixedFilters={{ id: target.id }}
      toolbar={toolbar}
      beforeTable={note}
    />
  );
}

export function WhoCanOpenDrawer({ target, onClose }: { target: AccessTarget; onClose: () => void }) {
  return (
    <Drawer open size={960} title={`门禁权限查询：${target.name}`} onClose={onClose} destroyOnHidden>
      <WhoCanOpen target={target} />
    </Drawer>
  );
}

const memberDoorList: ListDef<MemberDoorRow> = {
  queryKey: ['user', 'door-list'],
  source: { list: accessViewEndpoints.memberDoorList },
  // 同步中 turns 已同步 as the device acks.
  refreshMs: DEVICE_REFRESH_MS,
  columns: [
    { title: '门禁', width: 260, render: doorOf },
    { title: '原因', render: (row) => <SourceTags sources={row.sources} /> },
    { title: '有效期', width: 330, render: periodOf },
    {
      title: '设备同步',
      width: 100,
      render: (row) => (row.synced ? <Tag color="green">已同步</Tag> : <Tag color="blue">同步中</Tag>),
    },
  ],
  rowKey: (row) => `${row.deviceId}-${row.validFrom}`,
  size: 'small',
  pageSize: 20,
  scrollX: 900,
  emptyText: '该会员当前没有可以打开的门',
};

/**
 * 可开的门 of a member: every door, why, until when, and 已同步 once the device holds it (同步中
 * while it is offline or has not acked the change yet).
 */
export function DoorList({ memberId }: { memberId: number }) {
  return <ListPage list={memberDoorList} framed={false} fixedFilters={{ id: memberId }} />;
}

export function DoorListDrawer({
  member,
  onClose,
}: {
  member: { id: number; name: string };
  onClose: () => void;
}) {
  return (
    <Drawer open size={960} title={`可开的门：${member.name}`} onClose={onClose} destroyOnHidden>
      <DoorList memberId={member.id} />
    </Drawer>
  );
}
