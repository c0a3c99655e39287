/**
 * Registering a device that waits under 待注册: its name and where it is (a building narrows the
 * spaces offered), then its secret, shown this once (also after 重置配置).
 */
import { Alert, Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { deviceEndpoints, deviceRegisterBody, type WaitingDevice } from '@cowork/contract';
import { contractRules } from '../resource/contract-rules.ts';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { BuildingSelect, SpaceSelect } from './PlaceSelects.tsx';

interface RegisterForm {
  name: string;
  buildingId?: number;
  spaceId?: number | null;
}

export function RegisterModal({
  waiting,
  onClose,
  onRegistered,
}: {
  waiting: WaitingDevice;
  onClose: () => void;
  onRegistered: (secret: string) => void;
}) {
  const [form] = Form.useForm<RegisterForm>();
  const queryClient = useQueryClient();
  const register = useSubmit({
    mutationFn: (v: RegisterForm) =>
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
        <Form.Item name="name" label="设备名称" {...contractRules('设备名称', deviceRegisterBody.shape.name)}>
          <Input placeholder="如：8F 前台门禁" />
        </Form.Item>
        <Form.Item name="buildingId" label="楼宇" extra="选择楼宇后，下方只列出该楼宇的空间">
          <BuildingSelect placeholder="全部楼宇" />
        </Form.Item>
        {/* Every space as `楼宇 / 上级空间 / 空间`, narrowed to the building chosen above it. */}
        <Form.Item name="spaceId" label="所属空间" extra="楼宇 / 上级空间 / 空间；可稍后再分配">
          <SpaceSelect placeholder="暂不分配" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function SecretModal({
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
