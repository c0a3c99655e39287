import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { messages, type UserInfo } from '@cowork/contract';
import { queryKeys } from '../lib/query-client.ts';
import { hasPermission } from '../lib/user.ts';
import { PermissionGate, usePermission } from './PermissionGate.tsx';

function renderAs(permissions: string[], ui: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  const user: UserInfo = {
    ssoUserId: 2,
    username: 'yunying',
    nickname: '运营专员',
    email: null,
    avatar: null,
    roles: ['operation'],
    roleNames: ['运营'],
    permissions,
  };
  client.setQueryData(queryKeys.userInfo, user);
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/merchant/brand']}>
        <Routes>
          <Route path="/merchant/brand" element={ui} />
          <Route path="/" element={<p>首页内容</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('PermissionGate', () => {
  it('shows its children when the permissions overlap', () => {
    renderAs(
      ['merchant:brand:view', 'order:member:view'],
      <PermissionGate permissions={['merchant:brand:edit', 'merchant:brand:view']}>
        <button>编辑商户</button>
      </PermissionGate>,
    );
    expect(screen.getByRole('button', { name: '编辑商户' })).toBeTruthy();
  });

  it('shows everything to a holder of *', () => {
    renderAs(
      ['*'],
      <PermissionGate permissions={['system:role:edit']}>
        <span>角色编辑</span>
      </PermissionGate>,
    );
    expect(screen.getByText('角色编辑')).toBeTruthy();
  });

  it('shows the fallback when they do not overlap', () => {
    renderAs(
      ['order:member:view'],
      <PermissionGate permissions={['merchant:brand:edit']} fallback={<span>只读</span>}>
        <span>编辑</span>
      </PermissionGate>,
    );
    expect(screen.getByText('只读')).toBeTruthy();
    expect(screen.queryByText('编辑')).toBeNull();
  });

  it('redirects when asked to', () => {
    renderAs(
      [],
      <PermissionGate permissions={['merchant:brand:view']} redirect="/">
        <span>商户列表</span>
      </PermissionGate>,
    );
    expect(screen.getByText('首页内容')).toBeTruthy();
    expect(screen.queryByText('商户列表')).toBeNull();
  });

  it('says 您没有权限进行此操作 by default', () => {
    renderAs(
      ['order:member:view'],
      <PermissionGate permissions={['merchant:brand:remove']}>
        <span>删除</span>
      </PermissionGate>,
    );
    expect(screen.getByText(messages.noPermission)).toBeTruthy();
    expect(messages.noPermission).toBe('您没有权限进行此操作');
    expect(screen.queryByText('删除')).toBeNull();
  });

  it('exposes the check as a hook', () => {
    function Probe() {
      const { can, permissions } = usePermission();
      return <span>{`${permissions.length}:${can(['a:b:view'])}:${can(['c:d:view'])}`}</span>;
    }
    renderAs(['a:b:view'], <Probe />);
    expect(screen.getByText('1:true:false')).toBeTruthy();
  });
});

describe('hasPermission', () => {
  it('needs an overlap, * grants all, nothing grants nothing', () => {
    expect(hasPermission(['x'], ['x', 'y'])).toBe(true);
    expect(hasPermission(['x'], ['y'])).toBe(false);
    expect(hasPermission(['*'], ['y'])).toBe(true);
    expect(hasPermission(undefined, ['y'])).toBe(false);
    expect(hasPermission([], [])).toBe(false);
  });
});
