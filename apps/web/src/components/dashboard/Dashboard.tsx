/**
 * 首页 dashboard: today's and this month's orders, paid revenue, new members and new leads, the orders of each
 * product type, a 30-day revenue chart and meeting-room utilisation by building, from one call
 * (dashboard/summary). The server sends only the blocks of lists the user may view.
 *
 * Every number opens the list it counts, filtered to the same period: orders → the kind's order
 * list by 下单时间, revenue → 商户分账 by product type and 支付时间 (its 实付合计 is the number),
 * new members → 会员 by 注册时间, new leads of a kind → 定制场地 / 物业合作 by 创建时间. A total over several lists opens the per-type table instead; a
 * number whose list the user cannot open (or which is not built yet) is shown without a link.
 * Loaded on its own (lazily) so the console shell after sign-in stays small.
 */
import { Fragment, useDeferredValue, type ReactNode } from 'react';
import { Alert, Button, Card, Col, Empty, Progress, Row, Skeleton, Statistic, Table } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatYuan } from '@cowork/contract';
import {
  dashboardKinds,
  dashboardLinks,
  isBuiltRoute,
  leadListPathOfKind,
  orderListPathOfKind,
  type DashboardSummary,
  type DashboardUtilisation,
} from '@cowork/contract/resources/dashboard';
import { siteTypeOfKind } from '@cowork/contract/resources/merchant-share-order';
import type { OrderKind } from '@cowork/contract/resources/order';
import { usePermission } from '../PermissionGate.tsx';
import { RevenueChart } from '../RevenueChart.tsx';
import { summaryQuery } from './summary-query.ts';
import './dashboard.css';

type Period = DashboardSummary['today'];
type KindRow = DashboardSummary['orders'][number];
type LeadKind = keyof DashboardSummary['leads'];

/** The lead kinds as the cards name them; one number per kind, so each equals its list's total. */
const leadKinds: { kind: LeadKind; label: string }[] = [
  { kind: 'site', label: '定制场地' },
  { kind: 'website', label: '物业合作' },
];

/** Where the per-type table is: the target of totals that no single list counts. */
const BY_KIND = 'dashboard-by-kind';

const kindLabel = (kind: OrderKind) => dashboardKinds.find((k) => k.value === kind)?.label ?? kind;
const range = (key: string, period: Period) => `${key}From=${period.from}&${key}To=${period.to}`;
const hours = (minutes: number) => String(Math.round((minutes / 60) * 10) / 10);

/** A number opening its list (`#…` scrolls to the table on this page), or plain when there is none. */
function NumberLink({ to, label, children }: { to?: string; label: string; children: ReactNode }) {
  if (!to) return <span title={`${label}（暂无可打开的列表）`}>{children}</span>;
  if (to.startsWith('#')) {
    return (
      <a href={to} aria-label={label} className="dashboard-link">
        {children}
      </a>
    );
  }
  return (
    <Link to={to} aria-label={label} className="dashboard-link">
      {children}
    </Link>
  );
}

function useLinks(kinds: OrderKind[]) {
  const { can } = usePermission();
  const canShare = can([dashboardLinks.revenuePermission]);
  const orders = (kind: OrderKind, period: Period) => {
    const path = orderListPathOfKind[kind];
    // 工位订单 holds two kinds as tabs; the link opens the tab of the kind it counts.
    const tab = kind === 'office-seat' || kind === 'hall-seat' ? `tab=${kind}&` : '';
    return isBuiltRoute(path) ? `${path}?${tab}${range('createdAt', period)}` : undefined;
  };
  const revenue = (kind: OrderKind | undefined, period: Period) =>
    canShare
      ? `${dashboardLinks.revenue}?${kind ? `siteType=${siteTypeOfKind[kind]}&` : ''}${range('paidAt', period)}`
      : undefined;
  return {
    orders,
    revenue,
    members: (period: Period) => `${dashboardLinks.members}?${range('registeredAt', period)}`,
    leads: (kind: LeadKind, period: Period) => `${leadListPathOfKind[kind]}?${range('createdAt', period)}`,
    /** Totals: one kind is its own list; every kind's revenue is all of 商户分账; else the table. */
    ordersTotal: (period: Period) => (kinds.length === 1 ? orders(kinds[0], period) : `#${BY_KIND}`),
    revenueTotal: (period: Period) =>
      kinds.length === 1
        ? revenue(kinds[0], period)
        : kinds.length === dashboardKinds.length && canShare
          ? revenue(undefined, period)
          : `#${BY_KIND}`,
  };
}

function PeriodCard({
  name,
  period,
  data,
  links,
}: {
  name: '今日' | '本月';
  period: Period;
  data: DashboardSummary;
  links: ReturnType<typeof useLinks>;
}) {
  const today = name === '今日';
  const count = data.orders.reduce((sum, o) => sum + (today ? o.todayCount : o.monthCount), 0);
  const paid = data.orders.reduce((sum, o) => sum + (today ? o.todayPaidFen : o.monthPaidFen), 0);
  const members = data.members && (today ? data.members.today : data.members.month);
  const stat = (title: string, value: string, to: string | undefined, label: string) => (
    <Col xs={24} sm={8}>
      <Statistic
        title={title}
        value={value}
        valueRender={(node) => (
          <NumberLink to={to} label={label}>
            {node}
          </NumberLink>
        )}
      />
    </Col>
  );
  return (
    <Card
      size="small"
      title={name}
      extra={
        <span className="dashboard-period">{today ? period.from : `${period.from} 至 ${period.to}`}</span>
      }
    >
      <Row gutter={[16, 16]}>
        {data.orders.length > 0 && (
          <>
            {stat('订单数', String(count), links.ordersTotal(period), `${name}订单数`)}
            {stat('实收金额', formatYuan(paid), links.revenueTotal(period), `${name}实收金额`)}
          </>
        )}
        {members !== null && stat('新增会员', String(members), links.members(period), `${name}新增会员`)}
        {leadKinds.map(({ kind, label }) => {
          const leads = data.leads[kind];
          if (leads === null) return null;
          const n = today ? leads.today : leads.month;
          return (
            <Fragment key={kind}>
              {stat(`新增线索（${label}）`, String(n), links.leads(kind, period), `${name}新增${label}线索`)}
            </Fragment>
          );
        })}
      </Row>
    </Card>
  );
}

function KindTable({ data, links }: { data: DashboardSummary; links: ReturnType<typeof useLinks> }) {
  const count = (kind: OrderKind, period: Period, n: number, name: string) => (
    <NumberLink to={links.orders(kind, period)} label={`${name}${kindLabel(kind)}订单数`}>
      {n.toLocaleString('zh-CN')}
    </NumberLink>
  );
  const money = (kind: OrderKind, period: Period, fen: number, name: string) => (
    <NumberLink to={links.revenue(kind, period)} label={`${name}${kindLabel(kind)}实收金额`}>
      {formatYuan(fen)}
    </NumberLink>
  );
  const sum = (pick: (row: KindRow) => number) => data.orders.reduce((s, row) => s + pick(row), 0);
  return (
    <Card size="small" title="各类订单" id={BY_KIND}>
      <Table<KindRow>
        rowKey="kind"
        size="small"
        pagination={false}
        dataSource={data.orders}
        columns={[
          { key: 'kind', title: '产品类型', render: (_, row) => kindLabel(row.kind) },
          {
            key: 'todayCount',
            title: '今日订单',
            align: 'right',
            render: (_, row) => count(row.kind, data.today, row.todayCount, '今日'),
          },
          {
            key: 'todayPaidFen',
            title: '今日实收',
            align: 'right',
            render: (_, row) => money(row.kind, data.today, row.todayPaidFen, '今日'),
          },
          {
            key: 'monthCount',
            title: '本月订单',
            align: 'right',
            render: (_, row) => count(row.kind, data.month, row.monthCount, '本月'),
          },
          {
            key: 'monthPaidFen',
            title: '本月实收',
            align: 'right',
            render: (_, row) => money(row.kind, data.month, row.monthPaidFen, '本月'),
          },
        ]}
        summary={() =>
          data.orders.length > 1 && (
            <Table.Summary.Row className="dashboard-total">
              <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                {sum((r) => r.todayCount).toLocaleString('zh-CN')}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                {formatYuan(sum((r) => r.todayPaidFen))}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="right">
                {sum((r) => r.monthCount).toLocaleString('zh-CN')}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} align="right">
                {formatYuan(sum((r) => r.monthPaidFen))}
              </Table.Summary.Cell>
            </Table.Summary.Row>
          )
        }
      />
      <p className="dashboard-note">
        订单数按下单时间统计（含各状态）；实收金额按支付时间统计已支付与已使用的订单，已退款的订单不计入。
      </p>
    </Card>
  );
}

function Usage({ value, name }: { value: DashboardUtilisation; name: string }) {
  return (
    <div className="dashboard-usage" aria-label={`${name}使用率 ${value.percent}%`}>
      <Progress percent={Math.min(100, value.percent)} format={() => `${value.percent}%`} size="small" />
      <span className="dashboard-usage-hours">
        已预订 {hours(value.bookedMinutes)} / 开放 {hours(value.openMinutes)} 小时
      </span>
    </div>
  );
}

/** Each building opens its meeting-room bookings of this month (by booked time). */
function UtilisationCard({
  rows,
  month,
}: {
  rows: NonNullable<DashboardSummary['utilisation']>;
  month: DashboardSummary['month'];
}) {
  type Row = (typeof rows)[number];
  return (
    <Card size="small" title="会议室使用率（按楼宇）">
      {rows.length === 0 ? (
        <Empty description="暂无已发布的会议室，发布会议室后即可在此查看各楼宇的使用率。" />
      ) : (
        <Table<Row>
          rowKey="buildingId"
          size="small"
          pagination={false}
          dataSource={rows}
          columns={[
            {
              key: 'building',
              title: '楼宇',
              render: (_, row) => (
                <NumberLink
                  label={`${row.buildingName}本月会议室预订`}
                  to={`${orderListPathOfKind['office-station']}?buildingId=${row.buildingId}&${range('startAt', month)}`}
                >
                  {row.buildingName}
                </NumberLink>
              ),
            },
            { key: 'rooms', title: '会议室', dataIndex: 'rooms', align: 'right', width: 80 },
            { key: 'today', title: '今日', render: (_, row) => <Usage value={row.today} name="今日" /> },
            { key: 'month', title: '本月', render: (_, row) => <Usage value={row.month} name="本月" /> },
          ]}
        />
      )}
      <p className="dashboard-note">
        使用率 = 已支付与已使用的预订时长 ÷ 已发布会议室的开放时长（本月按整月计算）。
      </p>
    </Card>
  );
}

/**
 * 门禁: devices online / offline now, today's door events and the alarms open now, each opening its
 * filtered list.
 */
function DoorCard({ data }: { data: DashboardSummary }) {
  const day = data.today.from;
  const stat = (title: string, value: number, to: string, label: string) => (
    <Col xs={12} sm={6}>
      <Statistic
        title={title}
        value={value}
        valueRender={(node) => (
          <NumberLink to={to} label={label}>
            {node}
          </NumberLink>
        )}
      />
    </Col>
  );
  const events = (result: string) =>
    `${dashboardLinks.doorEvents}?result=${result}&atFrom=${day}&atTo=${day}`;
  return (
    <Card size="small" title="门禁">
      <Row gutter={[16, 16]}>
        {data.devices && (
          <>
            {stat('在线设备', data.devices.online, `${dashboardLinks.devices}?status=online`, '在线设备')}
            {stat('离线设备', data.devices.offline, `${dashboardLinks.devices}?status=offline`, '离线设备')}
          </>
        )}
        {data.doorEvents && (
          <>
            {stat('今日开门', data.doorEvents.success, events('success'), '今日开门次数')}
            {stat('今日拒绝', data.doorEvents.denied, events('denied'), '今日拒绝开门次数')}
          </>
        )}
        {data.alarms &&
          stat('未处理告警', data.alarms.open, `${dashboardLinks.alarms}?state=open`, '未处理告警')}
      </Row>
    </Card>
  );
}

export function Dashboard() {
  const summary = useQuery(summaryQuery);
  const kinds = summary.data?.orders.map((o) => o.kind) ?? [];
  const links = useLinks(kinds);
  // The period numbers draw first, the table, chart and cards below them in the pass right after:
  // on a slow machine the numbers show a moment sooner than if everything were drawn at once.
  const full = useDeferredValue(true, false);

  if (summary.isPending) return <Skeleton active paragraph={{ rows: 8 }} className="dashboard" />;
  if (summary.isError) {
    return (
      <Alert
        className="dashboard"
        type="warning"
        showIcon
        title="首页数据加载失败，请稍后重试。"
        action={
          <Button size="small" onClick={() => void summary.refetch()}>
            重试
          </Button>
        }
      />
    );
  }
  const data = summary.data;
  // A user who may view none of these lists gets the greeting and the entries only.
  const anyLeads = data.leads.site !== null || data.leads.website !== null;
  const anyDoors = data.devices !== null || data.doorEvents !== null || data.alarms !== null;
  if (
    data.orders.length === 0 &&
    data.members === null &&
    !anyLeads &&
    data.utilisation === null &&
    !anyDoors
  )
    return null;
  const series = data.revenue.series.map((s) => ({
    key: s.kind,
    label: kindLabel(s.kind),
    values: s.paidFen,
  }));
  const anyRevenue = series.some((s) => s.values.some((v) => v > 0));

  return (
    <section className="dashboard" aria-label="经营概览">
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <PeriodCard name="今日" period={data.today} data={data} links={links} />
        </Col>
        <Col xs={24} xl={12}>
          <PeriodCard name="本月" period={data.month} data={data} links={links} />
        </Col>
        {full && data.orders.length > 0 && (
          <>
            <Col xs={24} xl={12}>
              <KindTable data={data} links={links} />
            </Col>
            <Col xs={24} xl={12}>
              <Card size="small" title="近 30 天实收（按产品类型）">
                {anyRevenue ? (
                  <RevenueChart
                    title="近 30 天每日实收（按产品类型）"
                    days={data.revenue.days}
                    series={series}
                  />
                ) : (
                  <Empty description="近 30 天暂无实收，订单支付后这里会显示每日走势。" />
                )}
              </Card>
            </Col>
          </>
        )}
        {full && data.utilisation && (
          <Col xs={24}>
            <UtilisationCard rows={data.utilisation} month={data.month} />
          </Col>
        )}
        {full && anyDoors && (
          <Col xs={24}>
            <DoorCard data={data} />
          </Col>
        )}
      </Row>
    </section>
  );
}

export default Dashboard;
