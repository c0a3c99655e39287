/**
 * The business time zone the server names in the page (a `business-time-zone` meta tag, filled by
 * apps/server/src/plugins/web.ts), adopted once before the console draws: every time then shows in
 * it (contract time.ts). Kept apart from format.ts so the first script loads no dayjs.
 */
import { businessTimeZone, isTimeZone, setBusinessTimeZone } from '@cowork/contract';

export function adoptBusinessTimeZone(page: Pick<Document, 'querySelector'> = document) {
  const zone = page.querySelector<HTMLMetaElement>('meta[name="business-time-zone"]')?.content;
  if (zone && (zone === businessTimeZone() || isTimeZone(zone))) setBusinessTimeZone(zone);
}
