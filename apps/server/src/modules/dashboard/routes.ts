/**
 * 首页 dashboard: `GET dashboard/summary`, every number an aggregate the database computes (a few
 * GROUP BY / FILTER queries run together; no order or member rows reach Node).
 *
 * Periods are days of the business time zone (contract time.ts): `bounds` takes now() in that zone
 * and turns the local midnights of today, tomorrow, this month and next month back into instants, so
 * the day and month edges are the same ones the lists use for a date filter (a date means that day
 * in the business zone).
 *
 * Access: any signed-in user may call it (the home page is everyone's), and each block is computed
 * only from lists the caller may view: a kind's orders and revenue need that kind's order-list view
 * permission, new members the member list's, new leads of a kind that kind's lead list's,
 * utilisation the meeting-room order list's. What the
 * caller may not view is neither computed nor sent.
 *
 * Revenue is the rule of 商户分账 (`sharedOrderStatuses`): paid_fen of orders paid in the period
 * (paid_at) whose status is paid or used. A refunded order counts in no period, so a refund is not
 * subtracted from the day it happened; it takes the order out of the day it was paid.
 */
import { sql } from 'drizzle-orm';
import { businessTimeZone } from '@cowork/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dashboardEndpoints,
  dashboardLinks,
  dashboardSummary,
  leadViewPermissionOfKind,
  orderViewPermissionOfKind,
  type DashboardSummary,
  type DashboardUtilisation,
} from '@cowork/contract/resources/dashboard';
import { sharedOrderStatuses } from '@cowork/contract/resources/merchant-share-order';
import { orderKindOptions, type OrderKind } from '@cowork/contract/resources/order';
import { rowsOf, type Database } from '../../db/client.ts';
import { csrCapitalSites, csrCapitalWebsites } from '../../db/schema.ts';
import { envelope, ok } from '../../lib/http.ts';
import { currentUser, hasPermission } from '../../plugins/auth.ts';

/** Days of the revenue series, today included. */
const SERIES_DAYS = 30;
/** From the first day of the series to today (a constant, written into the SQL). */
const seriesSpan = sql.raw(`interval '${SERIES_DAYS - 1} days'`);

/** Local midnights (business time zone) and the instants they are, for today and this month. */
const bounds = () => {
  const zone = sql`${businessTimeZone()}::text`;
  return sql`bounds as (
  select local_day, local_month,
    local_day at time zone ${zone} as day_start,
    (local_day + interval '1 day') at time zone ${zone} as day_end,
    local_month at time zone ${zone} as month_start,
    (local_month + interval '1 month') at time zone ${zone} as month_end,
    extract(day from local_month + interval '1 month' - interval '1 day')::int as month_days
  from (
    select date_trunc('day', now() at time zone ${zone}) as local_day,
      date_trunc('month', now() at time zone ${zone}) as local_month
  ) clock
)`;
};

/** The statuses whose paid_fen is revenue, as an SQL list. */
const revenueStatuses = sql.join(
  sharedOrderStatuses.map((status) => sql`${status}`),
  sql`, `,
);

/** The kinds as a one-column relation `kinds(kind)` (empty when the caller may view none). */
const kindsRelation = (kinds: OrderKind[]) =>
  kinds.length === 0
    ? sql`kinds as (select null::text as kind where false)`
    : sql`kinds(kind) as (values ${sql.join(
        kinds.map((kind) => sql`(${kind}::text)`),
        sql`, `,
      )})`;

/** A row of the summary's statements: counts and sums as the driver gives them (text or number). */
type Row = Record<string, unknown>;

/** Today, this month and, when the caller may view members, the members registered in each. */
async function periods(db: Database, withMembers: boolean) {
  const [row] = await rowsOf<Row>(
    db,
    sql`with ${bounds()}
      select to_char(local_day, 'YYYY-MM-DD') as today,
        to_char(local_month, 'YYYY-MM-DD') as month_from,
        to_char(local_month + interval '1 month' - interval '1 day', 'YYYY-MM-DD') as month_to,
        ${withMembers ? sql`mc.today as members_today, mc.month as members_month` : sql`null as members_today, null as members_month`}
      from bounds b
      ${
        withMembers
          ? sql`cross join lateral (
              select count(*) filter (where m.registered_at >= b.day_start and m.registered_at < b.day_end) as today,
                count(*) as month
              from members m
              where m.registered_at >= b.month_start and m.registered_at < b.month_end
            ) mc`
          : sql``
      }`,
  );
  return {
    today: { from: String(row.today), to: String(row.today) },
    month: { from: String(row.month_from), to: String(row.month_to) },
    members: withMembers ? { today: Number(row.members_today), month: Number(row.members_month) } : null,
  };
}

type LeadCounts = DashboardSummary['leads']['site'];

/** Leads of one kind created today and this month (any status), as the list's 创建时间 filter counts them. */
async function leadsCreated(db: Database, table: typeof csrCapitalSites | typeof csrCapitalWebsites) {
  const [row] = await rowsOf<Row>(
    db,
    sql`with ${bounds()}
      select count(*) filter (where l.created_at >= b.day_start and l.created_at < b.day_end) as today,
        count(*) as month
      from ${table} l cross join bounds b
      where l.created_at >= b.month_start and l.created_at < b.month_end`,
  );
  return { today: Number(row.today), month: Number(row.month) } satisfies LeadCounts;
}

/**
 * Per kind: orders created today and this month (any status), revenue paid today and this month, and
 * the revenue of each of the last 30 days, from order_day_totals (one row per day and kind, kept by
 * triggers on orders): some thirty rows per kind, however many orders there are. Days without
 * revenue are 0.
 */
async function ordersAndRevenue(
  db: Database,
  kinds: OrderKind[],
): Promise<Pick<DashboardSummary, 'orders' | 'revenue'>> {
  const [created, paidByDay] = await Promise.all([
    kinds.length === 0
      ? Promise.resolve([])
      : rowsOf<Row>(
          db,
          sql`with ${bounds()}, ${kindsRelation(kinds)}
            select t.kind,
              coalesce(sum(t.created_count) filter (where t.day = b.local_day::date), 0) as today_count,
              sum(t.created_count) as month_count
            from order_day_totals t cross join bounds b
            where t.kind in (select kind from kinds)
              and t.day >= b.local_month::date and t.day < (b.local_month + interval '1 month')::date
            group by t.kind`,
        ),
    rowsOf<Row>(
      db,
      sql`with ${bounds()}, ${kindsRelation(kinds)},
        first as (select least(local_day - ${seriesSpan}, local_month) as day from bounds),
        days as (
          select generate_series(f.day, b.local_day, interval '1 day') as day from first f cross join bounds b
        ),
        paid as (
          select t.day, t.kind, t.paid_fen as fen
          from order_day_totals t cross join bounds b cross join first f
          where t.day >= f.day::date and t.day <= b.local_day::date and t.kind in (select kind from kinds)
        )
        select to_char(d.day, 'YYYY-MM-DD') as day, k.kind, coalesce(p.fen, 0) as fen,
          d.day >= b.local_day - ${seriesSpan} as in_series, d.day >= b.local_month as in_month,
          d.day = b.local_day as is_today
        from days d
        cross join bounds b
        left join kinds k on true
        left join paid p on p.day = d.day::date and p.kind = k.kind
        order by d.day`,
    ),
  ]);
  const createdOf = new Map(created.map((row) => [row.kind, row]));
  const orders = kinds.map((kind) => {
    const counts = createdOf.get(kind);
    const paid = paidByDay.filter((row) => row.kind === kind);
    const sum = (rows: Row[]) => rows.reduce((total, row) => total + Number(row.fen), 0);
    return {
      kind,
      todayCount: Number(counts?.today_count ?? 0),
      monthCount: Number(counts?.month_count ?? 0),
      todayPaidFen: sum(paid.filter((row) => row.is_today)),
      monthPaidFen: sum(paid.filter((row) => row.in_month)),
    };
  });
  const seriesRows = paidByDay.filter((row) => row.in_series);
  const days = [...new Set(seriesRows.map((row) => String(row.day)))];
  const series = kinds.map((kind) => {
    const byDay = new Map(
      seriesRows.filter((row) => row.kind === kind).map((row) => [String(row.day), Number(row.fen)]),
    );
    return { kind, paidFen: days.map((day) => byDay.get(day) ?? 0) };
  });
  return { orders, revenue: { days, series } };
}

/**
 * Meeting rooms (published office stations) by building: minutes booked by paid or used bookings
 * of those rooms, clipped to the period, against the minutes the rooms are open in it (each room's
 * daily opening hours × the period's days: 1 for today, the month's length for this month).
 */
async function utilisationByBuilding(db: Database): Promise<NonNullable<DashboardSummary['utilisation']>> {
  const rows = await rowsOf<Row>(
    db,
    sql`with ${bounds()},
      rooms as (
        select s.id, s.building_id,
          (extract(epoch from (s.close_time::time - s.open_time::time)) / 60)::int as open_minutes
        from office_stations s
        where s.published
      ),
      booked as (
        select r.building_id,
          coalesce(sum(extract(epoch from least(o.end_at, b.day_end) - greatest(o.start_at, b.day_start))::numeric / 60)
            filter (where o.start_at < b.day_end and o.end_at > b.day_start), 0) as today,
          coalesce(sum(extract(epoch from least(o.end_at, b.month_end) - greatest(o.start_at, b.month_start))::numeric / 60), 0)
            as month
        from orders o
        join rooms r on r.id = o.product_id
        cross join bounds b
        where o.kind = 'office-station' and o.status in (${revenueStatuses})
          and o.start_at < b.month_end and o.end_at > b.month_start
          -- A meeting room is booked within one day (order/booking.ts), so no booking that reaches
          -- into the month starts more than a day before it: the range orders_kind_start_idx walks.
          and o.start_at >= b.month_start - interval '1 day'
        group by r.building_id
      ),
      totals as (
        select bu.id, bu.name, bu.sort, count(r.id) as rooms,
          sum(r.open_minutes) as open_today,
          sum(r.open_minutes) * max(b.month_days) as open_month,
          round(coalesce(max(bk.today), 0)) as booked_today,
          round(coalesce(max(bk.month), 0)) as booked_month
        from rooms r
        join buildings bu on bu.id = r.building_id
        cross join bounds b
        left join booked bk on bk.building_id = r.building_id
        group by bu.id, bu.name, bu.sort
      )
      select id, name, rooms, open_today, open_month, booked_today, booked_month,
        coalesce(round((booked_today * 100.0 / nullif(open_today, 0))::numeric, 1), 0) as percent_today,
        coalesce(round((booked_month * 100.0 / nullif(open_month, 0))::numeric, 1), 0) as percent_month
      from totals
      order by sort, id`,
  );
  const share = (booked: unknown, open: unknown, percent: unknown): DashboardUtilisation => ({
    bookedMinutes: Number(booked),
    openMinutes: Number(open),
    percent: Number(percent),
  });
  return rows.map((row) => ({
    buildingId: Number(row.id),
    buildingName: String(row.name),
    rooms: Number(row.rooms),
    today: share(row.booked_today, row.open_today, row.percent_today),
    month: share(row.booked_month, row.open_month, row.percent_month),
  }));
}

/** Door devices online and offline now. */
async function deviceCounts(db: Database) {
  const [row] = await rowsOf<Row>(
    db,
    sql`select count(*) filter (where status = 'online') as online,
      count(*) filter (where status <> 'online') as offline from devices`,
  );
  return { online: Number(row.online), offline: Number(row.offline) };
}

/** Today's door events (business day), by result: what 开门记录 shows filtered to today. */
async function doorEventsToday(db: Database) {
  const [row] = await rowsOf<Row>(
    db,
    sql`with ${bounds()}
      select count(*) filter (where l.result = 'success') as success,
        count(*) filter (where l.result = 'denied') as denied
      from bounds b join device_open_logs l on l.at >= b.day_start and l.at < b.day_end`,
  );
  return { success: Number(row.success), denied: Number(row.denied) };
}

/** Alarms open now: what 告警记录 lists filtered to 未处理. */
async function openAlarms(db: Database) {
  const [row] = await rowsOf<Row>(db, sql`select count(*) as open from device_alarms where state = 'open'`);
  return { open: Number(row.open) };
}

const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    dashboardEndpoints.summary,
    {
      // Everyone's home page; the handler leaves out what the caller may not view.
      config: { auth: true },
      schema: {
        tags: ['dashboard'],
        summary: '首页数据：今日与本月的订单、实收、新增会员与线索，近 30 天实收走势与会议室使用率',
        response: { 200: envelope(dashboardSummary) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const kinds = orderKindOptions
        .map((o) => o.value)
        .filter((kind) => hasPermission(user, orderViewPermissionOfKind(kind)));
      const leadsOf = (kind: 'site' | 'website', table: Parameters<typeof leadsCreated>[1]) =>
        hasPermission(user, leadViewPermissionOfKind(kind))
          ? leadsCreated(app.db, table)
          : Promise.resolve(null);
      const allowed = <T>(permission: string, read: () => Promise<T>) =>
        hasPermission(user, permission) ? read() : Promise.resolve(null);
      const [period, { orders, revenue }, utilisation, site, website, devices, doorEvents, alarms] =
        await Promise.all([
          periods(app.db, hasPermission(user, dashboardLinks.membersPermission)),
          ordersAndRevenue(app.db, kinds),
          hasPermission(user, dashboardLinks.utilisationPermission)
            ? utilisationByBuilding(app.db)
            : Promise.resolve(null),
          leadsOf('site', csrCapitalSites),
          leadsOf('website', csrCapitalWebsites),
          allowed(dashboardLinks.devicesPermission, () => deviceCounts(app.db)),
          allowed(dashboardLinks.doorEventsPermission, () => doorEventsToday(app.db)),
          allowed(dashboardLinks.alarmsPermission, () => openAlarms(app.db)),
        ]);
      const leads = { site, website };
      return ok({
        ...period,
        orders,
        revenue,
        utilisation,
        leads,
        devices,
        doorEvents,
        alarms,
      } satisfies DashboardSummary);
    },
  );
};

export default dashboardRoutes;
