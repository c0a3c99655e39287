/**
 * The demo's building blocks: a seeded generator (the same demo on every start), times in the
 * business time zone, and a fast multi-row insert.
 */
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { businessDateTime, businessDay, businessInstant } from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { propertyOf } from '../../lib/unknown.ts';

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const MINUTE = 60_000;

/** mulberry32: the same demo on every start. */
export function generator(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
export type Random = ReturnType<typeof generator>;

export const tools = (random: Random) => ({
  pick: <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)],
  /** A whole number from `min` to `max`, both included. */
  int: (min: number, max: number) => min + Math.floor(random() * (max - min + 1)),
  chance: (p: number) => random() < p,
});

/** The business day (contract time.ts) holding `at`. */
export const dayOf = (at: number) => businessDay(new Date(at));
export const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};
/** The instant `minutes` after midnight of a business day. */
export const atMinute = (day: string, minutes: number) =>
  businessInstant(day, new Date(minutes * MINUTE).toISOString().slice(11, 16)).getTime();
/** `at` plus whole calendar months, counted in the business time zone. */
export function addMonths(at: number, months: number) {
  const [day, time] = businessDateTime(new Date(at)).split(' ');
  const moved = new Date(`${day}T00:00:00Z`);
  moved.setUTCMonth(moved.getUTCMonth() + months);
  return businessInstant(moved.toISOString().slice(0, 10), time).getTime();
}

/**
 * One multi-row INSERT of `rows` handed over as a single JSON parameter (jsonb_to_recordset):
 * several times faster than a statement with a parameter per value, whose building alone takes
 * longer than PGlite takes to store the rows.
 */
export async function insertRows<T extends PgTable>(tx: Executor, table: T, rows: T['$inferInsert'][]) {
  if (rows.length === 0) return;
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const columns = getTableColumns(table);
  const defined = keys.map((key) => {
    const column = columns[key];
    return { key, name: column.name, type: column.getSQLType().replace(/^serial$/, 'integer') };
  });
  const records = rows.map((row) =>
    Object.fromEntries(defined.map(({ key, name }) => [name, propertyOf(row, key) ?? null])),
  );
  const names = sql.raw(defined.map((c) => `"${c.name}"`).join(', '));
  const types = sql.raw(defined.map((c) => `"${c.name}" ${c.type}`).join(', '));
  await tx.execute(
    sql`insert into ${sql.identifier(getTableName(table))} (${names}) select ${names} from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(${types})`,
  );
}
