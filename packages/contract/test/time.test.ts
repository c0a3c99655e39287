import { afterEach, describe, expect, it } from 'vitest';
import {
  addDays,
  businessDateTime,
  businessDay,
  businessInstant,
  businessTimeZone,
  businessTimeZoneName,
  DEFAULT_BUSINESS_TIME_ZONE,
  isTimeZone,
  toIso,
  setBusinessTimeZone,
  zoneOffsetMinutes,
} from '../src/index.ts';

afterEach(() => setBusinessTimeZone(DEFAULT_BUSINESS_TIME_ZONE));

describe('business time zone', () => {
  it('is Asia/Shanghai unless set, named 北京时间', () => {
    expect(businessTimeZone()).toBe('Asia/Shanghai');
    expect(businessTimeZoneName()).toBe('北京时间');
    expect(toIso(new Date('2026-01-31T16:05:00Z'))).toBe('2026-02-01T00:05:00.000+08:00');
    expect(businessDay(new Date('2026-01-31T16:05:00Z'))).toBe('2026-02-01');
    expect(businessInstant('2026-02-01').toISOString()).toBe('2026-01-31T16:00:00.000Z');
  });

  it('knows IANA zones and refuses anything else', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(() => setBusinessTimeZone('Mars/Olympus')).toThrow(/Unknown time zone/);
    expect(businessTimeZone()).toBe('Asia/Shanghai');
  });

  it('follows daylight saving: each instant with the offset it had', () => {
    setBusinessTimeZone('America/New_York');
    expect(businessTimeZoneName()).toBe('America/New_York');
    expect(toIso(new Date('2026-01-15T12:00:00Z'))).toBe('2026-01-15T07:00:00.000-05:00');
    expect(toIso(new Date('2026-07-15T12:00:00Z'))).toBe('2026-07-15T08:00:00.000-04:00');
    // 2026-03-08 02:00 EST became 03:00 EDT (07:00Z): the minute before and the minute of the change.
    expect(toIso(new Date('2026-03-08T06:59:00Z'))).toBe('2026-03-08T01:59:00.000-05:00');
    expect(toIso(new Date('2026-03-08T07:00:00Z'))).toBe('2026-03-08T03:00:00.000-04:00');
    expect(businessInstant('2026-03-08').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(businessInstant('2026-03-09').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(businessInstant('2026-11-01', '12:30').toISOString()).toBe('2026-11-01T17:30:00.000Z');
    expect(businessDateTime('2026-03-08T04:59:59Z')).toBe('2026-03-07 23:59:59');
  });

  it('reads zones off the whole hour, and answers the same as Intl does', () => {
    setBusinessTimeZone('Asia/Kathmandu');
    expect(zoneOffsetMinutes(Date.parse('2026-05-01T00:00:00Z'))).toBe(345);
    expect(toIso(new Date('2026-05-01T00:00:00Z'))).toBe('2026-05-01T05:45:00.000+05:45');
    setBusinessTimeZone('Europe/Berlin');
    const formatter = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Berlin',
      dateStyle: 'short',
      timeStyle: 'medium',
    });
    // Every 7 hours 13 minutes through two years: the wall clock matches Intl's.
    for (
      let ms = Date.parse('2025-01-01T00:00:00Z');
      ms < Date.parse('2027-01-01T00:00:00Z');
      ms += 433 * 60_000
    ) {
      expect(businessDateTime(new Date(ms))).toBe(formatter.format(ms));
    }
  });

  it('counts days across months, years and leap days', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(Number.isNaN(businessInstant('2026-13-01').getTime())).toBe(true);
    expect(Number.isNaN(businessInstant('yesterday').getTime())).toBe(true);
  });
});
