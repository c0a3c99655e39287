import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths, type ListOption } from '@cowork/contract';
import { building } from '@cowork/contract/resources/building';
import { teamCard } from '@cowork/contract/resources/team-card';
import { cardSuite, suiteBuildings } from './card-suite.ts';
import { buildTestApp, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

const paths = resourcePaths(teamCard);
const suite = suiteBuildings();
const valid = { name: '卡', faceValueFen: 50000, priceFen: 48000, validDays: 180, buildingIds: [1] };

resourceSuite({
  resource: teamCard,
  setup: suite.setup,
  samples: [
    {
      name: '500元会议卡',
      faceValueFen: 50000,
      priceFen: 48000,
      validDays: 180,
      buildingIds: suite.ids,
      published: true,
    },
    { name: '1000元会议卡', faceValueFen: 100000, priceFen: 100000, validDays: 365, buildingIds: suite.ids },
  ],
  change: { name: '500元会议卡（限时）', priceFen: 45000, validDays: 90 },
  invalid: [
    { body: { ...valid, name: undefined }, field: 'name' },
    { body: { ...valid, faceValueFen: 0 }, field: 'faceValueFen' },
    { body: { ...valid, faceValueFen: -50000 }, field: 'faceValueFen' },
    { body: { ...valid, priceFen: -1 }, field: 'priceFen' },
    { body: { ...valid, priceFen: 50001 }, field: 'priceFen' },
    { body: { ...valid, priceFen: '四百八十' }, field: 'priceFen' },
    { body: { ...valid, validDays: 0 }, field: 'validDays' },
    { body: { ...valid, buildingIds: [] }, field: 'buildingIds' },
    { body: { ...valid, buildingIds: [999_999] }, field: 'buildingIds' },
    { body: { ...valid, published: 'yes' }, field: 'published' },
  ],
  search: { name: '500' },
});

cardSuite({
  resource: teamCard,
  valid: { name: '测试会议卡', faceValueFen: 30000, priceFen: 28800, validDays: 90 },
  demoNames: ['500元会议卡', '1000元会议卡', '2000元会议卡'],
});

describe('会议卡: the price never exceeds the face value', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let id: number;
  const call = async (method: string, url: string, payload?: object) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: admin,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth(...demo.admin);
    const options = (await call('GET', resourcePaths(building).list)).body.data as ListOption[];
    const saved = await call('POST', paths.save, {
      name: '测试会议卡',
      faceValueFen: 50000,
      priceFen: 50000,
      validDays: 180,
      buildingIds: [options[0].value],
    });
    expect(saved.status, saved.body.msg).toBe(200);
    id = saved.body.data.id;
  });
  afterAll(() => t?.close());

  test('the demo cards sell at or below their face value', async () => {
    const page = await call('GET', `${paths.page}?size=100`);
    for (const card of page.body.data.records) expect(card.priceFen).toBeLessThanOrEqual(card.faceValueFen);
  });

  test('an edit is checked against the stored face value and price, on every write path', async () => {
    for (const [method, url, change] of [
      ['PUT', paths.edit, { priceFen: 50001 }],
      ['PUT', paths.edit, { faceValueFen: 40000 }],
      ['POST', paths.saveOrUpdate, { faceValueFen: 60000, priceFen: 60001 }],
    ] as const) {
      const res = await call(method, url, { id, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.msg).toBe(
        '售价不能高于面值 ¥' +
          ((change.faceValueFen ?? 50000) / 100).toFixed(2) +
          '，请调低售价或提高面值后再保存',
      );
    }
    expect((await call('GET', `${paths.detail}/${id}`)).body.data).toMatchObject({
      faceValueFen: 50000,
      priceFen: 50000,
    });
    const lower = await call('PUT', paths.edit, { id, faceValueFen: 40000, priceFen: 36000 });
    expect(lower.status, lower.body.msg).toBe(200);
    expect(lower.body.data).toMatchObject({ faceValueFen: 40000, priceFen: 36000 });
  });

  test('prices are sorted and shown in fen; the face value must be more than zero', async () => {
    const page = await call('GET', `${paths.page}?size=100&sortField=faceValueFen&sortOrder=descend`);
    const values = page.body.data.records.map((c: { faceValueFen: number }) => c.faceValueFen);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    const zero = await call('PUT', paths.edit, { id, faceValueFen: 0, priceFen: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.msg).toContain('面值');
  });
});
