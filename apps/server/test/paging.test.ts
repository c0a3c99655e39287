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
