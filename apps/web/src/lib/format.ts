import dayjs, { type Dayjs } from 'dayjs';
import { businessTimeZone } from '@cowork/contract';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';

dayjs.extend(utc);
dayjs.extend(timezone);

// Times are shown in the business time zone whatever the browser's (contract time.ts; the page
// names it: lib/business-time-zone.ts).

/** `2025-01-31 09:05:00` in the business time zone, or — when there is no valid time. */
export function formatTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const time = dayjs(value);
  return time.isValid() ? time.tz(businessTimeZone()).format('YYYY-MM-DD HH:mm:ss') : '—';
}

/**
 * A stored moment as a date picker shows it: the wall-clock time in the business zone, whatever the
 * browser's zone, so the form reads 00:00 where the list does.
 */
export function fromBusinessTime(value: unknown, kind: 'date' | 'datetime'): Dayjs | null {
  if (typeof value !== 'string' || value === '') return null;
  if (kind === 'date') return dayjs(value);
  const moment = dayjs(value).tz(businessTimeZone());
  return moment.isValid() ? dayjs(moment.format('YYYY-MM-DDTHH:mm:ss')) : null;
}

/** A picked day (and time) as the value to send: the date, or that wall-clock time in the business zone. */
export function toBusinessTime(picked: Dayjs | null, kind: 'date' | 'datetime'): string | null {
  if (!picked) return null;
  if (kind === 'date') return picked.format('YYYY-MM-DD');
  return dayjs.tz(picked.format('YYYY-MM-DD HH:mm:ss'), businessTimeZone()).toISOString();
}

/**
 * A picked date range as ISO instants: from the start of the first day to the end of the last,
 * both days taken in the business time zone.
 */
export function dayRangeToIso(range: [Dayjs, Dayjs] | null | undefined): { from?: string; to?: string } {
  if (!range?.[0] || !range[1]) return {};
  const from = dayjs.tz(`${range[0].format('YYYY-MM-DD')} 00:00:00.000`, businessTimeZone());
  const to = dayjs.tz(`${range[1].format('YYYY-MM-DD')} 23:59:59.999`, businessTimeZone());
  return { from: from.toISOString(), to: to.toISOString() };
}

/**
 * The day a date filter bound names, for a date picker: a date (`2025-01-31`, as links write it)
 * as that day, an instant (`…T15:59:59.999Z`, as a search sends it) as its business day.
 */
export function dayOfBound(value: unknown): Dayjs | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? dayjs(value) : dayjs(value).tz(businessTimeZone());
  return day.isValid() ? day : undefined;
}
