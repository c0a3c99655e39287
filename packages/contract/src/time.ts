/**
 * The business time zone: the operator's calendar. Its days are the days of the date filters, the
 * dashboard, order numbers, monthly caps and shares and booking hours, and every time leaves the
 * server and shows in the console as its wall clock, whatever the browser's zone.
 *
 * One zone per process: the server takes it from BUSINESS_TIME_ZONE at start, the console from the
 * page the server sends (a `business-time-zone` meta tag). Offsets are looked up per instant, so a
 * zone with daylight saving reads right on both sides of a change.
 */
export const DEFAULT_BUSINESS_TIME_ZONE = 'Asia/Shanghai';

/** True when the runtime knows `name` as an IANA zone (`Asia/Shanghai`, `Europe/Berlin`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name.length > 0;
  } catch {
    return false;
  }
}

const wallClockFormat = (timeZone: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });

let zone = DEFAULT_BUSINESS_TIME_ZONE;
/** Made at the first time read, not at import: the sign-in page never needs it. */
let format: Intl.DateTimeFormat | undefined;
/**
 * Offsets by quarter hour of UTC: zones change offset only on a quarter hour, so one lookup serves
 * every instant in it. Bounded: cleared when it grows past a few weeks of quarter hours.
 */
const offsets = new Map<number, number>();
const QUARTER_HOUR_MS = 15 * 60_000;
const MAX_CACHED_OFFSETS = 4096;

/** Makes `name` the business time zone; throws when the runtime does not know it. */
export function setBusinessTimeZone(name: string): void {
  if (name === zone) return;
  if (!isTimeZone(name)) throw new RangeError(`Unknown time zone: ${name}`);
  zone = name;
  format = undefined;
  offsets.clear();
}

export const businessTimeZone = () => zone;

/** The zone as staff read it: 北京时间 for Asia/Shanghai, otherwise its IANA name. */
export const businessTimeZoneName = () => (zone === DEFAULT_BUSINESS_TIME_ZONE ? '北京时间' : zone);

/** Minutes the business zone is ahead of UTC at `ms` (480 for Asia/Shanghai). */
export function zoneOffsetMinutes(ms: number): number {
  const quarter = Math.floor(ms / QUARTER_HOUR_MS);
  const cached = offsets.get(quarter);
  if (cached !== undefined) return cached;
  const at = quarter * QUARTER_HOUR_MS;
  const part: Record<string, number> = {};
  format ??= wallClockFormat(zone);
  for (const { type, value } of format.formatToParts(at)) part[type] = Number(value);
  const wall = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
  const offset = Math.round((wall - at) / 60_000);
  if (offsets.size >= MAX_CACHED_OFFSETS) offsets.clear();
  offsets.set(quarter, offset);
  return offset;
}

/** The wall clock of `date` in the business zone, as `YYYY-MM-DDTHH:mm:ss.sss`. */
function wallClock(ms: number, offset: number): string {
  return new Date(ms + offset * 60_000).toISOString().slice(0, -1);
}

const offsetText = (minutes: number) => {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
};

/** ISO 8601 with the business zone's offset: `2026-11-21T09:30:00.000+08:00`. */
export function toIso(date: Date): string {
  const ms = date.getTime();
  const offset = zoneOffsetMinutes(ms);
  return `${wallClock(ms, offset)}${offsetText(offset)}`;
}

/** `2026-11-21 09:30:00`: how people read a time in the business zone. */
export function businessDateTime(date: Date | string): string {
  const ms = new Date(date).getTime();
  return wallClock(ms, zoneOffsetMinutes(ms)).slice(0, 19).replace('T', ' ');
}

/** `2026-11-21`: the business day holding `date`. */
export const businessDay = (date: Date | string) => businessDateTime(date).slice(0, 10);

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const isDayText = (value: string) => DAY_PATTERN.test(value);

/**
 * The instant a wall-clock time (`HH:mm` or `HH:mm:ss`) on a day (`YYYY-MM-DD`) is in the business
 * zone; NaN for a day that is no date. A time daylight saving skips is read with the later offset.
 */
export function businessInstant(day: string, time = '00:00'): Date {
  const wall = Date.parse(`${day}T${time.length === 5 ? `${time}:00` : time}Z`);
  if (!DAY_PATTERN.test(day) || Number.isNaN(wall)) return new Date(Number.NaN);
  const first = wall - zoneOffsetMinutes(wall) * 60_000;
  return new Date(wall - zoneOffsetMinutes(first) * 60_000);
}

/** The day `count` days after `day` (`2026-02-28`, 1 → `2026-03-01`). */
export function addDays(day: string, count: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + count * 86_400_000).toISOString().slice(0, 10);
}

export const nextDay = (day: string) => addDays(day, 1);
