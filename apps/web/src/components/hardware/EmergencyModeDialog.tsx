/**
 * 紧急模式 of a building, floor or room: choose 封锁 / 全部常开 / 恢复正常 with a required reason,
 * confirm with the number of doors the change reaches, then see each device's answer (已生效, 待生效,
 * 不支持（v1 设备）).
 */
import { useState } from 'react';
import { Alert, App, Descriptions, Form, Input, Modal, Radio, Space, Table, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  doorOperationEndpoints,
  modeDeliveryLabels,
  modeFieldLabels,
  spaceModeBody,
  spaceModeLabels,
  spaceModePreviewPath,
  spaceModes,
  type SpaceMode,
  type SpaceModeAnswer,
  type SpaceModeDevice,
  type SpaceModePreview,
} from '@cowork/contract';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { contractRules } from '../resource/contract-rules.ts';
import { spaceModesKey } from './ModeBanner.tsx';

/** What each choice is called on its button: 正常 is chosen as 恢复正常. */
const choiceLabels: Record<SpaceMode, string> = {
  lockdown: spaceModeLabels.lockdown,
  release: spaceModeLabels.release,
  normal: '恢复正常',
};

const choiceOrder: SpaceMode[] = ['lockdown', 'release', 'normal'];

const effects: Record<SpaceMode, string> = {
  lockdown: '除管理员密码外，所有会员码、卡和开门权限都将被拒绝，远程开门也将停用。',
  release: '门将保持打开，直到恢复正常（用于火警和疏散）。',
  normal: '门禁恢复按开门权限放行。',
};

const stateColors: Record<SpaceModeDevice['state'], string> = {
  applied: 'success',
  pending: 'warning',
  unsupported: 'default',
};

interface Values {
  mode: SpaceMode;
  reason: string;
}

export function EmergencyModeModal({
  space,
  onClose,
}: {
  space: { id: number; name: string };
  onClose: () => void;
}) {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [answer, setAnswer] = useState<{ mode: SpaceMode; devices: SpaceModeDevice[] }>();
  const preview = useQuery({
    queryKey: ['device', 'space-mode-preview', space.id],
    queryFn: () => api.get<SpaceModePreview>(spaceModePreviewPath, { spaceId: space.id }),
  });
  const send = useSubmit({
    mutationFn: (v: Values) =>
      api.post<SpaceModeAnswer>(doorOperationEndpoints.spaceMode, { spaceId: space.id, ...v }),
    onSuccess: (data, v) => {
      setAnswer({ mode: v.mode, devices: data.devices });
      void queryClient.invalidateQueries({ queryKey: spaceModesKey });
      void queryClient.invalidateQueries({ queryKey: ['device'] });
    },
  });

  const confirm = (v: Values) => {
    const p = preview.data;
    const where = p?.path ?? space.name;
    modal.confirm({
      title: `确认将“${where}”切换为${spaceModeLabels[v.mode]}？`,
      content: (
        <Space orientation="vertical">
          <Typography.Text strong data-testid="mode-confirm-count">
            {p
              ? `将影响该空间及其下级空间的 ${p.devices} 扇门（${p.online} 台在线${
                  p.unsupported > 0 ? `，其中 ${p.unsupported} 台 v1 设备不支持紧急模式` : ''
                }）。`
              : '正在统计受影响的门禁设备…'}
          </Typography.Text>
          <Typography.Text>{effects[v.mode]}</Typography.Text>
          <Typography.Text type="secondary">原因：{v.reason.trim()}</Typography.Text>
        </Space>
      ),
      okText: `确认${choiceLabels[v.mode]}`,
      okButtonProps: { danger: v.mode !== 'normal' },
      onOk: () => send.mutate(v),
    });
  };

  if (answer) {
    const applied = answer.devices.filter((d) => d.state === 'applied').length;
    return (
      <Modal
        open
        title={`紧急模式：${space.name}`}
        okText="完成"
        onOk={onClose}
        onCancel={onClose}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <Alert
          type={answer.mode === 'lockdown' ? 'error' : answer.mode === 'release' ? 'warning' : 'success'}
          showIcon
          style={{ marginBottom: 16 }}
          title={`已切换为${spaceModeLabels[answer.mode]}：${applied}/${answer.devices.length} 台设备已生效`}
          description="待生效的设备恢复连接后会自动生效；v1 设备不支持紧急模式，请到现场处理。"
        />
        <Table<SpaceModeDevice>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={answer.devices}
          locale={{ emptyText: '该空间下没有门禁设备' }}
          columns={[
            { title: '设备', dataIndex: 'name' },
            {
              title: '状态',
              dataIndex: 'state',
              render: (state: SpaceModeDevice['state']) => (
                <Tag color={stateColors[state]}>{modeDeliveryLabels[state]}</Tag>
              ),
            },
          ]}
        />
      </Modal>
    );
  }

  return (
    <Modal
      open
      title={`紧急模式：${space.name}`}
      okText="下一步"
      confirmLoading={send.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
        <Descriptions.Item label="空间">{preview.data?.path ?? space.name}</Descriptions.Item>
        <Descriptions.Item label="当前模式">
          {preview.data ? spaceModeLabels[preview.data.mode] : '加载中…'}
        </Descriptions.Item>
        <Descriptions.Item label="门禁设备">
          {preview.data ? `${preview.data.devices} 台（含下级空间）` : '统计中…'}
        </Descriptions.Item>
      </Descriptions>
      <Form form={form} name="space-mode" layout="vertical" onFinish={confirm}>
        <Form.Item
          name="mode"
          label={modeFieldLabels.mode}
          rules={[{ required: true, message: '请选择紧急模式' }]}
        >
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={choiceOrder.map((m) => ({ value: m, label: choiceLabels[m] }))}
          />
        </Form.Item>
        <Form.Item noStyle dependencies={['mode']}>
          {({ getFieldValue }) => {
            const mode: unknown = getFieldValue('mode');
            const chosen = spaceModes.find((m) => m === mode);
            return chosen ? (
              <Alert type="info" showIcon style={{ marginBottom: 16 }} title={effects[chosen]} />
            ) : null;
          }}
        </Form.Item>
        <Form.Item
          name="reason"
          label={modeFieldLabels.reason}
          {...contractRules(modeFieldLabels.reason, spaceModeBody.shape.reason)}
        >
          <Input.TextArea rows={2} placeholder="如：消防演练、发现可疑人员；会记入操作日志并显示在横幅上" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
