import { useState } from 'react';
import { App, Form, Input, Modal } from 'antd';
import { endpoints, messages } from '@cowork/contract';
import { closePasswordModal, useShellState } from '../lib/shell-state.ts';
import { api, isTokenExpired } from '../lib/request.ts';
import { rules } from '../lib/rules.ts';
import { logout } from '../lib/session.ts';
import { useUserInfo } from '../lib/user.ts';

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
}

/**
 * 修改密码: posts {oldPassword, newPassword, ssoUserId}; the current password keeps a stolen token
 * from taking the account (a wrong one comes back as a 400 the interceptor shows). The server revokes the user's tokens on a password
 * change, so success ends the session and returns to login. On error the loading state stays on
 * only for a 424 (the token refresh reloads the page); the interceptor has already shown the error.
 */
export function PasswordModal() {
  const { passwordOpen } = useShellState();
  const { user } = useUserInfo();
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordForm>();
  const [saving, setSaving] = useState(false);

  const close = () => {
    form.resetFields();
    closePasswordModal();
  };

  const submit = async ({ oldPassword, newPassword }: PasswordForm) => {
    setSaving(true);
    try {
      await api.post(endpoints.userEditPassword, { oldPassword, newPassword, ssoUserId: user.ssoUserId });
    } catch (error) {
      if (!isTokenExpired(error)) setSaving(false);
      return;
    }
    setSaving(false);
    form.resetFields();
    closePasswordModal();
    void message.success(messages.passwordChanged);
    logout();
  };

  return (
    <Modal
      title="修改密码"
      open={passwordOpen}
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} autoComplete="off" preserve={false}>
        {/* Lets password managers file the new password under the right account. */}
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={user.username ?? ''}
          readOnly
          hidden
        />
        <Form.Item
          label="原密码"
          name="oldPassword"
          rules={[{ required: true, message: messages.oldPasswordRequired }]}
        >
          <Input.Password autoComplete="current-password" placeholder="请输入原密码" />
        </Form.Item>
        <Form.Item
          label="密码"
          name="newPassword"
          rules={rules.newPassword}
          validateTrigger={['onChange', 'onBlur']}
        >
          <Input.Password autoComplete="new-password" placeholder="请输入新密码" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
