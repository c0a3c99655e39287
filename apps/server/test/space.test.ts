/**
 * 物理空间: a tree per building with kind rules, sub-space for the tree, and spaces that hold
 * something (children, devices) kept with a 409 naming what they hold.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { deviceEndpoints, prefixes, resourcePaths, type ListOption } from '@cowork/contract';
import { space, spaceMessages, spaceSubSpacePath } from '@cowork/contract/resources/space';
import { devices } from '../src/db/schema.ts';
import { buildTestApp, demo, type TestApp } from './helper.ts';

let t: TestApp;
let headers: { authorization: string };
let buildingIds: number[];
const paths = resourcePaths(space);

beforeAll(async () => {
  t = await buildTestApp();
  headers = await t.auth(...demo.yunying);
  const list = await t.app.inject({ url: `${prefixes.building}/building/list`, headers });
  buildingIds = list.json<{ data: ListOption[] }>().data.map((b) => Number(b.value));
});
afterAll(() => t?.close());

const save = async (body: object) =>
  t.app.inject({ method: 'POST', url: paths.save, headers, payload: body });
const created = async (body: object) => {
  const res = await save(body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { id: number } }>().data.id;
};

test('a building tree: floors under the building, rooms and gates under floors, listed level by level', async () => {
  const [buildingId] = buildingIds;
  const tower = await created({ buildingId, name: 'A 座', kind: 'building' });
  const floor = await created({ buildingId, parentId: tower, name: '8F', kind: 'floor' });
  await created({ buildingId, parentId: floor, name: '801 会议室', kind: 'room', sort: 2 });
  await created({ buildingId, parentId: floor, name: '8F 闸机', kind: 'gate', sort: 1 });

  const top = await t.app.inject({
    url: spaceSubSpacePath,
    query: { buildingId: String(buildingId) },
    headers,
  });
  expect(top.json().data).toEqual(
    expect.arrayContaining([expect.objectContaining({ id: tower, name: 'A 座', hasChildren: true })]),
  );
  const rooms = await t.app.inject({
    url: spaceSubSpacePath,
    query: { buildingId: String(buildingId), parentId: String(floor) },
    headers,
  });
  expect(rooms.json().data.map((s: { name: string }) => s.name)).toEqual(['8F 闸机', '801 会议室']);
});

test('kind rules, another building, a loop: refused with the reason, nothing saved', async () => {
  const [buildingId, other] = buildingIds;
  const floor = await created({ buildingId, name: '3F', kind: 'floor' });
  const room = await created({ buildingId, parentId: floor, name: '301', kind: 'room' });

  const underRoom = await save({ buildingId, parentId: room, name: '柜子', kind: 'room' });
  expect(underRoom.statusCode).toBe(400);
  expect(underRoom.json().msg).toBe(spaceMessages.kindNotAllowed('房间“301”', '房间', '无'));
  const roomOnTop = await save({ buildingId, name: '孤立房间', kind: 'room' });
  expect(roomOnTop.statusCode).toBe(400);
  const elsewhere = await save({ buildingId: other, parentId: floor, name: '9F', kind: 'floor' });
  expect(elsewhere.statusCode).toBe(400);
  expect(elsewhere.json().msg).toBe(spaceMessages.parentOtherBuilding);
  const gate = await created({ buildingId, parentId: floor, name: '3F 门', kind: 'gate' });
  const loop = await t.app.inject({
    method: 'PUT',
    url: paths.edit,
    headers,
    payload: { id: floor, buildingId, parentId: floor, name: '3F', kind: 'floor' },
  });
  expect(loop.statusCode).toBe(400);
  expect(loop.json().msg).toBe(spaceMessages.parentIsSelf);
  expect(gate).toBeGreaterThan(0);
});

test('a space holding spaces or devices is not removed (409 naming them)', async () => {
  const [buildingId] = buildingIds;
  const floor = await created({ buildingId, name: '5F', kind: 'floor' });
  const gate = await created({ buildingId, parentId: floor, name: '5F 东门', kind: 'gate' });
  const withChild = await t.app.inject({ method: 'DELETE', url: `${paths.remove}/${floor}`, headers });
  expect(withChild.statusCode).toBe(409);
  expect(withChild.json().msg).toContain('5F 东门');

  await t.db.insert(devices).values({ sn: 'SPACE-TEST-1', name: '东门读头', spaceId: gate, secret: 'x' });
  const withDevice = await t.app.inject({ method: 'DELETE', url: `${paths.remove}/${gate}`, headers });
  expect(withDevice.statusCode).toBe(409);
  expect(withDevice.json().msg).toContain('东门读头');
  const listed = await t.app.inject({ url: deviceEndpoints.page, query: { spaceId: String(gate) }, headers });
  expect(listed.json().data.records[0]).toMatchObject({ name: '东门读头', spaceName: '5F 东门' });
});
