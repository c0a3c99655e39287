/**
 * 固件升级's dialogs: uploading a firmware file (with its progress), starting a rollout over
 * devices of the file's model, and a rollout's detail with each device's progress, refreshed every
 * ROLLOUT_POLL_MS while it moves, with 暂停 / 继续 / 取消 behind a confirmation.
 */
import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Drawer,
  Form,
  Input,
  InputNumber,
  Modal,
  Progress,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
  type UploadFile,
} from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  deviceEndpoints,
  doorOperationEndpoints as fw,
  FIRMWARE_EDIT_PERMISSION,
  firmwareMessages,
  firmwareUploadFields,
  ROLLOUT_DEFAULT_TIMEOUT_MINUTES,
  ROLLOUT_MAX_BATCH,
  ROLLOUT_MAX_TIMEOUT_MINUTES,
  ROLLOUT_POLL_MS,
  rolloutDeviceStateLabels,
  rolloutStateLabels,
  type DeviceRecord,
  type FirmwareRecord,
  type FirmwareUploaded,
  type RolloutDetail,
  type RolloutDeviceRecord,
  type RolloutRecord,
  type RolloutState,
} from '@cowork/contract';
import { api } from '../../lib/request.ts';
import { formatTime } from '../../lib/format.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { usePermission } from '../PermissionGate.tsx';

/** Every firmware query starts with this: invalidating it refreshes the lists and an open detail. */
export const firmwareKey = ['firmware'] as const;

export const rolloutStateColors: Record<RolloutState, string> = {
  running: 'processing',
  paused: 'warning',
  halted: 'error',
  done: 'success',
  cancelled: 'default',
};

const deviceStateColors: Record<RolloutDeviceRecord['state'], string> = {
  queued: 'default',
  sent: 'processing',
  downloading: 'processing',
  verifying: 'processing',
  installing: 'processing',
  done: 'success',
  failed: 'error',
};

/** A file size as staff read it. */
export const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** 上传固件: version, model, remark and the file, sent with its progress shown. */
export function UploadFirmwareDialog({ onClose }: { onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [percent, setPercent] = useState<number | undefined>();
  const upload = useSubmit({
    mutationFn: async (values: { version: string; model: string; remark?: string }) => {
      const file = files[0]?.originFileObj;
      if (!file) throw new Error(firmwareMessages.fileRequired);
      const body = new FormData();
      body.append('version', values.version.trim());
      body.append('model', values.model.trim());
      if (values.remark?.trim()) body.append('remark', values.remark.trim());
      body.append('file', file, file.name);
      setPercent(0);
      return api.post<FirmwareUploaded>(fw.firmwareUpload, body, {
        onUploadProgress: (event) => {
          if (event.total) setPercent(Math.round((event.loaded / event.total) * 100));
        },
      });
    },
    onSuccess: async (uploaded) => {
      message.success(`固件 ${uploaded.model} ${uploaded.version} 已上传`);
      await queryClient.invalidateQueries({ queryKey: firmwareKey });
      onClose();
    },
    onSettled: () => setPercent(undefined),
  });
  const rule = (field: 'version' | 'model') => ({
    validator: async (_: unknown, value: unknown) => {
      const checked = firmwareUploadFields.shape[field].safeParse(value ?? '');
      if (!checked.success) throw new Error(checked.error.issues[0].message);
    },
  });
  return (
    <Modal
      open
      title="上传固件"
      okText="上传"
      confirmLoading={upload.isPending}
      onOk={() => void form.validateFields().then((values) => upload.mutate(values))}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" name="firmware-upload">
        <Form.Item name="version" label="版本号" required rules={[rule('version')]}>
          <Input placeholder="如 2.1.0" maxLength={32} />
        </Form.Item>
        <Form.Item name="model" label="适用设备型号" required rules={[rule('model')]}>
          <Input placeholder="与设备上报的型号一致，如 SIM-100" maxLength={64} />
        </Form.Item>
        <Form.Item name="remark" label="备注">
          <Input.TextArea rows={2} maxLength={200} placeholder="本版本修复或新增了什么（选填）" />
        </Form.Item>
        <Form.Item
          name="file"
          label="固件文件"
          required
          rules={[
            {
              validator: async () =>
                void (files.length === 0 && Promise.reject(new Error(firmwareMessages.fileRequired))),
            },
          ]}
          extra="最大 64 MB；上传时计算 SHA-256，设备下载后会校验"
        >
          <Upload
            maxCount={1}
            fileList={files}
            beforeUpload={(file) => {
              setFiles([{ uid: file.uid, name: file.name, size: file.size, originFileObj: file }]);
              return false;
            }}
            onRemove={() => setFiles([])}
          >
            <Button>选择文件</Button>
          </Upload>
        </Form.Item>
        {percent !== undefined && <Progress percent={percent} status="active" />}
      </Form>
    </Modal>
  );
}

/** Every registered device, a page at a time (a rollout picks among them by model). */
async function allDevices(): Promise<DeviceRecord[]> {
  const rows: DeviceRecord[] = [];
  for (let current = 1; current <= 50; current++) {
    const page = await api.get<{ records: DeviceRecord[]; total: number }>(deviceEndpoints.page, {
      current,
      size: 100,
    });
    rows.push(...page.records);
    if (rows.length >= page.total || page.records.length === 0) break;
  }
  return rows;
}

interface RolloutValues {
  firmwareId: number;
  deviceIds: number[];
  batchSize: number;
  stopAfterFailures: number;
  timeoutMinutes: number;
  reason?: string;
}

/** 新建升级: a firmware file, devices of its model (v1.1), batch size, failure limit and timeout. */
export function NewRolloutDialog({
  firmwareId,
  onClose,
  onStarted,
}: {
  firmwareId?: number;
  onClose: () => void;
  onStarted: (id: number) => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<RolloutValues>();
  const chosenId = Form.useWatch('firmwareId', form) ?? firmwareId;
  const files = useQuery({
    queryKey: [...firmwareKey, 'files-all'],
    queryFn: () => api.get<{ records: FirmwareRecord[] }>(fw.firmwarePage, { current: 1, size: 100 }),
  });
  const devices = useQuery({ queryKey: [...firmwareKey, 'devices-all'], queryFn: allDevices });
  const chosen = files.data?.records.find((f) => f.id === chosenId);
  const fitting = (devices.data ?? []).filter(
    (d) => chosen && d.model === chosen.model && d.protocol === '1.1',
  );
  const start = useSubmit({
    mutationFn: (values: RolloutValues) => api.post<{ id: number }>(fw.rollout, values),
    onSuccess: async ({ id }) => {
      message.success(`升级任务 #${id} 已开始`);
      await queryClient.invalidateQueries({ queryKey: firmwareKey });
      onStarted(id);
    },
  });
  return (
    <Modal
      open
      title="新建升级"
      okText="开始升级"
      width={640}
      confirmLoading={start.isPending}
      onOk={() => void form.validateFields().then((values) => start.mutate(values))}
      onCancel={onClose}
    >
      <Form
        form={form}
        layout="vertical"
        name="firmware-rollout"
        initialValues={{
          firmwareId,
          batchSize: 10,
          stopAfterFailures: 1,
          timeoutMinutes: ROLLOUT_DEFAULT_TIMEOUT_MINUTES,
        }}
      >
        <Form.Item name="firmwareId" label="固件" rules={[{ required: true, message: '请选择固件' }]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={files.isLoading}
            placeholder="选择要升级到的固件"
            onChange={() => form.setFieldValue('deviceIds', [])}
            options={(files.data?.records ?? []).map((f) => ({
              value: f.id,
              label: `${f.model} ${f.version}（${sizeText(f.size)}）`,
            }))}
          />
        </Form.Item>
        <Form.Item
          name="deviceIds"
          label="升级设备"
          rules={[{ required: true, message: firmwareMessages.devicesRequired }]}
          extra={
            chosen
              ? `型号 ${chosen.model}、使用 v1.1 协议的设备共 ${fitting.length} 台可选`
              : '只列出与固件型号相同、使用 v1.1 协议的设备'
          }
        >
          <Select
            mode="multiple"
            showSearch={{ optionFilterProp: 'label' }}
            loading={devices.isLoading}
            disabled={!chosen}
            placeholder={chosen ? '选择设备' : '请先选择固件'}
            options={fitting.map((d) => ({
              value: d.id,
              label: `${d.name}（${d.sn}，当前 ${d.firmware ?? '未知版本'}${d.status === 'online' ? '' : '，离线'}）`,
            }))}
          />
        </Form.Item>
        <Space size={16} wrap>
          <Form.Item
            name="batchSize"
            label="每批台数"
            rules={[{ required: true, message: firmwareMessages.batchSizeInvalid }]}
          >
            <InputNumber min={1} max={ROLLOUT_MAX_BATCH} precision={0} />
          </Form.Item>
          <Form.Item
            name="stopAfterFailures"
            label="失败上限"
            tooltip="失败台数达到这个数时，升级自动中止"
            rules={[{ required: true, message: firmwareMessages.stopAfterFailuresInvalid }]}
          >
            <InputNumber min={1} precision={0} />
          </Form.Item>
          <Form.Item
            name="timeoutMinutes"
            label="单台超时（分钟）"
            tooltip="设备在这段时间内没有以新版本重新上线即算失败"
            rules={[{ required: true, message: firmwareMessages.timeoutInvalid }]}
          >
            <InputNumber min={1} max={ROLLOUT_MAX_TIMEOUT_MINUTES} precision={0} />
          </Form.Item>
        </Space>
        <Form.Item name="reason" label="操作原因">
          <Input maxLength={200} placeholder="选填，记入操作日志" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 暂停 / 继续 / 取消 of a rollout: the states each applies in, its call and its confirmation. */
const rolloutActions = [
  {
    label: '暂停',
    path: fw.rolloutPause,
    from: ['running'],
    title: '暂停升级任务',
    content: '正在升级的设备会继续完成，排队的设备暂不下发。',
    done: '已暂停',
  },
  {
    label: '继续',
    path: fw.rolloutResume,
    from: ['paused'],
    title: '继续升级任务',
    content: '排队的设备将按每批台数继续下发。',
    done: '已继续',
  },
  {
    label: '取消',
    path: fw.rolloutCancel,
    from: ['running', 'paused'],
    title: '取消升级任务',
    content: '排队的设备不再升级；已在升级的设备无法撤回，会继续完成或超时。取消后不能恢复。',
    done: '已取消',
    danger: true,
  },
] as const satisfies readonly {
  label: string;
  path: string;
  from: readonly RolloutRecord['state'][];
  title: string;
  content: string;
  done: string;
  danger?: boolean;
}[];

/** The actions of a rollout in its state, each confirmed first. */
export function useRolloutActions() {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const { can } = usePermission();
  if (!can([FIRMWARE_EDIT_PERMISSION])) return () => null;
  return (rollout: Pick<RolloutRecord, 'id' | 'state'>) =>
    rolloutActions
      .filter((action) => (action.from as readonly string[]).includes(rollout.state))
      .map((action) => {
        const danger = 'danger' in action && action.danger;
        const confirm = () =>
          modal.confirm({
            title: `${action.title} #${rollout.id}？`,
            content: action.content,
            okText: '确认',
            okButtonProps: danger ? { danger: true } : undefined,
            onOk: async () => {
              await api.post(action.path, { id: rollout.id });
              message.success(`升级任务 #${rollout.id} ${action.done}`);
              await queryClient.invalidateQueries({ queryKey: firmwareKey });
            },
          });
        return (
          <Button key={action.label} type="link" size="small" danger={danger} onClick={confirm}>
            {action.label}
          </Button>
        );
      });
}

/** A rollout's detail: its file and settings, and each device's state and progress, live while it moves. */
export function RolloutDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const actions = useRolloutActions();
  const detail = useQuery({
    queryKey: [...firmwareKey, 'rollout', id],
    queryFn: () => api.getById<RolloutDetail>(fw.rolloutDetail, id),
    refetchInterval: (query) => {
      const data = query.state.data;
      const moving =
        !data ||
        data.state === 'running' ||
        data.state === 'paused' ||
        data.devices.some((d) => d.state !== 'queued' && d.state !== 'done' && d.state !== 'failed');
      return moving ? ROLLOUT_POLL_MS : false;
    },
  });
  const r = detail.data;
  return (
    <Drawer
      open
      title={`升级任务 #${id}`}
      size={720}
      onClose={onClose}
      extra={r && <Space>{actions(r)}</Space>}
    >
      {detail.error && <Alert type="error" showIcon title={detail.error.message} />}
      {r && (
        <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label="状态">
              <Tag color={rolloutStateColors[r.state]} data-testid="rollout-state">
                {rolloutStateLabels[r.state]}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label="固件">{`${r.model} ${r.version}（${sizeText(r.size)}）`}</Descriptions.Item>
            <Descriptions.Item label="进度">{`完成 ${r.done} / 失败 ${r.failed} / 共 ${r.total} 台`}</Descriptions.Item>
            <Descriptions.Item label="每批 / 失败上限 / 超时">
              {`${r.batchSize} 台 / ${r.stopAfterFailures} 台 / ${r.timeoutMinutes} 分钟`}
            </Descriptions.Item>
            <Descriptions.Item label="创建">{`${r.createdBy ?? '—'} ${formatTime(r.createdAt)}`}</Descriptions.Item>
            <Descriptions.Item label="结束">{formatTime(r.finishedAt)}</Descriptions.Item>
            <Descriptions.Item label="SHA-256" span={2}>
              <Typography.Text copyable code style={{ fontSize: 12 }}>
                {r.sha256}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <Table<RolloutDeviceRecord>
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={r.devices}
            columns={[
              { title: '设备', render: (_, d) => `${d.name}（${d.sn}）` },
              {
                title: '状态',
                width: 90,
                render: (_, d) => (
                  <Tag color={deviceStateColors[d.state]}>{rolloutDeviceStateLabels[d.state]}</Tag>
                ),
              },
              {
                title: '进度',
                width: 160,
                render: (_, d) => (
                  <Progress
                    size="small"
                    percent={d.state === 'done' ? 100 : d.percent}
                    status={d.state === 'failed' ? 'exception' : d.state === 'done' ? 'success' : 'active'}
                  />
                ),
              },
              { title: '原因', render: (_, d) => d.error ?? '—' },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}
