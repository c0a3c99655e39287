/**
 * The dashboard's links: each number opens the list it counts with the same period, totals over
 * several lists open the per-type table, and numbers without a list the user can open are plain.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { UserInfo } from '@cowork/contract';
import { dashboardEndpoints, type DashboardSummary } from '@cowork/contract/resources/dashboard';
import { queryKeys } from '../../lib/query-client.ts';
import { request } from '../../lib/request.ts';
import { setTokens } from '../../lib/session.ts';
import { mockAdapter } from '../../test/mock-adapter.ts';
import { Dashboard } from './Dashboard.tsx';

const originalAdapter = request.defaults.adapter;
afterEach(() => {
  request.defaults.adapter = originalAdapter;
});

const days = Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);
const zeros = () => Array<number>(30).fill(0);
const summary = (patch: Partial<DashboardSummary> = {}): DashboardSummary => ({
  today: { from: '2026-11-21', to: '2026-11-21' },
  month: { from: '2026-11-01', to: '2026-11-30' },
  orders: [
    { kind: 'user-card', todayCount: 4, monthCount: 40, todayPaidFen: 70000, monthPaidFen: 1234500 },
    { kind: 'team-card', todayCount: 1, monthCount: 9, todayPaidFen: 80000, monthPaidFen: 170000 },
    { kind: 'airport', todayCount: 2, monthCount: 3, todayPaidFen: 5000, monthPaidFen: 5000 },
  ],
  members: { today: 2, month: 5 },
  leads: { site: { today: 3, month: 12 }, website: null },
  revenue: {
    days,
    series: [
      { kind: 'user-card', paidFen: zeros() },
      { kind: 'team-card', paidFen: zeros() },
      { kind: 'airport', paidFen: zeros() },
    ],
  },
  utilisation: null,
  devices: null,
  doorEvents: null,
  alarms: null,
  ...patch,
});

function renderAs(permissions: string[], data: DashboardSummary) {
  setTokens('access', 'refresh');
  request.defaults.adapter = mockAdapter((config) =>
    config.url === dashboardEndpoints.summary
      ? { status: 200, data: { code: 200, msg: '操作成功', data } }
      : { status: 404, data: { code: 404, msg: '不存在', data: null } },
  );
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(queryKeys.userInfo, {
    ssoUserId: 1,
    nickname: '测试',
    permissions,
  } as Partial<UserInfo>);
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <Dashboard />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const href = async (name: string) => (await screen.findByRole('link', { name })).getAttribute('href');

describe('Dashboard', () => {
  it('links each number to its list, filtered to the same days', async () => {
    renderAs(
      ['order:member:view', 'order:meeting:view', 'merchant:share:view', 'user:member:view'],
      summary(),
    );
    expect(await href('今日会员卡订单数')).toBe(
      '/order/member?createdAtFrom=2026-11-21&createdAtTo=2026-11-21',
    );
    expect((await screen.findByRole('link', { name: '今日会员卡订单数' })).textContent).toBe('4');
    expect(await href('本月会议卡订单数')).toBe(
      '/order/meeting?createdAtFrom=2026-11-01&createdAtTo=2026-11-30',
    );
    expect(await href('本月会员卡实收金额')).toBe(
      '/merchant/share?siteType=member-card&paidAtFrom=2026-11-01&paidAtTo=2026-11-30',
    );
    expect((await screen.findByRole('link', { name: '本月会员卡实收金额' })).textContent).toBe('¥12,345.00');
    expect(await href('今日新增会员')).toBe(
      '/user/member?registeredAtFrom=2026-11-21&registeredAtTo=2026-11-21',
    );
    // Totals over three lists open the per-type table.
    expect(await href('今日订单数')).toBe('#dashboard-by-kind');
    expect((await screen.findByRole('link', { name: '今日订单数' })).textContent).toBe('7');
    expect((await screen.findByRole('link', { name: '今日实收金额' })).textContent).toBe('¥1,550.00');
  });

  it('links every order kind to its list, and shows revenue without a link to whom 商户分账 is closed', async () => {
    renderAs(['order:member:view', 'order:meeting:view'], summary());
    await screen.findByRole('link', { name: '今日会员卡订单数' });
    expect(await href('今日机场贵宾厅订单数')).toBe(
      '/order/airport?createdAtFrom=2026-11-21&createdAtTo=2026-11-21',
    );
    // Revenue needs 商户分账.
    expect(screen.queryByRole('link', { name: '今日会员卡实收金额' })).toBeNull();
    expect(screen.getByText('近 30 天暂无实收，订单支付后这里会显示每日走势。')).toBeTruthy();
  });

  it('a total of one list is that list; all kinds of revenue are all of 商户分账', async () => {
    const one = summary({
      orders: [summary().orders[0]],
      revenue: { days, series: [{ kind: 'user-card', paidFen: zeros() }] },
      members: null,
    });
    const { unmount } = renderAs(['order:member:view', 'merchant:share:view'], one);
    expect(await href('今日订单数')).toBe('/order/member?createdAtFrom=2026-11-21&createdAtTo=2026-11-21');
    expect(await href('今日实收金额')).toBe(
      '/merchant/share?siteType=member-card&paidAtFrom=2026-11-21&paidAtTo=2026-11-21',
    );
    expect(screen.queryByText('新增会员')).toBeNull();
    unmount();

    const kinds = [
      'user-card',
      'team-card',
      'office-seat',
      'hall-seat',
      'office-station',
      'activity-station',
      'airport',
    ] as const;
    const all = summary({
      orders: kinds.map((kind) => ({ kind, todayCount: 0, monthCount: 0, todayPaidFen: 0, monthPaidFen: 0 })),
    });
    renderAs(['*'], all);
    expect(await href('本月实收金额')).toBe('/merchant/share?paidAtFrom=2026-11-01&paidAtTo=2026-11-30');
  });

  it("new leads per kind open that kind's list by 创建时间, only for the kinds sent", async () => {
    const { unmount } = renderAs(['clue:place:view'], summary({ orders: [], members: null }));
    expect(await href('今日新增定制场地线索')).toBe(
      '/clue/place?createdAtFrom=2026-11-21&createdAtTo=2026-11-21',
    );
    expect((await screen.findByRole('link', { name: '今日新增定制场地线索' })).textContent).toBe('3');
    expect((await screen.findByRole('link', { name: '本月新增定制场地线索' })).textContent).toBe('12');
    expect(screen.queryByText('新增线索（物业合作）')).toBeNull();
    unmount();

    renderAs(
      ['clue:place:view', 'clue:cooperate:view'],
      summary({ leads: { site: { today: 0, month: 1 }, website: { today: 2, month: 7 } } }),
    );
    expect(await href('本月新增物业合作线索')).toBe(
      '/clue/cooperate?createdAtFrom=2026-11-01&createdAtTo=2026-11-30',
    );
    expect((await screen.findByRole('link', { name: '今日新增物业合作线索' })).textContent).toBe('2');
    expect((await screen.findByRole('link', { name: '今日新增定制场地线索' })).textContent).toBe('0');
  });

  it('utilisation by building, with an empty state without published rooms', async () => {
    const usage = (booked: number, open: number, percent: number) => ({
      bookedMinutes: booked,
      openMinutes: open,
      percent,
    });
    const { unmount } = renderAs(
      ['order:meetingRoom:view'],
      summary({
        orders: [],
        members: null,
        revenue: { days, series: [] },
        utilisation: [
          {
            buildingId: 1,
            buildingName: '看板A座',
            rooms: 2,
            today: usage(210, 1380, 15.2),
            month: usage(300, 41400, 0.7),
          },
        ],
      }),
    );
    expect((await screen.findByLabelText('今日使用率 15.2%')).textContent).toContain(
      '已预订 3.5 / 开放 23 小时',
    );
    expect(screen.getByRole('row', { name: /看板A座/ })).toBeTruthy();
    expect(await href('看板A座本月会议室预订')).toBe(
      '/order/meetingRoom?buildingId=1&startAtFrom=2026-11-01&startAtTo=2026-11-30',
    );
    unmount();

    renderAs(
      ['order:meetingRoom:view'],
      summary({ orders: [], members: null, revenue: { days, series: [] }, utilisation: [] }),
    );
    expect(
      await screen.findByText('暂无已发布的会议室，发布会议室后即可在此查看各楼宇的使用率。'),
    ).toBeTruthy();
  });

  it("门禁: devices online and offline and today's door events, each opening its filtered list", async () => {
    renderAs(
      ['hardware:device:view', 'hardware:log:view'],
      summary({
        orders: [],
        members: null,
        devices: { online: 3, offline: 1 },
        doorEvents: { success: 42, denied: 2 },
      }),
    );
    expect(await href('在线设备')).toBe('/hardware/device?status=online');
    expect((await screen.findByRole('link', { name: '离线设备' })).textContent).toBe('1');
    expect(await href('今日开门次数')).toBe('/hardware/log?result=success&atFrom=2026-11-21&atTo=2026-11-21');
    expect((await screen.findByRole('link', { name: '今日开门次数' })).textContent).toBe('42');
    expect((await screen.findByRole('link', { name: '今日拒绝开门次数' })).textContent).toBe('2');
  });

  it('门禁: the alarms open now, opening 告警记录 filtered to 未处理', async () => {
    renderAs(['hardware:alarm:view'], summary({ orders: [], members: null, alarms: { open: 4 } }));
    expect(await href('未处理告警')).toBe('/hardware/alarm?state=open');
    expect((await screen.findByRole('link', { name: '未处理告警' })).textContent).toBe('4');
  });

  it('shows nothing to a user who may view none of its lists', async () => {
    const { container } = renderAs(
      [],
      summary({
        orders: [],
        members: null,
        leads: { site: null, website: null },
        revenue: { days, series: [] },
      }),
    );
    // The skeleton shows while loading, then nothing at all.
    expect(container.querySelector('.ant-skeleton')).not.toBeNull();
    await waitFor(() => expect(container.querySelector('.ant-skeleton')).toBeNull());
    expect(container.textContent).toBe('');
  });
});
