import { Button, Card, Descriptions, Space, Tag } from 'antd';
import { KeyOutlined } from '@ant-design/icons';
import { UserAvatar } from '../layout/Header.tsx';
import { openPasswordModal } from '../lib/shell-state.ts';
import { useUserInfo } from '../lib/user.ts';

/** 个人中心: who is signed in, and the same 修改密码 dialog as the header's. */
export default function PersonalPage() {
  const { user } = useUserInfo();
  return (
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
          { key: 'nickname', label: '昵称', children: user.nickname || '—' },
          { key: 'username', label: '用户名', children: user.username || '—' },
          { key: 'email', label: '邮箱', children: user.email || '未填写' },
          {
            key: 'roles',
            label: '角色',
            children: user.roles?.length
              ? user.roles.map((role) => <Tag key={role}>{role}</Tag>)
              : '暂无角色',
          },
        ]}
      />
      <Button type="primary" icon={<KeyOutlined />} style={{ marginTop: 24 }} onClick={openPasswordModal}>
        修改密码
      </Button>
    </Card>
  );
}
