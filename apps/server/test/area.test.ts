import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { areaEndpoints, messages, type AreaInfo, type AreaRecord, type Envelope } from '@cowork/contract';
import { buildTestApp, createUser, demo, type TestApp } from './helper.ts';

let t: TestApp;
let headers: { authorization: string };
beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
  headers = await t.auth(...demo.caiwu);
});
afterAll(() => t?.close());

const get = async <T>(url: string, query: Record<string, string> = {}, auth = headers) => {
  const res = await t.app.inject({ url, query, headers: auth });
  return { status: res.statusCode, body: res.json<Envelope<T>>() };
};
const list = async (url: string, query: Record<string, string> = {}) => {
  const res = await get<AreaRecord[]>(url, query);
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
};
const info = async (code: string) => {
  const res = await get<AreaInfo>(areaEndpoints.areaInfo, { code });
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
};
const region = (code: string, name: string, parentCode: string): AreaRecord => ({
  code,
  name,
  level: 'region',
  parentCode,
});

describe('province-list', () => {
  test('the 31 provincial-level divisions of mainland China, by code, without 港澳台', async () => {
    const provinces = await list(areaEndpoints.provinceList);
    expect(provinces).toHaveLength(31);
    expect(provinces[0]).toEqual({ code: '110000', name: '北京市', level: 'province', parentCode: null });
    expect(provinces.at(-1)).toEqual({
      code: '650000',
      name: '新疆维吾尔自治区',
      level: 'province',
      parentCode: null,
    });
    expect(provinces.map((p) => p.code)).toEqual([...provinces.map((p) => p.code)].sort());
    for (const p of provinces) expect(p.code).toMatch(/^[1-6]\d0000$/);
    const names = provinces.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['广东省', '上海市', '重庆市', '西藏自治区', '海南省']));
    expect(names.some((n) => /香港|澳门|台湾/.test(n))).toBe(false);
  });

  test('any signed-in user may read it, a role-less one included', async () => {
    await createUser(t.db, { username: 'area-reader', password: 'Reader@123' });
    const res = await get<AreaRecord[]>(
      areaEndpoints.provinceList,
      {},
      await t.auth('area-reader', 'Reader@123'),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, msg: messages.ok });
  });
});

describe('city-list and region-list', () => {
  test('广东省 has 深圳市 440300, and 深圳市 has 南山区 440305', async () => {
    const cities = await list(areaEndpoints.cityList, { provinceCode: '440000' });
    expect(cities).toContainEqual({ code: '440300', name: '深圳市', level: 'city', parentCode: '440000' });
    expect(cities).toHaveLength(21);
    const regions = await list(areaEndpoints.regionList, { cityCode: '440300' });
    expect(regions).toContainEqual(region('440305', '南山区', '440300'));
    expect(regions.map((r) => r.name)).toEqual(
      expect.arrayContaining(['罗湖区', '福田区', '宝安区', '龙岗区', '龙华区', '坪山区', '光明区']),
    );
    for (const r of regions) expect(r.code.startsWith('4403')).toBe(true);
  });

  test('a municipality goes through its 市辖区 (and 重庆 also through 县)', async () => {
    expect(await list(areaEndpoints.cityList, { provinceCode: '110000' })).toEqual([
      { code: '110100', name: '市辖区', level: 'city', parentCode: '110000' },
    ]);
    const beijing = await list(areaEndpoints.regionList, { cityCode: '110100' });
    expect(beijing).toHaveLength(16);
    expect(beijing).toContainEqual(region('110105', '朝阳区', '110100'));
    for (const code of ['120000', '310000'])
      expect((await list(areaEndpoints.cityList, { provinceCode: code })).map((c) => c.name)).toEqual([
        '市辖区',
      ]);
    expect(await list(areaEndpoints.regionList, { cityCode: '310100' })).toContainEqual(
      region('310115', '浦东新区', '310100'),
    );

    const chongqing = await list(areaEndpoints.cityList, { provinceCode: '500000' });
    expect(chongqing.map((c) => [c.code, c.name])).toEqual([
      ['500100', '市辖区'],
      ['500200', '县'],
    ]);
    expect(await list(areaEndpoints.regionList, { cityCode: '500100' })).toContainEqual(
      region('500103', '渝中区', '500100'),
    );
    expect(await list(areaEndpoints.regionList, { cityCode: '500200' })).toContainEqual(
      region('500229', '城口县', '500200'),
    );
  });

  test('county-level units a province governs directly sit under 省直辖县级行政区划', async () => {
    const hubei = await list(areaEndpoints.cityList, { provinceCode: '420000' });
    expect(hubei).toContainEqual({
      code: '429000',
      name: '省直辖县级行政区划',
      level: 'city',
      parentCode: '420000',
    });
    expect((await list(areaEndpoints.regionList, { cityCode: '429000' })).map((r) => r.name)).toEqual([
      '仙桃市',
      '潜江市',
      '天门市',
      '神农架林区',
    ]);
    expect(await list(areaEndpoints.regionList, { cityCode: '419000' })).toEqual([
      region('419001', '济源市', '419000'),
    ]);
    expect(await list(areaEndpoints.regionList, { cityCode: '659000' })).toContainEqual(
      region('659001', '石河子市', '659000'),
    );
  });

  test('a city without counties has no regions; statistical development zones are left out', async () => {
    for (const code of ['441900', '442000', '460400', '620200'])
      expect(await list(areaEndpoints.regionList, { cityCode: code }), code).toEqual([]);
    const suzhou = await list(areaEndpoints.regionList, { cityCode: '320500' });
    expect(suzhou).toContainEqual(region('320505', '虎丘区', '320500'));
    expect(suzhou.map((r) => r.name)).not.toContain('苏州工业园区');
    expect(suzhou.every((r) => !/^\d{4}(7\d|80)$/.test(r.code))).toBe(true);
  });
});

describe('area-info', () => {
  test('a region with its province and city', async () => {
    expect(await info('440305')).toEqual({
      code: '440305',
      name: '南山区',
      level: 'region',
      parentCode: '440300',
      provinceCode: '440000',
      provinceName: '广东省',
      cityCode: '440300',
      cityName: '深圳市',
      regionCode: '440305',
      regionName: '南山区',
      fullName: '广东省深圳市南山区',
      chain: [
        { code: '440000', name: '广东省', level: 'province', parentCode: null },
        { code: '440300', name: '深圳市', level: 'city', parentCode: '440000' },
        region('440305', '南山区', '440300'),
      ],
    });
  });

  test('a city and a province stop at their own level', async () => {
    expect(await info('440300')).toMatchObject({
      level: 'city',
      provinceCode: '440000',
      cityCode: '440300',
      cityName: '深圳市',
      regionCode: null,
      regionName: null,
      fullName: '广东省深圳市',
    });
    const province = await info('440000');
    expect(province).toMatchObject({
      level: 'province',
      cityCode: null,
      regionCode: null,
      fullName: '广东省',
    });
    expect(province.chain).toHaveLength(1);
  });

  test('a municipality’s district and a directly governed city read as written in an address', async () => {
    expect(await info('110105')).toMatchObject({
      provinceCode: '110000',
      provinceName: '北京市',
      cityCode: '110100',
      cityName: '市辖区',
      regionCode: '110105',
      regionName: '朝阳区',
      fullName: '北京市朝阳区',
    });
    expect((await info('500229')).fullName).toBe('重庆市城口县');
    expect(await info('429004')).toMatchObject({
      cityCode: '429000',
      cityName: '省直辖县级行政区划',
      regionName: '仙桃市',
      fullName: '湖北省仙桃市',
    });
    expect(await info('441900')).toMatchObject({ level: 'city', regionCode: null, fullName: '广东省东莞市' });
  });
});

describe('bad codes', () => {
  test('a malformed code is a 400 naming the field in Chinese', async () => {
    const cases: [string, Record<string, string>, string][] = [
      [areaEndpoints.cityList, { provinceCode: '44' }, '省份编码：'],
      [areaEndpoints.cityList, { provinceCode: '440300' }, '省份编码：'],
      [areaEndpoints.cityList, { provinceCode: 'abcdef' }, '省份编码：'],
      [areaEndpoints.cityList, {}, '省份编码：'],
      [areaEndpoints.regionList, { cityCode: '440000' }, '城市编码：'],
      [areaEndpoints.regionList, { cityCode: '440305' }, '城市编码：'],
      [areaEndpoints.regionList, { cityCode: '4403001' }, '城市编码：'],
      [areaEndpoints.regionList, {}, '城市编码：'],
      [areaEndpoints.areaInfo, { code: '44030' }, '地区编码：'],
      [areaEndpoints.areaInfo, { code: '044030' }, '地区编码：'],
      [areaEndpoints.areaInfo, {}, '地区编码：'],
    ];
    for (const [url, query, prefix] of cases) {
      const res = await get<null>(url, query);
      expect(res.status, `${url} ${JSON.stringify(query)}`).toBe(400);
      expect(res.body.code).toBe(400);
      expect(res.body.data).toBeNull();
      expect(res.body.msg.startsWith(prefix), res.body.msg).toBe(true);
      expect(res.body.msg).toMatch(/6 位/);
    }
    const res = await get<null>(areaEndpoints.cityList, { provinceCode: '4400' });
    expect(res.body.msg).toBe('省份编码：请填写 6 位省级行政区划代码（后四位为 0000），如 440000');
  });

  test('an unknown code is a 404 saying which', async () => {
    const cases: [string, Record<string, string>, string][] = [
      [areaEndpoints.cityList, { provinceCode: '990000' }, '未找到编码为 990000 的省份'],
      [areaEndpoints.regionList, { cityCode: '449900' }, '未找到编码为 449900 的城市'],
      [areaEndpoints.regionList, { cityCode: '990100' }, '未找到编码为 990100 的城市'],
      [areaEndpoints.areaInfo, { code: '440399' }, '未找到编码为 440399 的地区'],
      // A statistical development zone is no area.
      [areaEndpoints.areaInfo, { code: '320576' }, '未找到编码为 320576 的地区'],
      [areaEndpoints.areaInfo, { code: '810000' }, '未找到编码为 810000 的地区'],
    ];
    for (const [url, query, msg] of cases) {
      const res = await get<null>(url, query);
      expect(res.status, `${url} ${JSON.stringify(query)}`).toBe(404);
      expect(res.body).toEqual({ code: 404, msg, data: null });
    }
  });
});

test('every area endpoint needs a signed-in user: 401 without a token', async () => {
  const calls: [string, Record<string, string>][] = [
    [areaEndpoints.provinceList, {}],
    [areaEndpoints.cityList, { provinceCode: '440000' }],
    [areaEndpoints.regionList, { cityCode: '440300' }],
    [areaEndpoints.areaInfo, { code: '440305' }],
  ];
  for (const [url, query] of calls) {
    const res = await t.app.inject({ url, query });
    expect(res.statusCode, url).toBe(401);
    expect(res.json()).toEqual({ code: 401, msg: messages.unauthorized, data: null });
    // Validation runs after the token check: a bad code without a token still learns nothing.
    expect(
      (await t.app.inject({ url, query: { code: 'x', cityCode: 'x', provinceCode: 'x' } })).statusCode,
    ).toBe(401);
  }
});
