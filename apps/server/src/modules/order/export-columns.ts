/** The columns of an order kind's Excel export (`GET {base}/export`). */
import {
  orderStatusOptions,
  payMethodOptions,
  snapshotOrderFields,
  type OrderResource,
} from '@cowork/contract/resources/order';
import type { Field } from '@cowork/contract';
import type { orders } from '../../db/schema.ts';
import { labelOf, businessTime, yuanColumn, type ExcelColumn } from '../../lib/excel-export.ts';
import { bookingTimes } from './booking.ts';

type Order = typeof orders.$inferSelect;

/**
 * The columns of an order export: the listed snapshot fields (an airport order's airport, terminal
 * and lounge) in place of the building when it is not listed, the period when it is listed; card
 * orders add the card, meeting cards their balance.
 */
export function exportColumns(resource: OrderResource): ExcelColumn<Order>[] {
  const snapshot = (order: Order) => order.productSnapshot;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const listed = (key: keyof OrderResource['fields']) => {
    const field: Field = resource.fields[key];
    return field.list !== false;
  };
  return [
    { header: '订单号', value: (o) => o.orderNo, width: 22 },
    { header: '会员手机号', value: (o) => o.memberPhone, width: 14 },
    { header: '产品', value: (o) => text(snapshot(o).name), width: 24 },
    ...snapshotOrderFields.filter(listed).map((key) => ({
      header: resource.fields[key].label,
      value: (o: Order) => text(snapshot(o)[key]),
      width: 16,
    })),
    ...(listed('buildingName')
      ? [{ header: '楼宇', value: (o: Order) => text(snapshot(o).buildingName), width: 20 }]
      : []),
    { header: '数量', value: (o) => o.quantity, width: 8 },
    // Bookings have their period as one 预订时段 column below.
    ...(listed('startAt') && !resource.booking
      ? [
          { header: '开始时间', value: (o: Order) => businessTime(o.startAt), width: 20 },
          { header: '结束时间', value: (o: Order) => businessTime(o.endAt), width: 20 },
        ]
      : []),
    yuanColumn('订单金额(元)', (o) => o.amountFen),
    yuanColumn('优惠(元)', (o) => o.discountFen),
    yuanColumn('实付(元)', (o) => o.paidFen),
    { header: '支付方式', value: (o) => labelOf(payMethodOptions, o.payMethod) },
    { header: '状态', value: (o) => labelOf(orderStatusOptions, o.status), width: 10 },
    ...(resource.booking
      ? [
          {
            header: '预订时段',
            value: (o: Order) => (o.startAt && o.endAt ? bookingTimes(o.startAt, o.endAt) : null),
            width: 26,
          },
        ]
      : []),
    { header: '推荐人手机号', value: (o) => o.referrerPhone, width: 14 },
    { header: '下单时间', value: (o) => businessTime(o.createdAt), width: 20 },
    { header: '支付时间', value: (o) => businessTime(o.paidAt), width: 20 },
    ...(resource.card
      ? [
          { header: '卡号', value: (o: Order) => o.cardNo, width: 22 },
          { header: '生效时间', value: (o: Order) => businessTime(o.validFrom), width: 20 },
          { header: '到期时间', value: (o: Order) => businessTime(o.validTo), width: 20 },
        ]
      : []),
    ...(resource.kind === 'team-card' ? [yuanColumn<Order>('余额(元)', (o) => o.balanceFen)] : []),
    { header: '备注', value: (o) => o.remark, width: 30 },
  ];
}
