/**
 * 企业门禁组 (kreator-user-group, at /enterprise/accessControl): a company's staff open the group's doors within its validity while it is enabled. The
 * list of groups, and for each a drawer with its members (add, bind existing members, remove, import
 * from Excel) and its devices (add from a picker offering the group's building's devices, remove)
 * with each device's place and 权限同步, so staff see a revocation reach every door.
 */
import { useState } from 'react';
import { App, Button, Drawer, Modal, Select, Space, Tabs, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { resourcePaths, type Page } from '@cowork/contract';
import {
  KREATOR_EDIT_PERMISSION,
  KREATOR_REMOVE_PERMISSION,
  kreatorDeviceEndpoints,
  kreatorMessages,
  kreatorUser,
  kreatorUserEndpoints,
  kreatorUserGroup,
  type KreatorAddedAnswer,
  type KreatorDeviceRecord,
} from '@cowork/contract/resources/kreator';
import { member } from '@cowork/contract/resources/member';
import { ResourceExcelImport } from '../../components/ExcelImport.tsx';
import { DeviceAdder, DeviceSyncTable } from '../../components/hardware/DevicePicker.tsx';
import { LinkBanner } from '../../components/hardware/LinkBanner.tsx';
import { usePermission } from '../../components/PermissionGate.tsx';
import { ResourcePage, type ResourceRecord } from '../../components/resource/ResourcePage.tsx';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';

/** What the drawer needs of a group's row. */
interface Group {
  id: number;
  name: string;
  buildingId: number;
}

const groupOf = ({ id, name, buildingId }: ResourceRecord): Group => ({
  id,
  name: String(name),
  buildingId: Number(buildingId),
});

export default function KreatorUserGroupPage() {
  const [managing, setManaging] = useState<Group>();
  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <LinkBanner />
      <ResourcePage
        resource={kreatorUserGroup}
        cells={{
          status: (value, record) =>
            value !== 'enabled' ? (
              <Tag>停用</Tag>
            ) : Date.parse(String(record.validTo)) <= Date.now() ? (
              <Tag color="orange">已过期</Tag>
            ) : (
              <Tag color="green">启用</Tag>
            ),
        }}
        rowActions={(record) => (
          <Button type="link" size="small" onClick={() => setManaging(groupOf(record))}>
            成员与设备
          </Button>
        )}
      />
      {managing && <GroupDrawer group={managing} onClose={() => setManaging(undefined)} />}
    </Space>
  );
}

function GroupDrawer({ group, onClose }: { group: Group; onClose: () => void }) {
  return (
    <Drawer open size="large" title={`企业门禁组：${group.name}`} onClose={onClose}>
      <Typography.Paragraph type="secondary">
        组内成员可在有效期内打开组内设备；增删成员或设备、停用或到期都会立即同步到设备，“权限同步”显示设备是否已收到。
      </Typography.Paragraph>
      <Tabs
        items={[
          { key: 'members', label: '成员', children: <GroupMembers group={group} /> },
          { key: 'devices', label: '设备', children: <GroupDevices group={group} /> },
        ]}
      />
    </Drawer>
  );
}

function GroupMembers({ group }: { group: Group }) {
  const { can } = usePermission();
  const [binding, setBinding] = useState(false);
  return (
    <>
      <ResourcePage
        resource={kreatorUser}
        inAddress={false}
        fixedFilters={{ groupId: String(group.id) }}
        toolbar={
          <>
            {can([KREATOR_EDIT_PERMISSION]) && <Button onClick={() => setBinding(true)}>绑定已有会员</Button>}
            <ResourceExcelImport resource={kreatorUser} query={{ groupId: group.id }} />
          </>
        }
      />
      {binding && <BindModal group={group} onClose={() => setBinding(false)} />}
    </>
  );
}

/** Existing members, found by the first digits of their phone. */
function BindModal({ group, onClose }: { group: Group; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [phone, setPhone] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const found = useQuery({
    queryKey: ['user', 'page', 'bind', phone],
    queryFn: () =>
      api.get<Page<{ id: number; phone: string; nickname: string; realName: string | null }>>(
        resourcePaths(member).page,
        { phone, size: 20 },
      ),
    enabled: phone.length >= 3,
  });
  const bind = useSubmit({
    mutationFn: () =>
      api.post<KreatorAddedAnswer>(kreatorUserEndpoints.bind, { groupId: group.id, memberIds: chosen }),
    onSuccess: async ({ added, skipped }) => {
      message.success(kreatorMessages.bound(added, skipped));
      await queryClient.invalidateQueries({ queryKey: [kreatorUser.key] });
      await queryClient.invalidateQueries({ queryKey: [kreatorUserGroup.key] });
      onClose();
    },
  });
  return (
    <Modal
      open
      title={`绑定已有会员到“${group.name}”`}
      okText="绑定"
      okButtonProps={{ disabled: chosen.length === 0 }}
      confirmLoading={bind.isPending}
      onOk={() => bind.mutate()}
      onCancel={onClose}
    >
      <Select
        mode="multiple"
        aria-label="会员"
        style={{ width: '100%' }}
        placeholder="输入手机号前 3 位以上搜索会员"
        filterOption={false}
        showSearch={{ onSearch: (v) => setPhone(v.trim()) }}
        value={chosen}
        onChange={setChosen}
        loading={found.isFetching}
        notFoundContent={phone.length < 3 ? '请输入手机号前 3 位以上' : '没有找到会员'}
        options={(found.data?.records ?? []).map((m) => ({
          value: m.id,
          label: `${m.realName || m.nickname || '会员'}（${m.phone}）`,
        }))}
      />
    </Modal>
  );
}

function GroupDevices({ group }: { group: Group }) {
  const { can } = usePermission();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState<number[]>([]);
  const [current, setCurrent] = useState(1);
  const queryKey = ['kreator-device', group.id];
  const devices = useQuery({
    queryKey: [...queryKey, current],
    queryFn: () =>
      api.get<Page<KreatorDeviceRecord>>(kreatorDeviceEndpoints.page, {
        groupId: group.id,
        current,
        size: 10,
      }),
    // 权限同步 follows the devices' acks.
    refetchInterval: 3_000,
  });
  const done = async (text: string) => {
    message.success(text);
    setAdding([]);
    await queryClient.invalidateQueries({ queryKey });
    await queryClient.invalidateQueries({ queryKey: [kreatorUserGroup.key] });
  };
  const add = useSubmit({
    mutationFn: () =>
      api.post<KreatorAddedAnswer>(kreatorDeviceEndpoints.add, { groupId: group.id, deviceIds: adding }),
    onSuccess: ({ added, skipped }) => done(kreatorMessages.devicesAdded(added, skipped)),
  });
  const takeOut = useSubmit({
    mutationFn: (device: KreatorDeviceRecord) =>
      api.delete(kreatorDeviceEndpoints.delete, { ids: [device.id] }),
    onSuccess: (_, device) => done(kreatorMessages.deviceTakenOut(device.name)),
  });
  return (
    <Space orientation="vertical" size={12} style={{ display: 'flex' }}>
      {/* Only the group's building's devices: the server refuses another building's. */}
      {can([KREATOR_EDIT_PERMISSION]) && (
        <DeviceAdder
          value={adding}
          onChange={setAdding}
          pending={add.isPending}
          onAdd={() => add.mutate()}
          buildingId={group.buildingId}
        />
      )}
      <DeviceSyncTable
        devices={devices.data?.records ?? []}
        loading={devices.isLoading}
        onRemove={can([KREATOR_REMOVE_PERMISSION]) ? (device) => takeOut.mutate(device) : undefined}
        pagination={{
          current,
          pageSize: 10,
          total: devices.data?.total ?? 0,
          hideOnSinglePage: true,
          onChange: setCurrent,
        }}
      />
    </Space>
  );
}
