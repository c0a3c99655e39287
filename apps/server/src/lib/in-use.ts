/**
 * What still uses a record, as a 409 sentence: each kind of user with its count and a name or two.
 * Modules list where a record may be referenced; `describeUsage` asks each place and words it.
 *
 * @example
 *   const users = await describeUsage(tx, [
 *     { what: '楼宇', unit: '个', table: buildings, name: buildings.name, where: holds(buildings.ruleIds, id) },
 *   ]);
 *   if (users) return `该行为项仍被${users}使用，请先在这些楼宇中取消选择，或改为下架`;
 */
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.ts';
import { orders, type orderKindValues } from '../db/schema.ts';

type OrderKind = (typeof orderKindValues)[number];

export interface UsagePlace {
  /** Chinese name of what refers to the record (工位, 会员卡). */
  what: string;
  /** Its measure word (个, 张, 位). */
  unit: string;
  table: PgTable & { id: PgColumn };
  /** The column that names one of them. */
  name: PgColumn;
  /** Which of them refer to the record. */
  where: SQL;
}

/** Rows whose id-array column holds `id`. */
export const holds = (column: PgColumn, id: number): SQL => sql`${id} = any(${column})`;

/** How many names to quote per place. */
const QUOTED = 2;

/** `工位 3 个（A01、A02 等）、楼宇负责人 1 位（张敏）`, or undefined when nothing uses the record. */
export async function describeUsage(tx: Executor, places: UsagePlace[]): Promise<string | undefined> {
  const parts: string[] = [];
  for (const place of places) {
    const [{ total }] = await tx.select({ total: count() }).from(place.table).where(place.where);
    if (total === 0) continue;
    const names = await tx
      .select({ name: place.name })
      .from(place.table)
      .where(place.where)
      .orderBy(asc(place.table.id))
      .limit(QUOTED);
    const quoted = names.map((n) => String(n.name)).join('、');
    parts.push(`${place.what} ${total} ${place.unit}（${quoted}${total > QUOTED ? ' 等' : ''}）`);
  }
  return parts.length ? parts.join('、') : undefined;
}

/**
 * A product that has been sold keeps its orders' history: it is unpublished, never removed.
 * Used as a module's `inUse` hook; `kind` is the product's order kind (its resource key).
 */
export const soldProduct =
  (kind: OrderKind, label: string) =>
  async (id: number, tx: Executor): Promise<string | undefined> => {
    const users = await describeUsage(tx, [
      {
        what: '订单',
        unit: '个',
        table: orders,
        name: orders.orderNo,
        where: and(eq(orders.kind, kind), eq(orders.productId, id))!,
      },
    ]);
    return users && `该${label}已有${users}，不能删除；请改为下架，停止销售`;
  };
