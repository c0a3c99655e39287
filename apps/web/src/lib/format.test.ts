import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { formatTime, fromBusinessTime, toBusinessTime } from './format.ts';

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
