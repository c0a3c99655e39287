/**
 * The header's bell: hidden for staff whose permissions cover no alert; otherwise the unread count,
 * the list with kind, title and state, a click that marks the alert read and opens its link, and
 * 全部已读.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, useLocation } from 'react-router';
import { alertEndpoints, endpoints, USER_INFO_KEY, type AlertList, type AlertRecord } from '@cowork/contract';
import { request } from '../lib/request.ts';
import { setTokens } from '../lib/session.ts';
import { mockAdapter } from '../test/mock-adapter.ts';
import { AlertBell } from './AlertBell.tsx';

const originalAdapter = request.defaults.adapter;
let client: QueryClient;
afterEach(() => {
  request.defaults.adapter = originalAdapter;
  act(() => client.clear());
});
beforeEach(() => {
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  setTokens('access', 'refresh');
});

const alert = (id: number, values: Partial<AlertRecord> = {}): AlertRecord => ({
  id,
  kind: 'device-offline',
  buildingId: 1,
  deviceId: null,
  title: `告警A座 ${id} 台门禁设备离线超过 5 分钟`,
  detail: null,
  link: '/hardware/device?buildingId=1&status=offline',
  count: id,
  raisedAt: '2026-11-27T08:00:00.000Z',
  updatedAt: '2026-11-27T08:00:00.000Z',
  closedAt: null,
  read: false,
  ...values,
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

function mount(permissions: string[], list: AlertList) {
  localStorage.setItem(USER_INFO_KEY, JSON.stringify({ ssoUserId: 3, nickname: '运维', permissions }));
  const adapter = mockAdapter((config) => {
    const data =
      config.url === endpoints.userInfo
        ? { ssoUserId: 3, nickname: '运维', permissions }
        : config.url === alertEndpoints.list
          ? list
          : config.url === alertEndpoints.read || config.url === alertEndpoints.readAll
            ? { marked: 1 }
            : null;
    return data
      ? { status: 200, data: { code: 200, msg: '操作成功', data } }
      : { status: 404, data: { code: 404, msg: '不存在', data: null } };
  });
  request.defaults.adapter = adapter;
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/']}>
        <AlertBell />
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return adapter;
}

describe('AlertBell', () => {
  it('is not there for staff without hardware permissions', async () => {
    const adapter = mount(['order:member:view'], { records: [], unread: 0 });
    await waitFor(() => expect(adapter.calls.some((c) => c.url === endpoints.userInfo)).toBe(true));
    expect(screen.queryByTestId('alert-bell')).toBeNull();
    expect(adapter.calls.some((c) => c.url === alertEndpoints.list)).toBe(false);
  });

  it('counts the unread, lists them, and opens one: read, then its link', async () => {
    const closed = alert(2, {
      read: true,
      closedAt: '2026-11-27T08:10:00.000Z',
      kind: 'alarm',
      title: '大堂闸机：强行开门',
    });
    const adapter = mount(['hardware:device:view'], { records: [alert(3), closed], unread: 1 });
    const bell = await screen.findByRole('button', { name: '告警通知，1 条未读' });
    fireEvent.click(bell);
    const items = await screen.findAllByTestId('alert-item');
    expect(items).toHaveLength(2);
    expect(items[0].textContent).toContain('设备离线');
    expect(items[0].textContent).toContain('未恢复');
    expect(items[0].textContent).toContain('告警A座 3 台门禁设备离线超过 5 分钟');
    expect(items[1].textContent).toContain('设备告警');
    expect(items[1].textContent).toContain('已恢复');

    fireEvent.click(items[0]);
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe('/hardware/device?buildingId=1&status=offline'),
    );
    await waitFor(() => {
      const read = adapter.calls.find((c) => c.url === alertEndpoints.read);
      expect(JSON.parse(String(read?.data))).toEqual({ id: 3 });
    });
  });

  it('marks every alert read with 全部已读', async () => {
    const adapter = mount(['hardware:firmware:view'], {
      records: [alert(4, { kind: 'rollout-halted', link: '/hardware/firmware' })],
      unread: 1,
    });
    fireEvent.click(await screen.findByRole('button', { name: '告警通知，1 条未读' }));
    fireEvent.click(await screen.findByRole('button', { name: '全部已读' }));
    await waitFor(() => expect(adapter.calls.some((c) => c.url === alertEndpoints.readAll)).toBe(true));
  });
});
