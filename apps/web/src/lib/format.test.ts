import { afterEach, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { businessTimeZone, DEFAULT_BUSINESS_TIME_ZONE, setBusinessTimeZone } from '@cowork/contract';
import { adoptBusinessTimeZone } from './business-time-zone.ts';
import { dayRangeToIso, formatTime, fromBusinessTime, toBusinessTime } from './format.ts';

afterEach(() => setBusinessTimeZone(DEFAULT_BUSINESS_TIME_ZONE));

// These hold in any browser time zone: the console reads and writes Asia/Shanghai wall-clock time.
describe('business time in forms', () => {
  it('a day picked at 00:00 is 00:00 in Shanghai, shown so in the list and back in the form', () => {
    const sent = toBusinessTime(dayjs('2026-01-01T00:00:00'), 'datetime');
    expect(sent).toBe('2025-12-31T16:00:00.000Z');
    expect(formatTime(sent)).toBe('2026-01-01 00:00:00');
    expect(fromBusinessTime(sent, 'datetime')!.format('YYYY-MM-DD HH:mm')).toBe('2026-01-01 00:00');
    expect(fromBusinessTime('2026-01-01T00:00:00+08:00', 'datetime')!.format('HH:mm')).toBe('00:00');
  });

  it('dates stay dates; empty stays empty', () => {
    expect(toBusinessTime(dayjs('2026-03-05'), 'date')).toBe('2026-03-05');
    expect(fromBusinessTime('2026-03-05', 'date')!.format('YYYY-MM-DD')).toBe('2026-03-05');
    expect(toBusinessTime(null, 'datetime')).toBeNull();
    expect(fromBusinessTime('', 'datetime')).toBeNull();
  });
});

describe('the zone the server names', () => {
  const page = (zone: string) => {
    const doc = document.implementation.createHTMLDocument('console');
    doc.head.innerHTML = `<meta name="business-time-zone" content="${zone}" />`;
    return doc;
  };

  it('shows, picks and filters times in the page’s business time zone', () => {
    adoptBusinessTimeZone(page('Europe/Berlin'));
    expect(businessTimeZone()).toBe('Europe/Berlin');
    // Summer (+02:00) and winter (+01:00) in one zone.
    expect(formatTime('2026-07-01T12:00:00Z')).toBe('2026-07-01 14:00:00');
    expect(formatTime('2026-01-01T12:00:00Z')).toBe('2026-01-01 13:00:00');
    expect(toBusinessTime(dayjs('2026-07-01T00:00:00'), 'datetime')).toBe('2026-06-30T22:00:00.000Z');
    expect(fromBusinessTime('2026-06-30T22:00:00.000Z', 'datetime')!.format('YYYY-MM-DD HH:mm')).toBe(
      '2026-07-01 00:00',
    );
    expect(dayRangeToIso([dayjs('2026-01-10'), dayjs('2026-01-11')])).toEqual({
      from: '2026-01-09T23:00:00.000Z',
      to: '2026-01-11T22:59:59.999Z',
    });
  });

  it('keeps Asia/Shanghai when the page names no zone or an unknown one', () => {
    adoptBusinessTimeZone(page('Mars/Olympus'));
    adoptBusinessTimeZone(document.implementation.createHTMLDocument('bare'));
    expect(businessTimeZone()).toBe('Asia/Shanghai');
    expect(formatTime('2026-01-01T12:00:00Z')).toBe('2026-01-01 20:00:00');
  });
});
