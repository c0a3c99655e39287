import { useEffect } from 'react';
import { App, Button, Card, Descriptions, Form, Input, Space, Tag } from 'antd';
import { KeyOutlined, SaveOutlined } from '@ant-design/icons';
import { businessTimeZoneName, endpoints, type UserInfo } from '@cowork/contract';
import { Upload } from '../components/Upload.tsx';
import { UserAvatar } from '../layout/Header.tsx';
import { events } from '../lib/events.ts';
import { api } from '../lib/request.ts';
import { rules } from '../lib/rules.ts';
import { mergeUserInfo } from '../lib/session.ts';
import { openPasswordModal } from '../lib/shell-state.ts';
import { formatTime } from '../lib/format.ts';
import { useUserInfo } from '../lib/user.ts';
import { useSubmit } from '../lib/use-submit.ts';

/** An avatar is a small picture: the image kinds a browser shows everywhere, up to 2 MB. */
const avatarUpload = { accept: ['png', 'jpg', 'jpeg', 'gif', 'webp'], maxSizeKb: 2048 };

interface ProfileForm {
  nickname: string;
  email?: string | null;
  avatar?: string | null;
}

/** 个人中心: who is signed in, their own nickname/email/avatar, and the 修改密码 dialog. */
export default function PersonalPage() {
  const { message } = App.useApp();
  const { user } = useUserInfo();
  const [form] = Form.useForm<ProfileForm>();

  useEffect(() => {
    form.setFieldsValue({ nickname: user.nickname, email: user.email, avatar: user.avatar });
  }, [form, user.nickname, user.email, user.avatar]);

  const save = useSubmit({
    // A removed avatar leaves the field undefined: send null so it is cleared, not kept.
    mutationFn: (values: ProfileForm) =>
      api.put<UserInfo>(endpoints.profileEdit, { ...values, avatar: values.avatar ?? null }),
    onSuccess: (info) => {
      mergeUserInfo(info);
      // The header and everything else showing the user reload it.
      events.emit('saveInfo');
      message.success('个人资料已保存');
    },
  });

  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <Card>
        <Space align="center" size={16} style={{ marginBottom: 24 }}>
          <UserAvatar src={user.avatar} name={user.nickname} size={64} />
          <div>
            <div style={{ fontSize: 20, fontWeight: 600 }}>{user.nickname}</div>
            <div style={{ color: 'rgba(0,0,0,0.45)' }}>{user.username}</div>
          </div>
        </Space>
        <Descriptions
          column={1}
          bordered
          size="middle"
          items={[
            { key: 'username', label: '用户名', children: user.username || '—' },
            {
              key: 'roles',
              label: '角色',
              children: user.roleNames?.length
                ? user.roleNames.map((role) => <Tag key={role}>{role}</Tag>)
                : '暂无角色',
            },
            { key: 'time', label: `当前时间（${businessTimeZoneName()}）`, children: formatTime(new Date()) },
          ]}
        />
        <Button type="primary" icon={<KeyOutlined />} style={{ marginTop: 24 }} onClick={openPasswordModal}>
          修改密码
        </Button>
      </Card>
      <Card title="编辑个人资料">
        <Form<ProfileForm>
          form={form}
          name="profile"
          layout="vertical"
          style={{ maxWidth: 480 }}
          onFinish={(values) => save.mutate(values)}
        >
          <Form.Item
            name="nickname"
            label="昵称"
            rules={[
              { required: true, whitespace: true, message: '请填写昵称' },
              { max: 30, message: '昵称最多 30 个字符，请删减后重试' },
            ]}
          >
            <Input placeholder="请输入昵称" />
          </Form.Item>
          <Form.Item name="email" label="邮箱" rules={rules.optionalEmail}>
            <Input placeholder="请输入邮箱" allowClear />
          </Form.Item>
          <Form.Item
            name="avatar"
            label="头像"
            extra="支持 PNG、JPG、GIF、WebP，不超过 2 MB；移除后保存即清空头像"
          >
            <Upload {...avatarUpload} />
          </Form.Item>
          <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending}>
            保存
          </Button>
        </Form>
      </Card>
    </Space>
  );
}
