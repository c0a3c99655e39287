/**
 * 接口密钥 limited to buildings (限定楼宇): the key finds only its buildings' records. Another
 * building's record is 404 by id (read, edit, publish, remove; a door opened), never 403, so the key
 * does not learn it exists, on CRUD resources (lib/crud's `buildingColumn`) and hand-written routes
 * alike; lists with no building filter show only its buildings' rows; a key of several buildings
 * sees all of them without naming one. Staff are not limited.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deviceEndpoints, doorOperationEndpoints, resourcePaths, type Page } from '@cowork/contract';
import { apiKeyEndpoints } from '@cowork/contract/resources/api-key';
import { building } from '@cowork/contract/resources/building';
import { orderPaths, writableOrders } from '@cowork/contract/resources/order';
import { officeStation } from '@cowork/contract/resources/station';
import { userCard } from '@cowork/contract/resources/user-card';
import {
  deviceAlarms,
  deviceOpenLogs,
  devices,
  officeStations,
  orders,
  spaces,
  ssoRoles,
  userCards,
} from '../src/db/schema.ts';
import { buildTestApp, callApi, demo, type TestApp } from './helper.ts';

let t: TestApp;
let admin: { authorization: string };
/** A key of building A only; a key of A and B; their buildings; B's records by id. */
let onlyA: { authorization: string };
let both: { authorization: string };
let a: number;
let b: number;
const mineAndTheirs = { station: [0, 0], device: [0, 0], order: [0, 0], space: [0, 0] };
let orderKind: (typeof orders.$inferSelect)['kind'] = 'office-station';

const stationPaths = resourcePaths(officeStation);
const buildingPaths = resourcePaths(building);
const cardPaths = resourcePaths(userCard);

async function mint(buildingIds: number[]) {
  const [superRole] = await t.db
    .select({ id: ssoRoles.id })
    .from(ssoRoles)
    .where(eq(ssoRoles.code, 'super_admin'));
  const res = await callApi<{ key: string }>(t, admin, 'POST', apiKeyEndpoints.save, {
    name: `楼宇密钥${buildingIds.join('-')}`,
    roleId: superRole.id,
    buildingIds,
  });
  expect(res.status, res.raw).toBe(200);
  return { authorization: `Bearer ${res.body.data.key}` };
}

/** The building ids of a page's rows (a column of one building, or of several). */
async function buildingsListed(
  headers: Record<string, string>,
  url: string,
  key: 'buildingId' | 'buildingIds' | 'id' = 'buildingId',
) {
  const res = await callApi<Page<Record<string, unknown>>>(t, headers, 'GET', url);
  expect(res.status, `${url}: ${res.raw}`).toBe(200);
  expect(res.body.data.records.length, url).toBeGreaterThan(0);
  return res.body.data.records.map((r) => r[key]);
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.auth(...demo.admin);
  // Two buildings that both have meeting rooms and orders.
  const placed = await t.db
    .selectDistinct({ id: officeStations.buildingId })
    .from(officeStations)
    .innerJoin(orders, eq(orders.buildingId, officeStations.buildingId))
    .orderBy(officeStations.buildingId);
  expect(placed.length).toBeGreaterThanOrEqual(2);
  [a, b] = [placed[0].id, placed[1].id];
  for (const [i, id] of [a, b].entries()) {
    const [station] = await t.db
      .select({ id: officeStations.id })
      .from(officeStations)
      .where(eq(officeStations.buildingId, id))
      .limit(1);
    mineAndTheirs.station[i] = station.id;
    const [space] = await t.db
      .insert(spaces)
      .values({ buildingId: id, name: `密钥测试门厅${i}`, kind: 'gate' })
      .returning({ id: spaces.id });
    const [device] = await t.db
      .insert(devices)
      .values({
        sn: `SCOPE-${i}`,
        name: `密钥测试门${i}`,
        spaceId: space.id,
        secret: t.app.devices.box.seal('x'),
      })
      .returning({ id: devices.id });
    mineAndTheirs.device[i] = device.id;
    mineAndTheirs.space[i] = space.id;
    await t.db.insert(deviceOpenLogs).values({
      messageId: `scope-open-${i}`,
      deviceId: device.id,
      sn: `SCOPE-${i}`,
      method: 'card',
      result: 'success',
      at: new Date(),
    });
    await t.db.insert(deviceAlarms).values({
      messageId: `scope-alarm-${i}`,
      deviceId: device.id,
      sn: `SCOPE-${i}`,
      buildingId: id,
      kind: 'forced',
      raisedAt: new Date(),
    });
  }
  const [theirOrder] = await t.db
    .select({ id: orders.id, kind: orders.kind })
    .from(orders)
    .where(eq(orders.buildingId, b))
    .limit(1);
  orderKind = theirOrder.kind;
  const [myOrder] = await t.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.buildingId, a), eq(orders.kind, orderKind)))
    .limit(1);
  mineAndTheirs.order = [myOrder?.id ?? 0, theirOrder.id];
  onlyA = await mint([a]);
  both = await mint([a, b]);
});

afterAll(async () => {
  await t?.close();
});

describe('another building’s record by id is 404, as if it did not exist', () => {
  test('on a CRUD resource: detail, edit, publish, remove', async () => {
    const [mine, theirs] = mineAndTheirs.station;
    expect((await callApi(t, onlyA, 'GET', `${stationPaths.detail}/${mine}`)).status).toBe(200);
    const calls: [string, string, object?][] = [
      ['GET', `${stationPaths.detail}/${theirs}`],
      ['PUT', stationPaths.edit, { id: theirs, capacity: 99 }],
      ['PUT', stationPaths.editPublished, { id: theirs, published: false }],
      ['DELETE', `${stationPaths.remove}/${theirs}`],
      ['DELETE', stationPaths.remove, { ids: [mine, theirs] }],
      ['GET', `${buildingPaths.detail}/${b}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await callApi(t, onlyA, method, url, body);
      expect(res.status, `${method} ${url}: ${res.raw}`).toBe(404);
    }
    // Nothing changed, and staff still reach it.
    const [row] = await t.db.select().from(officeStations).where(eq(officeStations.id, theirs));
    expect(row.capacity).not.toBe(99);
    expect((await callApi(t, admin, 'GET', `${stationPaths.detail}/${theirs}`)).status).toBe(200);
    // A key of both buildings reaches it.
    expect((await callApi(t, both, 'GET', `${stationPaths.detail}/${theirs}`)).status).toBe(200);
  });

  test('on hand-written routes: a device (detail, door code, opening the door), a space’s emergency mode and an order', async () => {
    const [mine, theirs] = mineAndTheirs.device;
    expect((await callApi(t, onlyA, 'GET', `${deviceEndpoints.detail}/${mine}`)).status).toBe(200);
    const calls: [string, string, object?][] = [
      ['GET', `${deviceEndpoints.detail}/${theirs}`],
      ['GET', `${deviceEndpoints.totpCode}?id=${theirs}`],
      ['POST', deviceEndpoints.openDoor, { id: theirs, reason: '越界开门' }],
      [
        'POST',
        doorOperationEndpoints.spaceMode,
        { spaceId: mineAndTheirs.space[1], mode: 'lockdown', reason: '越界封锁' },
      ],
    ];
    const resource = writableOrders.find((r) => r.kind === orderKind)!;
    const paths = orderPaths(resource);
    calls.push(['GET', `${paths.detail}/${mineAndTheirs.order[1]}`]);
    calls.push([
      'PUT',
      paths.editReferrerPhone,
      { id: mineAndTheirs.order[1], referrerPhone: '13800000000' },
    ]);
    for (const [method, url, body] of calls) {
      const res = await callApi(t, onlyA, method, url, body);
      expect(res.status, `${method} ${url}: ${res.raw}`).toBe(404);
    }
    if (mineAndTheirs.order[0])
      expect((await callApi(t, onlyA, 'GET', `${paths.detail}/${mineAndTheirs.order[0]}`)).status).toBe(200);
    expect((await callApi(t, admin, 'GET', `${deviceEndpoints.detail}/${theirs}`)).status).toBe(200);
    const [gate] = await t.db.select().from(spaces).where(eq(spaces.id, mineAndTheirs.space[1]));
    expect(gate.mode).toBe('normal');
    expect((await callApi(t, admin, 'GET', `${paths.detail}/${mineAndTheirs.order[1]}`)).status).toBe(200);
  });
});

test('lists without a building filter show only the key’s buildings', async () => {
  const resource = writableOrders.find((r) => r.kind === orderKind)!;
  const lists: [string, 'buildingId' | 'id'][] = [
    [`${buildingPaths.page}?size=100`, 'id'],
    [`${stationPaths.page}?size=100`, 'buildingId'],
    [`${orderPaths(resource).page}?size=100`, 'buildingId'],
    [`${deviceEndpoints.page}?size=100`, 'buildingId'],
    [`${deviceEndpoints.alarmPage}?size=100`, 'buildingId'],
  ];
  for (const [url, key] of lists) {
    expect(new Set(await buildingsListed(onlyA, url, key)), url).toEqual(new Set([a]));
    // Staff, and the key of both buildings, see both.
    for (const headers of [admin, both]) {
      const seen = new Set(await buildingsListed(headers, url, key));
      expect(seen.has(a) && seen.has(b), url).toBe(true);
    }
  }
  // Open logs name no building: the key sees its own door's only.
  const logs = await callApi<Page<{ sn: string }>>(
    t,
    onlyA,
    'GET',
    `${deviceEndpoints.openLogPage}?size=100`,
  );
  expect(logs.status, logs.raw).toBe(200);
  expect(logs.body.data.records.map((r) => r.sn)).toEqual(['SCOPE-0']);
  // The selects' options too.
  const options = await callApi<{ value: number }[]>(t, onlyA, 'GET', stationPaths.list);
  const allowed = await t.db
    .select({ id: officeStations.id })
    .from(officeStations)
    .where(eq(officeStations.buildingId, a));
  expect(options.body.data.map((o) => o.value).sort()).toEqual(allowed.map((s) => s.id).sort());
});

test('records valid in several buildings (会员卡) are the key’s when one of them is', async () => {
  const cards = await t.db.select({ id: userCards.id, buildingIds: userCards.buildingIds }).from(userCards);
  const outside = cards.filter((c) => !c.buildingIds.includes(a));
  expect(outside.length).toBeGreaterThan(0);
  const listed = (await buildingsListed(onlyA, `${cardPaths.page}?size=100`, 'buildingIds')) as number[][];
  expect(listed.every((ids) => ids.includes(a))).toBe(true);
  for (const card of outside) {
    expect((await callApi(t, onlyA, 'GET', `${cardPaths.detail}/${card.id}`)).status).toBe(404);
  }
  // Staff see them all.
  expect((await callApi<Page<unknown>>(t, admin, 'GET', `${cardPaths.page}?size=100`)).body.data.total).toBe(
    cards.length,
  );
});
