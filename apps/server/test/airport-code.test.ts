import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths } from '@cowork/contract';
import { airportCode, airportCodeRemovesPath } from '@cowork/contract/resources/airport-code';
import { buildTestApp, createUser, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

resourceSuite({
  resource: airportCode,
  samples: [
    { code: 'PEK', city: '北京', airportName: '北京首都国际机场' },
    { code: 'SHA', city: '上海', airportName: '上海虹桥国际机场' },
  ],
  change: { airportName: '北京首都机场' },
  invalid: [
    { body: { code: 'pek', city: '北京', airportName: '北京首都国际机场' }, field: 'code' },
    { body: { code: 'PE', city: '北京', airportName: '北京首都国际机场' }, field: 'code' },
    { body: { code: 'PEKX', city: '北京', airportName: '北京首都国际机场' }, field: 'code' },
    { body: { code: 'P3K', city: '北京', airportName: '北京首都国际机场' }, field: 'code' },
    { body: { city: '北京', airportName: '北京首都国际机场' }, field: 'code' },
    { body: { code: 'PKX', airportName: '北京大兴国际机场' }, field: 'city' },
    { body: { code: 'PKX', city: '北京', airportName: '' }, field: 'airportName' },
  ],
  search: { city: '北京' },
});

describe('机场三字码 beyond the mechanism', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const paths = resourcePaths(airportCode);
  const save = async (body: Record<string, unknown>) =>
    (await t.app.inject({ method: 'POST', url: paths.save, headers: admin, payload: body })).json().data;
  const total = async () =>
    (await t.app.inject({ url: `${paths.page}?size=100`, headers: admin })).json().data.total as number;

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
  });
  afterAll(() => t?.close());

  test('a code that is not three uppercase letters is a 400 naming 三字码 with an example', async () => {
    for (const code of ['can', 'CA', 'CANX', 'Can']) {
      const res = await t.app.inject({
        method: 'POST',
        url: paths.save,
        headers: admin,
        payload: { code, city: '广州', airportName: '广州白云国际机场' },
      });
      expect(res.statusCode, code).toBe(400);
      expect(res.json().msg).toContain('三字码');
      expect(res.json().msg).toContain('大写');
    }
    expect(await total()).toBe(0);
  });

  test('removes deletes a batch, audited; an unknown id removes nothing', async () => {
    const ids = [
      (await save({ code: 'CAN', city: '广州', airportName: '广州白云国际机场' })).id,
      (await save({ code: 'SZX', city: '深圳', airportName: '深圳宝安国际机场' })).id,
      (await save({ code: 'CTU', city: '成都', airportName: '成都双流国际机场' })).id,
    ];
    const unknown = await t.app.inject({
      method: 'DELETE',
      url: airportCodeRemovesPath,
      headers: admin,
      payload: { ids: [ids[0], 999_999] },
    });
    expect(unknown.statusCode).toBe(404);
    expect(await total()).toBe(3);

    const empty = await t.app.inject({
      method: 'DELETE',
      url: airportCodeRemovesPath,
      headers: admin,
      payload: { ids: [] },
    });
    expect(empty.statusCode).toBe(400);

    const res = await t.app.inject({
      method: 'DELETE',
      url: airportCodeRemovesPath,
      headers: admin,
      payload: { ids: [ids[0], ids[1]] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { removed: 2 }, msg: '已删除 2 条记录' });
    expect(await total()).toBe(1);
    const log = await t.app.inject({
      url: `/api/user/admin/v1/audit-log/page?resource=airport-code&action=remove`,
      headers: admin,
    });
    expect(
      log
        .json()
        .data.records.map((r: { resourceId: string }) => Number(r.resourceId))
        .sort(),
    ).toEqual([ids[0], ids[1]].sort());
  });

  test('removes needs system:airport:remove', async () => {
    const id = (await save({ code: 'HGH', city: '杭州', airportName: '杭州萧山国际机场' })).id;
    await createUser(t.db, { username: 'airport-viewer', password: 'Pass@1234', roleCodes: ['operation'] });
    const res = await t.app.inject({
      method: 'DELETE',
      url: airportCodeRemovesPath,
      headers: await t.auth('airport-viewer', 'Pass@1234'),
      payload: { ids: [id] },
    });
    expect(res.statusCode).toBe(403);
  });
});

test('the demo data brings real Chinese airports with their codes', async () => {
  const t = await buildTestApp();
  try {
    const res = await t.app.inject({
      url: `${airportCode.base}/page?size=100&city=${encodeURIComponent('北京')}`,
      headers: await t.auth(...demo.admin),
    });
    const rows = res.json().data.records as { code: string; airportName: string }[];
    expect(rows.map((r) => r.code).sort()).toEqual(['PEK', 'PKX']);
    const all = await t.app.inject({
      url: `${airportCode.base}/page?size=100`,
      headers: await t.auth(...demo.admin),
    });
    expect(all.json().data.total).toBeGreaterThanOrEqual(20);
  } finally {
    await t.close();
  }
});
