/**
 * `bench/last-run.json`: each benchmark's figures as `{id, unit, min, median, max}` over its
 * samples, merged by id into what earlier benchmarks of the same run (or an earlier run) wrote.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface BenchResult {
  id: string;
  unit: string;
  min: number;
  median: number;
  max: number;
}

const file = new URL('./last-run.json', import.meta.url);
const round = (n: number) => Math.round(n * 100) / 100;

export function summarise(id: string, unit: string, samples: number[]): BenchResult {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { id, unit, min: round(sorted[0]), median: round(median), max: round(sorted.at(-1)!) };
}

export function record(results: BenchResult[]) {
  const earlier: BenchResult[] = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
  const ids = new Set(results.map((r) => r.id));
  const merged = [...earlier.filter((r) => !ids.has(r.id)), ...results].sort((a, b) =>
    a.id.localeCompare(b.id),
  );
  writeFileSync(file, `${JSON.stringify(merged, null, 2)}\n`);
}
