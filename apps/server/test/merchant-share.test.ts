import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatPercent, resourcePaths, type Page } from '@cowork/contract';
import { merchantShare, shareWindowText, siteTypeOptions } from '@cowork/contract/resources/merchant-share';
import { merchants, siteTypeValues } from '../src/db/schema.ts';
import { buildTestApp, demo, engine, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

const paths = resourcePaths(merchantShare);
const day = (d: string) => `${d}T00:00:00+08:00`;

/** A merchant for the suite's samples; its id is known once the suite's database exists. */
const addMerchant = async (t: TestApp, name: string) =>
  (await t.db.insert(merchants).values({ name }).returning({ id: merchants.id }))[0].id;

const samples: [Record<string, unknown>, Record<string, unknown>] = [
  { siteType: 'office-seat', ratioBasisPoints: 1250, effectiveFrom: day('2025-01-01') },
  {
    siteType: 'meeting-room',
    ratioBasisPoints: 1500,
    effectiveFrom: day('2025-01-01'),
    effectiveTo: day('2026-01-01'),
  },
];

const invalid: { body: Record<string, unknown>; field: string }[] = [
  { body: { ...samples[0], merchantId: 999_999 }, field: 'merchantId' },
  { body: { ...samples[0], siteType: 'spa' }, field: 'siteType' },
  { body: { ...samples[0], ratioBasisPoints: 10_001 }, field: 'ratioBasisPoints' },
  { body: { ...samples[0], ratioBasisPoints: -1 }, field: 'ratioBasisPoints' },
  { body: { ...samples[0], ratioBasisPoints: 12.5 }, field: 'ratioBasisPoints' },
  { body: { ...samples[0], effectiveFrom: undefined }, field: 'effectiveFrom' },
  {
    body: { ...samples[0], siteType: 'airport', effectiveTo: day('2024-12-31') },
    field: 'effectiveTo',
  },
  {
    body: { ...samples[0], siteType: 'airport', effectiveTo: day('2025-01-01') },
    field: 'effectiveTo',
  },
];

resourceSuite({
  resource: merchantShare,
  setup: async (t) => {
    const merchantId = await addMerchant(t, '氪空间联合办公');
    for (const body of [...samples, ...invalid.map((i) => i.body)]) body.merchantId ??= merchantId;
  },
  samples,
  // Answers carry milliseconds: 2027-01-01T00:00:00.000+08:00.
  change: { ratioBasisPoints: 1800, effectiveTo: '2027-01-01T00:00:00.000+08:00' },
  invalid,
  search: { siteType: 'office-seat' },
});

test('the product types match the database enumeration and carry Chinese labels', () => {
  expect(siteTypeOptions.map((o) => o.value)).toEqual([...siteTypeValues]);
  expect(formatPercent(1250)).toBe('12.50%');
  expect(shareWindowText(day('2026-01-01'), null)).toBe('2026-01-01 起长期有效');
  expect(shareWindowText(day('2025-01-01'), '2026-01-01T09:30:00+08:00')).toBe(
    '2025-01-01 至 2026-01-01 09:30',
  );
});

describe('分账规则 rules', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let merchantId: number;
  let otherMerchantId: number;

  type Rule = { id: number; ratioBasisPoints: number; effectiveFrom: string; effectiveTo: string | null };
  const call = async <T = Rule>(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json<{ code: number; msg: string; data: T }>() };
  };
  const save = (body: Record<string, unknown>) =>
    call('POST', paths.save, { merchantId, siteType: 'meeting-room', ratioBasisPoints: 1500, ...body });

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
    merchantId = await addMerchant(t, '氪空间联合办公');
    otherMerchantId = await addMerchant(t, '梧桐树办公');
  });
  afterAll(() => t?.close());

  test('overlapping windows of one merchant and type are a 409 naming the rule; adjacent ones are not', async () => {
    const open = await save({ effectiveFrom: day('2026-01-01') });
    expect(open.status, open.body.msg).toBe(200);
    expect(open.body.data).toMatchObject({ ratioBasisPoints: 1500, effectiveTo: null });

    // Any window reaching past the open rule's start clashes with it, even one without an end.
    for (const window of [
      { effectiveFrom: day('2027-01-01') },
      { effectiveFrom: day('2025-01-01'), effectiveTo: day('2026-01-02') },
      { effectiveFrom: day('2025-01-01') },
    ]) {
      const clash = await save({ ...window, ratioBasisPoints: 2000 });
      expect(clash.status, JSON.stringify(window)).toBe(409);
      expect(clash.body.msg).toBe(
        `与已有分账规则 #${open.body.data.id}（会议室 15.00%，2026-01-01 起长期有效）时间重叠，请调整生效或失效时间`,
      );
    }

    // Ending exactly when the next one starts is allowed; other types and merchants are separate.
    const before = await save({ effectiveFrom: day('2025-01-01'), effectiveTo: day('2026-01-01') });
    expect(before.status, before.body.msg).toBe(200);
    expect((await save({ siteType: 'office-seat', effectiveFrom: day('2026-01-01') })).status).toBe(200);
    expect((await save({ merchantId: otherMerchantId, effectiveFrom: day('2026-01-01') })).status).toBe(200);
    const earlier = await save({ effectiveFrom: day('2024-01-01'), effectiveTo: day('2025-01-01') });
    expect(earlier.status, earlier.body.msg).toBe(200);

    // Edits are checked against the others, never against the record itself.
    const self = await call('PUT', paths.edit, { id: before.body.data.id, ratioBasisPoints: 1200 });
    expect(self.status, self.body.msg).toBe(200);
    const stretched = await call('PUT', paths.edit, {
      id: before.body.data.id,
      effectiveTo: day('2026-03-01'),
    });
    expect(stretched.status).toBe(409);
    expect(stretched.body.msg).toContain(`#${open.body.data.id}（会议室 15.00%`);
    const opened = await call('PUT', paths.edit, { id: earlier.body.data.id, effectiveTo: null });
    expect(opened.status).toBe(409);
    expect(opened.body.msg).toBe(
      `与已有分账规则 #${before.body.data.id}（会议室 12.00%，2025-01-01 至 2026-01-01）时间重叠，请调整生效或失效时间`,
    );
    // An edit moving the window alone (end before the stored start) is a 400 naming 失效时间.
    const reversed = await call('PUT', paths.edit, { id: open.body.data.id, effectiveTo: day('2025-06-01') });
    expect(reversed.status).toBe(400);
    expect(reversed.body.msg).toContain('失效时间');
    const detail = await call('GET', `${paths.detail}/${open.body.data.id}`);
    expect(detail.body.data.effectiveTo).toBeNull();
  });

  test('two overlapping saves at once: exactly one is written, the other is a 409', async () => {
    // Several rounds, each in its own year, so a missing lock shows up even when one race is won.
    for (const year of [2030, 2031, 2032, 2033, 2034]) {
      const body = {
        siteType: 'airport',
        effectiveFrom: day(`${year}-01-01`),
        effectiveTo: day(`${year + 1}-01-01`),
      };
      const answers = await Promise.all([save(body), save({ ...body, ratioBasisPoints: 900 })]);
      expect(answers.map((a) => a.status).sort(), String(year)).toEqual([200, 409]);
    }
    const page = await call<Page<Rule>>('GET', `${paths.page}?merchantId=${merchantId}&siteType=airport`);
    expect(page.body.data.total).toBe(5);
  });

  test(`concurrent edits into one window are serialized too (${engine})`, async () => {
    const a = await save({
      siteType: 'hall-seat',
      effectiveFrom: day('2025-01-01'),
      effectiveTo: day('2025-02-01'),
    });
    const b = await save({
      siteType: 'hall-seat',
      effectiveFrom: day('2025-03-01'),
      effectiveTo: day('2025-04-01'),
    });
    const answers = await Promise.all([
      call('PUT', paths.edit, { id: a.body.data.id, effectiveTo: day('2025-02-20') }),
      call('PUT', paths.edit, { id: b.body.data.id, effectiveFrom: day('2025-02-10') }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  test('the ratio is stored in basis points and answered as such; page filters by merchant and type', async () => {
    const full = await save({
      siteType: 'member-card',
      ratioBasisPoints: 10_000,
      effectiveFrom: day('2026-01-01'),
    });
    expect(full.status, full.body.msg).toBe(200);
    const zero = await save({
      siteType: 'meeting-card',
      ratioBasisPoints: 0,
      effectiveFrom: day('2026-01-01'),
    });
    expect(zero.body.data.ratioBasisPoints).toBe(0);
    const page = await call<Page<Rule & { merchantId: number }>>(
      'GET',
      `${paths.page}?merchantId=${merchantId}&siteType=member-card`,
    );
    expect(page.body.data.records.map((r) => r.id)).toEqual([full.body.data.id]);
    expect((await call('GET', `${paths.page}?siteType=spa`)).status).toBe(400);
  });
});

test('the demo data brings share rules of the three published merchants, none overlapping', async () => {
  const t = await buildTestApp();
  try {
    const res = await t.app.inject({ url: `${paths.page}?size=100`, headers: await t.auth(...demo.caiwu) });
    expect(res.statusCode, res.body).toBe(200);
    const rules = res.json<{
      data: Page<{ merchantId: number; siteType: string; effectiveFrom: string; effectiveTo: string | null }>;
    }>().data.records;
    expect(new Set(rules.map((r) => r.merchantId)).size).toBe(3);
    expect(new Set(rules.map((r) => r.siteType)).size).toBeGreaterThanOrEqual(5);
    const seats = rules
      .filter(
        (r) =>
          r.siteType === 'office-seat' &&
          rules.some((o) => o !== r && o.merchantId === r.merchantId && o.siteType === r.siteType),
      )
      .sort((x, y) => x.effectiveFrom.localeCompare(y.effectiveFrom));
    expect(seats).toHaveLength(2);
    expect(seats[0].effectiveTo).toBe(seats[1].effectiveFrom);
  } finally {
    await t.close();
  }
});
