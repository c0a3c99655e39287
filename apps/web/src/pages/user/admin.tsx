/**
 * 后台用户: staff accounts with their roles. Beside the resource screen: 停用/启用 (ends the
 * account's sessions at once) and 重置密码. One's own row offers neither (the server refuses too).
 */
import { useState } from 'react';
import { App, Button, Form, Input, Modal, Popconfirm, Tag } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoints } from '@cowork/contract';
import { ssoUser, ssoUserEndpoints } from '@cowork/contract/resources/sso-user';
import { ResourcePage, type ResourceRecord } from '../../components/resource/ResourcePage.tsx';
import { usePermission } from '../../components/PermissionGate.tsx';
import { api, settled } from '../../lib/request.ts';
import { rules } from '../../lib/rules.ts';
import { useUserInfo } from '../../lib/user.ts';
import { useSubmit } from '../../lib/use-submit.ts';

/** 重置密码 of another account: the new password replaces the old and ends their sessions. */
function ResetPasswordModal({ target, onClose }: { target: ResourceRecord | null; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ newPassword: string }>();
  const reset = useSubmit({
    mutationFn: (newPassword: string) =>
      api.post(endpoints.userEditPassword, { ssoUserId: target!.id, newPassword }),
    onSuccess: () => {
      void message.success(`已重置${String(target?.nickname ?? '')}的密码，请把新密码告知本人`);
      onClose();
    },
  });
  return (
    <Modal
      title={`重置密码：${String(target?.nickname ?? '')}（${String(target?.username ?? '')}）`}
      open={target !== null}
      okText="确定"
      cancelText="取消"
      confirmLoading={reset.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        autoComplete="off"
        onFinish={({ newPassword }) => reset.mutate(newPassword)}
      >
        <Form.Item
          label="新密码"
          name="newPassword"
          rules={rules.newPassword}
          extra="8 到 64 个字符；该用户的登录会全部失效，需用新密码重新登录"
        >
          <Input.Password autoComplete="new-password" placeholder="请输入新密码" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function AdminUserPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { user } = useUserInfo();
  const { can } = usePermission();
  const canEdit = can(['user:admin:edit']);
  const [resetting, setResetting] = useState<ResourceRecord | null>(null);

  const setStatus = useMutation({
    mutationFn: (v: { id: number; status: 'enabled' | 'disabled' }) =>
      api.put(ssoUserEndpoints.editAccountStatus, v),
    onSuccess: (_data, v) => {
      void message.success(v.status === 'disabled' ? '账号已停用，其登录已全部失效' : '账号已启用');
      void queryClient.invalidateQueries({ queryKey: [ssoUser.key] });
    },
  });

  const rowActions = (record: ResourceRecord) => {
    if (!canEdit || record.id === user.ssoUserId) return null;
    const enabled = record.status === 'enabled';
    return (
      <>
        <Popconfirm
          title={enabled ? '确定停用该账号吗？' : '确定启用该账号吗？'}
          description={enabled ? '停用后该用户立即退出登录，且不能再登录。' : '启用后该用户可以重新登录。'}
          okText={enabled ? '停用' : '启用'}
          cancelText="取消"
          okButtonProps={{ danger: enabled }}
          onConfirm={() =>
            settled(setStatus.mutateAsync({ id: record.id, status: enabled ? 'disabled' : 'enabled' }))
          }
        >
          <Button type="link" size="small" danger={enabled}>
            {enabled ? '停用' : '启用'}
          </Button>
        </Popconfirm>
        <Button type="link" size="small" onClick={() => setResetting(record)}>
          重置密码
        </Button>
      </>
    );
  };

  return (
    <>
      <ResourcePage
        resource={ssoUser}
        rowActions={rowActions}
        extraColumns={[
          {
            key: 'self',
            title: '',
            render: (_: unknown, record: ResourceRecord) =>
              record.id === user.ssoUserId ? <Tag color="blue">当前账号</Tag> : null,
          },
        ]}
      />
      <ResetPasswordModal target={resetting} onClose={() => setResetting(null)} />
    </>
  );
}
