/**
 * 门禁联动 and the access list, end to end through the embedded broker: a set holding a floor gives
 * its device the members of paid bookings of a meeting room on that floor (±15 minutes) and of
 * membership cards of the building; paying, refunding, editing the set and a card running out each
 * reach the device at once, and the member's personal code opens the door only while listed.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ACCESS_BOOKING_MARGIN_MS, deviceEndpoints, resourcePaths } from '@cowork/contract';
import { deviceSetEndpoints, deviceSetMessages } from '@cowork/contract/resources/device-set';
import { officeStationOrder, orderPaths, userCardOrder } from '@cowork/contract/resources/order';
import { space } from '@cowork/contract/resources/space';
import { buildings, members, officeStations, orders, userCards } from '../src/db/schema.ts';
import { memberTotpKey, totpCode } from '../src/device-link/protocol.ts';
import { SimulatedDevice, type AccessEntry } from '../src/device-link/simulator.ts';
import { buildTestApp, createRole, createUser, demo, type TestApp, until } from './helper.ts';

const enrolKey = 'test-enrol-key-device-set';
let t: TestApp;
let headers: Record<string, string>;
let device: SimulatedDevice;
let deviceId: number;
let secret: string;
let buildingId: number;
let roomId: number;
let cardId: number;
let floorId: number;
let member: { id: number; phone: string };
let setId: number;

const room = orderPaths(officeStationOrder);
const card = orderPaths(userCardOrder);
const DAY = 86_400_000;
const dayIn = (n: number) => new Date(Date.now() + 8 * 3_600_000 + n * DAY).toISOString().slice(0, 10);
const at = (n: number, hhmm: string) => `${dayIn(n)}T${hhmm}:00+08:00`;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, as = headers) =>
  t.app.inject({
    method,
    url,
    headers: as,
    ...(method === 'GET' ? { query: payload as never } : { payload }),
  });

const entriesOf = (memberId: number): AccessEntry[] =>
  device.state.access.filter((e) => e.memberId === memberId);

beforeAll(async () => {
  t = await buildTestApp({ config: { deviceEnrolKey: enrolKey } });
  await t.app.ready();
  headers = await t.auth(...demo.admin);
  const url = t.app.devices.status().url!;
  [{ id: buildingId }] = await t.db
    .select({ id: buildings.id })
    .from(buildings)
    .orderBy(buildings.id)
    .limit(1);
  [member] = await t.db
    .insert(members)
    .values({ phone: '17900003333' })
    .returning({ id: members.id, phone: members.phone });
  [{ id: roomId }] = await t.db
    .insert(officeStations)
    .values({
      buildingId,
      name: '门禁测试会议室',
      capacity: 8,
      hourPriceFen: 10_000,
      minBookingMinutes: 60,
      openTime: '00:00',
      closeTime: '23:59',
      published: true,
    })
    .returning({ id: officeStations.id });
  [{ id: cardId }] = await t.db
    .insert(userCards)
    .values({
      name: '门禁测试月卡',
      cardType: 'month',
      validDays: 30,
      priceFen: 1000,
      buildingIds: [buildingId],
      published: true,
    })
    .returning({ id: userCards.id });

  // A registered device, connected with its secret.
  const enrolling = new SimulatedDevice({ url, enrolKey, sn: 'SET-DOOR-1' });
  await enrolling.connect();
  await until(
    async () => (await call('GET', deviceEndpoints.unPulledList)).json().data.length > 0,
    'the device waiting',
  );
  const registered = await call('POST', deviceEndpoints.register, {
    sn: 'SET-DOOR-1',
    name: '8F 前门',
    spaceId: null,
  });
  expect(registered.statusCode, registered.body).toBe(200);
  ({ id: deviceId, secret } = registered.json().data);
  await enrolling.close();
  device = new SimulatedDevice({ url, sn: 'SET-DOOR-1', secret, heartbeatMs: 1_000 });
  await device.connect();
  await until(() => device.commands.some((c) => c.type === 'sync'), 'the first sync');

  const spaces = resourcePaths(space);
  const floor = await call('POST', spaces.save, { buildingId, name: '8F', kind: 'floor' });
  floorId = floor.json().data.id;
  const linked = await call('POST', spaces.save, {
    buildingId,
    parentId: floorId,
    name: '801',
    kind: 'room',
    officeStationId: roomId,
  });
  expect(linked.statusCode, linked.body).toBe(200);
});

afterAll(async () => {
  await device?.close();
  await t?.close();
});

test('a set is saved with its device, named uniquely, listed with its counts', async () => {
  const saved = await call('POST', deviceSetEndpoints.save, {
    name: '8 楼门禁',
    remark: '前门',
    deviceIds: [deviceId],
  });
  expect(saved.statusCode, saved.body).toBe(200);
  setId = saved.json().data.id;
  const again = await call('POST', deviceSetEndpoints.save, { name: '8 楼门禁', deviceIds: [] });
  expect(again.statusCode).toBe(409);
  expect(again.json().msg).toBe(deviceSetMessages.nameTaken('8 楼门禁'));
  const noName = await call('POST', deviceSetEndpoints.save, { name: ' ', deviceIds: [] });
  expect(noName.statusCode).toBe(400);
  expect(noName.json().msg).toContain('联动名称');
  const ghost = await call('POST', deviceSetEndpoints.save, { name: '幽灵', deviceIds: [999_999] });
  expect(ghost.statusCode).toBe(400);
  expect(ghost.json().msg).toBe(deviceSetMessages.devicesMissing);

  const list = await call('GET', deviceSetEndpoints.list);
  expect(list.json().data).toEqual([
    expect.objectContaining({ id: setId, name: '8 楼门禁', remark: '前门', deviceCount: 1, spaceCount: 0 }),
  ]);
  const detail = await call('GET', `${deviceSetEndpoints.detail}/${setId}`);
  expect(detail.json().data.devices).toEqual([expect.objectContaining({ id: deviceId, sn: 'SET-DOOR-1' })]);
});

test('holding the floor: a paid booking of its room reaches the device at once, with 15 minutes either side', async () => {
  const notHeld = await call('GET', deviceSetEndpoints.notHoldSpacePage, { id: setId, name: '8F', size: 50 });
  expect(notHeld.json().data.records.map((s: { id: number }) => s.id)).toContain(floorId);
  const held = await call('POST', deviceSetEndpoints.saveSpace, { id: setId, spaceIds: [floorId] });
  expect(held.statusCode, held.body).toBe(200);
  const holding = await call('GET', deviceSetEndpoints.holdSpacePage, { id: setId });
  expect(holding.json().data.records).toEqual([expect.objectContaining({ id: floorId, name: '8F' })]);

  const booked = await call('POST', room.save, {
    memberPhone: member.phone,
    productId: roomId,
    payMethod: 'offline',
    paid: true,
    startAt: at(1, '10:00'),
    endAt: at(1, '11:00'),
  });
  expect(booked.statusCode, booked.body).toBe(200);
  const [entry] = await until(
    () => entriesOf(member.id).length > 0 && entriesOf(member.id),
    'the booking on the device',
  );
  expect(entry).toEqual({
    memberId: member.id,
    phone: '179****3333',
    validFrom: Date.parse(at(1, '10:00')) - ACCESS_BOOKING_MARGIN_MS,
    validTo: Date.parse(at(1, '11:00')) + ACCESS_BOOKING_MARGIN_MS,
  });
  // The member's personal code opens the door inside the window, not before it.
  const inside = Date.parse(at(1, '10:30'));
  const code = totpCode(memberTotpKey(secret, member.id), inside).code;
  expect((await device.enterCode(code, inside)).result).toBe('success');
  const early = Date.parse(at(1, '09:30'));
  expect((await device.enterCode(totpCode(memberTotpKey(secret, member.id), early).code, early)).result).toBe(
    'denied',
  );
  await until(async () => {
    const page = await call('GET', deviceEndpoints.page, { sn: 'SET-DOOR-1' });
    return page.json().data.records[0].syncState === 'synced';
  }, 'the device shown 已同步');

  // Refunded: gone from the device, without anything else happening.
  const refunded = await call('PUT', room.refund, { id: booked.json().data.id, reason: '会议取消' });
  expect(refunded.statusCode, refunded.body).toBe(200);
  await until(() => entriesOf(member.id).length === 0, 'the refund on the device');
});

test('a membership card of the building opens the doors until it runs out, then it is taken off', async () => {
  const sold = await call('POST', card.save, {
    memberPhone: member.phone,
    productId: cardId,
    buildingId,
    payMethod: 'offline',
    paid: true,
  });
  expect(sold.statusCode, sold.body).toBe(200);
  await until(() => entriesOf(member.id).length > 0, 'the card on the device');

  // The card ends in two seconds: the device is re-synced then, by the schedule kept in the database.
  const syncs = device.commands.filter((c) => c.type === 'sync').length;
  await t.db
    .update(orders)
    .set({ validTo: new Date(Date.now() + 2_000) })
    .where(eq(orders.id, sold.json().data.id));
  await t.app.devices.accessChanged({ buildingIds: [buildingId] });
  expect(entriesOf(member.id)[0].validTo).toBeLessThan(Date.now() + 2_100);
  await until(() => entriesOf(member.id).length === 0, 'the expired card taken off', 6_000);
  expect(device.commands.filter((c) => c.type === 'sync').length).toBeGreaterThan(syncs);
});

test('a change that changes nothing sends nothing; releasing the space or the device empties the list', async () => {
  await call('POST', card.save, {
    memberPhone: member.phone,
    productId: cardId,
    buildingId,
    payMethod: 'offline',
    paid: true,
  });
  await until(() => entriesOf(member.id).length > 0, 'a second card on the device');
  await t.app.devices.settled();
  const syncs = device.commands.filter((c) => c.type === 'sync').length;
  await t.app.devices.accessChanged({ buildingIds: [buildingId] });
  expect(device.commands.filter((c) => c.type === 'sync').length).toBe(syncs);

  const released = await call('POST', deviceSetEndpoints.removeSpace, { id: setId, spaceIds: [floorId] });
  expect(released.statusCode).toBe(200);
  await until(() => device.state.access.length === 0, 'the list emptied');
  await call('POST', deviceSetEndpoints.saveSpace, { id: setId, spaceIds: [floorId] });
  await until(() => entriesOf(member.id).length > 0, 'held again');
  const out = await call('POST', deviceSetEndpoints.removeRelation, { id: setId, deviceIds: [deviceId] });
  expect(out.json().msg).toBe(deviceSetMessages.devicesRemoved(1));
  await until(() => device.state.access.length === 0, 'the device out of the set');
  const back = await call('POST', deviceSetEndpoints.editRelation, { id: setId, deviceIds: [deviceId] });
  expect(back.statusCode).toBe(200);
  await until(() => entriesOf(member.id).length > 0, 'the device back in the set');

  // A held space cannot be removed (409 naming the set); the set can, and its device is emptied.
  const removeFloor = await call('DELETE', `${resourcePaths(space).remove}/${floorId}`);
  expect(removeFloor.statusCode).toBe(409);
  expect(removeFloor.json().msg).toContain('8 楼门禁');
  const removed = await call('DELETE', `${deviceSetEndpoints.remove}/${setId}`);
  expect(removed.statusCode).toBe(200);
  await until(() => device.state.access.length === 0, 'the set removed');
  expect((await call('GET', `${deviceSetEndpoints.detail}/${setId}`)).statusCode).toBe(404);
});

test('a sync that never arrived is sent again by the periodic check, not only at the next hello', async () => {
  let mute = true;
  const url = t.app.devices.status().url!;
  const enrolling = new SimulatedDevice({ url, enrolKey, sn: 'SET-DOOR-2' });
  await enrolling.connect();
  await until(
    async () =>
      (await call('GET', deviceEndpoints.unPulledList))
        .json()
        .data.some((d: { sn: string }) => d.sn === 'SET-DOOR-2'),
    'the second device waiting',
  );
  const registered = await call('POST', deviceEndpoints.register, {
    sn: 'SET-DOOR-2',
    name: '8F 后门',
    spaceId: null,
  });
  await enrolling.close();
  const quiet = new SimulatedDevice({
    url,
    sn: 'SET-DOOR-2',
    secret: registered.json().data.secret,
    answer: (c) => (mute && c.type === 'sync' ? 'silent' : { ok: true }),
  });
  await quiet.connect();
  try {
    const state = async () =>
      (await call('GET', deviceEndpoints.page, { sn: 'SET-DOOR-2' })).json().data.records[0].syncState;
    // The first sync goes unanswered: after its 5 s it shows 未同步.
    await until(async () => (await state()) === 'unsynced', 'the unanswered sync shown 未同步', 9_000);
    mute = false;
    await t.app.devices.resyncStale();
    expect(await state()).toBe('synced');
    expect(quiet.commands.filter((c) => c.type === 'sync').length).toBe(2);
  } finally {
    await quiet.close();
  }
});

test('bad input names the field; a role without 门禁联动 rights is refused', async () => {
  const { id } = (await call('POST', deviceSetEndpoints.save, { name: '空联动' })).json().data;
  const empty = await call('POST', deviceSetEndpoints.saveSpace, { id, spaceIds: [] });
  expect(empty.statusCode).toBe(400);
  expect(empty.json().msg).toBe('空间：请至少选择一个空间');
  const missing = await call('POST', deviceSetEndpoints.saveSpace, { id: 999_999, spaceIds: [floorId] });
  expect(missing.statusCode).toBe(404);
  const tooLong = await call('PUT', deviceSetEndpoints.edit, { id, name: 'x'.repeat(51) });
  expect(tooLong.statusCode).toBe(400);

  await createRole(t.db, { code: 'device-viewer', name: '设备查看', permissions: ['hardware:device:view'] });
  await createUser(t.db, { username: 'viewer1', password: 'Viewer@123', roleCodes: ['device-viewer'] });
  const viewer = await t.auth('viewer1', 'Viewer@123');
  expect((await call('GET', deviceSetEndpoints.list, undefined, viewer)).statusCode).toBe(403);
  expect((await call('POST', deviceSetEndpoints.save, { name: '越权' }, viewer)).statusCode).toBe(403);
});
