/**
 * What the dashboard's two parts share (Dashboard.tsx, the numbers drawn first, and
 * DashboardDetails.tsx, the tables and chart loaded after them): where each number leads, and the
 * link that takes it there.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
// The schema-free modules: the dashboard's numbers show without zod's code.
import type { DashboardSummary } from '@cowork/contract/resources/dashboard';
import {
  dashboardKinds,
  dashboardLinks,
  isBuiltRoute,
  leadListPathOfKind,
  orderListPathOfKind,
} from '@cowork/contract/resources/dashboard-links';
import { siteTypeOfKind, type OrderKind } from '@cowork/contract/resources/product-types';
import { usePermission } from '../PermissionGate.tsx';

export type Period = DashboardSummary['today'];
export type LeadKind = keyof DashboardSummary['leads'];

/** Where the per-type table is: the target of totals that no single list counts. */
export const BY_KIND = 'dashboard-by-kind';

export const kindLabel = (kind: OrderKind) => dashboardKinds.find((k) => k.value === kind)?.label ?? kind;
export const range = (key: string, period: Period) => `${key}From=${period.from}&${key}To=${period.to}`;

/** A number opening its list (`#…` scrolls to the table on this page), or plain when there is none. */
export function NumberLink({ to, label, children }: { to?: string; label: string; children: ReactNode }) {
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

export function useLinks(kinds: OrderKind[]) {
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

export type Links = ReturnType<typeof useLinks>;
