import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths } from '@cowork/contract';
import { brightPoint, brightPointLabelListPath } from '@cowork/contract/resources/bright-point';
import { buildTestApp, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

resourceSuite({
  resource: brightPoint,
  samples: [
    { kind: 'facility', name: '高速WiFi', sort: 1, published: true },
    { kind: 'facility', name: '茶水间' },
  ],
  change: { name: '千兆WiFi', sort: 3, iconUrl: '/file/uploads/20260101/wifi.png' },
  invalid: [
    { body: { name: '健身房' }, field: 'kind' },
    { body: { kind: 'gym', name: '健身房' }, field: 'kind' },
    { body: { kind: 'facility', name: '' }, field: 'name' },
    { body: { kind: 'facility', name: 'x'.repeat(31) }, field: 'name' },
    { body: { kind: 'facility', name: '健身房', sort: -1 }, field: 'sort' },
    { body: { kind: 'facility', name: '健身房', iconUrl: 'x'.repeat(501) }, field: 'iconUrl' },
  ],
  search: { name: 'wifi' },
});

describe('设施配置 beyond the mechanism', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const paths = resourcePaths(brightPoint);
  const save = async (body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: paths.save, headers: admin, payload: body });

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
  });
  afterAll(() => t?.close());

  test('a name is unique per kind: the same name may be a highlight and a facility', async () => {
    expect((await save({ kind: 'facility', name: '景观露台', published: true, sort: 2 })).statusCode).toBe(
      200,
    );
    expect((await save({ kind: 'highlight', name: '景观露台', published: true, sort: 2 })).statusCode).toBe(
      200,
    );
    const again = await save({ kind: 'highlight', name: '景观露台' });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe('同一类型下已存在名称相同的设施亮点，请换一个名称');
  });

  test('label-list answers the published ones of a kind, in order, to any signed-in user', async () => {
    await save({ kind: 'highlight', name: '地铁直达', published: true, sort: 1 });
    await save({ kind: 'highlight', name: '24小时开放', published: false, sort: 0 });
    await save({ kind: 'facility', name: '停车场', published: true, sort: 1 });
    const yunying = await t.auth(...demo.yunying);
    const res = await t.app.inject({ url: `${brightPointLabelListPath}?kind=highlight`, headers: yunying });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((l: { name: string }) => l.name)).toEqual(['地铁直达', '景观露台']);
    expect(res.json().data[0]).toMatchObject({ kind: 'highlight', iconUrl: null, sort: 1 });

    const all = await t.app.inject({ url: brightPointLabelListPath, headers: yunying });
    expect(all.json().data.map((l: { name: string }) => l.name)).toEqual([
      '停车场',
      '景观露台',
      '地铁直达',
      '景观露台',
    ]);
    // The screen itself stays closed to 运营.
    expect((await t.app.inject({ url: paths.page, headers: yunying })).statusCode).toBe(403);
  });

  test('label-list refuses an unknown kind, naming 类型', async () => {
    const res = await t.app.inject({ url: `${brightPointLabelListPath}?kind=gym`, headers: admin });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain('类型');
  });

  test('editing a record into a kind where its name is taken is a 409', async () => {
    const mine = (await save({ kind: 'facility', name: '健身房' })).json().data;
    await save({ kind: 'highlight', name: '健身房' });
    const res = await t.app.inject({
      method: 'PUT',
      url: paths.edit,
      headers: admin,
      payload: { id: mine.id, kind: 'highlight' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toContain('名称');
  });
});

test('the demo data brings Chinese facilities and highlights', async () => {
  const t = await buildTestApp();
  try {
    const res = await t.app.inject({
      url: `${brightPointLabelListPath}?kind=facility`,
      headers: await t.auth(...demo.caiwu),
    });
    const names = res.json().data.map((l: { name: string }) => l.name);
    expect(names).toEqual(
      expect.arrayContaining(['高速WiFi', '打印复印', '茶水间', '淋浴间', '停车场', '健身房']),
    );
  } finally {
    await t.close();
  }
});
