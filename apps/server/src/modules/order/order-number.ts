/**
 * Order numbers: the kind's prefix, the business day of the order (contract time.ts) and its id, at least six digits
 * (UC20261121000123). The id is taken from the table's sequence before the insert, so the number
 * is unique without a retry loop and readable at a glance.
 */
import { sql } from 'drizzle-orm';
import { businessDay } from '@cowork/contract';
import { orderKindOptions, type OrderKind } from '@cowork/contract/resources/order';
import { rowsOf, type Executor } from '../../db/client.ts';

export function formatOrderNo(kind: OrderKind, id: number, at: Date): string {
  const prefix = orderKindOptions.find((o) => o.value === kind)!.prefix;
  const day = businessDay(at).replaceAll('-', '');
  return `${prefix}${day}${String(id).padStart(6, '0')}`;
}

/** Reserves `count` order ids from the table's sequence (one round trip for a batch). */
export async function reserveOrderIds(tx: Executor, count: number): Promise<number[]> {
  const rows = await rowsOf<{ id: number | string }>(
    tx,
    sql`select nextval(pg_get_serial_sequence('orders', 'id')) as id from generate_series(1, ${count})`,
  );
  return rows.map((row) => Number(row.id));
}
