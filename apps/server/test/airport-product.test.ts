import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths, type Page } from '@cowork/contract';
import {
  airportCode,
  airportCodeOptionsPath,
  airportCodeRemovesPath,
} from '@cowork/contract/resources/airport-code';
import { airportProduct, airportProductInitPath } from '@cowork/contract/resources/airport-product';
import { airportProducts } from '../src/db/schema.ts';
import { buildTestApp, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

type Body = Record<string, unknown>;
type Product = Body & { id: number; airportCode: string; priceFen: number; published: boolean };

const paths = resourcePaths(airportProduct);
const codePaths = resourcePaths(airportCode);

const airports = [
  { code: 'PEK', city: '北京', airportName: '北京首都国际机场' },
  { code: 'SHA', city: '上海', airportName: '上海虹桥国际机场' },
  { code: 'DYG', city: '张家界', airportName: '荷花国际机场' },
];

async function saveAirports(t: TestApp, list = airports) {
  const headers = await t.auth(...demo.admin);
  const ids: number[] = [];
  for (const payload of list) {
    const res = await t.app.inject({ method: 'POST', url: codePaths.save, headers, payload });
    ids.push(res.json().data.id);
  }
  return ids;
}

// Products come from init, so the suite writes its samples straight to the table.
resourceSuite({
  resource: airportProduct,
  setup: async (t) => void (await saveAirports(t)),
  insert: async (t, body) => {
    const [row] = await t.db
      .insert(airportProducts)
      .values(body as typeof airportProducts.$inferInsert)
      .returning({ id: airportProducts.id });
    return row.id;
  },
  samples: [
    {
      airportCode: 'PEK',
      loungeName: '首都机场T3贵宾厅',
      terminal: 'T3',
      priceFen: 39800,
      supplierSku: 'LG-PEK',
    },
    { airportCode: 'SHA', loungeName: '虹桥机场T2贵宾厅', terminal: 'T2', priceFen: 0 },
  ],
  change: {
    loungeName: '首都机场T3国内贵宾厅',
    terminal: 'T3 国内出发',
    priceFen: 42000,
    supplierSku: 'LG-PEK-2',
  },
  invalid: [
    { body: { airportCode: 'XXX' }, field: 'airportCode' },
    { body: { airportCode: 'pek' }, field: 'airportCode' },
    { body: { loungeName: '' }, field: 'loungeName' },
    { body: { priceFen: -100 }, field: 'priceFen' },
    { body: { priceFen: 12.5 }, field: 'priceFen' },
    { body: { terminal: 'T'.repeat(31) }, field: 'terminal' },
  ],
  search: { loungeName: '首都' },
});

describe('机场贵宾厅 init, prices and publishing', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const call = async <T = unknown>(method: string, url: string, payload?: Body) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: admin,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: T } };
  };
  const products = async () => (await call<Page<Product>>('GET', `${paths.page}?size=100`)).body.data.records;

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
  });
  afterAll(() => t?.close());

  test('init with no airports configured makes nothing and says so', async () => {
    const res = await call<{ created: number }>('POST', airportProductInitPath);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { created: 0 }, msg: '所有机场都已有贵宾厅产品，无需生成' });
  });

  test('init makes one unpublished ¥0 product per airport, named after it, audited; a second init makes none', async () => {
    await saveAirports(t);
    const first = await call<{ created: number }>('POST', airportProductInitPath);
    expect(first.body).toMatchObject({
      data: { created: 3 },
      msg: '已为 3 个机场生成贵宾厅产品，请补充价格后上架',
    });
    const rows = await products();
    expect(rows.map((r) => [r.airportCode, r.loungeName, r.priceFen, r.published])).toEqual([
      ['DYG', '张家界荷花国际机场贵宾厅', 0, false],
      ['PEK', '北京首都国际机场贵宾厅', 0, false],
      ['SHA', '上海虹桥国际机场贵宾厅', 0, false],
    ]);
    expect(rows[1]).toMatchObject({ airportCity: '北京', airportName: '北京首都国际机场' });

    const second = await call<{ created: number }>('POST', airportProductInitPath);
    expect(second.body).toMatchObject({ data: { created: 0 }, msg: '所有机场都已有贵宾厅产品，无需生成' });
    expect(await products()).toHaveLength(3);

    await saveAirports(t, [{ code: 'CAN', city: '广州', airportName: '广州白云国际机场' }]);
    const third = await call<{ created: number }>('POST', airportProductInitPath);
    expect(third.body.data.created).toBe(1);
    expect(third.body.msg).toBe('已为 1 个机场生成贵宾厅产品，请补充价格后上架');

    const log = await call<Page<{ action: string }>>(
      'GET',
      '/api/user/admin/v1/audit-log/page?resource=airport-product&action=init&size=100',
    );
    expect(log.body.data.total).toBe(4);
  });

  test('concurrent inits create each missing lounge once', async () => {
    await saveAirports(t, [{ code: 'CTU', city: '成都', airportName: '成都双流国际机场' }]);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call<{ created: number }>('POST', airportProductInitPath)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.reduce((sum, a) => sum + a.body.data.created, 0)).toBe(1);
    expect((await products()).filter((p) => p.airportCode === 'CTU')).toHaveLength(1);
  });

  test('a ¥0 product cannot be published (400 naming 价格); priced, it can', async () => {
    const pek = (await products()).find((p) => p.airportCode === 'PEK')!;
    const refused = await call('PUT', paths.editPublished, { id: pek.id, published: true });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('价格');
    const viaEdit = await call('PUT', paths.edit, { id: pek.id, published: true });
    expect(viaEdit.status).toBe(400);
    expect(viaEdit.body.msg).toContain('价格');
    expect((await call<Product>('GET', `${paths.detail}/${pek.id}`)).body.data.published).toBe(false);

    const priced = await call<Product>('PUT', paths.edit, { id: pek.id, priceFen: 39800, terminal: 'T3' });
    expect(priced.body.data).toMatchObject({ priceFen: 39800, terminal: 'T3', airportCity: '北京' });
    const published = await call<Product>('PUT', paths.editPublished, { id: pek.id, published: true });
    expect(published.status, published.body.msg).toBe(200);
    expect(published.body.data).toMatchObject({ published: true, airportName: '北京首都国际机场' });
    // Back to ¥0 while on sale is refused too.
    const unpriced = await call('PUT', paths.edit, { id: pek.id, priceFen: 0 });
    expect(unpriced.status).toBe(400);
    expect(unpriced.body.msg).toContain('价格');
  });

  test('a product must name a configured airport: 400 naming 机场', async () => {
    const sha = (await products()).find((p) => p.airportCode === 'SHA')!;
    const res = await call('PUT', paths.edit, { id: sha.id, airportCode: 'ZZZ' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('机场');
    expect((await call('PUT', paths.edit, { id: sha.id, airportCode: 'PEK' })).status).toBe(200);
    await call('PUT', paths.edit, { id: sha.id, airportCode: 'SHA' });
  });

  test('there is no save nor remove: products come from init', async () => {
    expect((await call('POST', `${airportProduct.base}/save`, { airportCode: 'PEK' })).status).toBe(404);
    expect((await call('DELETE', `${airportProduct.base}/remove/1`)).status).toBe(404);
  });

  test('机场三字码 used by a product can be neither removed nor recoded (409 naming the lounge); unused it can', async () => {
    const codes = (await call<Page<{ id: number; code: string }>>('GET', `${codePaths.page}?size=100`)).body
      .data.records;
    const pek = codes.find((c) => c.code === 'PEK')!;
    const one = await call('DELETE', `${codePaths.remove}/${pek.id}`);
    expect(one.status).toBe(409);
    expect(one.body.msg).toContain('北京首都国际机场贵宾厅');
    const batch = await call('DELETE', airportCodeRemovesPath, { ids: [pek.id] });
    expect(batch.status).toBe(409);
    expect(batch.body.msg).toContain('贵宾厅');
    const recode = await call('PUT', codePaths.edit, { id: pek.id, code: 'PKX' });
    expect(recode.status).toBe(409);
    const rename = await call('PUT', codePaths.edit, { id: pek.id, airportName: '首都国际机场' });
    expect(rename.status).toBe(200);
    expect((await call('GET', `${codePaths.page}?code=PEK`)).body.data).toMatchObject({ total: 1 });

    const [spare] = await saveAirports(t, [{ code: 'XIY', city: '西安', airportName: '西安咸阳国际机场' }]);
    expect((await call('DELETE', `${codePaths.remove}/${spare}`)).status).toBe(200);
  });

  test('code-list offers every airport by code to any signed-in staff member', async () => {
    const res = await t.app.inject({ url: airportCodeOptionsPath, headers: await t.auth(...demo.yunying) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toContainEqual({
      value: 'SHA',
      label: 'SHA 上海 · 上海虹桥国际机场',
      city: '上海',
      airportName: '上海虹桥国际机场',
    });
  });

  test('运营 may price and publish lounges; 财务 may only read them', async () => {
    const yunying = await t.auth(...demo.yunying);
    const caiwu = await t.auth(...demo.caiwu);
    expect((await t.app.inject({ url: paths.page, headers: caiwu })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: airportProductInitPath, headers: caiwu })).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: airportProductInitPath, headers: yunying })).statusCode,
    ).toBe(200);
  });
});

test('the demo prices and publishes lounges at the busiest airports and leaves some airports for init', async () => {
  const t = await buildTestApp();
  try {
    const headers = await t.auth(...demo.admin);
    const rows = (await t.app.inject({ url: `${paths.page}?size=100`, headers })).json().data
      .records as Product[];
    expect(rows.filter((r) => r.published).length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => !r.published || r.priceFen > 0)).toBe(true);
    const init = await t.app.inject({ method: 'POST', url: airportProductInitPath, headers });
    expect(init.json().data.created).toBeGreaterThan(0);
  } finally {
    await t.close();
  }
});
