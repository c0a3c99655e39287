import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { USER_INFO_KEY, endpoints, messages, type MenuItem } from '@cowork/contract';
import { mockAdapter, visit, type Handler } from '../test/mock-adapter.ts';
import { events } from '../lib/events.ts';
import { resetNavigation, setNavigation } from '../lib/navigation.ts';
import { queryClient } from '../lib/query-client.ts';
import { request, resetRefreshState, setToast } from '../lib/request.ts';
import { setTokens } from '../lib/session.ts';
import { getShellState, openPasswordModal } from '../lib/shell-state.ts';
import { installShellReloads } from '../lib/user.ts';
import { PasswordModal } from './PasswordModal.tsx';
import { SideMenu } from './SideMenu.tsx';

const navigate = vi.fn();
const toast = vi.fn();
const originalAdapter = request.defaults.adapter;
const ok = (data: unknown) => ({ status: 200, data: { code: 200, msg: '操作成功', data } });

function serve(handler: Handler) {
  const adapter = mockAdapter(handler);
  request.defaults.adapter = adapter;
  return adapter;
}

function mount(ui: React.ReactNode, path = '/') {
  return render(
    <QueryClientProvider client={queryClient}>
      <App>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  navigate.mockReset();
  toast.mockReset();
  setNavigation({ navigate, reload: () => {} });
  setToast(toast);
  resetRefreshState();
  queryClient.clear();
  setTokens('access', 'refresh');
  localStorage.setItem(USER_INFO_KEY, JSON.stringify({ ssoUserId: 3, nickname: '财务专员' }));
  visit('/personal');
});

afterEach(() => {
  request.defaults.adapter = originalAdapter;
  resetNavigation();
  act(() => {
    queryClient.clear();
  });
});

const item = (id: number, name: string, url: string, children: MenuItem[] = []): MenuItem => ({
  id,
  name,
  url,
  iconUrl: `/file/images/admin/${id}.svg`,
  iconBrightUrl: `/file/images/admin/${id}-bright.svg`,
  children,
});

describe('PasswordModal', () => {
  const submit = async (password: string, oldPassword = 'Caiwu@123') => {
    fireEvent.change(await screen.findByLabelText('原密码'), { target: { value: oldPassword } });
    fireEvent.change(await screen.findByLabelText('密码'), { target: { value: password } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
  };
  const confirmButton = () => screen.getByRole('button', { name: /确\s*定/ });
  const isLoading = () => confirmButton().className.includes('ant-btn-loading');

  it('posts oldPassword, newPassword and ssoUserId, then logs out to login', async () => {
    const adapter = serve((config) => (config.url === endpoints.userEditPassword ? ok(null) : ok([])));
    mount(<PasswordModal />);
    act(openPasswordModal);
    expect(await screen.findByRole('dialog', { name: '修改密码' })).toBeTruthy();
    await submit('Caiwu@2026new');
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/login?url=%2Fpersonal'));
    const call = adapter.calls.find((c) => c.url === endpoints.userEditPassword)!;
    expect(call.method).toBe('post');
    expect(JSON.parse(String(call.data))).toEqual({
      oldPassword: 'Caiwu@123',
      newPassword: 'Caiwu@2026new',
      ssoUserId: 3,
    });
    expect(getShellState().passwordOpen).toBe(false);
    expect(localStorage.getItem(USER_INFO_KEY)).toBeNull();
    expect(messages.passwordChanged).toContain('密码修改成功');
  });

  it('asks for the current password before sending', async () => {
    const adapter = serve(() => ok(null));
    mount(<PasswordModal />);
    act(openPasswordModal);
    await submit('Caiwu@2026new', '');
    expect(await screen.findByText(messages.oldPasswordRequired)).toBeTruthy();
    expect(adapter.calls.filter((c) => c.url === endpoints.userEditPassword)).toHaveLength(0);
  });

  it('checks the length before sending', async () => {
    const adapter = serve(() => ok(null));
    mount(<PasswordModal />);
    act(openPasswordModal);
    await submit('short');
    expect(await screen.findByText(messages.passwordTooShort)).toBeTruthy();
    expect(adapter.calls.filter((c) => c.url === endpoints.userEditPassword)).toHaveLength(0);
  });

  it('keeps loading on a 424: the token refresh reloads the page', async () => {
    serve((config) =>
      config.url === endpoints.token
        ? new Promise(() => {}) // the refresh is left pending here; in the browser the page reloads
        : { status: 424, data: { code: 424, msg: messages.tokenExpired, data: null } },
    );
    mount(<PasswordModal />);
    act(openPasswordModal);
    await submit('Caiwu@2026new');
    await waitFor(() => expect(isLoading()).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isLoading()).toBe(true);
    expect(getShellState().passwordOpen).toBe(true);
  });

  it('clears loading on another error, which the interceptor alone has shown', async () => {
    serve((config) =>
      config.url === endpoints.userEditPassword
        ? { status: 400, data: { code: 400, msg: '新密码不能与旧密码相同，请重新输入', data: null } }
        : ok({}),
    );
    mount(<PasswordModal />);
    act(openPasswordModal);
    await submit('Caiwu@2026new');
    await waitFor(() => expect(toast).toHaveBeenCalledWith('新密码不能与旧密码相同，请重新输入', 3));
    await waitFor(() => expect(isLoading()).toBe(false));
    expect(toast).toHaveBeenCalledTimes(1);
    expect(getShellState().passwordOpen).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('SideMenu', () => {
  const tree = [
    item(1, '系统配置', '/system', [
      item(11, '操作日志', '/system/log'),
      item(12, '菜单配置', '/system/menu'),
    ]),
  ];

  it('puts 首页 first, opens the route group and highlights the current entry with its bright icon', async () => {
    serve(() => ok(tree));
    mount(<SideMenu openNames={['系统配置']} />, '/system/log');
    const entries = await screen.findAllByRole('menuitem');
    expect(entries[0].textContent).toContain('首页');
    const selected = await waitFor(() => {
      const found = document.querySelector('.ant-menu-item-selected');
      if (!found) throw new Error('nothing selected yet');
      return found;
    });
    expect(selected.textContent).toContain('操作日志');
    expect(selected.querySelectorAll('img')).toHaveLength(1);
    expect(selected.querySelector('img')!.getAttribute('src')).toBe('/file/images/admin/11-bright.svg');
    const other = screen.getByText('菜单配置').closest('li')!;
    expect(other.querySelector('img')!.getAttribute('src')).toBe('/file/images/admin/12.svg');
    expect(document.querySelector('.ant-menu-submenu-open')?.textContent).toContain('系统配置');
  });

  it('shows a spinner while loading, keeps it on a 424, and reloads on changeMenu', async () => {
    installShellReloads();
    let answer: () => { status: number; data?: unknown } = () => ({
      status: 424,
      data: { code: 424, msg: '', data: null },
    });
    const adapter = serve((config) => (config.url === endpoints.token ? new Promise(() => {}) : answer()));
    mount(<SideMenu openNames={[]} />, '/');
    expect(document.querySelector('.ant-spin-spinning')).toBeTruthy();
    await waitFor(() => expect(adapter.calls.length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(document.querySelector('.ant-spin-spinning')).toBeTruthy();

    answer = () => ok(tree);
    act(() => events.emit('changeMenu'));
    expect(await screen.findByText('系统配置')).toBeTruthy();
    expect(document.querySelector('.ant-spin-spinning')).toBeNull();
    expect(adapter.calls.filter((c) => c.url === endpoints.menuUserTree).length).toBe(2);
  });

  it('stops the spinner silently on another error', async () => {
    serve(() => ({ status: 500, data: { code: 500, msg: messages.serverError, data: null } }));
    mount(<SideMenu openNames={[]} />, '/');
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
    expect(screen.getAllByRole('menuitem')).toHaveLength(1);
    expect(toast).toHaveBeenCalledTimes(1); // the interceptor's, and no other
  });
});
