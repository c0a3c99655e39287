/**
 * 首页 dashboard: today's and this month's orders, paid revenue, new members and new leads, the orders of each
 * product type, a 30-day revenue chart and meeting-room utilisation by building, from one call
 * (dashboard/summary). The server sends only the blocks of lists the user may view.
 *
 * Every number opens the list it counts, filtered to the same period: orders → the kind's order
 * list by 下单时间, revenue → 商户分账 by product type and 支付时间 (its 实付合计 is the number),
 * new members → 会员 by 注册时间, new leads of a kind → 定制场地 / 物业合作 by 创建时间. A total over several lists opens the per-type table instead; a
 * number whose list the user cannot open (or which is not built yet) is shown without a link.
 * Loaded on its own (lazily) so the console shell after sign-in stays small; the tables and the
 * chart (DashboardDetails.tsx) load after the numbers are drawn.
 */
import { Fragment, lazy, Suspense, useDeferredValue, type ReactNode } from 'react';
import { Alert, Button, Col, Row, Skeleton, Statistic } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { formatYuan } from '@cowork/contract';
import type { DashboardSummary } from '@cowork/contract/resources/dashboard';
import { dashboardLinks } from '@cowork/contract/resources/dashboard-links';
import { NumberLink, useLinks, type LeadKind, type Links, type Period } from './links.tsx';
import { summaryQuery } from './summary-query.ts';
import './dashboard.css';

const DashboardDetails = lazy(() => import('./DashboardDetails.tsx'));

/** The lead kinds as the cards name them; one number per kind, so each equals its list's total. */
const leadKinds: { kind: LeadKind; label: string }[] = [
  { kind: 'site', label: '定制场地' },
  { kind: 'website', label: '物业合作' },
];

/**
 * A card of numbers, drawn as antd's small Card (dashboard.css). Not Card itself: its code brings
 * antd's Tabs (a card's tab list) to the first screen, some 13 KB of the budget.
 */
function NumbersCard({ title, extra, children }: { title: string; extra?: ReactNode; children: ReactNode }) {
  return (
    <div className="dashboard-card">
      <div className="dashboard-card-head">
        <div className="dashboard-card-title">{title}</div>
        {extra}
      </div>
      <div className="dashboard-card-body">{children}</div>
    </div>
  );
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
  links: Links;
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
    <NumbersCard
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
    </NumbersCard>
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
    <NumbersCard title="门禁">
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
    </NumbersCard>
  );
}

export function Dashboard() {
  const summary = useQuery(summaryQuery);
  const kinds = summary.data?.orders.map((o) => o.kind) ?? [];
  const links = useLinks(kinds);
  // The period numbers draw first, the table, chart and cards below them in the pass right after
  // (which asks for their code): on a slow machine the numbers show a moment sooner.
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
  return (
    <section className="dashboard" aria-label="经营概览">
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <PeriodCard name="今日" period={data.today} data={data} links={links} />
        </Col>
        <Col xs={24} xl={12}>
          <PeriodCard name="本月" period={data.month} data={data} links={links} />
        </Col>
        {full && (data.orders.length > 0 || data.utilisation) && (
          <Suspense
            fallback={
              <Col xs={24}>
                <Skeleton active paragraph={{ rows: 6 }} />
              </Col>
            }
          >
            <DashboardDetails data={data} links={links} />
          </Suspense>
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
