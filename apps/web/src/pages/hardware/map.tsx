/**
 * 门禁联动: device sets. A set's devices open for the members who may be in the spaces it holds
 * (paid bookings of a linked meeting room or venue, membership cards of the building); every
 * change here reaches the devices at once, and each device's 权限同步 column says when it has.
 * The list of sets, a dialog to create or rename one, and a drawer to manage its devices and spaces
 * (components/hardware/DeviceSetDialogs.tsx).
 */
import { useState } from 'react';
import { Button, Typography } from 'antd';
import {
  DEVICE_SET_EDIT_PERMISSION,
  DEVICE_SET_REMOVE_PERMISSION,
  deviceSetEndpoints,
  type DeviceSetRecord,
} from '@cowork/contract/resources/device-set';
import {
  deviceSetKey,
  SetDrawer,
  SetModal,
  useRemoveSet,
} from '../../components/hardware/DeviceSetDialogs.tsx';
import { LinkBanner } from '../../components/hardware/LinkBanner.tsx';
import { usePermission } from '../../components/PermissionGate.tsx';
import { ListPage, type ListDef } from '../../components/resource/ListPage.tsx';
import { formatTime } from '../../lib/format.ts';

// Sets are few: the list answers them all.
const deviceSetList: ListDef<DeviceSetRecord> = {
  queryKey: deviceSetKey,
  source: { list: deviceSetEndpoints.list },
  formName: 'device-set-search',
  filters: { name: { kind: 'text', label: '联动名称' } },
  columns: [
    { title: '联动名称', value: 'name', width: 200 },
    { title: '设备数', value: 'deviceCount', width: 90 },
    { title: '关联空间数', value: 'spaceCount', width: 110 },
    { title: '备注', value: 'remark' },
    { title: '更新时间', width: 170, render: (set) => formatTime(set.updatedAt) },
  ],
  emptyText: '暂无门禁联动，点击“新建门禁联动”添加',
  actionsWidth: 200,
};

export default function DeviceSetPage() {
  const { can } = usePermission();
  const [editing, setEditing] = useState<DeviceSetRecord | 'new'>();
  const [managing, setManaging] = useState<number>();
  const canEdit = can([DEVICE_SET_EDIT_PERMISSION]);
  const remove = useRemoveSet();
  return (
    <>
      <ListPage
        list={deviceSetList}
        header={<LinkBanner />}
        toolbar={
          canEdit && (
            <Button type="primary" onClick={() => setEditing('new')}>
              新建门禁联动
            </Button>
          )
        }
        beforeTable={
          <Typography.Text type="secondary">
            门禁联动中的设备，对“关联空间”内有权限的会员开放：已支付的会议室/活动场地预订（开始前 15
            分钟至结束后 15 分钟）和该楼宇有效的会员卡。任何变更都会立即同步到设备。
          </Typography.Text>
        }
        rowActions={(set) => (
          <>
            <Button type="link" size="small" onClick={() => setManaging(set.id)}>
              设备与空间
            </Button>
            {canEdit && (
              <Button type="link" size="small" onClick={() => setEditing(set)}>
                编辑
              </Button>
            )}
            {can([DEVICE_SET_REMOVE_PERMISSION]) && (
              <Button type="link" size="small" danger onClick={() => remove(set)}>
                删除
              </Button>
            )}
          </>
        )}
      />
      {editing && (
        <SetModal set={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />
      )}
      {managing !== undefined && <SetDrawer id={managing} onClose={() => setManaging(undefined)} />}
    </>
  );
}
