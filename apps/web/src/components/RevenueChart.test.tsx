import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { RevenueChart } from './RevenueChart.tsx';

const days = ['2026-11-19', '2026-11-20', '2026-11-21'];
const series = [
  { key: 'user-card', label: '会员卡', values: [10000, 0, 5050] },
  { key: 'team-card', label: '会议卡', values: [30000, 0, 0] },
];

describe('RevenueChart', () => {
  it('is an image named by its title, described by its total and best day', () => {
    render(<RevenueChart title="近 30 天每日实收" days={days} series={series} />);
    const chart = screen.getByRole('img');
    const [title, desc] = (chart.getAttribute('aria-labelledby') ?? '').split(' ');
    expect(document.getElementById(title)?.textContent).toBe('近 30 天每日实收');
    expect(document.getElementById(desc)?.textContent).toBe(
      '2026-11-19 至 2026-11-21，合计 ¥450.50，最高为 2026-11-19 的 ¥400.00',
    );
  });

  it('stacks one part per series and day with money, each titled with day, type and amount', () => {
    const { container } = render(<RevenueChart title="实收" days={days} series={series} />);
    const rects = [...container.querySelectorAll('rect')];
    expect(rects.map((r) => r.querySelector('title')?.textContent)).toEqual([
      '2026-11-19 会员卡：¥100.00',
      '2026-11-19 会议卡：¥300.00',
      '2026-11-21 会员卡：¥50.50',
    ]);
    const box = (r: Element) => ['y', 'height'].map((a) => Number(r.getAttribute(a)));
    const [[y1, h1], [y2, h2], [, h3]] = rects.map(box);
    // The second part sits on the first, three times its height; the 400 元 bar fills the plot.
    expect(y2 + h2).toBeCloseTo(y1);
    expect(h2).toBeCloseTo(3 * h1);
    expect(h3).toBeCloseTo(h1 * 0.505);
  });

  it('labels the y axis in round steps of 元, every fifth day back from the last, and lists each type with its total', () => {
    const { container } = render(<RevenueChart title="实收" days={days} series={series} />);
    const labels = [...container.querySelectorAll('svg > g > text, svg > text')].map((t) => t.textContent);
    expect(labels).toEqual(['金额（元）', '0', '100', '200', '300', '400', '11-21']);
    const legend = screen.getByRole('list', { name: '图例' });
    expect(legend.textContent).toBe('会员卡¥150.50会议卡¥300.00');
  });

  it('draws an empty axis for days without money', () => {
    const { container } = render(
      <RevenueChart title="实收" days={days} series={[{ key: 'a', label: '会员卡', values: [0, 0, 0] }]} />,
    );
    expect(container.querySelectorAll('rect')).toHaveLength(0);
    expect(screen.getByRole('img')).toBeTruthy();
  });
});
