/**
 * The product as sold, kept on each order (`productSnapshot`, written by the server's
 * modules/order/snapshot.ts, 会议卡活动 sales and the demo's seat and lounge orders): every key it may
 * hold under its Chinese label, in the order the detail drawer shows them. A key not listed here is
 * never shown, so no raw key reaches the screen; ids are kept for the system only.
 */
import { officeSeat, seatGoodsFields } from './seat.ts';
import { userCard } from './user-card.ts';

export const productSnapshotLabels = {
  name: '产品名称',
  activityTitle: '会议卡活动',
  cardType: '卡类型',
  code: '工位编号',
  seatCode: '工位编号',
  seatType: '工位类型',
  goodsName: '工位套餐',
  unit: '计价单位',
  loungeName: '贵宾厅名称',
  airportCode: '机场三字码',
  airportName: '机场名称',
  airportCity: '城市',
  city: '城市',
  terminal: '航站楼',
  supplierSku: '供应商编码',
  buildingName: '楼宇',
  floor: '楼层',
  capacity: '容纳人数',
  priceFen: '售价',
  faceValueFen: '面值',
  hourPriceFen: '每小时价格',
  validDays: '有效天数',
  times: '可用次数',
  minBookingMinutes: '最短预订时长',
  openTime: '开放时间',
  closeTime: '关闭时间',
} as const;
export type ProductSnapshotKey = keyof typeof productSnapshotLabels;

/** Keys a snapshot keeps for the system (which seat goods was sold), not shown to staff. */
export const hiddenSnapshotKeys: readonly string[] = ['goodsId'];

/** Keys whose value is an enumeration: shown by the option's label. */
export const productSnapshotOptions: Partial<
  Record<ProductSnapshotKey, readonly { value: string; label: string }[]>
> = {
  cardType: userCard.fields.cardType.options,
  seatType: officeSeat.fields.seatType.options,
  unit: seatGoodsFields.unit.options,
};

/** Units after a number, by key. */
export const productSnapshotUnits: Partial<Record<ProductSnapshotKey, string>> = {
  validDays: '天',
  times: '次',
  capacity: '人',
  minBookingMinutes: '分钟',
};

export const isProductSnapshotKey = (key: string): key is ProductSnapshotKey =>
  Object.hasOwn(productSnapshotLabels, key);
