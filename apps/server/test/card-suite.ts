/**
 * What 会员卡 (user-card) and 会议卡 (team-card) share, written once and run for each: 适用楼宇
 * must name existing buildings (400 naming it, nothing written, on every write path), the page
 * filters by one building, the demo cards name real buildings, and 财务 may read but not write.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths, type ListOption, type Page, type ResourceDef } from '@cowork/contract';
import { building } from '@cowork/contract/resources/building';
import { buildings, merchants } from '../src/db/schema.ts';
import { buildTestApp, demo, type TestApp } from './helper.ts';

type Body = Record<string, unknown>;
type Card = Body & { id: number; name: string; buildingIds: number[]; published: boolean };

/**
 * Building ids for a suite run without demo rows: `ids` is filled by `setup` (a merchant and two
 * buildings), so sample bodies may hold the array before the buildings exist.
 */
export function suiteBuildings() {
  const ids: number[] = [];
  return {
    ids,
    async setup(t: TestApp) {
      const [merchant] = await t.db
        .insert(merchants)
        .values({ name: '测试商户' })
        .returning({ id: merchants.id });
      const rows = await t.db
        .insert(buildings)
        .values(
          ['测试楼宇甲', '测试楼宇乙'].map((name) => ({
            merchantId: merchant.id,
            name,
            provinceCode: '110000',
            cityCode: '110100',
            address: '测试路1号',
          })),
        )
        .returning({ id: buildings.id });
      ids.push(...rows.map((row) => row.id));
    },
  };
}

export interface CardSuiteOptions {
  resource: Pick<ResourceDef, 'base' | 'label'>;
  /** A valid save body without buildingIds, whose name no demo card holds. */
  valid: Body;
  /** Names of demo cards that must be there. */
  demoNames: string[];
}

export function cardSuite({ resource, valid, demoNames }: CardSuiteOptions) {
  const paths = resourcePaths(resource);
  let t: TestApp;
  let admin: Record<string, string>;
  let demoCards: Card[];
  let buildingOptions: ListOption[];

  const call = async <T = unknown>(
    method: string,
    url: string,
    payload?: Body,
    headers: Record<string, string> = admin,
  ) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json<{ code: number; msg: string; data: T }>() };
  };
  const total = async () => (await call<Page<Card>>('GET', `${paths.page}?size=100`)).body.data.total;

  describe(`${resource.label}: 适用楼宇, demo cards and roles`, () => {
    beforeAll(async () => {
      t = await buildTestApp();
      admin = await t.auth(...demo.admin);
      demoCards = (await call<Page<Card>>('GET', `${paths.page}?size=100`)).body.data.records;
      buildingOptions = (await call<ListOption[]>('GET', resourcePaths(building).list)).body.data;
    });
    afterAll(() => t?.close());

    test('the demo brings several Chinese cards, together valid in every demo building', () => {
      expect(demoCards.length).toBeGreaterThanOrEqual(5);
      expect(demoCards.map((c) => c.name)).toEqual(expect.arrayContaining(demoNames));
      expect(demoCards.some((c) => c.published) && demoCards.some((c) => !c.published)).toBe(true);
      const known = new Set(buildingOptions.map((o) => o.value));
      expect(known.size).toBe(8);
      for (const card of demoCards) {
        expect(card.buildingIds.length, card.name).toBeGreaterThan(0);
        for (const id of card.buildingIds) expect(known.has(id), card.name).toBe(true);
      }
      expect(new Set(demoCards.flatMap((c) => c.buildingIds))).toEqual(known);
    });

    test('the page filters by one building: the cards whose 适用楼宇 hold it', async () => {
      const wangjing = buildingOptions.find((o) => o.label === '氪空间·望京SOHO')!.value;
      const expected = demoCards.filter((c) => c.buildingIds.includes(wangjing)).map((c) => c.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(demoCards.length);
      const page = await call<Page<Card>>('GET', `${paths.page}?size=100&buildingIds=${wangjing}`);
      expect(page.body.data.records.map((c) => c.id).sort()).toEqual(expected.sort());
      const none = await call<Page<Card>>('GET', `${paths.page}?buildingIds=999999`);
      expect(none.body.data.total).toBe(0);
      for (const bad of ['abc', '1,2', '99999999999']) {
        const res = await call('GET', `${paths.page}?buildingIds=${bad}`);
        expect(res.status, bad).toBe(400);
        expect(res.body.msg).toContain('适用楼宇');
      }
    });

    test('an unknown building is a 400 naming 适用楼宇 on save, edit and saveOrUpdate; nothing changes', async () => {
      const known = buildingOptions[0].value;
      const card = demoCards[0];
      const before = await total();
      const attempts = [
        ['POST', paths.save, { ...valid, buildingIds: [known, 999_999] }],
        ['POST', paths.saveOrUpdate, { ...valid, buildingIds: [999_999] }],
        ['PUT', paths.edit, { id: card.id, buildingIds: [known, 999_999] }],
        ['POST', paths.saveOrUpdate, { id: card.id, buildingIds: [999_999] }],
      ] as const;
      for (const [method, url, body] of attempts) {
        const res = await call(method, url, body);
        expect(res.status, `${url} ${res.body.msg}`).toBe(400);
        expect(res.body.msg).toContain('适用楼宇');
      }
      expect(await total()).toBe(before);
      expect((await call<Card>('GET', `${paths.detail}/${card.id}`)).body.data).toEqual(card);
    });

    test('at least one building; a building chosen twice is kept once', async () => {
      const empty = await call('POST', paths.save, { ...valid, buildingIds: [] });
      expect(empty.status).toBe(400);
      expect(empty.body.msg).toContain('适用楼宇');
      const [a, b] = buildingOptions.map((o) => o.value);
      const saved = await call<Card>('POST', paths.save, { ...valid, buildingIds: [a, b, a] });
      expect(saved.status, saved.body.msg).toBe(200);
      expect(saved.body.data.buildingIds).toEqual([a, b]);
      expect((await call('DELETE', `${paths.remove}/${saved.body.data.id}`)).status).toBe(200);
    });

    test('财务 reads cards but writes none of them; 运营 writes them', async () => {
      const caiwu = await t.auth(...demo.caiwu);
      const card = demoCards[0];
      expect((await call('GET', `${paths.page}`, undefined, caiwu)).status).toBe(200);
      expect((await call('GET', `${paths.detail}/${card.id}`, undefined, caiwu)).status).toBe(200);
      const body = { ...valid, buildingIds: [buildingOptions[0].value] };
      const writes = [
        ['POST', paths.save, body],
        ['PUT', paths.edit, { id: card.id, name: '改名' }],
        ['PUT', paths.editPublished, { id: card.id, published: !card.published }],
        ['PUT', paths.publish, { id: card.id, published: !card.published }],
        ['POST', paths.saveOrUpdate, body],
        ['POST', paths.saveOrUpdate, { id: card.id, name: '改名' }],
        ['DELETE', `${paths.remove}/${card.id}`],
        ['DELETE', paths.remove, { ids: [card.id] }],
      ] as const;
      for (const [method, url, payload] of writes) {
        const res = await call(method, url, payload, caiwu);
        expect(res.status, `${method} ${url}`).toBe(403);
        expect(res.body.msg).toBe('您没有权限进行此操作');
      }
      expect((await call<Card>('GET', `${paths.detail}/${card.id}`)).body.data).toEqual(card);

      const yunying = await t.auth(...demo.yunying);
      const saved = await call<Card>('POST', paths.saveOrUpdate, body, yunying);
      expect(saved.status, saved.body.msg).toBe(200);
      expect((await call('DELETE', `${paths.remove}/${saved.body.data.id}`, undefined, yunying)).status).toBe(
        200,
      );
    });
  });
}
