/**
 * Times leave the server as ISO 8601 with the business time zone's offset (contract time.ts), so
 * what a person reads in a raw answer matches what the console shows.
 */
import { businessInstant, isDayText, nextDay, toIso } from '@cowork/contract';

export { toIso };

/** Times (Date) as they leave: a row's dates as ISO strings with the business zone's offset, in one pass. */
export type WithIsoTimes<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

export function withIsoTimes<T extends object>(row: T): WithIsoTimes<T>;
// Each of the row's own keys is copied, a Date as its ISO text: the WithIsoTimes of the row.
export function withIsoTimes(row: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const entries: [string, unknown][] = Object.entries(row);
  for (const [key, value] of entries) out[key] = value instanceof Date ? toIso(value) : value;
  return out;
}

export const toIsoOrNull = (date: Date | null | undefined) => (date ? toIso(date) : null);

/**
 * Reads a filter bound: a full ISO time, or a date (`2025-01-31`) taken as that day in the business
 * zone; `endOfDay` moves a date to the start of the next day so `to` includes the whole day.
 */
export function parseTimeBound(value: string, endOfDay: boolean): Date | undefined {
  const parsed = isDayText(value) ? businessInstant(endOfDay ? nextDay(value) : value) : new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}
