/**
 * 门禁权限查询 as staff read it: who can open a door with each reason as a tag and the window, one
 * row per window (a member twice on one door is two rows), searched by a keyword sent with the door,
 * exported with the same; a long list in pages; and a member's doors with 已同步 or 同步中.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { ReactNode } from 'react';
import { accessViewEndpoints, type DeviceAccessRow, type MemberDoorRow } from '@cowork/contract';
import { request } from '../../lib/request.ts';
import { mockAdapter, paramsOf } from '../../test/mock-adapter.ts';
import { DoorList, WhoCanOpen } from './AccessViews.tsx';

const originalAdapter = request.defaults.adapter;
afterEach(() => {
  request.defaults.adapter = originalAdapter;
});

const at = (day: number) => `2026-12-${String(day).padStart(2, '0')}T01:00:00.000Z`;

const zheng: DeviceAccessRow = {
  memberId: 7,
  name: '郑一',
  phone: '176****3001',
  validFrom: at(1),
  validTo: at(3),
  sources: [
    { kind: 'access-group', id: 3, label: '企业门禁组“研发部”（星河科技）' },
    { kind: 'member-card', id: 41, label: '会员卡 #UC2026110100041' },
  ],
};
// The same member again, later: a booking next week.
const zhengLater: DeviceAccessRow = {
  ...zheng,
  validFrom: at(10),
  validTo: at(11),
  sources: [{ kind: 'booking', id: 52, label: '预订 #OS2026120900052 301 会议室' }],
};

const doors: MemberDoorRow[] = [
  {
    deviceId: 1,
    deviceName: '大堂闸机',
    spaceName: '大堂',
    buildingName: '望京SOHO',
    validFrom: at(1),
    validTo: at(3),
    sources: zheng.sources,
    synced: true,
  },
  {
    deviceId: 2,
    deviceName: '8F 北门',
    spaceName: null,
    buildingName: '望京SOHO',
    validFrom: at(1),
    validTo: at(3),
    sources: zheng.sources,
    synced: false,
  },
];

function renderWith(element: ReactNode, rows: (url: string | undefined) => unknown) {
  const adapter = mockAdapter((config) => ({
    status: 200,
    data: { code: 200, msg: '操作成功', data: rows(config.url) },
  }));
  request.defaults.adapter = adapter;
  const router = createMemoryRouter([{ path: '/', element: <App>{element}</App> }]);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return (url: string) => adapter.calls.filter((c) => c.url === url).map(paramsOf);
}

const rowOf = (text: string) => screen.getAllByText(text)[0].closest('tr')!;

// antd's form and table draw slowly on a busy machine.
describe('门禁权限查询', { timeout: 30_000 }, () => {
  it('lists who can open a door: each window a row, each reason a tag, searched and exported with the door', async () => {
    const calls = renderWith(<WhoCanOpen target={{ kind: 'device', id: 9, name: '大堂闸机' }} />, () => [
      zheng,
      zhengLater,
    ]);
    await screen.findByText('企业门禁组“研发部”（星河科技）');
    expect(screen.getAllByText('郑一')).toHaveLength(2);
    const first = rowOf('会员卡 #UC2026110100041');
    expect(within(first).getByText('176****3001')).toBeTruthy();
    expect(within(first).getByText('2026-12-01 09:00:00 至 2026-12-03 09:00:00')).toBeTruthy();
    expect(within(rowOf('预订 #OS2026120900052 301 会议室')).getByText(/2026-12-10 09:00:00/)).toBeTruthy();
    expect(calls(accessViewEndpoints.deviceAccessList)[0]).toEqual({ id: '9' });

    fireEvent.change(screen.getByLabelText('会员'), { target: { value: ' 星河 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(calls(accessViewEndpoints.deviceAccessList).at(-1)).toEqual({ id: '9', keyword: '星河' }),
    );
    fireEvent.click(screen.getByRole('button', { name: /导出Excel/ }));
    await waitFor(() =>
      expect(calls(accessViewEndpoints.deviceAccessExport)).toEqual([{ id: '9', keyword: '星河' }]),
    );
  });

  it('lists a space by its doors, in pages of 20 when long', async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({
      ...zheng,
      memberId: i + 1,
      name: `会员${i + 1}`,
      deviceId: 1,
      deviceName: '大堂闸机',
    }));
    const calls = renderWith(<WhoCanOpen target={{ kind: 'space', id: 4, name: '大堂' }} />, () => many);
    await screen.findByText('会员1');
    expect(screen.queryByText('会员21')).toBeNull();
    expect(screen.getByText('共 25 条')).toBeTruthy();
    expect(within(rowOf('会员1')).getByText('大堂闸机')).toBeTruthy();
    expect(calls(accessViewEndpoints.spaceAccessList)[0]).toEqual({ id: '4' });
  });

  it("shows a member's doors with where they are, why, and whether the device holds them yet", async () => {
    const calls = renderWith(<DoorList memberId={7} />, () => doors);
    await screen.findByText('望京SOHO / 大堂 / 大堂闸机');
    expect(within(rowOf('望京SOHO / 大堂 / 大堂闸机')).getByText('已同步')).toBeTruthy();
    // A device without a space is named from its building.
    expect(within(rowOf('望京SOHO / 8F 北门')).getByText('同步中')).toBeTruthy();
    expect(within(rowOf('望京SOHO / 8F 北门')).getByText('企业门禁组“研发部”（星河科技）')).toBeTruthy();
    expect(calls(accessViewEndpoints.memberDoorList)[0]).toEqual({ id: '7' });
  });
});
