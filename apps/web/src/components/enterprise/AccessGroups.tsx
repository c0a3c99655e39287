/**
 * 企业门禁组: a company's staff open the group's doors within its validity while it is enabled. The
 * list of groups (the whole of 企业门禁组, or one company's in its 详情), each picking its company
 * and whom it takes from the company's staff list: all active staff, chosen departments, or chosen
 * people. For each group a drawer with its members (the chosen people, added, picked from the staff
 * list, imported from Excel and removed; or, for the other scopes, the staff the scope takes) and its
 * devices (added from a picker offering the group's building's devices, removed) with each device's
 * place and 权限同步, so staff see a revocation reach every door.
 */
import { useState } from 'react';
import { Alert, App, Button, Drawer, Form, Modal, Space, Tabs, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { optionLabel, type Page } from '@cowork/contract';
import { staffScopeOptions, type StaffScope } from '@cowork/contract/resources/company';
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
import { ResourceExcelImport } from '../ExcelImport.tsx';
import { DeviceAdder, DeviceSyncTable } from '../hardware/DevicePicker.tsx';
import { usePermission } from '../PermissionGate.tsx';
import { ResourcePage, type ResourceRecord } from '../resource/ResourcePage.tsx';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { textsOf } from '../../lib/values.ts';
import { ScopeStaff } from './ScopeStaff.tsx';
import { DepartmentSelect, StaffSelect } from './StaffPickers.tsx';

/** What the drawer needs of a group's row. */
interface Group {
  id: number;
  name: string;
  buildingId: number;
  companyId: number;
  companyName: string;
  staffScope: StaffScope;
  departments: string[];
}

const scopeOf = (value: unknown): StaffScope =>
  staffScopeOptions.find((o) => o.value === value)?.value ?? 'people';

const groupOf = (record: ResourceRecord): Group => ({
  id: record.id,
  name: String(record.name),
  buildingId: Number(record.buildingId),
  companyId: Number(record.companyId),
  companyName: String(record.companyName ?? ''),
  staffScope: scopeOf(record.staffScope),
  departments: textsOf(record.departments),
});

/** The scope as a list cell says it: 指定部门 names them. */
function ScopeCell({ record }: { record: ResourceRecord }) {
  const scope = scopeOf(record.staffScope);
  const label = optionLabel(staffScopeOptions, scope);
  if (scope !== 'departments') return label;
  return `${label}：${textsOf(record.departments).join('、') || '—'}`;
}

/** What 指定人员 means once saved: people are added in the group's drawer. */
function PeopleHint() {
  return (
    <Form.Item noStyle dependencies={['staffScope']}>
      {({ getFieldValue }) =>
        getFieldValue('staffScope') === 'people' && (
          <Typography.Paragraph type="secondary">
            保存后在列表的“成员与设备”中从企业员工里选择人员，或按姓名和手机号添加、用 Excel 导入。
          </Typography.Paragraph>
        )
      }
    </Form.Item>
  );
}

/** The groups, all of them or one company's (its id fixes the company of new groups). */
export function AccessGroups({ companyId }: { companyId?: number }) {
  const [managing, setManaging] = useState<Group>();
  const fixed: Record<string, string> = companyId === undefined ? {} : { companyId: String(companyId) };
  return (
    <>
      <ResourcePage
        resource={kreatorUserGroup}
        inAddress={companyId === undefined}
        fixedFilters={fixed}
        inputs={{ departments: <DepartmentSelect fixedCompanyId={companyId} /> }}
        formExtra={<PeopleHint />}
        cells={{
          staffScope: (_, record) => <ScopeCell record={record} />,
          status: (value, record) =>
            value !== 'enabled' ? (
              <Tag>停用</Tag>
            ) : Date.parse(String(record.validTo)) <= Date.now() ? (
              <Tag color="orange">已过期</Tag>
            ) : (
              <Tag color="green">启用</Tag>
            ),
        }}
        // The company is its reference (a select to search by, its name in the list); the copy of
        // its name kept for older API answers is not shown twice.
        hiddenFields={['companyName']}
        rowActions={(record) => (
          <Button type="link" size="small" onClick={() => setManaging(groupOf(record))}>
            成员与设备
          </Button>
        )}
      />
      {managing && <GroupDrawer group={managing} onClose={() => setManaging(undefined)} />}
    </>
  );
}

function GroupDrawer({ group, onClose }: { group: Group; onClose: () => void }) {
  return (
    <Drawer open size="large" title={`企业门禁组：${group.name}`} onClose={onClose}>
      <Typography.Paragraph type="secondary">
        组内成员可在有效期内打开组内设备；增删成员或设备、员工离职、停用或到期都会立即同步到设备，“权限同步”显示设备是否已收到。
      </Typography.Paragraph>
      <Tabs
        items={[
          {
            key: 'members',
            label: '成员',
            children:
              group.staffScope === 'people' ? (
                <GroupMembers group={group} />
              ) : (
                <ScopeStaff
                  companyId={group.companyId}
                  companyName={group.companyName}
                  scope={group.staffScope}
                  departments={group.departments}
                />
              ),
          },
          { key: 'devices', label: '设备', children: <GroupDevices group={group} /> },
        ]}
      />
    </Drawer>
  );
}

/** The chosen people of a 指定人员 group. */
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
            {can([KREATOR_EDIT_PERMISSION]) && (
              <Button onClick={() => setBinding(true)}>从企业员工中选择</Button>
            )}
            <ResourceExcelImport resource={kreatorUser} query={{ groupId: group.id }} />
          </>
        }
      />
      {binding && <BindModal group={group} onClose={() => setBinding(false)} />}
    </>
  );
}

/** Active staff of the group's company, found by name or phone, join the group. */
function BindModal({ group, onClose }: { group: Group; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<number[]>([]);
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
      title={`从“${group.companyName}”的员工中选择，加入“${group.name}”`}
      okText="加入门禁组"
      okButtonProps={{ disabled: chosen.length === 0 }}
      confirmLoading={bind.isPending}
      onOk={() => bind.mutate()}
      onCancel={onClose}
    >
      <StaffSelect<number>
        aria-label="员工"
        style={{ width: '100%' }}
        companyId={group.companyId}
        valueOf={(s) => s.memberId}
        value={chosen}
        onChange={setChosen}
      />
      <Alert
        style={{ marginTop: 12 }}
        type="info"
        showIcon
        title="不在员工列表中的人，请用“新建门禁组成员”按姓名和手机号添加，会同时加入企业员工。"
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
