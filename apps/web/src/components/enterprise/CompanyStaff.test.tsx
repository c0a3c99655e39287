/**
 * 员工 of a company: the list asked for that company; 离职 only on active staff and for staff who may
 * edit, 可开的门 only for staff who may see members; 离职 and 删除 show the server's answer as the
 * sentence of what ended; a typed search asks for a name or a phone's start.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { InternalAxiosRequestConfig } from 'axios';
import type { UserInfo } from '@cowork/contract';
import { companyStaffEndpoints } from '@cowork/contract/resources/company';
import { queryKeys } from '../../lib/query-client.ts';
import { request } from '../../lib/request.ts';
import { setTokens } from '../../lib/session.ts';
import { mockAdapter, paramsOf } from '../../test/mock-adapter.ts';
import { CompanyStaff } from './CompanyStaff.tsx';
import { staffSearchOf, type StaffRow } from './StaffPickers.tsx';

const originalAdapter = request.defaults.adapter;
afterEach(() => {
  request.defaults.adapter = originalAdapter;
});

const person = (patch: Partial<StaffRow>): StaffRow => ({
  id: 1,
  companyId: 5,
  memberId: 71,
  name: '郑一',
  phone: '17600003001',
  department: '研发部',
  status: 'active',
  joinedAt: '2026-11-01T01:00:00.000Z',
  leftAt: null,
  ...patch,
});

const staff = [
  person({}),
  person({
    id: 2,
    memberId: 72,
    name: '钱二',
    phone: '17600003002',
    status: 'left',
    leftAt: '2026-11-20T01:00:00.000Z',
  }),
];
const ended = { count: 1, groups: ['全员门禁组'], cards: ['QY00000009'] };

function answerOf(config: InternalAxiosRequestConfig): unknown {
  if (config.url === companyStaffEndpoints.page)
    return { records: staff, total: staff.length, current: 1, size: 10 };
  if (config.url === companyStaffEndpoints.leave) return ended;
  if (config.url?.startsWith(`${companyStaffEndpoints.remove}`)) return ended;
  return config.url?.endsWith('/list') ? [] : null;
}

function renderAs(permissions: string[]) {
  setTokens('access', 'refresh');
  const adapter = mockAdapter((config) => ({
    status: 200,
    data: { code: 200, msg: '操作成功', data: answerOf(config) },
  }));
  request.defaults.adapter = adapter;
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(queryKeys.userInfo, {
    ssoUserId: 1,
    nickname: '测试',
    permissions,
  } as Partial<UserInfo>);
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <App>
          <CompanyStaff companyId={5} />
        </App>
      ),
    },
  ]);
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return {
    queries: (url: string) => adapter.calls.filter((c) => c.url === url).map(paramsOf),
    bodies: (url: string) =>
      adapter.calls.filter((c) => c.url === url).map((c) => JSON.parse(String(c.data)) as unknown),
  };
}

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;

describe('企业员工', { timeout: 30_000 }, () => {
  it('offers 离职 on active staff and 可开的门 by permission, for the company shown', async () => {
    const { queries } = renderAs(['enterprise:company:view', 'enterprise:company:edit']);
    const active = await rowOf('郑一');
    expect(within(active).getByRole('button', { name: '离职' })).toBeTruthy();
    expect(within(await rowOf('钱二')).queryByRole('button', { name: '离职' })).toBeNull();
    // No right to see members: no door list.
    expect(within(active).queryByRole('button', { name: '可开的门' })).toBeNull();
    expect(queries(companyStaffEndpoints.page)[0]).toMatchObject({ companyId: '5' });
  });

  it('says what 离职 ended, from the answer', async () => {
    const { bodies } = renderAs(['enterprise:company:view', 'enterprise:company:edit', 'user:member:view']);
    const active = await rowOf('郑一');
    expect(within(active).getByRole('button', { name: '可开的门' })).toBeTruthy();
    fireEvent.click(within(active).getByRole('button', { name: '离职' }));
    fireEvent.click(await screen.findByRole('button', { name: '确认离职' }));
    await screen.findByText(
      '郑一已离职：已移出门禁组“全员门禁组”，不能再用企业会议卡“QY00000009”支付；门禁设备正在同步权限',
    );
    await waitFor(() => expect(bodies(companyStaffEndpoints.leave)).toEqual([{ ids: [1] }]));
  });

  it('says what removing ended, from the answer', async () => {
    renderAs(['enterprise:company:view', 'enterprise:company:remove']);
    fireEvent.click(within(await rowOf('郑一')).getByRole('button', { name: /删\s*除/ }));
    const confirm = await screen.findByRole('tooltip');
    fireEvent.click(within(confirm).getByRole('button', { name: /删\s*除/ }));
    await screen.findByText(/^郑一已从员工列表删除：已移出门禁组“全员门禁组”/);
  });

  it('searches staff by a phone start or a name', () => {
    expect(staffSearchOf('1760')).toEqual({ phone: '1760' });
    expect(staffSearchOf('郑')).toEqual({ name: '郑' });
    expect(staffSearchOf('')).toEqual({});
  });
});
