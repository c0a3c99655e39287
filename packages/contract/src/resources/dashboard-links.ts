/**
 * 首页 dashboard's addresses: its one endpoint, the console lists its numbers open and the
 * permissions each block needs, with no schema (dashboard.ts has the answer's, and exports these as
 * its own): the console's first screen imports them without zod.
 */
import { prefixes } from '../endpoints.ts';
import { menuRoutes, permissionOf } from '../routes.ts';
import { orderKindOptions, type OrderKind } from './product-types.ts';

export const dashboardEndpoints = {
  /** GET: the whole dashboard for the signed-in caller. */
  summary: `${prefixes.order}/dashboard/summary`,
} as const;

/** The console list of each kind of order (two kinds of desk share one screen). */
export const orderListPathOfKind = {
  'user-card': '/order/member',
  'team-card': '/order/meeting',
  'office-seat': '/order/seat',
  'hall-seat': '/order/seat',
  'office-station': '/order/meetingRoom',
  'activity-station': '/order/activityVenue',
  airport: '/order/airport',
} as const satisfies Record<OrderKind, string>;

/** The permission that opens a kind's order list, and with it the kind's dashboard numbers. */
export const orderViewPermissionOfKind = (kind: OrderKind) =>
  permissionOf({ path: orderListPathOfKind[kind] }, 'view');

/** The console lists the numbers link to, and the permissions their blocks need. */
export const dashboardLinks = {
  members: '/user/member',
  revenue: '/merchant/share',
  membersPermission: permissionOf({ path: '/user/member' }, 'view'),
  revenuePermission: permissionOf({ path: '/merchant/share' }, 'view'),
  utilisationPermission: permissionOf({ path: orderListPathOfKind['office-station'] }, 'view'),
  devices: '/hardware/device',
  devicesPermission: permissionOf({ path: '/hardware/device' }, 'view'),
  doorEvents: '/hardware/log',
  doorEventsPermission: permissionOf({ path: '/hardware/log' }, 'view'),
  alarms: '/hardware/alarm',
  alarmsPermission: permissionOf({ path: '/hardware/alarm' }, 'view'),
} as const;

/** The lead lists by kind (定制场地, 物业合作), whose view permission opens the kind's numbers. */
export const leadListPathOfKind = { site: '/clue/place', website: '/clue/cooperate' } as const;
export const leadViewPermissionOfKind = (kind: keyof typeof leadListPathOfKind) =>
  permissionOf({ path: leadListPathOfKind[kind] }, 'view');

/** Whether the console has built the screen at this path (links lead only to built screens). */
export const isBuiltRoute = (path: string) => menuRoutes.some((r) => r.path === path && r.built);

/** Labels of the kinds, in the order the dashboard shows them. */
export const dashboardKinds = orderKindOptions.map(({ value, label }) => ({ value, label }));
