import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from '@cowork/contract';
import {
  merchantShareOrderPaths as paths,
  NO_SHARE_RULE,
  type MerchantShareTotal,
} from '@cowork/contract/resources/merchant-share-order';
import { buildings, members, merchantShares, merchants, orders } from '../src/db/schema.ts';
import { buildTestApp, callApi, createUser, demo, engine, type TestApp } from './helper.ts';

type Row = {
  orderNo: string;
  shareFen: number;
  paidFen: number;
  ratioBasisPoints: number | null;
  ruleText: string;
  merchantName: string | null;
  siteType: string;
};

const at = (s: string) => new Date(`${s}+08:00`);

describe(`merchant-share-order (${engine})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let ids: { merchantA: number; merchantB: number; buildingA: number; buildingB: number };

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
    const [a, b] = await t.db
      .insert(merchants)
      .values([{ name: '甲商户' }, { name: '乙商户' }])
      .returning({ id: merchants.id });
    const [ba, bb] = await t.db
      .insert(buildings)
      .values(
        [
          ['甲楼', a.id],
          ['乙楼', b.id],
        ].map(([name, merchantId]) => ({
          name: name as string,
          merchantId: merchantId as number,
          provinceCode: '110000',
          cityCode: '110100',
          address: '测试路1号',
        })),
      )
      .returning({ id: buildings.id });
    ids = { merchantA: a.id, merchantB: b.id, buildingA: ba.id, buildingB: bb.id };
    await t.db.insert(merchantShares).values([
      // 甲's office seats: 10.00% in 2025, 12.50% from 2026 on (the rule change).
      {
        merchantId: a.id,
        siteType: 'office-seat',
        ratioBasisPoints: 1000,
        effectiveFrom: at('2025-01-01T00:00:00'),
        effectiveTo: at('2026-01-01T00:00:00'),
      },
      {
        merchantId: a.id,
        siteType: 'office-seat',
        ratioBasisPoints: 1250,
        effectiveFrom: at('2026-01-01T00:00:00'),
        effectiveTo: null,
      },
      {
        merchantId: a.id,
        siteType: 'member-card',
        ratioBasisPoints: 800,
        effectiveFrom: at('2025-01-01T00:00:00'),
        effectiveTo: null,
      },
    ]);
    const [member] = await t.db
      .insert(members)
      .values({ phone: '13800138000', nickname: '小张' })
      .returning({ id: members.id });
    const order = (
      orderNo: string,
      kind: typeof orders.$inferInsert.kind,
      buildingId: number,
      paidFen: number,
      paidAt: string,
      status: typeof orders.$inferInsert.status = 'paid',
    ) => ({
      orderNo,
      kind,
      memberId: member.id,
      memberPhone: '13800138000',
      productId: 1,
      productSnapshot: { name: '测试产品' },
      buildingId,
      amountFen: paidFen,
      paidFen,
      status,
      paidAt: at(paidAt),
    });
    await t.db.insert(orders).values([
      order('OS1', 'office-seat', ba.id, 10000, '2025-12-31T23:59:59'), // old rule: 1000
      order('OS2', 'office-seat', ba.id, 3333, '2026-01-01T00:00:00'), // new rule: 416.625 → 417
      order('OS3', 'office-seat', ba.id, 3333, '2026-02-01T10:00:00', 'used'), // 417
      order('OS4', 'office-seat', ba.id, 5000, '2024-06-01T10:00:00'), // before any rule: 0
      order('UC1', 'user-card', ba.id, 9999, '2026-03-01T10:00:00'), // 8%: 799.92 → 800
      order('HS1', 'hall-seat', bb.id, 7000, '2026-03-02T10:00:00'), // 乙 has no rule: 0
      order('OS5', 'office-seat', ba.id, 8000, '2026-03-03T10:00:00', 'refunded'), // not shared
      { ...order('OS6', 'office-seat', ba.id, 0, '2026-03-03T10:00:00', 'pending'), paidAt: null },
    ]);
  });
  afterAll(() => t.close());

  const page = async (query = '') =>
    (await callApi<Page<Row>>(t, admin, 'GET', `${paths.page}?size=100${query}`)).body.data;
  const total = async (query = '') =>
    (await callApi<MerchantShareTotal>(t, admin, 'GET', `${paths.total}?size=100${query}`)).body.data;
  const byNo = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.orderNo, r]));

  test('site-type answers the product types with Chinese labels', async () => {
    const res = await callApi(t, admin, 'GET', paths.siteType);
    expect(res.status).toBe(200);
    expect(res.body.data).toContainEqual({ value: 'meeting-room', label: '会议室' });
    expect(res.body.data).toHaveLength(7);
  });

  test('each paid or used order with the rule in force at payment time; refunded and pending are left out', async () => {
    const data = await page();
    const rows = byNo(data.records);
    expect(Object.keys(rows).sort()).toEqual(['HS1', 'OS1', 'OS2', 'OS3', 'OS4', 'UC1']);
    expect(data.total).toBe(6);
    expect(rows.OS1).toMatchObject({
      ratioBasisPoints: 1000,
      shareFen: 1000,
      merchantName: '甲商户',
      siteType: 'office-seat',
    });
    expect(rows.OS2).toMatchObject({ ratioBasisPoints: 1250, shareFen: 417 });
    expect(rows.OS2.ruleText).toContain('12.50%');
    expect(rows.OS3).toMatchObject({ shareFen: 417 });
    expect(rows.UC1).toMatchObject({ siteType: 'member-card', ratioBasisPoints: 800, shareFen: 800 });
    expect(rows.OS4).toMatchObject({ ratioBasisPoints: null, shareFen: 0, ruleText: NO_SHARE_RULE });
    expect(rows.HS1).toMatchObject({ merchantName: '乙商户', shareFen: 0, ruleText: NO_SHARE_RULE });
    // Newest payment first.
    expect(data.records[0].orderNo).toBe('HS1');
  });

  test('the total is the sum of the rounded rows, to the fen', async () => {
    const rows = (await page()).records;
    const sum = await total();
    expect(sum).toEqual({
      count: rows.length,
      paidFen: rows.reduce((s, r) => s + r.paidFen, 0),
      shareFen: rows.reduce((s, r) => s + r.shareFen, 0),
    });
    // Rounded once per order: 2 × 417, not round(2 × 416.625) = 833.
    expect(sum.shareFen).toBe(1000 + 417 + 417 + 800);
  });

  test('filters by merchant, product type, building, order number and paid date range', async () => {
    const nos = async (q: string) => (await page(q)).records.map((r) => r.orderNo).sort();
    expect(await nos(`&merchantId=${ids.merchantB}`)).toEqual(['HS1']);
    expect(await nos('&siteType=member-card')).toEqual(['UC1']);
    expect(await nos(`&buildingId=${ids.buildingA}&siteType=office-seat`)).toEqual([
      'OS1',
      'OS2',
      'OS3',
      'OS4',
    ]);
    expect(await nos('&orderNo=OS2')).toEqual(['OS2']);
    expect(await nos('&paidAtFrom=2026-01-01&paidAtTo=2026-02-01')).toEqual(['OS2', 'OS3']);
    expect(await total('&paidAtFrom=2026-01-01&paidAtTo=2026-02-01')).toEqual({
      count: 2,
      paidFen: 6666,
      shareFen: 834,
    });
    const bySmallestShare = await page('&sortField=shareFen&sortOrder=ascend');
    expect(bySmallestShare.records.map((r) => r.shareFen)).toEqual([0, 0, 417, 417, 800, 1000]);
    // Paging keeps the count of the whole filter.
    const first = await callApi<Page<Row>>(t, admin, 'GET', `${paths.page}?size=2&current=2`);
    expect(first.body.data).toMatchObject({ total: 6, current: 2, size: 2 });
    expect(first.body.data.records).toHaveLength(2);
  });

  test('a date range needs both ends (请选择时间段), on page and total', async () => {
    for (const path of [paths.page, paths.total]) {
      const res = await callApi(t, admin, 'GET', `${path}?paidAtFrom=2026-01-01`);
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('支付时间：请选择时间段');
    }
  });

  test('运营 may not read the report (403); 财务 may', async () => {
    const yunying = await t.auth(...demo.yunying);
    for (const path of [paths.siteType, paths.page, paths.total]) {
      const res = await callApi(t, yunying, 'GET', path);
      expect(res.status).toBe(403);
      expect(res.body.msg).toBe('您没有权限进行此操作');
    }
    const caiwu = await t.auth(...demo.caiwu);
    expect((await callApi(t, caiwu, 'GET', paths.total)).status).toBe(200);
    await createUser(t.db, { username: 'nobody', password: 'Nobody@123' });
    const nobody = await t.auth('nobody', 'Nobody@123');
    expect((await callApi(t, nobody, 'GET', paths.page)).status).toBe(403);
  });
});
