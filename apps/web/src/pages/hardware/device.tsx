/**
 * 设备管理: registered door devices with live status (the list refreshes itself; 状态 comes first,
 * so a phone shows it without scrolling sideways), the devices waiting to be registered (counted on
 * their tab while any waits), and the commands of the device protocol (docs/devices.md): 远程开门, 动态码, 刷新屏幕,
 * 清除, 重置配置, 注销. A secret is shown once, when it is issued (register, reset-config).
 */
import { useEffect, useState } from 'react';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  Descriptions,
  Drawer,
  Dropdown,
  Form,
  Grid,
  Input,
  InputNumber,
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
import {
  DEVICE_EDIT_PERMISSION,
  DEVICE_REMOVE_PERMISSION,
  deviceCommandLabels,
  deviceCommandStateLabels,
  deviceEndpoints,
  deviceStatusLabels,
  deviceSyncStateLabels,
  OPEN_DOOR_DEFAULT_S,
  OPEN_DOOR_MAX_S,
  OPEN_DOOR_MIN_S,
  type DeviceDetail,
  type DeviceRecord,
  type WaitingDevice,
} from '@cowork/contract';
import { AdminPasswordsModal, CardRulesModal } from '../../components/hardware/DeviceLists.tsx';
import {
  placeOf,
  StatusBadge,
  SyncTag,
  useBuildingOptions,
  useSpaceOptions,
} from '../../components/hardware/DevicePicker.tsx';
import { LinkBanner } from '../../components/hardware/LinkBanner.tsx';
import { ReasonField } from '../../components/hardware/ReasonField.tsx';
import { SearchButtons } from '../../components/resource/page-parts.tsx';
import { usePagedQuery, useSearchForm } from '../../components/resource/use-paged-query.ts';
import { usePermission } from '../../components/PermissionGate.tsx';
import { formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';

const REFRESH_MS = 5_000;

type Dialog =
  | { kind: 'open' | 'totp' | 'detail'; device: DeviceRecord }
  | { kind: 'clear' | 'reset-config' | 'refresh-screen'; device: DeviceRecord }
  | { kind: 'admin-passwords' | 'card-rules'; device: DeviceRecord }
  | { kind: 'register'; waiting: WaitingDevice }
  | { kind: 'secret'; title: string; sn: string; secret: string }
  | null;

/** The devices waiting under 待注册; the tab's count and the list share it. */
const useWaiting = () =>
  useQuery({
    queryKey: ['device', 'waiting'],
    queryFn: () => api.get<WaitingDevice[]>(deviceEndpoints.unPulledList),
    refetchInterval: REFRESH_MS,
  });

export default function DevicePage() {
  const [dialog, setDialog] = useState<Dialog>(null);
  const [tab, setTab] = useState('devices');
  const close = () => setDialog(null);
  const waiting = useWaiting().data?.length ?? 0;
  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <LinkBanner />
      <Card size="small">
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            { key: 'devices', label: '设备列表', children: <DeviceList onDialog={setDialog} /> },
            {
              key: 'waiting',
              label: (
                <Space size={6}>
                  待注册
                  {/* How many wait, while any does: a device enrolling is seen without opening the tab. */}
                  <Badge count={waiting} size="small" title={`${waiting} 台设备待注册`} />
                </Space>
              ),
              children: <WaitingList onDialog={setDialog} />,
            },
          ]}
        />
      </Card>
      {dialog?.kind === 'open' && <OpenDoorModal device={dialog.device} onClose={close} />}
      {dialog?.kind === 'totp' && <TotpModal device={dialog.device} onClose={close} />}
      {dialog?.kind === 'detail' && <DetailDrawer device={dialog.device} onClose={close} />}
      {dialog?.kind === 'admin-passwords' && <AdminPasswordsModal device={dialog.device} onClose={close} />}
      {dialog?.kind === 'card-rules' && <CardRulesModal device={dialog.device} onClose={close} />}
      {(dialog?.kind === 'clear' || dialog?.kind === 'reset-config' || dialog?.kind === 'refresh-screen') && (
        <CommandModal
          kind={dialog.kind}
          device={dialog.device}
          onClose={close}
          onSecret={(secret) =>
            setDialog({ kind: 'secret', title: '设备已重置配置', sn: dialog.device.sn, secret })
          }
        />
      )}
      {dialog?.kind === 'register' && (
        <RegisterModal
          waiting={dialog.waiting}
          onClose={close}
          onRegistered={(secret) => {
            setTab('devices');
            setDialog({ kind: 'secret', title: '设备已注册', sn: dialog.waiting.sn, secret });
          }}
        />
      )}
      {dialog?.kind === 'secret' && <SecretModal {...dialog} onClose={close} />}
    </Space>
  );
}

function DeviceList({ onDialog }: { onDialog: (dialog: Dialog) => void }) {
  const [form] = Form.useForm();
  const { can } = usePermission();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const canEdit = can([DEVICE_EDIT_PERMISSION]);
  const canRemove = can([DEVICE_REMOVE_PERMISSION]);
  // A phone's screen is narrower than the actions: pinned right they would cover 状态.
  const narrow = Grid.useBreakpoint().md === false;
  // Online state and last seen change by themselves: the list follows them.
  const paged = usePagedQuery<DeviceRecord>(
    ['device', 'page'],
    deviceEndpoints.page,
    {},
    { refetchInterval: REFRESH_MS },
  );
  const { page, search, reset, turnPage, pagination } = paged;
  useSearchForm(form, paged, ({ sn, name, status }) => ({ sn, name, status }));

  const unregister = (device: DeviceRecord) =>
    modal.confirm({
      title: `注销设备“${device.name}”？`,
      content: '注销后设备密钥立即失效、设备被断开；设备可用注册密钥重新进入“待注册”。',
      okText: '确认注销',
      okButtonProps: { danger: true },
      onOk: async () => {
        await api.post(deviceEndpoints.unregister, { id: device.id });
        message.success(`设备“${device.name}”已注销`);
        await queryClient.invalidateQueries({ queryKey: ['device'] });
      },
    });

  // 状态 first: on a phone the table scrolls sideways, and the state is what staff look for.
  const columns: TableProps<DeviceRecord>['columns'] = [
    {
      title: '状态',
      key: 'status',
      width: 100,
      render: (_, device) => <StatusBadge device={device} />,
    },
    { title: '设备名称', dataIndex: 'name', width: 160 },
    { title: '序列号', dataIndex: 'sn', width: 160 },
    { title: '位置（楼宇 / 空间）', key: 'place', width: 240, render: (_, device) => placeOf(device) },
    { title: '最后在线', dataIndex: 'lastSeenAt', width: 170, render: (v: string | null) => formatTime(v) },
    {
      title: '权限同步',
      dataIndex: 'syncState',
      width: 100,
      render: (s: DeviceRecord['syncState']) => <SyncTag state={s} />,
    },
    {
      title: '型号 / 固件',
      width: 150,
      render: (_, d) => [d.model, d.firmware].filter(Boolean).join(' / ') || '—',
    },
    {
      title: '操作',
      key: 'actions',
      fixed: narrow ? undefined : 'right',
      width: 250,
      render: (_, device) => (
        <Space size={0}>
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
          {(canEdit || canRemove) && (
            <Dropdown
              menu={{
                items: [
                  ...(canEdit
                    ? [
                        { key: 'admin-passwords', label: '管理员密码' },
                        { key: 'card-rules', label: '卡规则' },
                        { key: 'refresh-screen', label: '刷新屏幕' },
                        { key: 'clear', label: '清除' },
                        { key: 'reset-config', label: '重置配置' },
                      ]
                    : []),
                  ...(canRemove ? [{ key: 'unregister', label: '注销', danger: true }] : []),
                ],
                onClick: ({ key }) =>
                  key === 'unregister'
                    ? unregister(device)
                    : onDialog({
                        kind: key as Exclude<NonNullable<Dialog>['kind'], 'register' | 'secret'>,
                        device,
                      } as Dialog),
              }}
            >
              <Button type="link" size="small">
                更多
              </Button>
            </Dropdown>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <Form
        form={form}
        name="device-search"
        layout="inline"
        onFinish={(v: Record<string, string | undefined>) =>
          search({ sn: v.sn?.trim(), name: v.name?.trim(), status: v.status })
        }
      >
        <Form.Item name="sn" label="序列号">
          <Input allowClear placeholder="序列号开头" />
        </Form.Item>
        <Form.Item name="name" label="设备名称">
          <Input allowClear />
        </Form.Item>
        <Form.Item name="status" label="状态">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 120 }}
            options={Object.entries(deviceStatusLabels).map(([value, label]) => ({ value, label }))}
          />
        </Form.Item>
        <SearchButtons
          onReset={() => {
            form.resetFields();
            reset();
          }}
        />
      </Form>
      <Table<DeviceRecord>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={page.data?.records ?? []}
        loading={page.isLoading}
        scroll={{ x: 1400 }}
        pagination={{ ...pagination, onChange: turnPage }}
      />
    </Space>
  );
}

function WaitingList({ onDialog }: { onDialog: (dialog: Dialog) => void }) {
  const { can } = usePermission();
  const waiting = useWaiting();
  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <Typography.Text type="secondary">
        设备用注册密钥（DEVICE_ENROL_KEY）连接并上报后出现在这里；注册后会生成设备密钥，只显示一次。
      </Typography.Text>
      <Table<WaitingDevice>
        rowKey="sn"
        size="middle"
        loading={waiting.isLoading}
        dataSource={waiting.data ?? []}
        pagination={false}
        locale={{ emptyText: '暂无待注册设备' }}
        columns={[
          { title: '序列号', dataIndex: 'sn' },
          { title: '型号', dataIndex: 'model', render: (v: string | null) => v ?? '—' },
          { title: '厂商', dataIndex: 'vendor', render: (v: string | null) => v ?? '—' },
          { title: '固件', dataIndex: 'firmware', render: (v: string | null) => v ?? '—' },
          { title: '最后上报', dataIndex: 'lastSeenAt', render: (v: string) => formatTime(v) },
          {
            title: '操作',
            key: 'register',
            render: (_, row) =>
              can([DEVICE_EDIT_PERMISSION]) ? (
                <Button type="link" size="small" onClick={() => onDialog({ kind: 'register', waiting: row })}>
                  注册
                </Button>
              ) : null,
          },
        ]}
      />
    </Space>
  );
}

function RegisterModal({
  waiting,
  onClose,
  onRegistered,
}: {
  waiting: WaitingDevice;
  onClose: () => void;
  onRegistered: (secret: string) => void;
}) {
  const [form] = Form.useForm<{ name: string; buildingId?: number; spaceId?: number | null }>();
  const queryClient = useQueryClient();
  const buildings = useBuildingOptions();
  // Every space as `楼宇 / 上级空间 / 空间`, narrowed to the building chosen above it.
  const spaces = useSpaceOptions(Form.useWatch('buildingId', form));
  const register = useSubmit({
    mutationFn: (v: { name: string; spaceId?: number | null }) =>
      api.post<{ id: number; sn: string; secret: string }>(deviceEndpoints.register, {
        sn: waiting.sn,
        name: v.name.trim(),
        spaceId: v.spaceId ?? null,
      }),
    onSuccess: (answer) => {
      void queryClient.invalidateQueries({ queryKey: ['device'] });
      onRegistered(answer.secret);
    },
  });
  return (
    <Modal
      open
      title={`注册设备 ${waiting.sn}`}
      okText="注册"
      confirmLoading={register.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form form={form} name="device-register" layout="vertical" onFinish={(v) => register.mutate(v)}>
        <Form.Item
          name="name"
          label="设备名称"
          rules={[
            { required: true, whitespace: true, message: '请填写设备名称' },
            { max: 50, message: '设备名称最多 50 个字符' },
          ]}
        >
          <Input placeholder="如：8F 前台门禁" />
        </Form.Item>
        <Form.Item name="buildingId" label="楼宇" extra="选择楼宇后，下方只列出该楼宇的空间">
          <Select
            allowClear
            placeholder="全部楼宇"
            options={buildings.data ?? []}
            loading={buildings.isLoading}
            onChange={(id?: number) => {
              if (!spaces.fits(form.getFieldValue('spaceId'), id)) form.setFieldValue('spaceId', undefined);
            }}
          />
        </Form.Item>
        <Form.Item name="spaceId" label="所属空间" extra="楼宇 / 上级空间 / 空间；可稍后再分配">
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="暂不分配"
            options={spaces.options}
            loading={spaces.loading}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function SecretModal({
  title,
  sn,
  secret,
  onClose,
}: {
  title: string;
  sn: string;
  secret: string;
  onClose: () => void;
}) {
  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          我已保存密钥
        </Button>
      }
    >
      <Space orientation="vertical" style={{ display: 'flex' }}>
        <Alert
          type="warning"
          showIcon
          title="设备密钥只显示这一次"
          description="请立即复制并配置到设备上（设备以序列号为用户名、以此密钥为密码连接）。关闭后无法再次查看；遗失时只能“重置配置”生成新密钥。"
        />
        <Typography.Text>序列号：{sn}</Typography.Text>
        <Typography.Paragraph
          copyable={{ text: secret, tooltips: ['复制密钥', '已复制'] }}
          code
          data-testid="device-secret"
        >
          {secret}
        </Typography.Paragraph>
      </Space>
    </Modal>
  );
}

function OpenDoorModal({ device, onClose }: { device: DeviceRecord; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [durationS, setDuration] = useState<number>(OPEN_DOOR_DEFAULT_S);
  const open = useSubmit({
    mutationFn: () => api.post(deviceEndpoints.openDoor, { id: device.id, durationS }),
    onSuccess: () => {
      message.success(`设备“${device.name}”已确认开门 ${durationS} 秒`);
      void queryClient.invalidateQueries({ queryKey: ['device'] });
      onClose();
    },
  });
  return (
    <Modal
      open
      title={`远程开门：${device.name}`}
      okText="开门"
      confirmLoading={open.isPending}
      onOk={() => open.mutate()}
      onCancel={onClose}
    >
      <Form layout="vertical">
        <Form.Item
          label="开门时长（秒）"
          extra={`${OPEN_DOOR_MIN_S}–${OPEN_DOOR_MAX_S} 秒，设备确认后才算成功`}
        >
          <InputNumber
            min={OPEN_DOOR_MIN_S}
            max={OPEN_DOOR_MAX_S}
            precision={0}
            value={durationS}
            onChange={(v) => setDuration(v ?? OPEN_DOOR_DEFAULT_S)}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function TotpModal({ device, onClose }: { device: DeviceRecord; onClose: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  const code = useQuery({
    queryKey: ['device', 'totp', device.id],
    queryFn: () => api.get<{ code: string; expiresAt: number }>(deviceEndpoints.totpCode, { id: device.id }),
  });
  const left = code.data ? Math.max(0, Math.ceil((code.data.expiresAt - now) / 1000)) : 0;
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  // A new code as soon as this one expires.
  useEffect(() => {
    if (code.data && left === 0) void code.refetch();
  }, [code, left]);
  return (
    <Modal open title={`动态码：${device.name}`} footer={null} onCancel={onClose}>
      <Space orientation="vertical" align="center" style={{ display: 'flex' }}>
        <Typography.Title level={2} style={{ letterSpacing: 8, margin: 0 }} data-testid="totp-code">
          {code.data?.code ?? '······'}
        </Typography.Title>
        <Typography.Text type="secondary">{code.data ? `${left} 秒后更新` : '正在获取…'}</Typography.Text>
        <Typography.Text type="secondary">在设备键盘输入此码即可开门（前后 30 秒内有效）。</Typography.Text>
      </Space>
    </Modal>
  );
}

const commandTexts = {
  'refresh-screen': { title: '刷新屏幕', done: '已刷新屏幕', needsReason: false },
  clear: { title: '清除', done: '已清除本地权限，将在下次同步时恢复', needsReason: true },
  'reset-config': { title: '重置配置', done: '已重置配置并生成新密钥', needsReason: true },
} as const;

function CommandModal({
  kind,
  device,
  onClose,
  onSecret,
}: {
  kind: keyof typeof commandTexts;
  device: DeviceRecord;
  onClose: () => void;
  onSecret: (secret: string) => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ reason?: string }>();
  const text = commandTexts[kind];
  const path = {
    'refresh-screen': deviceEndpoints.refreshScreen,
    clear: deviceEndpoints.clear,
    'reset-config': deviceEndpoints.resetConfig,
  }[kind];
  const send = useSubmit({
    mutationFn: (v: { reason?: string }) =>
      api.post<{ secret: string } | null>(path, { id: device.id, reason: v.reason?.trim() || undefined }),
    onSuccess: (answer) => {
      message.success(`设备“${device.name}”${text.done}`);
      void queryClient.invalidateQueries({ queryKey: ['device'] });
      if (answer && 'secret' in answer) onSecret(answer.secret);
      else onClose();
    },
  });
  return (
    <Modal
      open
      title={`${text.title}：${device.name}`}
      okText={text.title}
      okButtonProps={{ danger: text.needsReason }}
      confirmLoading={send.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form form={form} name="device-command" layout="vertical" onFinish={(v) => send.mutate(v)}>
        {kind === 'reset-config' && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title="设备将改用新密钥重新连接，旧密钥立即作废；新密钥只显示一次。"
          />
        )}
        {text.needsReason && <ReasonField placeholder="如：更换门禁控制器" />}
        {!text.needsReason && <Typography.Text>确认向设备发送“{text.title}”指令？</Typography.Text>}
      </Form>
    </Modal>
  );
}

function DetailDrawer({ device, onClose }: { device: DeviceRecord; onClose: () => void }) {
  const detail = useQuery({
    queryKey: ['device', 'detail', device.id],
    queryFn: () => api.get<DeviceDetail>(`${deviceEndpoints.detail}/${device.id}`),
    refetchInterval: REFRESH_MS,
  });
  const d = detail.data;
  return (
    <Drawer open title={`设备详情：${device.name}`} size={640} onClose={onClose}>
      {d && (
        <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
          <Descriptions column={2} size="small" bordered>
            <Descriptions.Item label="序列号">{d.sn}</Descriptions.Item>
            <Descriptions.Item label="状态">
              <StatusBadge device={d} />
            </Descriptions.Item>
            <Descriptions.Item label="位置">{placeOf(d)}</Descriptions.Item>
            <Descriptions.Item label="最后在线">{formatTime(d.lastSeenAt)}</Descriptions.Item>
            <Descriptions.Item label="型号">{d.model ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="固件">{d.firmware ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="权限同步">{deviceSyncStateLabels[d.syncState]}</Descriptions.Item>
            <Descriptions.Item label="丢弃的消息">
              {d.droppedCount}
              {d.lastDropReason ? `（最近：${d.lastDropReason}）` : ''}
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>最近指令</Typography.Title>
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={d.commands}
            locale={{ emptyText: '暂无指令' }}
            columns={[
              { title: '时间', dataIndex: 'sentAt', render: (v: string) => formatTime(v) },
              { title: '指令', dataIndex: 'type', render: (t: string) => deviceCommandLabels[t] ?? t },
              { title: '操作人', dataIndex: 'byName', render: (v: string | null) => v ?? '—' },
              {
                title: '结果',
                dataIndex: 'state',
                render: (s: DeviceDetail['commands'][number]['state'], c) => (
                  <Tag
                    color={s === 'acked' ? 'green' : s === 'sent' ? 'blue' : 'red'}
                    title={c.error ?? undefined}
                  >
                    {deviceCommandStateLabels[s]}
                  </Tag>
                ),
              },
              { title: '原因 / 错误', render: (_, c) => c.reason ?? c.error ?? '—' },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}
