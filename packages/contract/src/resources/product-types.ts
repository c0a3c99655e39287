/**
 * The kinds of order and the product types of 分账 as plain lists, with no schema: the console's
 * first screen (首页's numbers, named and linked by kind) imports them without zod, and order.ts,
 * merchant-share.ts and merchant-share-order.ts export them as their own.
 */

/** Kinds of order with the prefix of their order numbers (UC20261121000123). */
export const orderKindOptions = [
  { value: 'user-card', label: '会员卡', prefix: 'UC' },
  { value: 'team-card', label: '会议卡', prefix: 'TC' },
  { value: 'office-seat', label: '办公室工位', prefix: 'OS' },
  { value: 'hall-seat', label: '大厅工位', prefix: 'HS' },
  { value: 'office-station', label: '会议室', prefix: 'MR' },
  { value: 'activity-station', label: '活动场地', prefix: 'AV' },
  { value: 'airport', label: '机场贵宾厅', prefix: 'AP' },
] as const;
export type OrderKind = (typeof orderKindOptions)[number]['value'];

/** The product types sales are shared on (values of `siteTypeValues` in the server's schema). */
export const siteTypeOptions = [
  { value: 'member-card', label: '会员卡' },
  { value: 'meeting-card', label: '会议卡' },
  { value: 'office-seat', label: '办公区工位' },
  { value: 'hall-seat', label: '大厅工位' },
  { value: 'meeting-room', label: '会议室' },
  { value: 'activity-venue', label: '活动场地' },
  { value: 'airport', label: '机场贵宾厅' },
] as const;
export type SiteType = (typeof siteTypeOptions)[number]['value'];

/** The product type whose 分账规则 applies to each kind of order: the one place that maps them. */
export const siteTypeOfKind = {
  'user-card': 'member-card',
  'team-card': 'meeting-card',
  'office-seat': 'office-seat',
  'hall-seat': 'hall-seat',
  'office-station': 'meeting-room',
  'activity-station': 'activity-venue',
  airport: 'airport',
} as const satisfies Record<OrderKind, SiteType>;
