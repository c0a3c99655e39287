import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Times are shown in China Standard Time whatever the browser's zone (docs/api.md: times). */
export const DISPLAY_TIME_ZONE = 'Asia/Shanghai';

/** `2025-01-31 09:05:00` in Asia/Shanghai, or — when there is no valid time. */
export function formatTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const time = dayjs(value);
  return time.isValid() ? time.tz(DISPLAY_TIME_ZONE).format('YYYY-MM-DD HH:mm:ss') : '—';
}

/**
 * A stored moment as a date picker shows it: the wall-clock time in Asia/Shanghai, whatever the
 * browser's zone, so the form reads 00:00 where the list does.
 */
export function fromBusinessTime(value: unknown, kind: 'date' | 'datetime'): Dayjs | null {
  if (typeof value !== 'string' || value === '') return null;
  if (kind === 'date') return dayjs(value);
  const moment = dayjs(value).tz(DISPLAY_TIME_ZONE);
  return moment.isValid() ? dayjs(moment.format('YYYY-MM-DDTHH:mm:ss')) : null;
}

/** A picked day (and time) as the value to send: the date, or that wall-clock time in Asia/Shanghai. */
export function toBusinessTime(picked: Dayjs | null, kind: 'date' | 'datetime'): string | null {
  if (!picked) return null;
  if (kind === 'date') return picked.format('YYYY-MM-DD');
  return dayjs.tz(picked.format('YYYY-MM-DD HH:mm:ss'), DISPLAY_TIME_ZONE).toISOString();
}

/**
 * A picked date range as ISO instants: from the start of the first day to the end of the last,
 * both days taken in Asia/Shanghai.
 */
export function dayRangeToIso(range: [Dayjs, Dayjs] | null | undefined): { from?: string; to?: string } {
  if (!range?.[0] || !range[1]) return {};
  const from = dayjs.tz(`${range[0].format('YYYY-MM-DD')} 00:00:00.000`, DISPLAY_TIME_ZONE);
  const to = dayjs.tz(`${range[1].format('YYYY-MM-DD')} 23:59:59.999`, DISPLAY_TIME_ZONE);
  return { from: from.toISOString(), to: to.toISOString() };
}

/**
 * The day a date filter bound names, for a date picker: a date (`2025-01-31`, as links write it)
 * as that day, an instant (`…T15:59:59.999Z`, as a search sends it) as its day in Asia/Shanghai.
 */
export function dayOfBound(value: unknown): Dayjs | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? dayjs(value) : dayjs(value).tz(DISPLAY_TIME_ZONE);
  return day.isValid() ? day : undefined;
}
