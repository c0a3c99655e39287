/**
 * 门禁联动: device sets. A set's devices open for the members who may be in the spaces it holds
 * (paid bookings of a linked meeting room or venue, membership cards of the building); every
 * change here reaches the devices at once, and each device's 权限同步 column says when it has.
 * The list of sets, a dialog to create or rename one, and a drawer to manage its devices and spaces.
 * Devices and spaces are named with where they are (楼宇 / 空间) and narrowed to a building chosen.
 */
import { useState } from 'react';
import {
  App,
  Button,
  Card,
  Drawer,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
  type TableProps,
} from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { prefixes, type DeviceRecord, type ListOption, optionLabel } from '@cowork/contract';
import {
  DEVICE_SET_EDIT_PERMISSION,
  DEVICE_SET_REMOVE_PERMISSION,
  deviceSetEndpoints,
  type DeviceSetRecord,
  type DeviceSetSpaceRecord,
} from '@cowork/contract/resources/device-set';
import { spaceKindOptions } from '@cowork/contract/resources/space';
import { DeviceAdder, DeviceSelect, DeviceSyncTable } from '../../components/hardware/DevicePicker.tsx';
import { LinkBanner } from '../../components/hardware/LinkBanner.tsx';
import { SearchButtons } from '../../components/resource/page-parts.tsx';
import { usePagedQuery } from '../../components/resource/use-paged-query.ts';
import { usePermission } from '../../components/PermissionGate.tsx';
import { formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';

type SetDetail = DeviceSetRecord & { devices: DeviceRecord[] };
type SetForm = { name: string; remark?: string; deviceIds?: number[] };

const queryKey = ['device-set'];
const kindLabel = (kind: string) => optionLabel(spaceKindOptions, kind);

export default function DeviceSetPage() {
  const { can } = usePermission();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [name, setName] = useState<string>();
  const [editing, setEditing] = useState<DeviceSetRecord | 'new'>();
  const [managing, setManaging] = useState<number>();
  const sets = useQuery({
    queryKey: [...queryKey, 'list', name],
    queryFn: () => api.get<DeviceSetRecord[]>(deviceSetEndpoints.list, { name }),
  });
  const canEdit = can([DEVICE_SET_EDIT_PERMISSION]);

  const remove = (set: DeviceSetRecord) =>
    modal.confirm({
      title: `删除门禁联动“${set.name}”？`,
      content: '删除后，它给设备的开门权限会立即收回（设备随即同步）。',
      okText: '确认删除',
      okButtonProps: { danger: true },
      onOk: async () => {
        await api.delete(`${deviceSetEndpoints.remove}/${set.id}`);
        message.success(`门禁联动“${set.name}”已删除，相关设备正在同步权限`);
        await queryClient.invalidateQueries({ queryKey });
      },
    });

  const columns: TableProps<DeviceSetRecord>['columns'] = [
    { title: '联动名称', dataIndex: 'name', width: 200 },
    { title: '设备数', dataIndex: 'deviceCount', width: 90 },
    { title: '关联空间数', dataIndex: 'spaceCount', width: 110 },
    { title: '备注', dataIndex: 'remark', render: (v: string | null) => v || '—' },
    { title: '更新时间', dataIndex: 'updatedAt', width: 170, render: (v: string) => formatTime(v) },
    {
      title: '操作',
      key: 'actions',
      width: 200,
      render: (_, set) => (
        <Space size={0}>
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
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <LinkBanner />
      <Card>
        <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
          <Form
            name="device-set-search"
            layout="inline"
            onFinish={(v: { name?: string }) => setName(v.name?.trim() || undefined)}
          >
            <Form.Item name="name" label="联动名称">
              <Input allowClear />
            </Form.Item>
            <SearchButtons onReset={() => setName(undefined)} />
            {canEdit && (
              <Form.Item>
                <Button type="primary" onClick={() => setEditing('new')}>
                  新建门禁联动
                </Button>
              </Form.Item>
            )}
          </Form>
          <Typography.Text type="secondary">
            门禁联动中的设备，对“关联空间”内有权限的会员开放：已支付的会议室/活动场地预订（开始前 15
            分钟至结束后 15 分钟）和该楼宇有效的会员卡。任何变更都会立即同步到设备。
          </Typography.Text>
          <Table<DeviceSetRecord>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={sets.data ?? []}
            loading={sets.isLoading}
            locale={{ emptyText: '暂无门禁联动，点击“新建门禁联动”添加' }}
            pagination={false}
          />
        </Space>
      </Card>
      {editing && (
        <SetModal set={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />
      )}
      {managing !== undefined && <SetDrawer id={managing} onClose={() => setManaging(undefined)} />}
    </Space>
  );
}

function SetModal({ set, onClose }: { set?: DeviceSetRecord; onClose: () => void }) {
  const [form] = Form.useForm<SetForm>();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const save = useSubmit({
    mutationFn: (v: SetForm) => {
      const body = { name: v.name.trim(), remark: v.remark?.trim() || null };
      return set
        ? api.put(deviceSetEndpoints.edit, { id: set.id, ...body })
        : api.post(deviceSetEndpoints.save, { ...body, deviceIds: v.deviceIds ?? [] });
    },
    onSuccess: async () => {
      message.success(set ? `门禁联动“${set.name}”已保存` : '门禁联动已创建，设备正在同步权限');
      await queryClient.invalidateQueries({ queryKey });
      onClose();
    },
  });
  return (
    <Modal
      open
      title={set ? `编辑门禁联动：${set.name}` : '新建门禁联动'}
      okText="保存"
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form
        form={form}
        name="device-set-form"
        layout="vertical"
        initialValues={set ? { name: set.name, remark: set.remark ?? undefined } : undefined}
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item
          name="name"
          label="联动名称"
          rules={[
            { required: true, whitespace: true, message: '请填写联动名称' },
            { max: 50, message: '联动名称最多 50 个字符' },
          ]}
        >
          <Input placeholder="如：A 座 8 楼" />
        </Form.Item>
        <Form.Item name="remark" label="备注" rules={[{ max: 200, message: '备注最多 200 个字符' }]}>
          <Input.TextArea rows={2} />
        </Form.Item>
        {!set && (
          <Form.Item name="deviceIds" label="设备" extra="也可以稍后在“设备与空间”中添加">
            <DeviceSelect />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

function SetDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const detail = useQuery({
    queryKey: [...queryKey, 'detail', id],
    queryFn: () => api.get<SetDetail>(`${deviceSetEndpoints.detail}/${id}`),
    // The devices' 权限同步 follows their acks.
    refetchInterval: 3_000,
  });
  const set = detail.data;
  return (
    <Drawer open size="large" title={set ? `门禁联动：${set.name}` : '门禁联动'} onClose={onClose}>
      {set && (
        <Tabs
          items={[
            { key: 'devices', label: `设备（${set.devices.length}）`, children: <SetDevices set={set} /> },
            { key: 'held', label: '已关联空间', children: <SetSpaces setId={id} held /> },
            { key: 'free', label: '可关联空间', children: <SetSpaces setId={id} held={false} /> },
          ]}
        />
      )}
    </Drawer>
  );
}

function SetDevices({ set }: { set: SetDetail }) {
  const { can } = usePermission();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState<number[]>([]);
  const canEdit = can([DEVICE_SET_EDIT_PERMISSION]);
  const done = async (text: string) => {
    message.success(text);
    setAdding([]);
    await queryClient.invalidateQueries({ queryKey });
  };
  const add = useSubmit({
    mutationFn: () =>
      api.post(deviceSetEndpoints.editRelation, {
        id: set.id,
        deviceIds: [...set.devices.map((d) => d.id), ...adding],
      }),
    onSuccess: () => done(`已添加 ${adding.length} 台设备，设备正在同步权限`),
  });
  const takeOut = useSubmit({
    mutationFn: (device: DeviceRecord) =>
      api.post(deviceSetEndpoints.removeRelation, { id: set.id, deviceIds: [device.id] }),
    onSuccess: (_, device) => done(`设备“${device.name}”已移出，正在同步权限`),
  });
  return (
    <Space orientation="vertical" size={12} style={{ display: 'flex' }}>
      {canEdit && (
        <DeviceAdder value={adding} onChange={setAdding} pending={add.isPending} onAdd={() => add.mutate()} />
      )}
      <DeviceSyncTable
        devices={set.devices}
        onRemove={canEdit ? (device) => takeOut.mutate(device) : undefined}
      />
    </Space>
  );
}

/** The spaces a set holds (held) or could hold, paged, with the action that moves them across. */
function SetSpaces({ setId, held }: { setId: number; held: boolean }) {
  const { can } = usePermission();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [selected, setSelected] = useState<number[]>([]);
  const { page, search, reset, turnPage, pagination } = usePagedQuery<DeviceSetSpaceRecord>(
    [...queryKey, held ? 'held' : 'free', setId],
    held ? deviceSetEndpoints.holdSpacePage : deviceSetEndpoints.notHoldSpacePage,
    { id: setId },
    { inAddress: false },
  );
  const buildings = useQuery({
    queryKey: ['list', `${prefixes.building}/building/list`],
    queryFn: () => api.get<ListOption[]>(`${prefixes.building}/building/list`),
  });
  const move = useSubmit({
    mutationFn: (spaceIds: number[]) =>
      api.post(held ? deviceSetEndpoints.removeSpace : deviceSetEndpoints.saveSpace, { id: setId, spaceIds }),
    onSuccess: async (_, spaceIds) => {
      message.success(
        held
          ? `已取消关联 ${spaceIds.length} 个空间，设备正在同步权限`
          : `已关联 ${spaceIds.length} 个空间，设备正在同步权限`,
      );
      setSelected([]);
      await queryClient.invalidateQueries({ queryKey });
    },
  });
  const canEdit = can([DEVICE_SET_EDIT_PERMISSION]);
  const action = held ? '取消关联' : '关联';
  return (
    <Space orientation="vertical" size={12} style={{ display: 'flex' }}>
      <Form
        form={form}
        name={held ? 'held-space-search' : 'free-space-search'}
        layout="inline"
        onFinish={(v: { name?: string; buildingId?: number }) =>
          search({ name: v.name?.trim(), buildingId: v.buildingId })
        }
      >
        <Form.Item name="buildingId" label="楼宇">
          <Select allowClear placeholder="全部" style={{ width: 180 }} options={buildings.data ?? []} />
        </Form.Item>
        <Form.Item name="name" label="空间名称">
          <Input allowClear style={{ width: 140 }} />
        </Form.Item>
        <SearchButtons
          onReset={() => {
            form.resetFields();
            reset();
          }}
        />
      </Form>
      {canEdit && (
        <Button
          type={held ? 'default' : 'primary'}
          danger={held}
          disabled={selected.length === 0}
          loading={move.isPending}
          onClick={() => move.mutate(selected)}
        >
          {action}所选空间{selected.length ? `（${selected.length}）` : ''}
        </Button>
      )}
      <Table<DeviceSetSpaceRecord>
        rowKey="id"
        size="small"
        dataSource={page.data?.records ?? []}
        loading={page.isLoading}
        rowSelection={
          canEdit
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }
            : undefined
        }
        pagination={{ ...pagination, onChange: turnPage }}
        locale={{ emptyText: held ? '还没有关联空间，请在“可关联空间”中选择' : '没有可关联的空间' }}
        columns={[
          { title: '空间（楼宇 / 上级空间 / 空间）', dataIndex: 'path' },
          { title: '类型', dataIndex: 'kind', render: (k: string) => <Tag>{kindLabel(k)}</Tag> },
          { title: '关联场地', dataIndex: 'stationName', render: (v: string | null) => v ?? '—' },
          ...(canEdit
            ? [
                {
                  title: '操作',
                  key: 'actions',
                  render: (_: unknown, s: DeviceSetSpaceRecord) => (
                    <Button type="link" size="small" danger={held} onClick={() => move.mutate([s.id])}>
                      {action}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
    </Space>
  );
}
