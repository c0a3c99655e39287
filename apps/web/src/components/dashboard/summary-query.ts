/**
 * The dashboard's one request, shared by the Dashboard and by 首页, which starts it as soon as its
 * own code loads (beside the layout's user info and menu) instead of after the lazy Dashboard.
 */
import type { DashboardSummary } from '@cowork/contract/resources/dashboard';
import { dashboardEndpoints } from '@cowork/contract/resources/dashboard-links';
import { api } from '../../lib/request.ts';

export const summaryQuery = {
  queryKey: ['dashboard', 'summary'],
  queryFn: () => api.get<DashboardSummary>(dashboardEndpoints.summary),
};
