/**
 * A stacked bar chart of money per day in plain SVG (the stack has no chart library, and one chart
 * does not warrant one): one bar per day, one coloured part per series, the y axis in 元 with
 * round steps, a legend with each series' total, and a title and description for screen readers.
 * Every part carries its day, series and amount as a tooltip.
 *
 * @example <RevenueChart title="近 30 天实收" days={['2026-11-20', …]} series={[{ key, label, values }]} />
 */
import { useId } from 'react';
import { formatYuan } from '@cowork/contract';
import './revenue-chart.css';

export interface ChartSeries {
  key: string;
  label: string;
  /** Fen per day, in the order of `days`. */
  values: number[];
}

/** Distinguishable colours (antd's palette), one per series in order. */
export const chartColors = ['#1677ff', '#52c41a', '#faad14', '#13c2c2', '#722ed1', '#eb2f96', '#fa541c'];

// Drawing units; the chart scales to its card, so text stays readable at half-page widths.
const WIDTH = 600;
const HEIGHT = 280;
const MARGIN = { top: 30, right: 18, bottom: 26, left: 56 };
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;

/** A round step (1, 2 or 5 × 10ⁿ 元) giving about four gridlines up to `maxYuan`. */
function niceStep(maxYuan: number): number {
  const rough = maxYuan / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= rough) ?? 10 * power;
}

const yuanLabel = (yuan: number) => yuan.toLocaleString('zh-CN');
const shortDay = (day: string) => day.slice(5);

export function RevenueChart({
  title,
  days,
  series,
}: {
  title: string;
  days: string[];
  series: ChartSeries[];
}) {
  const id = useId();
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + s.values[i], 0));
  const maxFen = Math.max(0, ...totals);
  const step = niceStep(Math.max(maxFen / 100, 1));
  const topYuan = Math.max(step, Math.ceil(maxFen / 100 / step) * step);
  const ticks = Array.from({ length: Math.round(topYuan / step) + 1 }, (_, i) => i * step);
  const y = (fen: number) => MARGIN.top + PLOT_H - (fen / 100 / topYuan) * PLOT_H;
  const slot = PLOT_W / Math.max(days.length, 1);
  const barWidth = Math.max(2, slot * 0.68);
  const best = totals.indexOf(maxFen);
  const sum = totals.reduce((a, b) => a + b, 0);
  // Every fifth day from the last one back, so today is always labelled.
  const labelled = (i: number) => (days.length - 1 - i) % 5 === 0;

  return (
    <figure className="revenue-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>
          {`${days[0]} 至 ${days[days.length - 1]}，合计 ${formatYuan(sum)}` +
            (maxFen > 0 ? `，最高为 ${days[best]} 的 ${formatYuan(maxFen)}` : '')}
        </desc>
        <text x={4} y={14} className="revenue-chart-unit">
          金额（元）
        </text>
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={MARGIN.left}
              x2={WIDTH - MARGIN.right}
              y1={y(tick * 100)}
              y2={y(tick * 100)}
              className={tick === 0 ? 'revenue-chart-axis' : 'revenue-chart-grid'}
            />
            <text x={MARGIN.left - 8} y={y(tick * 100)} dy="0.32em" textAnchor="end">
              {yuanLabel(tick)}
            </text>
          </g>
        ))}
        {days.map((day, i) => {
          const x = MARGIN.left + i * slot + (slot - barWidth) / 2;
          return (
            <g key={day}>
              {series.map((s, k) => {
                const fen = s.values[i];
                if (fen <= 0) return null;
                // The parts below this one: the series before it, on the same day.
                const base = series.slice(0, k).reduce((sum, below) => sum + below.values[i], 0);
                const top = y(base + fen);
                const height = y(base) - top;
                return (
                  <rect key={s.key} x={x} y={top} width={barWidth} height={height} fill={chartColors[k]}>
                    <title>{`${day} ${s.label}：${formatYuan(fen)}`}</title>
                  </rect>
                );
              })}
              {labelled(i) && (
                <text x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle">
                  {shortDay(day)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul className="revenue-chart-legend" aria-label="图例">
          {series.map((s, k) => (
            <li key={s.key}>
              <span className="revenue-chart-swatch" style={{ background: chartColors[k] }} aria-hidden />
              {s.label}
              <span className="revenue-chart-total">{formatYuan(s.values.reduce((a, b) => a + b, 0))}</span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

export default RevenueChart;
