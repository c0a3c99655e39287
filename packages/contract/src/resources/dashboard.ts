/**
 * 首页 dashboard: today's and this month's orders, paid revenue and new members, a 30-day revenue
 * series by product type and meeting-room utilisation by building, all computed by the database in
 * one request. Days and months are those of the business time zone (time.ts).
 *
 * Which numbers a caller gets: only those of lists the caller may view. Orders and revenue of a
 * kind need the view permission of that kind's order list, new members that of the member list,
 * utilisation that of the meeting-room order list; the blocks of the rest are left out (empty
 * lists, null). New leads of a kind need the view permission of that kind's lead list.
 *
 * Each number counts exactly what the list it links to shows for the same period:
 * - orders of a kind: that kind's order list filtered by 下单时间 (createdAt), every status;
 * - paid revenue of a kind: 商户分账 filtered by its product type and 支付时间 (paidAt), whose
 *   实付合计 sums the same orders: status paid or used, by payment time; a refunded order is not
 *   revenue, whenever it was refunded (the rule of `sharedOrderStatuses`);
 * - new members: 会员 filtered by 注册时间 (registeredAt);
 * - new leads of a kind: 定制场地 / 物业合作 filtered by 创建时间 (createdAt), every status.
 */
import { z } from 'zod';
import { valuesOf } from '../validators.ts';
import { orderKindOptions } from './product-types.ts';

export * from './dashboard-links.ts';

const count = z.number().int().nonnegative();
const fen = z.number().int();
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** A period as business days, both ends included (the lists' date-range filter). */
const period = z.object({ from: day, to: day });

const kindEnum = z.enum(valuesOf(orderKindOptions));

const utilisation = z.object({
  /** Minutes of bookings (paid or used) of the building's published rooms inside the period. */
  bookedMinutes: count,
  /** Minutes the published rooms are open in the period: each room's daily hours × days. */
  openMinutes: count,
  /** bookedMinutes ÷ openMinutes × 100, one decimal; 0 when nothing is open. */
  percent: z.number().nonnegative(),
});

export const dashboardSummary = z.object({
  today: period,
  /** The whole calendar month of today. */
  month: period,
  /** Orders created and revenue paid, per kind the caller may view (every such kind, zeros too). */
  orders: z.array(
    z.object({
      kind: kindEnum,
      todayCount: count,
      monthCount: count,
      todayPaidFen: fen,
      monthPaidFen: fen,
    }),
  ),
  /** Members registered; null when the caller may not view the member list. */
  members: z.object({ today: count, month: count }).nullable(),
  /** Leads created, per kind; a kind is null when the caller may not view its list. */
  leads: z.object({
    site: z.object({ today: count, month: count }).nullable(),
    website: z.object({ today: count, month: count }).nullable(),
  }),
  /** The last 30 days up to today, oldest first, and the revenue of each day per kind (fen). */
  revenue: z.object({
    days: z.array(day),
    series: z.array(z.object({ kind: kindEnum, paidFen: z.array(fen) })),
  }),
  /** Door devices online and offline now; null without 设备管理's view permission. */
  devices: z.object({ online: count, offline: count }).nullable(),
  /** Door events today (success and denied); null without 开门记录's view permission. */
  doorEvents: z.object({ success: count, denied: count }).nullable(),
  /** Alarms open now (raised, neither cleared nor acknowledged); null without 告警记录's view permission. */
  alarms: z.object({ open: count }).nullable(),
  /** Meeting rooms by building (buildings with published rooms); null without the permission. */
  utilisation: z
    .array(
      z.object({
        buildingId: z.number().int(),
        buildingName: z.string(),
        rooms: count,
        today: utilisation,
        month: utilisation,
      }),
    )
    .nullable(),
});
export type DashboardSummary = z.infer<typeof dashboardSummary>;
export type DashboardUtilisation = z.infer<typeof utilisation>;
