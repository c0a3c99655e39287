import { describe, expect, it } from 'vitest';
import { field, formatYuan } from '../src/resource.ts';

const message = (
  schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } },
  value: unknown,
) => schema.safeParse(value).error?.issues[0]?.message;

describe('field builders', () => {
  it('money is whole fen, never negative, named in the message', () => {
    const price = field.money('日价格').schema;
    expect(price.parse(1990)).toBe(1990);
    expect(message(price, -1)).toBe('日价格不能为负数，请填写 0 或更大的金额');
    expect(message(price, 10.5)).toBe('日价格须精确到分');
    expect(field.money('押金', { optional: true }).schema.parse(null)).toBeNull();
  });

  it('time of day is HH:mm within a day', () => {
    const open = field.time('开放时间').schema;
    expect(open.parse('08:30')).toBe('08:30');
    expect(open.parse('23:59')).toBe('23:59');
    for (const bad of ['24:00', '8:30', '08:60', '0830'])
      expect(message(open, bad)).toBe('开放时间格式不正确，请按 时:分 选择，如 09:00');
  });

  it('decimal keeps fractions inside its bounds', () => {
    const longitude = field.decimal('经度', { min: -180, max: 180 }).schema;
    expect(longitude.parse('116.481')).toBe(116.481);
    expect(message(longitude, 181)).toBe('经度不能大于 180');
  });

  it('images default to an empty gallery and cap its length', () => {
    const gallery = field.images('图集', { max: 2 }).schema;
    expect(gallery.parse(undefined)).toEqual([]);
    expect(message(gallery, ['a', 'b', 'c'])).toBe('图集最多 2 张');
  });
});

describe('formatYuan', () => {
  it('separates thousands and keeps two decimals, as the counts beside it do', () => {
    expect(formatYuan(212_759_000)).toBe('¥2,127,590.00');
    expect(formatYuan(159_900)).toBe('¥1,599.00');
    expect(formatYuan(99_950)).toBe('¥999.50');
    expect(formatYuan(5)).toBe('¥0.05');
    expect(formatYuan(0)).toBe('¥0.00');
  });
});
