import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths, type Page } from '@cowork/contract';
import { brightPoint } from '@cowork/contract/resources/bright-point';
import { building } from '@cowork/contract/resources/building';
import { merchant } from '@cowork/contract/resources/merchant';
import { activityStation, officeStation, type StationResource } from '@cowork/contract/resources/station';
import { buildTestApp, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

type Body = Record<string, unknown>;

/** Ids of the records stations refer to, made by `makeFixtures` on each fresh app. */
interface Fixtures {
  building: number;
  flatBuilding: number;
  facility: number;
  highlight: number;
}

async function makeFixtures(t: TestApp): Promise<Fixtures> {
  const headers = await t.auth(...demo.admin);
  const save = async (path: string, payload: Body) => {
    const res = await t.app.inject({ method: 'POST', url: `${path}/save`, headers, payload });
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.body}`);
    return res.json().data.id as number;
  };
  const merchantId = await save(merchant.base, { name: '测试商户' });
  const place = { merchantId, provinceCode: '110000', cityCode: '110100', address: '望京街10号' };
  return {
    building: await save(building.base, { ...place, name: '测试楼宇', floors: ['8F', '9F'] }),
    flatBuilding: await save(building.base, { ...place, name: '无楼层楼宇' }),
    facility: await save(brightPoint.base, { kind: 'facility', name: '投影仪' }),
    highlight: await save(brightPoint.base, { kind: 'highlight', name: '地铁直达' }),
  };
}

const ids: Fixtures = { building: 0, flatBuilding: 0, facility: 0, highlight: 0 };

/** A valid body; its references are read when it is sent, after the fixtures exist. */
const station = (extra: Body = {}): Body => ({
  get buildingId() {
    return ids.building;
  },
  get facilityIds() {
    return [ids.facility];
  },
  floor: '8F',
  name: '创想厅',
  capacity: 12,
  areaSqm: 36.5,
  hourPriceFen: 12000,
  minBookingMinutes: 30,
  openTime: '08:00',
  closeTime: '22:00',
  imageUrls: ['/demo/meeting-room-1.svg'],
  ...extra,
});

for (const resource of [officeStation, activityStation]) {
  resourceSuite({
    resource,
    setup: async (t) => void Object.assign(ids, await makeFixtures(t)),
    samples: [station(), station({ name: '头脑风暴室', floor: '9F', capacity: 6 })],
    change: { name: '创想厅（大）', capacity: 16, areaSqm: 40.25, hourPriceFen: 15000 },
    invalid: [
      { body: station({ name: '' }), field: 'name' },
      { body: station({ buildingId: 999_999 }), field: 'buildingId' },
      { body: station({ floor: '3F' }), field: 'floor' },
      { body: station({ floor: null }), field: 'floor' },
      { body: station({ capacity: 0 }), field: 'capacity' },
      { body: station({ areaSqm: 0 }), field: 'areaSqm' },
      { body: station({ hourPriceFen: -1 }), field: 'hourPriceFen' },
      { body: station({ minBookingMinutes: 10 }), field: 'minBookingMinutes' },
      { body: station({ minBookingMinutes: 40 }), field: 'minBookingMinutes' },
      { body: station({ openTime: undefined }), field: 'openTime' },
      { body: station({ closeTime: '25:00' }), field: 'closeTime' },
      { body: station({ closeTime: '08:00' }), field: 'closeTime' },
      { body: station({ facilityIds: [999_999] }), field: 'facilityIds' },
    ],
    search: { name: '创想' },
  });
}

describe('会议室 and 活动场地 rules beyond the mechanism', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const call = async (method: string, url: string, payload?: Body) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: admin,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const save = (resource: StationResource, body: Body) => call('POST', resourcePaths(resource).save, body);

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
    Object.assign(ids, await makeFixtures(t));
  });
  afterAll(() => t?.close());

  test('the building must exist: 400 naming 楼宇, nothing written', async () => {
    const res = await save(officeStation, station({ buildingId: 424_242 }));
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('楼宇');
    expect(res.body.msg).toContain('不存在');
  });

  test('the floor must be one of the building’s floors, which the 400 lists; a building without floors takes any', async () => {
    const wrong = await save(officeStation, station({ floor: '12F' }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toContain('楼层');
    expect(wrong.body.msg).toContain('8F、9F');
    const flat = await save(
      officeStation,
      station({ buildingId: ids.flatBuilding, floor: '夹层', name: '夹层会议室' }),
    );
    expect(flat.status, flat.body.msg).toBe(200);
    const noFloor = await save(
      officeStation,
      station({ buildingId: ids.flatBuilding, floor: '', name: '无楼层会议室' }),
    );
    expect(noFloor.body.data.floor).toBeNull();
    // Moving the room to a building with floors checks the floor it keeps.
    const moved = await call('PUT', resourcePaths(officeStation).edit, {
      id: flat.body.data.id,
      buildingId: ids.building,
    });
    expect(moved.status).toBe(400);
    expect(moved.body.msg).toContain('楼层');
    const movedWithFloor = await call('PUT', resourcePaths(officeStation).edit, {
      id: flat.body.data.id,
      buildingId: ids.building,
      floor: '9F',
    });
    expect(movedWithFloor.status, movedWithFloor.body.msg).toBe(200);
  });

  test('facilities must exist and be facilities, not highlights: 400 naming 设施', async () => {
    const highlight = await save(activityStation, station({ facilityIds: [ids.facility, ids.highlight] }));
    expect(highlight.status).toBe(400);
    expect(highlight.body.msg).toContain('设施');
    const twice = await save(
      activityStation,
      station({ name: '多功能厅', facilityIds: [ids.facility, ids.facility] }),
    );
    expect(twice.status, twice.body.msg).toBe(200);
    expect(twice.body.data.facilityIds).toEqual([ids.facility]);
  });

  test('the shortest booking is at least 15 minutes and a multiple of 15: 400 naming 最短预订时长', async () => {
    for (const minutes of [0, 14, 20, 50]) {
      const res = await save(officeStation, station({ name: `时长${minutes}`, minBookingMinutes: minutes }));
      expect(res.status, String(minutes)).toBe(400);
      expect(res.body.msg).toContain('最短预订时长');
    }
    const fine = await save(officeStation, station({ name: '时长45', minBookingMinutes: 45 }));
    expect(fine.status, fine.body.msg).toBe(200);
    const byDefault = await save(officeStation, station({ name: '默认时长', minBookingMinutes: undefined }));
    expect(byDefault.body.data.minBookingMinutes).toBe(60);
  });

  test('closing must be after opening, also when an edit changes only one of them', async () => {
    const saved = await save(
      officeStation,
      station({ name: '晚间会议室', openTime: '09:00', closeTime: '18:00' }),
    );
    expect(saved.status, saved.body.msg).toBe(200);
    const edit = await call('PUT', resourcePaths(officeStation).edit, {
      id: saved.body.data.id,
      openTime: '19:00',
    });
    expect(edit.status).toBe(400);
    expect(edit.body.msg).toContain('关闭时间');
    const fine = await call('PUT', resourcePaths(officeStation).edit, {
      id: saved.body.data.id,
      closeTime: '21:30',
    });
    expect(fine.body.data).toMatchObject({ openTime: '09:00', closeTime: '21:30' });
  });

  test('names are unique within a building (409), not across buildings or between rooms and venues', async () => {
    const first = await save(officeStation, station({ name: '同名厅' }));
    expect(first.status).toBe(200);
    const clash = await save(officeStation, station({ name: '同名厅', floor: '9F' }));
    expect(clash.status).toBe(409);
    expect(clash.body.msg).toContain('名称');
    expect(
      (await save(officeStation, station({ name: '同名厅', buildingId: ids.flatBuilding }))).status,
    ).toBe(200);
    expect((await save(activityStation, station({ name: '同名厅' }))).status).toBe(200);
  });

  test('rooms and venues are separate lists with separate permissions', async () => {
    const rooms = await call('GET', `${resourcePaths(officeStation).page}?size=100`);
    const venues = await call('GET', `${resourcePaths(activityStation).page}?size=100`);
    const names = (page: { body: { data: Page<{ name: string }> } }) =>
      page.body.data.records.map((r) => r.name);
    expect(names(rooms)).toContain('晚间会议室');
    expect(names(venues)).not.toContain('晚间会议室');
    expect(officeStation.permission).toBe('product:meetingRoom');
    expect(activityStation.permission).toBe('product:activityVenue');
  });
});

test('the demo brings two or three rooms per published building and venues in several', async () => {
  const t = await buildTestApp();
  try {
    const admin = await t.auth(...demo.admin);
    const page = async (resource: StationResource) =>
      (await t.app.inject({ url: `${resourcePaths(resource).page}?size=100`, headers: admin })).json()
        .data as Page<{
        buildingId: number;
        name: string;
        floor: string;
      }>;
    const buildings = (
      await t.app.inject({ url: `${building.base}/list?published=true`, headers: admin })
    ).json().data as { value: number }[];
    const rooms = await page(officeStation);
    for (const b of buildings) {
      const count = rooms.records.filter((r) => r.buildingId === b.value).length;
      expect(count).toBeGreaterThanOrEqual(2);
      expect(count).toBeLessThanOrEqual(3);
    }
    expect(rooms.records.map((r) => r.name)).toEqual(expect.arrayContaining(['创想厅', '头脑风暴室']));
    const venues = await page(activityStation);
    expect(new Set(venues.records.map((v) => v.buildingId)).size).toBeGreaterThanOrEqual(3);
  } finally {
    await t.close();
  }
});
