/**
 * One order written straight to the table with its first status event, as the member app would
 * place it (tests of order kinds the console only reads and moves). Defaults: a paid WeChat order
 * placed 2026-03-01 10:00 Shanghai; `values` overrides any column.
 */
import { expect } from 'vitest';
import type { Page } from '@cowork/contract';
import type { OrderKind } from '@cowork/contract/resources/order';
import type { Database } from '../src/db/client.ts';
import { orderEvents, orders } from '../src/db/schema.ts';
import { formatOrderNo, reserveOrderIds } from '../src/modules/order/order-number.ts';
import { callApi, type TestApp } from './helper.ts';

export type OrderRow = typeof orders.$inferSelect;

export async function insertOrder(
  db: Database,
  values: Partial<typeof orders.$inferInsert> & {
    kind: OrderKind;
    memberId: number;
    memberPhone: string;
  },
): Promise<OrderRow> {
  const createdAt = values.createdAt ?? new Date('2026-03-01T10:00:00+08:00');
  const status = values.status ?? 'paid';
  const [id] = await reserveOrderIds(db, 1);
  const [row] = await db
    .insert(orders)
    .values({
      id,
      orderNo: formatOrderNo(values.kind, id, createdAt),
      productId: 1,
      productSnapshot: { name: '测试产品' },
      amountFen: 30000,
      discountFen: 1000,
      paidFen: status === 'pending' || status === 'cancelled' ? 0 : 29000,
      payMethod: 'wechat',
      status,
      ...values,
      createdAt,
    })
    .returning();
  await db.insert(orderEvents).values({ orderId: id, toStatus: 'pending', at: createdAt });
  return row;
}

/** The order numbers a `page` endpoint answers for these filters (up to 100), sorted. */
export async function orderNosOfPage(
  t: TestApp,
  headers: Record<string, string>,
  path: string,
  query: Record<string, string>,
): Promise<string[]> {
  const res = await callApi<Page<{ orderNo: string }>>(
    t,
    headers,
    'GET',
    `${path}?${new URLSearchParams({ size: '100', ...query })}`,
  );
  expect(res.status, res.raw).toBe(200);
  return res.body.data.records.map((r) => r.orderNo).sort();
}
