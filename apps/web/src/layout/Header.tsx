import { Avatar, Button, Dropdown, Layout, type MenuProps } from 'antd';
import {
  DownOutlined,
  KeyOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Link, useNavigate } from 'react-router';
import { endpoints } from '@cowork/contract';
import { events } from '../lib/events.ts';
import { api } from '../lib/request.ts';
import { logout } from '../lib/session.ts';
import { openPasswordModal, toggleMenu, useShellState } from '../lib/shell-state.ts';
import { useUserInfo } from '../lib/user.ts';
import { AlertBell } from './AlertBell.tsx';
import { Logo } from './Logo.tsx';

/**
 * 退出登录: asks the server to revoke the tokens, announces `changeLogout` when it did, and ends
 * the session locally either way (a failed call has been toasted by the interceptor).
 */
export async function signOut(): Promise<void> {
  try {
    await api.delete(endpoints.logout);
    events.emit('changeLogout');
  } catch {
    // Logged out locally below all the same.
  }
  logout();
}

const actions: MenuProps['items'] = [
  // The profile is also reached by clicking the name card above; a labelled entry says it is there.
  { key: 'personal', icon: <UserOutlined />, label: '个人中心' },
  { key: 'password', icon: <KeyOutlined />, label: '修改密码' },
  { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
];

export function UserAvatar({ src, name, size }: { src?: string | null; name?: string; size?: number }) {
  return (
    <Avatar
      src={src || undefined}
      size={size}
      icon={src || name ? undefined : <UserOutlined />}
      className="user-avatar"
    >
      {name?.slice(0, 1)}
    </Avatar>
  );
}

export function Header() {
  const { menuOpen } = useShellState();
  const { user } = useUserInfo();
  const navigate = useNavigate();

  const onAction: MenuProps['onClick'] = ({ key }) => {
    if (key === 'personal') void navigate('/personal');
    if (key === 'password') openPasswordModal();
    if (key === 'logout') void signOut();
  };

  return (
    <Layout.Header className="shell-header">
      <Logo light />
      <Button
        type="text"
        className="shell-toggle"
        aria-label="切换菜单"
        aria-expanded={menuOpen}
        icon={menuOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        onClick={toggleMenu}
      />
      <span className="shell-spacer" />
      <AlertBell />
      <Dropdown
        trigger={['hover']}
        placement="bottomRight"
        menu={{ items: actions, onClick: onAction }}
        popupRender={(actionMenu) => (
          <div className="user-panel">
            <Link to="/personal" className="user-panel-profile" title="个人中心">
              <UserAvatar src={user.avatar} name={user.nickname} size={40} />
              <span className="user-panel-names">
                <strong>{user.nickname}</strong>
                <span className="user-panel-email">{user.email || '未填写邮箱'}</span>
              </span>
            </Link>
            {actionMenu}
          </div>
        )}
      >
        <button type="button" className="user-trigger" data-testid="user-dropdown">
          <UserAvatar src={user.avatar} name={user.nickname} size={32} />
          <span className="user-trigger-name">{user.nickname}</span>
          <DownOutlined />
        </button>
      </Dropdown>
    </Layout.Header>
  );
}
