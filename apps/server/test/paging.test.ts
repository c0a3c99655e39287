/**
 * Pages answer the list's true total whether it is counted (a full page, an empty page past the end)
 * or known without counting (a page that is not full ends the list).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { resourcePaths } from '@cowork/contract';
import { source } from '@cowork/contract/resources/source';
import { csrSources } from '../src/db/schema.ts';
import { buildTestApp, callApi, demo, type TestApp } from './helper.ts';

let t: TestApp;
let admin: Record<string, string>;
let all: number;
const page = async (current: number, size: number) =>
  (await callApi(t, admin, 'GET', `${resourcePaths(source).page}?current=${current}&size=${size}`)).body.data;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.auth(...demo.admin);
  all = (await t.db.select().from(csrSources)).length;
});
afterAll(() => t?.close());

test('full, partial, empty-past-the-end and single pages all answer the same total', async () => {
  expect(all).toBeGreaterThanOrEqual(5);
  const size = 2;
  const last = Math.ceil(all / size);
  for (let current = 1; current <= last + 1; current++) {
    const answer = await page(current, size);
    expect(answer.total, `page ${current}`).toBe(all);
    expect(answer.records).toHaveLength(Math.max(0, Math.min(size, all - (current - 1) * size)));
  }
  const whole = await page(1, 100);
  expect([whole.total, whole.records.length]).toEqual([all, all]);
});

test('deep pages (ids first, then the rows) list the same rows in the same order as shallow ones', async () => {
  await t.db
    .insert(csrSources)
    .values(
      Array.from({ length: 1_300 }, (_, i) => ({ name: `深翻页来源${i}`, code: `deep_${i}`, sort: i % 7 })),
    );
  const ids = (await t.db.select({ id: csrSources.id }).from(csrSources))
    .map((r) => r.id)
    .sort((a, b) => a - b);
  const sorted = async (current: number, size: number, sort = 'sortField=id&sortOrder=ascend') =>
    (await callApi(t, admin, 'GET', `${resourcePaths(source).page}?current=${current}&size=${size}&${sort}`))
      .body.data;
  // Page 61 of 20 skips 1 200 rows: past the deep threshold.
  const deep = await sorted(61, 20);
  expect(deep.total).toBe(ids.length);
  expect(deep.records.map((r: { id: number }) => r.id)).toEqual(ids.slice(1_200, 1_220));
  // Sorted by another column, ties broken by the newest id: as the database orders them.
  const expected = (await t.db.select({ id: csrSources.id, sort: csrSources.sort }).from(csrSources))
    .sort((x, y) => y.sort - x.sort || y.id - x.id)
    .map((r) => r.id);
  const deepBySort = await sorted(12, 100, 'sortField=sort&sortOrder=descend');
  expect(deepBySort.records.map((r: { id: number }) => r.id)).toEqual(expected.slice(1_100, 1_200));
  const shallowBySort = await sorted(2, 100, 'sortField=sort&sortOrder=descend');
  expect(shallowBySort.records.map((r: { id: number }) => r.id)).toEqual(expected.slice(100, 200));
});
