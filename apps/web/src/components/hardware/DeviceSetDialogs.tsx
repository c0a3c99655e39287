/**
 * 门禁联动's dialogs: creating or renaming a set, and the drawer managing its devices (each with its
 * 权限同步 state, following the devices' acks) and the spaces it holds or could hold, named with
 * where they are (楼宇 / 上级空间 / 空间). Every change reaches the devices at once.
 */
import { useState } from 'react';
import { App, Button, Drawer, Form, Input, Modal, Space, Tabs, Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { prefixes, type DeviceRecord, optionLabel } from '@cowork/contract';
import {
  DEVICE_SET_EDIT_PERMISSION,
  deviceSetEndpoints,
  deviceSetSaveBody,
  type DeviceSetDetail,
  type DeviceSetRecord,
  type DeviceSetSpaceRecord,
} from '@cowork/contract/resources/device-set';
import { spaceKindOptions } from '@cowork/contract/resources/space';
import { usePermission } from '../PermissionGate.tsx';
import { contractRules } from '../resource/contract-rules.ts';
import { ListPage, type ListDef } from '../resource/ListPage.tsx';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { DeviceAdder, DeviceSelect, DeviceSyncTable } from './DevicePicker.tsx';

type SetForm = { name: string; remark?: string; deviceIds?: number[] };

/** Every 门禁联动 query starts with it: a change refreshes the list, the drawer and its spaces. */
export const deviceSetKey = ['device-set'];
const kindLabel = (kind: string) => optionLabel(spaceKindOptions, kind);

/** 删除: asks first; the doors the set gave are taken back at once (the devices sync). */
export function useRemoveSet() {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  return (set: DeviceSetRecord) =>
    modal.confirm({
      title: `删除门禁联动“${set.name}”？`,
      content: '删除后，它给设备的开门权限会立即收回（设备随即同步）。',
      okText: '确认删除',
      okButtonProps: { danger: true },
      onOk: async () => {
        await api.delete(`${deviceSetEndpoints.remove}/${set.id}`);
        message.success(`门禁联动“${set.name}”已删除，相关设备正在同步权限`);
        await queryClient.invalidateQueries({ queryKey: deviceSetKey });
      },
    });
}

export function SetModal({ set, onClose }: { set?: DeviceSetRecord; onClose: () => void }) {
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
      await queryClient.invalidateQueries({ queryKey: deviceSetKey });
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
        <Form.Item name="name" label="联动名称" {...contractRules('联动名称', deviceSetSaveBody.shape.name)}>
          <Input placeholder="如：A 座 8 楼" />
        </Form.Item>
        <Form.Item name="remark" label="备注" {...contractRules('备注', deviceSetSaveBody.shape.remark)}>
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

export function SetDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const detail = useQuery({
    queryKey: [...deviceSetKey, 'detail', id],
    queryFn: () => api.get<DeviceSetDetail>(`${deviceSetEndpoints.detail}/${id}`),
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

function SetDevices({ set }: { set: DeviceSetDetail }) {
  const { can } = usePermission();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState<number[]>([]);
  const canEdit = can([DEVICE_SET_EDIT_PERMISSION]);
  const done = async (text: string) => {
    message.success(text);
    setAdding([]);
    await queryClient.invalidateQueries({ queryKey: deviceSetKey });
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

const spaceList = (held: boolean): ListDef<DeviceSetSpaceRecord> => ({
  queryKey: [...deviceSetKey, held ? 'held' : 'free'],
  source: {
    page: held ? deviceSetEndpoints.holdSpacePage : deviceSetEndpoints.notHoldSpacePage,
    inAddress: false,
  },
  formName: held ? 'held-space-search' : 'free-space-search',
  filters: {
    buildingId: {
      kind: 'reference',
      label: '楼宇',
      endpoint: `${prefixes.building}/building/list`,
      width: 180,
    },
    name: { kind: 'text', label: '空间名称', width: 140 },
  },
  columns: [
    { title: '空间（楼宇 / 上级空间 / 空间）', value: 'path' },
    { title: '类型', render: (space) => <Tag>{kindLabel(space.kind)}</Tag> },
    { title: '关联场地', value: 'stationName' },
  ],
  size: 'small',
  emptyText: held ? '还没有关联空间，请在“可关联空间”中选择' : '没有可关联的空间',
});
const heldSpaces = spaceList(true);
const freeSpaces = spaceList(false);

/** The spaces a set holds (held) or could hold, paged, with the action that moves them across. */
function SetSpaces({ setId, held }: { setId: number; held: boolean }) {
  const { can } = usePermission();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<number[]>([]);
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
      await queryClient.invalidateQueries({ queryKey: deviceSetKey });
    },
  });
  const canEdit = can([DEVICE_SET_EDIT_PERMISSION]);
  const action = held ? '取消关联' : '关联';
  return (
    <ListPage
      list={held ? heldSpaces : freeSpaces}
      fixedFilters={{ id: setId }}
      framed={false}
      toolbar={
        canEdit && (
          <Button
            type={held ? 'default' : 'primary'}
            danger={held}
            disabled={selected.length === 0}
            loading={move.isPending}
            onClick={() => move.mutate(selected)}
          >
            {action}所选空间{selected.length ? `（${selected.length}）` : ''}
          </Button>
        )
      }
      selection={
        canEdit ? { keys: selected, onChange: (spaces) => setSelected(spaces.map((s) => s.id)) } : undefined
      }
      rowActions={
        canEdit
          ? (space) => (
              <Button type="link" size="small" danger={held} onClick={() => move.mutate([space.id])}>
                {action}
              </Button>
            )
          : undefined
      }
    />
  );
}
