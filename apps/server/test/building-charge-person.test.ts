import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths } from '@cowork/contract';
import { buildingChargePerson } from '@cowork/contract/resources/building-charge-person';
import { buildings, merchants } from '../src/db/schema.ts';
import { buildTestApp, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

/** Two buildings (ids 1 and 2 on a fresh database) for the samples to manage. */
async function twoBuildings(t: TestApp) {
  const [merchant] = await t.db
    .insert(merchants)
    .values({ name: '氪空间联合办公' })
    .returning({ id: merchants.id });
  const rows = await t.db
    .insert(buildings)
    .values(
      ['氪空间·望京SOHO', '氪空间·国贸中心'].map((name) => ({
        name,
        merchantId: merchant.id,
        provinceCode: '110000',
        cityCode: '110100',
        regionCode: '110105',
        address: '朝阳区',
      })),
    )
    .returning({ id: buildings.id });
  expect(rows.map((r) => r.id)).toEqual([1, 2]);
}

resourceSuite({
  resource: buildingChargePerson,
  setup: twoBuildings,
  samples: [
    { name: '张敏', phone: '13811020301', email: 'zhangmin@example.cn', buildingIds: [1], published: true },
    { name: '李建国', phone: '13911020302', buildingIds: [2] },
  ],
  change: { name: '张敏华', email: null, buildingIds: [1, 2] },
  invalid: [
    { body: { phone: '13811020301' }, field: 'name' },
    { body: { name: '王芳' }, field: 'phone' },
    { body: { name: '王芳', phone: '1381102030' }, field: 'phone' },
    { body: { name: '王芳', phone: '12811020301' }, field: 'phone' },
    { body: { name: '王芳', phone: '13811020301', email: 'wangfang' }, field: 'email' },
    { body: { name: '王芳', phone: '13811020301', buildingIds: [1, 999] }, field: 'buildingIds' },
    { body: { name: '王芳', phone: '13811020301', buildingIds: 'all' }, field: 'buildingIds' },
  ],
  search: { buildingIds: '1' },
});

describe('楼宇负责人 beyond the mechanism', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const paths = resourcePaths(buildingChargePerson);
  const page = async (query: string) => {
    const res = await t.app.inject({ url: `${paths.page}?${query}`, headers: admin });
    return { status: res.statusCode, body: res.json() };
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth(...demo.admin);
  });
  afterAll(() => t?.close());

  test('the demo persons cover every demo building', async () => {
    const persons = (await page('size=100')).body.data.records as { buildingIds: number[] }[];
    expect(persons.length).toBeGreaterThanOrEqual(5);
    const covered = new Set(persons.flatMap((p) => p.buildingIds));
    const all = await t.db.select({ id: buildings.id }).from(buildings);
    expect(all.every((b) => covered.has(b.id))).toBe(true);
  });

  test('page filters by building (rows holding it), by name and by phone', async () => {
    const [first] = await t.db.select({ id: buildings.id }).from(buildings).limit(1);
    const holding = (await page(`buildingIds=${first.id}&size=100`)).body.data.records as {
      buildingIds: number[];
    }[];
    expect(holding.length).toBeGreaterThan(0);
    expect(holding.every((p) => p.buildingIds.includes(first.id))).toBe(true);
    expect((await page('name=王')).body.data.records.map((p: { name: string }) => p.name)).toEqual(['王芳']);
    expect((await page('phone=1381102')).body.data.total).toBe(1);
    const bad = await page('buildingIds=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('负责楼宇');
  });

  test('the list endpoint offers the persons to any signed-in user', async () => {
    const res = await t.app.inject({ url: paths.list, headers: await t.auth(...demo.caiwu) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((o: { label: string }) => o.label)).toContain('张敏');
  });
});
