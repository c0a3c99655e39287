import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths, type ListOption } from '@cowork/contract';
import { building } from '@cowork/contract/resources/building';
import { userCard } from '@cowork/contract/resources/user-card';
import { cardSuite, suiteBuildings } from './card-suite.ts';
import { buildTestApp, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

const paths = resourcePaths(userCard);
const suite = suiteBuildings();

resourceSuite({
  resource: userCard,
  setup: suite.setup,
  samples: [
    {
      name: '望京日卡',
      cardType: 'day',
      validDays: 1,
      priceFen: 8800,
      buildingIds: suite.ids,
      description: '当日有效',
      published: true,
    },
    { name: '十次卡', cardType: 'times', validDays: 90, times: 10, priceFen: 79900, buildingIds: suite.ids },
  ],
  change: { name: '望京通用日卡', priceFen: 9900, validDays: 2 },
  invalid: [
    { body: { cardType: 'day', validDays: 1, priceFen: 100, buildingIds: [1] }, field: 'name' },
    {
      body: { name: '卡', cardType: 'week', validDays: 7, priceFen: 100, buildingIds: [1] },
      field: 'cardType',
    },
    {
      body: { name: '卡', cardType: 'day', validDays: 0, priceFen: 100, buildingIds: [1] },
      field: 'validDays',
    },
    {
      body: { name: '卡', cardType: 'day', validDays: 1, priceFen: -1, buildingIds: [1] },
      field: 'priceFen',
    },
    {
      body: { name: '卡', cardType: 'day', validDays: 1, priceFen: 9.5, buildingIds: [1] },
      field: 'priceFen',
    },
    { body: { name: '卡', cardType: 'day', validDays: 1, buildingIds: [1] }, field: 'priceFen' },
    { body: { name: '卡', cardType: 'day', validDays: 1, priceFen: 100 }, field: 'buildingIds' },
    {
      body: { name: '卡', cardType: 'day', validDays: 1, priceFen: 100, buildingIds: [] },
      field: 'buildingIds',
    },
    {
      body: { name: '卡', cardType: 'day', validDays: 1, priceFen: 100, buildingIds: [999_999] },
      field: 'buildingIds',
    },
    {
      body: { name: '卡', cardType: 'times', validDays: 30, priceFen: 100, buildingIds: [1] },
      field: 'times',
    },
    {
      body: { name: '卡', cardType: 'times', validDays: 30, times: 0, priceFen: 100, buildingIds: [1] },
      field: 'times',
    },
    {
      body: { name: '卡', cardType: 'month', validDays: 30, times: 5, priceFen: 100, buildingIds: [1] },
      field: 'times',
    },
    {
      body: {
        name: '卡',
        cardType: 'day',
        validDays: 1,
        priceFen: 100,
        buildingIds: [1],
        description: '长'.repeat(501),
      },
      field: 'description',
    },
  ],
  search: { name: '望京' },
});

cardSuite({
  resource: userCard,
  valid: { name: '测试周卡', cardType: 'day', validDays: 7, priceFen: 39900 },
  demoNames: ['北京通用日卡', '全国通用月卡', '上海十次卡'],
});

describe('会员卡: 次数 follows the card type', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let buildingIds: number[];
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
    buildingIds = [options[0].value];
  });
  afterAll(() => t?.close());

  test('the type filter lists one type; a times card lists its 次数, the others none', async () => {
    const times = await call('GET', `${paths.page}?cardType=times&size=100`);
    expect(times.body.data.total).toBeGreaterThan(0);
    for (const card of times.body.data.records) expect(card.times).toBeGreaterThan(0);
    const days = await call('GET', `${paths.page}?cardType=day&size=100`);
    expect(days.body.data.total).toBeGreaterThan(0);
    for (const card of days.body.data.records) {
      expect(card.cardType).toBe('day');
      expect(card.times).toBeNull();
    }
    expect((await call('GET', `${paths.page}?cardType=week`)).status).toBe(400);
  });

  test('an edit is checked against the stored type and 次数', async () => {
    const saved = await call('POST', paths.save, {
      name: '测试月卡',
      cardType: 'month',
      validDays: 30,
      priceFen: 100000,
      buildingIds,
    });
    expect(saved.status, saved.body.msg).toBe(200);
    const id = saved.body.data.id;

    // A month card given 次数, or turned into a times card without them: 400 naming 次数.
    for (const change of [{ times: 10 }, { cardType: 'times' }]) {
      const res = await call('PUT', paths.edit, { id, ...change });
      expect(res.status).toBe(400);
      expect(res.body.msg).toContain('次数');
    }
    const toTimes = await call('PUT', paths.edit, { id, cardType: 'times', times: 12 });
    expect(toTimes.status, toTimes.body.msg).toBe(200);
    expect(toTimes.body.data).toMatchObject({ cardType: 'times', times: 12 });

    // Back to a day card: 次数 must be cleared in the same edit.
    const keep = await call('POST', paths.saveOrUpdate, { id, cardType: 'day' });
    expect(keep.status).toBe(400);
    expect(keep.body.msg).toContain('次数');
    const toDay = await call('POST', paths.saveOrUpdate, { id, cardType: 'day', times: null });
    expect(toDay.status, toDay.body.msg).toBe(200);
    expect(toDay.body.data).toMatchObject({ cardType: 'day', times: null });
  });

  test('a negative price is refused on edit too, and the card keeps its price', async () => {
    const card = (await call('GET', `${paths.page}?size=1`)).body.data.records[0];
    const res = await call('PUT', paths.edit, { id: card.id, priceFen: -100 });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('售价不能为负数');
    expect((await call('GET', `${paths.detail}/${card.id}`)).body.data.priceFen).toBe(card.priceFen);
  });
});
