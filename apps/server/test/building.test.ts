import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths } from '@cowork/contract';
import { brightPoint } from '@cowork/contract/resources/bright-point';
import { building, buildingEndpoints } from '@cowork/contract/resources/building';
import { buildingRule } from '@cowork/contract/resources/building-rule';
import {
  activityStations,
  buildingBrightPoints,
  buildingChargePersons,
  buildingRules,
  hallSeats,
  merchants,
  officeSeats,
  officeStations,
  spaces,
  teamCards,
  userCards,
} from '../src/db/schema.ts';
import { buildTestApp, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

/** A fresh database's first rows get id 1: the samples refer to them. */
async function referenced(t: TestApp) {
  const [merchant] = await t.db
    .insert(merchants)
    .values({ name: '氪空间联合办公', published: true })
    .returning({ id: merchants.id });
  const [point] = await t.db
    .insert(buildingBrightPoints)
    .values({ kind: 'facility', name: '高速WiFi', published: true })
    .returning({ id: buildingBrightPoints.id });
  const [rule] = await t.db
    .insert(buildingRules)
    .values({ name: '禁止吸烟', published: true })
    .returning({ id: buildingRules.id });
  expect([merchant.id, point.id, rule.id]).toEqual([1, 1, 1]);
}

const wangjing = {
  name: '氪空间·望京SOHO',
  merchantId: 1,
  provinceCode: '110000',
  cityCode: '110100',
  regionCode: '110105',
  address: '望京街10号望京SOHO塔3 B座',
  longitude: 116.481,
  latitude: 39.9962,
  floors: ['8F', '9F'],
  brightPointIds: [1],
  ruleIds: [1],
  openTime: '08:00',
  closeTime: '22:00',
  published: true,
};
const lujiazui = {
  name: '梧桐树·陆家嘴',
  merchantId: 1,
  provinceCode: '310000',
  cityCode: '310100',
  regionCode: '310115',
  address: '世纪大道100号',
};
const valid = { ...lujiazui, name: '测试楼宇' };

resourceSuite({
  resource: building,
  setup: referenced,
  samples: [wangjing, lujiazui],
  change: { name: '氪空间·望京', address: '望京街12号', floors: ['10F', 'B1'], closeTime: '23:00' },
  invalid: [
    { body: { ...valid, provinceCode: '990000' }, field: 'provinceCode' },
    { body: { ...valid, cityCode: '110100' }, field: 'cityCode' },
    { body: { ...valid, cityCode: '999900' }, field: 'cityCode' },
    { body: { ...valid, regionCode: '110105' }, field: 'regionCode' },
    { body: { ...valid, regionCode: '310199' }, field: 'regionCode' },
    { body: { ...valid, merchantId: 999 }, field: 'merchantId' },
    { body: { ...valid, merchantId: undefined }, field: 'merchantId' },
    { body: { ...valid, address: '' }, field: 'address' },
    { body: { ...valid, longitude: 181 }, field: 'longitude' },
    { body: { ...valid, latitude: -91 }, field: 'latitude' },
    { body: { ...valid, floors: ['8F', '8F'] }, field: 'floors' },
    { body: { ...valid, brightPointIds: [1, 999] }, field: 'brightPointIds' },
    { body: { ...valid, ruleIds: [999] }, field: 'ruleIds' },
    { body: { ...valid, openTime: '09:00', closeTime: '08:30' }, field: 'closeTime' },
    { body: { ...valid, openTime: '09:00', closeTime: '09:00' }, field: 'closeTime' },
    { body: { ...valid, openTime: '09:00' }, field: 'closeTime' },
    { body: { ...valid, closeTime: '21:00' }, field: 'openTime' },
    { body: { ...valid, openTime: '25:00', closeTime: '26:00' }, field: 'openTime' },
  ],
  search: { cityCode: '110100' },
});

describe('楼宇 beyond the mechanism', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const paths = resourcePaths(building);
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json() };
  };
  const save = async (body: object) => {
    const res = await call('POST', paths.save, body);
    expect(res.status, res.body.msg).toBe(200);
    return res.body.data as { id: number } & Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
    await referenced(t);
  });
  afterAll(() => t?.close());

  test('answers name the area and the hours; an edit of the region is checked against the stored city', async () => {
    const row = await save(wangjing);
    expect(row).toMatchObject({ areaName: '北京市 朝阳区', openingHours: '08:00–22:00' });
    const detail = await call('GET', `${paths.detail}/${row.id}`);
    expect(detail.body.data.areaName).toBe('北京市 朝阳区');
    const wrongRegion = await call('PUT', paths.edit, { id: row.id, regionCode: '310115' });
    expect(wrongRegion.status).toBe(400);
    expect(wrongRegion.body.msg).toContain('区县');
    const moved = await call('PUT', paths.edit, { id: row.id, regionCode: '110108' });
    expect(moved.body.data.areaName).toBe('北京市 海淀区');
    const noHours = await call('PUT', paths.edit, { id: row.id, openTime: null, closeTime: null });
    expect(noHours.body.data.openingHours).toBeNull();
    const shenzhen = await save({
      ...lujiazui,
      name: '创客汇·科技园',
      provinceCode: '440000',
      cityCode: '440300',
      regionCode: '440305',
    });
    expect(shenzhen.areaName).toBe('广东省 深圳市 南山区');
    // A city without counties stops at the city.
    const dongguan = await save({
      ...lujiazui,
      name: '松山湖',
      provinceCode: '440000',
      cityCode: '441900',
      regionCode: null,
    });
    expect(dongguan.areaName).toBe('广东省 东莞市');
    for (const id of [row.id, shenzhen.id, dongguan.id]) await call('DELETE', `${paths.remove}/${id}`);
  });

  test('a building in use is a 409 saying what uses it, one by one and in a batch', async () => {
    const used = await save({ ...wangjing, name: '在用楼宇' });
    const free = await save({ ...lujiazui, name: '空闲楼宇' });
    const buildingId = used.id;
    const users = [
      [
        '办公室工位',
        () =>
          t.db
            .insert(officeSeats)
            .values({ buildingId, code: 'A01', name: '靠窗工位A01', seatType: 'fixed' }),
        () => t.db.delete(officeSeats),
        '靠窗工位A01',
      ],
      [
        '大厅工位',
        () =>
          t.db.insert(hallSeats).values({ buildingId, code: 'H01', name: '大厅H01', seatType: 'flexible' }),
        () => t.db.delete(hallSeats),
        '大厅H01',
      ],
      [
        '物理空间',
        () => t.db.insert(spaces).values({ buildingId, name: 'A 座大堂', kind: 'gate' }),
        () => t.db.delete(spaces).where(eq(spaces.name, 'A 座大堂')),
        'A 座大堂',
      ],
      [
        '会议室',
        () =>
          t.db.insert(officeStations).values({
            buildingId,
            name: '星辰会议室',
            capacity: 8,
            hourPriceFen: 10000,
            openTime: '08:00',
            closeTime: '22:00',
          }),
        () => t.db.delete(officeStations),
        '星辰会议室',
      ],
      [
        '活动场地',
        () =>
          t.db.insert(activityStations).values({
            buildingId,
            name: '路演厅',
            capacity: 80,
            hourPriceFen: 50000,
            openTime: '08:00',
            closeTime: '22:00',
          }),
        () => t.db.delete(activityStations),
        '路演厅',
      ],
      [
        '会员卡',
        () =>
          t.db.insert(userCards).values({
            name: '望京月卡',
            cardType: 'month',
            validDays: 30,
            priceFen: 99900,
            buildingIds: [free.id, buildingId],
          }),
        () => t.db.delete(userCards),
        '望京月卡',
      ],
      [
        '会议卡',
        () =>
          t.db.insert(teamCards).values({
            name: '千元会议卡',
            faceValueFen: 100000,
            priceFen: 90000,
            validDays: 365,
            buildingIds: [buildingId],
          }),
        () => t.db.delete(teamCards),
        '千元会议卡',
      ],
      [
        '楼宇负责人',
        () =>
          t.db.insert(buildingChargePersons).values([
            { name: '张敏', phone: '13811020301', buildingIds: [buildingId] },
            { name: '李建国', phone: '13911020302', buildingIds: [buildingId] },
            { name: '王芳', phone: '13621030303', buildingIds: [free.id, buildingId] },
          ]),
        () => t.db.delete(buildingChargePersons),
        '楼宇负责人 3 位（张敏、李建国 等）',
      ],
    ] as const;
    for (const [what, insert, clear, named] of users) {
      await insert();
      const one = await call('DELETE', `${paths.remove}/${buildingId}`);
      expect(one.status, what).toBe(409);
      expect(one.body.msg).toContain(what);
      expect(one.body.msg).toContain(named);
      expect(one.body.msg).toContain('下架');
      const batch = await call('DELETE', paths.remove, { ids: [free.id, buildingId] });
      expect(batch.status).toBe(409);
      expect((await call('GET', `${paths.detail}/${free.id}`)).status).toBe(200);
      await clear();
    }
    expect((await call('DELETE', paths.remove, { ids: [free.id, buildingId] })).status).toBe(200);
  });

  test('a highlight or facility in use by a building or a room cannot be removed', async () => {
    const pointPaths = resourcePaths(brightPoint);
    const point = (await call('POST', pointPaths.save, { kind: 'highlight', name: '地铁直达' })).body.data;
    const holder = await save({ ...lujiazui, name: '亮点楼宇', brightPointIds: [point.id] });
    const refused = await call('DELETE', `${pointPaths.remove}/${point.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('楼宇 1 个（亮点楼宇）');

    await call('PUT', paths.edit, { id: holder.id, brightPointIds: [] });
    await t.db.insert(officeStations).values({
      buildingId: holder.id,
      name: '投影会议室',
      capacity: 6,
      hourPriceFen: 8000,
      openTime: '09:00',
      closeTime: '18:00',
      facilityIds: [point.id],
    });
    const byRoom = await call('DELETE', pointPaths.remove, { ids: [point.id] });
    expect(byRoom.status).toBe(409);
    expect(byRoom.body.msg).toContain('会议室 1 个（投影会议室）');

    await t.db.delete(officeStations);
    expect((await call('DELETE', `${pointPaths.remove}/${point.id}`)).status).toBe(200);
    await call('DELETE', `${paths.remove}/${holder.id}`);
  });

  test('a rule in use by a building cannot be removed', async () => {
    const rulePaths = resourcePaths(buildingRule);
    const rule = (await call('POST', rulePaths.save, { name: '宠物友好' })).body.data;
    const holder = await save({ ...lujiazui, name: '规则楼宇', ruleIds: [rule.id] });
    const refused = await call('DELETE', `${rulePaths.remove}/${rule.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('楼宇 1 个（规则楼宇）');
    await call('PUT', paths.edit, { id: holder.id, ruleIds: [] });
    expect((await call('DELETE', `${rulePaths.remove}/${rule.id}`)).status).toBe(200);
    await call('DELETE', `${paths.remove}/${holder.id}`);
  });
});

describe('buildings, buildingCity and buildingFloors on the demo data', () => {
  let t: TestApp;
  let yunying: Record<string, string>;
  const get = async (url: string) => {
    const res = await t.app.inject({ url, headers: yunying });
    return { status: res.statusCode, body: res.json() };
  };

  beforeAll(async () => {
    t = await buildTestApp();
    // 运营 may not open the screen, but may read what other screens pick from.
    yunying = await t.auth(...demo.yunying);
  });
  afterAll(() => t?.close());

  test('buildings lists the published ones, by city or merchant', async () => {
    const all = await get(buildingEndpoints.buildings);
    expect(all.status).toBe(200);
    const names = all.body.data.map((b: { name: string }) => b.name);
    expect(names).toHaveLength(7);
    expect(names).not.toContain('栖舍·西溪');
    expect(all.body.data[0]).toEqual({
      id: expect.any(Number),
      name: '氪空间·望京SOHO',
      cityCode: '110100',
      floors: ['8F', '9F', '10F', '11F', '12F'],
    });

    const beijing = await get(`${buildingEndpoints.buildings}?cityCode=110100`);
    expect(beijing.body.data.map((b: { name: string }) => b.name)).toEqual([
      '氪空间·望京SOHO',
      '氪空间·国贸中心',
      '氪空间·中关村',
    ]);
    const [merchant] = await t.db.select().from(merchants).where(eq(merchants.name, '南山创客汇'));
    const byMerchant = await get(`${buildingEndpoints.buildings}?merchantId=${merchant.id}`);
    expect(byMerchant.body.data.map((b: { name: string }) => b.name)).toEqual([
      '创客汇·科技园',
      '创客汇·福田CBD',
    ]);
    const bad = await get(`${buildingEndpoints.buildings}?cityCode=北京`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('城市');
  });

  test('buildingCity lists the cities with how many buildings each', async () => {
    const res = await get(buildingEndpoints.buildingCity);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { code: '110100', name: '北京市', buildingCount: 3 },
      { code: '310100', name: '上海市', buildingCount: 2 },
      { code: '330100', name: '杭州市', buildingCount: 1 },
      { code: '440300', name: '深圳市', buildingCount: 2 },
    ]);
  });

  test('buildingFloors answers one building’s floors; an unknown one is a 404', async () => {
    const [first] = (await get(`${buildingEndpoints.buildings}?cityCode=440300`)).body.data;
    const res = await get(`${buildingEndpoints.buildingFloors}/${first.id}`);
    expect(res.body.data).toEqual(['10F', '11F', '12F', '13F', '14F']);
    expect((await get(`${buildingEndpoints.buildingFloors}/999999`)).status).toBe(404);
    expect((await get(`${buildingEndpoints.buildingFloors}/abc`)).status).toBe(400);
  });

  test('the demo buildings have valid areas, shown by name', async () => {
    const admin = await t.auth(...demo.admin);
    const res = await t.app.inject({ url: `${building.base}/page?size=20`, headers: admin });
    const areas = res.json().data.records.map((r: { areaName: string }) => r.areaName);
    expect(areas).toContain('北京市 朝阳区');
    expect(areas).toContain('浙江省 杭州市 西湖区');
  });
});
