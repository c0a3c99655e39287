/**
 * The dashboard below its numbers: the orders of each product type, the 30-day revenue chart and
 * meeting-room utilisation by building. Its own chunk, loaded once the numbers are drawn: antd's
 * Table is most of the first screen's weight otherwise, and the list screens share it anyway.
 */
import { Card, Col, Empty, Progress, Table } from 'antd';
import { formatYuan } from '@cowork/contract';
import type { DashboardSummary, DashboardUtilisation } from '@cowork/contract/resources/dashboard';
import { orderListPathOfKind } from '@cowork/contract/resources/dashboard-links';
import type { OrderKind } from '@cowork/contract/resources/product-types';
import { RevenueChart } from '../RevenueChart.tsx';
import { BY_KIND, kindLabel, NumberLink, range, type Links, type Period } from './links.tsx';

type KindRow = DashboardSummary['orders'][number];

const hours = (minutes: number) => String(Math.round((minutes / 60) * 10) / 10);

function KindTable({ data, links }: { data: DashboardSummary; links: Links }) {
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

/** 近 30 天实收: one bar a day, one part per product type (an empty state before any payment). */
function RevenueCard({ data }: { data: DashboardSummary }) {
  const series = data.revenue.series.map((s) => ({
    key: s.kind,
    label: kindLabel(s.kind),
    values: s.paidFen,
  }));
  const anyRevenue = series.some((s) => s.values.some((v) => v > 0));
  return (
    <Card size="small" title="近 30 天实收（按产品类型）">
      {anyRevenue ? (
        <RevenueChart title="近 30 天每日实收（按产品类型）" days={data.revenue.days} series={series} />
      ) : (
        <Empty description="近 30 天暂无实收，订单支付后这里会显示每日走势。" />
      )}
    </Card>
  );
}

/** The columns of the dashboard's grid below the period numbers. */
export default function DashboardDetails({ data, links }: { data: DashboardSummary; links: Links }) {
  return (
    <>
      {data.orders.length > 0 && (
        <>
          <Col xs={24} xl={12}>
            <KindTable data={data} links={links} />
          </Col>
          <Col xs={24} xl={12}>
            <RevenueCard data={data} />
          </Col>
        </>
      )}
      {data.utilisation && (
        <Col xs={24}>
          <UtilisationCard rows={data.utilisation} month={data.month} />
        </Col>
      )}
    </>
  );
}
