/**
 * 开放平台's events at their sources: each real change, driven through the device link or the
 * console API, records exactly one webhook_events row of its type in its own transaction, with data
 * its contract schema accepts and no whole phone or secret in it; a change that fails (a 409, a bad
 * body, an import with bad rows) or repeats (the same door event twice, the same mode again) records
 * nothing.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  doorOperationEndpoints,
  importPaths,
  maskPhone,
  resourcePaths,
  uploadEndpoints,
  webhookEventSchemas,
  webhookEventTypes,
  type UploadedFileInfo,
  type WebhookEventType,
} from '@cowork/contract';
import { invoice, invoicePaths } from '@cowork/contract/resources/invoice';
import { kreatorUser, kreatorUserEndpoints, kreatorUserGroup } from '@cowork/contract/resources/kreator';
import { officeStationOrder, orderPaths, userCardOrder } from '@cowork/contract/resources/order';
import {
  buildings,
  devices,
  members,
  merchants,
  officeStations,
  spaces,
  userCards,
  webhookEvents,
} from '../src/db/schema.ts';
import { seal } from '../src/device-link/protocol.ts';
import { SimulatedDevice } from '../src/device-link/simulator.ts';
import { evaluateAlerts } from '../src/modules/alert/rules.ts';
import { insertOrder } from './order-fixture.ts';
import { buildTestApp, callApi, createCompany, demo, multipartFile, type TestApp, until } from './helper.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const secret = 'webhook-events-device-secret-0123456789';
const DAY = 86_400_000;

let t: TestApp;
let dataDir: string;
let admin: Record<string, string>;
let buildingId: number;
let gateId: number;
let door: SimulatedDevice;
let doorId: number;
let buyer: { id: number; phone: string };
let roomId: number;
let cardId: number;

type Recorded = { id: number; type: WebhookEventType; data: Record<string, unknown> };

const call = <T = unknown>(method: string, url: string, body?: object) =>
  callApi<T>(t, admin, method, url, body);

/** The last event's row id: what a test records after it. */
const mark = async () =>
  (
    await t.db
      .select({ id: sql<number>`coalesce(max(${webhookEvents.id}), 0)`.mapWith(Number) })
      .from(webhookEvents)
  )[0].id;

/**
 * The events recorded since `from`, of these types (all when none), each checked: its data is
 * what its schema accepts, and no whole phone, secret or token is in it.
 */
async function since(from: number, ...types: WebhookEventType[]): Promise<Recorded[]> {
  const rows = await t.db
    .select({ id: webhookEvents.id, type: webhookEvents.type, data: webhookEvents.data })
    .from(webhookEvents)
    .where(gt(webhookEvents.id, from))
    .orderBy(webhookEvents.id);
  const recorded = rows.map((r) => r as Recorded).filter((r) => types.length === 0 || types.includes(r.type));
  for (const r of recorded) {
    expect(webhookEventTypes).toContain(r.type);
    expect(webhookEventSchemas[r.type].parse(r.data)).toEqual(r.data);
    const text = JSON.stringify(r.data);
    expect(text).not.toContain(buyer.phone);
    expect(text).not.toContain(secret);
    expect(text).not.toMatch(/"(secret|token|password|credential)\w*":/i);
  }
  return recorded;
}

async function uploadPdf() {
  const body = multipartFile('发票.pdf', PDF);
  const res = await t.app.inject({
    method: 'POST',
    url: uploadEndpoints.upload,
    headers: { ...admin, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: UploadedFileInfo }>().data.url;
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-webhook-events-'));
  t = await buildTestApp({ config: { dataDir } });
  await t.app.ready();
  admin = await t.auth(...demo.admin);
  // A building of its own, so the alert rules' causes here are this test's alone.
  const [merchant] = await t.db.insert(merchants).values({ name: '事件测试商户' }).returning();
  [{ id: buildingId }] = await t.db
    .insert(buildings)
    .values({
      name: '事件测试楼',
      merchantId: merchant.id,
      provinceCode: '110000',
      cityCode: '110100',
      address: '测试路 9 号',
      published: true,
    })
    .returning();
  [{ id: gateId }] = await t.db
    .insert(spaces)
    .values({ buildingId, name: '事件大门', kind: 'gate' })
    .returning();
  [{ id: doorId }] = await t.db
    .insert(devices)
    .values({ sn: 'WH-DOOR', name: '事件测试门', spaceId: gateId, secret: t.app.devices.box.seal(secret) })
    .returning();
  [buyer] = await t.db
    .insert(members)
    .values({ phone: '17755550001', nickname: '事件会员' })
    .returning({ id: members.id, phone: members.phone });
  [{ id: roomId }] = await t.db
    .insert(officeStations)
    .values({
      buildingId,
      name: '事件会议室',
      capacity: 8,
      hourPriceFen: 10_000,
      minBookingMinutes: 60,
      openTime: '09:00',
      closeTime: '21:00',
      published: true,
    })
    .returning();
  [{ id: cardId }] = await t.db
    .insert(userCards)
    .values({
      name: '事件月卡',
      cardType: 'month',
      validDays: 30,
      priceFen: 99_900,
      buildingIds: [buildingId],
      published: true,
    })
    .returning();
  door = new SimulatedDevice({ url: t.app.devices.status().url!, sn: 'WH-DOOR', secret, protocol: '1.1' });
  await door.connect();
});
afterAll(async () => {
  await door?.close();
  await t?.close();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

describe('the device link', () => {
  /** A signed event of the door, with the id given; resolves once the server has written it. */
  const send = async (type: 'door' | 'alarm', params: Record<string, unknown>, id = randomUUID()) => {
    await door.publishRaw(JSON.stringify(seal(type, params, secret, Date.now(), id)));
    return id;
  };

  test('a door opening and a refusal are one event each, a door event sent twice only one', async () => {
    const from = await mark();
    const at = Date.now() - 1_000;
    const opened = await send('door', { method: 'totp', credential: '8888', result: 'success', at });
    await send('door', { method: 'totp', credential: '8888', result: 'success', at }, opened);
    await send('door', { method: 'card', credential: '4321', result: 'denied', reason: '卡未授权', at });
    const events = await since(from, 'door.opened', 'door.denied');
    expect(events.map((e) => e.type)).toEqual(['door.opened', 'door.denied']);
    expect(events[0].data).toMatchObject({
      deviceId: doorId,
      sn: 'WH-DOOR',
      deviceName: '事件测试门',
      buildingId,
      buildingName: '事件测试楼',
      spaceId: gateId,
      spaceName: '事件大门',
      method: 'totp',
      openedAt: expect.stringMatching(/\+08:00$/),
    });
    expect(events[1].data).toMatchObject({
      method: 'card',
      reason: '卡未授权',
      deniedAt: expect.any(String),
    });
    // The credential's last characters stay in the open log: a door code or card is no event's business.
    expect(JSON.stringify(events)).not.toContain('8888');
    // A malformed one is refused and acknowledged: nothing recorded.
    await send('door', { method: 'teleport', result: 'success', at });
    expect(await since(from, 'door.opened', 'door.denied')).toHaveLength(2);
  });

  test('an alarm raised (twice) and cleared: one event each, naming the same alarm', async () => {
    const from = await mark();
    const raisedAt = Date.now() - 60_000;
    const id = await send('alarm', { kind: 'forced', state: 'raised', at: raisedAt, detail: '门磁异常' });
    await send('alarm', { kind: 'forced', state: 'raised', at: raisedAt, detail: '门磁异常' }, id);
    await send('alarm', { kind: 'forced', state: 'cleared', at: Date.now() - 1_000 });
    const events = await since(from, 'device.alarm.raised', 'device.alarm.cleared');
    expect(events.map((e) => e.type)).toEqual(['device.alarm.raised', 'device.alarm.cleared']);
    expect(events[0].data).toMatchObject({
      kind: 'forced',
      detail: '门磁异常',
      buildingId,
      deviceId: doorId,
    });
    expect(events[1].data.alarmId).toBe(events[0].data.alarmId);
    expect(events[1].data.clearedAt).toEqual(expect.any(String));
  });

  test('a device coming online and going offline: one event for each change', async () => {
    const deviceSecret = 'webhook-events-presence-secret-0123456';
    const [{ id }] = await t.db
      .insert(devices)
      .values({
        sn: 'WH-PRES',
        name: '上下线测试门',
        spaceId: gateId,
        secret: t.app.devices.box.seal(deviceSecret),
      })
      .returning();
    const from = await mark();
    const d = new SimulatedDevice({
      url: t.app.devices.status().url!,
      sn: 'WH-PRES',
      secret: deviceSecret,
      protocol: '1.1',
    });
    await d.connect();
    const ofDevice = async () =>
      (await since(from, 'device.online', 'device.offline')).filter((e) => e.data.deviceId === id);
    await until(async () => (await ofDevice()).length === 1, 'online recorded');
    // Its hello and heartbeats say it is there again: no change, nothing more.
    await d.send('heartbeat', {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    await d.close();
    const events = await until(
      async () => {
        const found = await ofDevice();
        return found.length === 2 && found;
      },
      'offline recorded',
      20_000,
    );
    expect(events.map((e) => e.type)).toEqual(['device.online', 'device.offline']);
    expect(events[0].data).toMatchObject({ sn: 'WH-PRES', buildingId, spaceId: gateId });
    expect(events[1].data.offlineAt).toEqual(expect.any(String));
  });

  test('an emergency mode changed is one event; the same mode again, or a bad body, none', async () => {
    const from = await mark();
    const body = { spaceId: gateId, mode: 'lockdown', reason: '消防演练' };
    const first = await call('POST', doorOperationEndpoints.spaceMode, body);
    expect(first.status, first.raw).toBe(200);
    const again = await call('POST', doorOperationEndpoints.spaceMode, { ...body, reason: '演练延长' });
    expect(again.status, again.raw).toBe(200);
    const bad = await call('POST', doorOperationEndpoints.spaceMode, { ...body, mode: 'panic' });
    expect(bad.status).toBe(400);
    const events = await since(from, 'space.mode.changed');
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({
        spaceId: gateId,
        spaceName: '事件大门',
        buildingId,
        buildingName: '事件测试楼',
        mode: 'lockdown',
        previousMode: 'normal',
        reason: '消防演练',
        changedBy: expect.any(String),
      }),
    ]);
    const back = await call('POST', doorOperationEndpoints.spaceMode, {
      ...body,
      mode: 'normal',
      reason: '演练结束',
    });
    expect(back.status, back.raw).toBe(200);
    expect((await since(from, 'space.mode.changed')).map((e) => e.data.mode)).toEqual(['lockdown', 'normal']);
  });

  test('an alert raised and closed by the rules: one event each, however many rounds', async () => {
    const [{ id }] = await t.db
      .insert(devices)
      .values({
        sn: 'WH-GONE',
        name: '离线测试门',
        spaceId: gateId,
        secret: 'unused',
        status: 'offline',
        lastSeenAt: new Date(Date.now() - 30 * 60_000),
      })
      .returning();
    const from = await mark();
    const offline = async (type: 'alert.raised' | 'alert.closed') =>
      (await since(from, type)).filter(
        (e) => e.data.kind === 'device-offline' && e.data.buildingId === buildingId,
      );
    await evaluateAlerts(t.db);
    await evaluateAlerts(t.db);
    const raised = await offline('alert.raised');
    expect(raised).toHaveLength(1);
    expect(raised[0].data).toMatchObject({
      count: 1,
      link: `/hardware/device?buildingId=${buildingId}&status=offline`,
    });
    await t.db.update(devices).set({ status: 'online', lastSeenAt: new Date() }).where(eq(devices.id, id));
    await evaluateAlerts(t.db);
    await evaluateAlerts(t.db);
    const closed = await offline('alert.closed');
    expect(closed).toHaveLength(1);
    expect(closed[0].data).toMatchObject({ alertId: raised[0].data.alertId, closedAt: expect.any(String) });
    expect(await offline('alert.raised')).toHaveLength(1);
  });
});

describe('orders and bookings', () => {
  const room = orderPaths(officeStationOrder);
  const card = orderPaths(userCardOrder);
  const dayIn = (n: number) => new Date(Date.now() + 8 * 3_600_000 + n * DAY).toISOString().slice(0, 10);
  const booking = (day: number) => ({
    memberPhone: buyer.phone,
    productId: roomId,
    payMethod: 'offline',
    startAt: `${dayIn(day)}T10:00:00+08:00`,
    endAt: `${dayIn(day)}T12:00:00+08:00`,
  });

  test('a booking made, paid and refunded: created, paid, refunded and cancelled, once each', async () => {
    const from = await mark();
    const made = await call<{ id: number }>('POST', room.save, booking(2));
    expect(made.status, made.raw).toBe(200);
    const id = made.body.data.id;
    const created = await since(from);
    expect(created.map((e) => e.type)).toEqual(['booking.created']);
    expect(created[0].data).toMatchObject({
      orderId: id,
      kind: 'office-station',
      roomId,
      roomName: '事件会议室',
      buildingId,
      status: 'pending',
      phone: maskPhone(buyer.phone),
      amountFen: 20_000,
    });

    const paid = await call('PUT', room.pay, { id });
    expect(paid.status, paid.raw).toBe(200);
    const twice = await call('PUT', room.pay, { id });
    expect(twice.status).toBe(409);
    const refunded = await call('PUT', room.refund, { id, reason: '会议取消' });
    expect(refunded.status, refunded.raw).toBe(200);
    const events = await since(from);
    expect(events.map((e) => e.type)).toEqual([
      'booking.created',
      'order.paid',
      'order.refunded',
      'booking.cancelled',
    ]);
    expect(events[1].data).toMatchObject({
      orderId: id,
      status: 'paid',
      paidFen: 20_000,
      payMethod: 'offline',
    });
    expect(events[2].data).toMatchObject({ orderId: id, status: 'refunded', refundedAt: expect.any(String) });
    expect(events[3].data).toMatchObject({ orderId: id, status: 'refunded' });
  });

  test('a pending booking cancelled: order.cancelled and booking.cancelled; a bad body records nothing', async () => {
    const from = await mark();
    const bad = await call('POST', room.save, { ...booking(3), endAt: 'tomorrow' });
    expect(bad.status).toBe(400);
    const clash = await call('POST', room.save, booking(3));
    expect(clash.status, clash.raw).toBe(200);
    const taken = await call('POST', room.save, booking(3));
    expect(taken.status).toBe(409);
    const id = (clash.body.data as { id: number }).id;
    expect((await call('PUT', room.cancel, { id })).status).toBe(200);
    const events = await since(from);
    expect(events.map((e) => e.type)).toEqual(['booking.created', 'order.cancelled', 'booking.cancelled']);
    expect(events[2].data).toMatchObject({ orderId: id, status: 'cancelled' });
  });

  test('a card sold as paid (新建订单) is one order.paid, and no booking', async () => {
    const from = await mark();
    const sold = await call<{ id: number; orderNo: string }>('POST', card.save, {
      memberPhone: buyer.phone,
      productId: cardId,
      buildingId,
      payMethod: 'offline',
      paid: true,
    });
    expect(sold.status, sold.raw).toBe(200);
    const events = await since(from);
    expect(events.map((e) => e.type)).toEqual(['order.paid']);
    expect(events[0].data).toMatchObject({
      orderId: sold.body.data.id,
      orderNo: sold.body.data.orderNo,
      kind: 'user-card',
      productName: '事件月卡',
      buildingName: '事件测试楼',
      startAt: null,
    });
  });
});

describe('invoices', () => {
  const jy = invoicePaths(invoice);
  const request = async () => {
    const order = await insertOrder(t.db, {
      kind: 'user-card',
      memberId: buyer.id,
      memberPhone: buyer.phone,
    });
    const res = await call<{ id: number }>('POST', jy.save, {
      orderNos: [order.orderNo],
      titleType: 'company',
      title: '北京事件科技有限公司',
      taxNo: '91110105MA01ABCD2X',
      invoiceType: 'normal',
      amountFen: order.paidFen,
      email: 'finance@example.com',
    });
    expect(res.status, res.raw).toBe(200);
    return res.body.data.id;
  };

  test('issued and rejected: one event each; a refused move, none', async () => {
    const pdf = await uploadPdf();
    const first = await request();
    const second = await request();
    const from = await mark();
    const issued = await call('PUT', jy.issue, { id: first, invoiceNo: '24110000123', fileUrl: pdf });
    expect(issued.status, issued.raw).toBe(200);
    const again = await call('PUT', jy.issue, { id: first, invoiceNo: '24110000124', fileUrl: pdf });
    expect(again.status).toBe(409);
    const rejected = await call('PUT', jy.reject, { id: second, reason: '抬头与税号不符' });
    expect(rejected.status, rejected.raw).toBe(200);
    const events = await since(from);
    expect(events.map((e) => e.type)).toEqual(['invoice.issued', 'invoice.rejected']);
    expect(events[0].data).toMatchObject({
      invoiceId: first,
      invoiceNo: '24110000123',
      fileUrl: pdf,
      title: '北京事件科技有限公司',
      phone: maskPhone(buyer.phone),
    });
    expect(events[1].data).toMatchObject({ invoiceId: second, rejectReason: '抬头与税号不符' });
    // A request's email stays in the console.
    expect(JSON.stringify(events)).not.toContain('finance@example.com');
  });
});

describe('enterprise access groups', () => {
  const groups = resourcePaths(kreatorUserGroup);
  const imports = importPaths(kreatorUser);
  let groupId: number;

  async function upload(rows: string[][]) {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('门禁组成员');
    sheet.addRow(['姓名', '手机号']);
    for (const row of rows) sheet.addRow(row);
    const body = multipartFile('members.xlsx', Buffer.from(await book.xlsx.writeBuffer()));
    return t.app.inject({
      method: 'POST',
      url: `${imports.excel}?groupId=${groupId}`,
      headers: { ...admin, ...body.headers },
      payload: body.payload,
    });
  }

  beforeAll(async () => {
    const res = await call<{ id: number }>('POST', groups.save, {
      name: '事件门禁组',
      companyId: await createCompany(t.db, '事件科技'),
      buildingId,
      validFrom: new Date(Date.now() - DAY).toISOString(),
      validTo: new Date(Date.now() + 30 * DAY).toISOString(),
      status: 'enabled',
    });
    expect(res.status, res.raw).toBe(200);
    groupId = res.body.data.id;
  });

  test('a new phone added: member.created and enterprise.member.added; again, nothing; removed, one', async () => {
    const from = await mark();
    const added = await call<{ id: number; memberId: number }>('POST', kreatorUserEndpoints.save, {
      groupId,
      name: '林事件',
      phone: '17755550101',
    });
    expect(added.status, added.raw).toBe(200);
    const again = await call('POST', kreatorUserEndpoints.save, {
      groupId,
      name: '林事件',
      phone: '17755550101',
    });
    expect(again.status).toBe(409);
    const bound = await call('POST', kreatorUserEndpoints.bind, { groupId, memberIds: [buyer.id] });
    expect(bound.status, bound.raw).toBe(200);
    const events = await since(from);
    expect(events.map((e) => e.type)).toEqual([
      'member.created',
      'enterprise.member.added',
      'enterprise.member.added',
    ]);
    expect(events[0].data).toMatchObject({
      memberId: added.body.data.memberId,
      phone: '177****0101',
      companyName: '事件科技',
      sourceName: '企业导入',
    });
    expect(events[1].data).toMatchObject({
      groupId,
      groupName: '事件门禁组',
      companyName: '事件科技',
      buildingId,
      buildingName: '事件测试楼',
      memberId: added.body.data.memberId,
      name: '林事件',
      phone: '177****0101',
    });
    expect(events[2].data).toMatchObject({ memberId: buyer.id, phone: maskPhone(buyer.phone) });
    expect(JSON.stringify(events)).not.toContain('17755550101');

    const from2 = await mark();
    const removed = await call('DELETE', kreatorUserEndpoints.remove, { ids: [added.body.data.id] });
    expect(removed.status, removed.raw).toBe(200);
    const gone = await since(from2);
    expect(gone.map((e) => [e.type, e.data.memberId])).toEqual([
      ['enterprise.member.removed', added.body.data.memberId],
    ]);
  });

  test('an Excel import: an event per member imported; a file with a bad row, none', async () => {
    const from = await mark();
    const bad = await upload([
      ['周事件', '17755550201'],
      ['', '1775555'],
    ]);
    expect(bad.statusCode, bad.body).toBe(400);
    expect(await since(from)).toEqual([]);
    const good = await upload([
      ['周事件', '17755550201'],
      ['吴事件', '17755550202'],
    ]);
    expect(good.statusCode, good.body).toBe(200);
    const events = await since(from);
    expect(events.map((e) => [e.type, e.data.phone])).toEqual([
      ['member.created', '177****0201'],
      ['member.created', '177****0202'],
      ['enterprise.member.added', '177****0201'],
      ['enterprise.member.added', '177****0202'],
    ]);
  });
});

test('every event type is listed in the API docs with its schema', async () => {
  const res = await t.app.inject({ url: '/api/docs/json', headers: admin });
  expect(res.statusCode).toBe(200);
  const schemas = res.json().components.schemas;
  for (const type of webhookEventTypes) {
    expect(schemas[`WebhookEvent.${type}`], type).toMatchObject({ type: 'object' });
    expect(schemas[`WebhookEvent.${type}`].description).toContain(type);
  }
});
