/**
 * Times leave the server as ISO 8601 with the Asia/Shanghai offset (+08:00; China has no daylight
 * saving), so what a person reads in a raw answer matches what the console shows.
 */
const SHANGHAI_OFFSET_MINUTES = 8 * 60;

export function toIso(date: Date): string {
  const shifted = new Date(date.getTime() + SHANGHAI_OFFSET_MINUTES * 60_000);
  return `${shifted.toISOString().slice(0, -1)}+08:00`;
}

/** Times (Date) as they leave: a row's dates as ISO strings with the Shanghai offset, in one pass. */
export type WithIsoTimes<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

export function withIsoTimes<T extends object>(row: T): WithIsoTimes<T> {
  const out: Record<string, unknown> = {};
  for (const key in row) {
    const value: unknown = row[key];
    out[key] = value instanceof Date ? toIso(value) : value;
  }
  return out as WithIsoTimes<T>;
}

export const toIsoOrNull = (date: Date | null | undefined) => (date ? toIso(date) : null);

/**
 * Reads a filter bound: a full ISO time, or a date (`2025-01-31`) taken as that day in Shanghai;
 * `endOfDay` moves a date to the start of the next day so `to` includes the whole day.
 */
export function parseTimeBound(value: string, endOfDay: boolean): Date | undefined {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const parsed = new Date(dateOnly ? `${value}T00:00:00+08:00` : value);
  if (Number.isNaN(parsed.getTime())) return undefined;
  if (dateOnly && endOfDay) parsed.setTime(parsed.getTime() + 24 * 60 * 60 * 1000);
  return parsed;
}
