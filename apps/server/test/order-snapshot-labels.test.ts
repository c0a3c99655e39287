/**
 * Every key a product snapshot holds, in every order the server and the demo write (all kinds,
 * 会议卡活动 sales included), has a Chinese label in the contract or is one kept for the system
 * only: the detail drawer's 购买时的产品 never shows a stored key.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { orderKindOptions } from '@cowork/contract/resources/order';
import {
  hiddenSnapshotKeys,
  isProductSnapshotKey,
  productSnapshotLabels,
} from '@cowork/contract/resources/order-snapshot';
import { orders } from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

test('every snapshot key of every kind of order has a Chinese label or is hidden', async () => {
  const rows = await t.db
    .selectDistinct({ kind: orders.kind, key: sql<string>`jsonb_object_keys(${orders.productSnapshot})` })
    .from(orders);
  // The demo writes every kind, and sells meeting cards in a 会议卡活动.
  expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(orderKindOptions.map((o) => o.value)));
  expect(rows.map((r) => r.key)).toContain('activityTitle');
  const unlabelled = rows.filter((r) => !isProductSnapshotKey(r.key) && !hiddenSnapshotKeys.includes(r.key));
  expect(unlabelled).toEqual([]);
  for (const label of Object.values(productSnapshotLabels)) expect(label).not.toMatch(/[A-Za-z]/);
  expect(productSnapshotLabels.activityTitle).toBe('会议卡活动');
});
