/**
 * Pickers say the building (issue 26 point 7): a space's option reads `楼宇 / 上级空间 / 空间`, the
 * options and the device list narrow to one building, devices and door events say where the
 * device is, and a 企业门禁组 takes only its building's devices (400 naming the field otherwise,
 * nothing added). A device never connected is not 已同步 (point 10).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  deviceEndpoints,
  prefixes,
  resourcePaths,
  type DeviceRecord,
  type ListOption,
} from '@cowork/contract';
import { deviceSetEndpoints } from '@cowork/contract/resources/device-set';
import { kreatorDeviceEndpoints, kreatorUserGroup } from '@cowork/contract/resources/kreator';
import { spaceListPath, type SpaceOption } from '@cowork/contract/resources/space';
import { deviceOpenLogs, devices, spaces } from '../src/db/schema.ts';
import { buildTestApp, createCompany, demo, type TestApp } from './helper.ts';

let t: TestApp;
let headers: Record<string, string>;
const buildingsUsed: { id: number; name: string; gate: number; device: number }[] = [];

const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers, ...(method === 'GET' ? { query: payload as never } : { payload }) });

beforeAll(async () => {
  t = await buildTestApp();
  headers = await t.auth(...demo.yunying);
  const listed = (await call('GET', `${prefixes.building}/building/list`)).json<{ data: ListOption[] }>();
  // Two buildings, each with the same names: 9F and a gate 大堂闸机 under it, and a device there.
  for (const [i, b] of listed.data.slice(0, 2).entries()) {
    const [floor] = await t.db
      .insert(spaces)
      .values({ buildingId: b.value, name: '9F', kind: 'floor' })
      .returning({ id: spaces.id });
    const [gate] = await t.db
      .insert(spaces)
      .values({ buildingId: b.value, parentId: floor.id, name: '大堂闸机', kind: 'gate' })
      .returning({ id: spaces.id });
    const [device] = await t.db
      .insert(devices)
      .values({
        sn: `PATH-${i}`,
        name: `路径门禁 ${i}`,
        spaceId: gate.id,
        secret: t.app.devices.box.seal(randomBytes(32).toString('base64url')),
      })
      .returning({ id: devices.id });
    buildingsUsed.push({ id: b.value, name: b.label, gate: gate.id, device: device.id });
  }
});
afterAll(() => t?.close());

test('space options read as paths from the building, and narrow to the building asked for', async () => {
  const [a, b] = buildingsUsed;
  const all = (await call('GET', spaceListPath)).json<{ data: SpaceOption[] }>().data;
  expect(all).toEqual(
    expect.arrayContaining([
      { value: a.gate, label: `${a.name} / 9F / 大堂闸机`, buildingId: a.id },
      { value: b.gate, label: `${b.name} / 9F / 大堂闸机`, buildingId: b.id },
    ]),
  );
  const one = (await call('GET', spaceListPath, { buildingId: String(b.id) })).json<{ data: SpaceOption[] }>()
    .data;
  expect(one.length).toBeGreaterThan(0);
  expect(one.every((o) => o.buildingId === b.id && o.label.startsWith(`${b.name} / `))).toBe(true);
  expect(one.map((o) => o.value)).toContain(b.gate);

  const bad = await call('GET', spaceListPath, { buildingId: 'x' });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().msg).toContain('楼宇');
});

test('the device list says where each device is and narrows to one building', async () => {
  const [a, b] = buildingsUsed;
  const page = await call('GET', deviceEndpoints.page, { buildingId: String(a.id), size: '100' });
  expect(page.statusCode, page.body).toBe(200);
  const records = page.json<{ data: { records: DeviceRecord[] } }>().data.records;
  expect(records.map((d) => d.id)).toContain(a.device);
  expect(records.map((d) => d.id)).not.toContain(b.device);
  expect(records.every((d) => d.buildingId === a.id)).toBe(true);
  expect(records.find((d) => d.id === a.device)).toMatchObject({
    spacePath: `${a.name} / 9F / 大堂闸机`,
    buildingId: a.id,
    // Registered, never connected: it holds no access list, so it is not 已同步 (point 10).
    lastSeenAt: null,
    syncState: 'unsynced',
  });
});

test('门禁联动 offers a building’s spaces, each with its path', async () => {
  const [a] = buildingsUsed;
  const set = await call('POST', deviceSetEndpoints.save, { name: '路径测试联动' });
  expect(set.statusCode, set.body).toBe(200);
  const free = await call('GET', deviceSetEndpoints.notHoldSpacePage, {
    id: String(set.json().data.id),
    buildingId: String(a.id),
    name: '大堂闸机',
    size: '100',
  });
  expect(free.statusCode, free.body).toBe(200);
  const records = free.json().data.records as { id: number; buildingId: number; path: string }[];
  expect(records.every((r) => r.buildingId === a.id)).toBe(true);
  expect(records.find((r) => r.id === a.gate)?.path).toBe(`${a.name} / 9F / 大堂闸机`);
});

test('开门记录 says where each device is', async () => {
  const [a] = buildingsUsed;
  await t.db.insert(deviceOpenLogs).values({
    messageId: 'path-test-event',
    deviceId: a.device,
    sn: 'PATH-0',
    deviceName: '路径门禁 0',
    method: 'card',
    result: 'success',
    at: new Date(),
  });
  const log = await call('GET', deviceEndpoints.openLogPage, { sn: 'PATH-0' });
  expect(log.statusCode, log.body).toBe(200);
  expect(log.json().data.records).toEqual([
    expect.objectContaining({ sn: 'PATH-0', spacePath: `${a.name} / 9F / 大堂闸机` }),
  ]);
});

test('a 企业门禁组 refuses another building’s device, naming the field, and takes its own', async () => {
  const [a, b] = buildingsUsed;
  const created = await call('POST', resourcePaths(kreatorUserGroup).save, {
    name: '路径测试门禁组',
    companyId: await createCompany(t.db, '路径测试公司'),
    buildingId: a.id,
    validFrom: new Date(Date.now() - 86_400_000).toISOString(),
    validTo: new Date(Date.now() + 86_400_000).toISOString(),
    status: 'enabled',
  });
  expect(created.statusCode, created.body).toBe(200);
  const groupId = created.json().data.id as number;

  const refused = await call('POST', kreatorDeviceEndpoints.add, { groupId, deviceIds: [b.device] });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().msg).toMatch(/^设备：.*路径门禁 1.*其他楼宇/);
  const none = await call('GET', kreatorDeviceEndpoints.page, { groupId: String(groupId) });
  expect(none.json().data.total).toBe(0);

  const added = await call('POST', kreatorDeviceEndpoints.add, { groupId, deviceIds: [a.device] });
  expect(added.statusCode, added.body).toBe(200);
  const listed = await call('GET', kreatorDeviceEndpoints.page, { groupId: String(groupId) });
  expect(listed.json().data.records).toEqual([
    expect.objectContaining({ deviceId: a.device, spacePath: `${a.name} / 9F / 大堂闸机` }),
  ]);
});
