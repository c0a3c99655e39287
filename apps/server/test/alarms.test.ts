/**
 * 告警记录 through the embedded broker with a simulated v1.1 device: each `alarm` change lands
 * exactly once (the same id twice, a clear before its raise, the same clear twice, a raise and its
 * clear in one turn), anything wrong is counted on the device and writes nothing; the page's
 * filters, acknowledging (a note required, once only, the permission checked, audited), the
 * export, the device detail's raised alarms and the home dashboard's open count.
 */
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deviceEndpoints } from '@cowork/contract';
import { dashboardEndpoints } from '@cowork/contract/resources/dashboard';
import { auditLogs, buildings, deviceAlarmClears, deviceAlarms, devices, spaces } from '../src/db/schema.ts';
import { seal } from '../src/device-link/protocol.ts';
import { SimulatedDevice } from '../src/device-link/simulator.ts';
import { buildTestApp, createRole, createUser, demo, type TestApp, until } from './helper.ts';

const secret = 'alarm-device-secret-0123456789abcdef';
let t: TestApp;
let admin: Record<string, string>;
let d: SimulatedDevice;
let deviceId: number;
let buildingId: number;
let buildingName: string;
const sn = 'ALARM-1';

const minutesAgo = (m: number) => Date.now() - m * 60_000;

/** A signed alarm event with the id given, published and acknowledged by the broker. */
async function alarm(params: Record<string, unknown>, id = randomUUID(), key = secret) {
  await d.publishRaw(JSON.stringify(seal('alarm', params, key, Date.now(), id)));
  return id;
}
const rowsOf = (where = eq(deviceAlarms.sn, sn)) =>
  t.db.select().from(deviceAlarms).where(where).orderBy(deviceAlarms.id);
const dropped = async () =>
  (await t.db.select({ n: devices.droppedCount }).from(devices).where(eq(devices.id, deviceId)))[0].n;
const get = (url: string, query: Record<string, string | number> = {}, headers = admin) =>
  t.app.inject({
    url,
    headers,
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
const acknowledge = (body: object, headers = admin) =>
  t.app.inject({ method: 'POST', url: deviceEndpoints.alarmAcknowledge, headers, payload: body });

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.auth(...demo.admin);
  [{ id: buildingId, name: buildingName }] = await t.db
    .select({ id: buildings.id, name: buildings.name })
    .from(buildings)
    .orderBy(buildings.id)
    .limit(1);
  const [gate] = await t.db
    .insert(spaces)
    .values({ buildingId, name: '告警大门', kind: 'gate' })
    .returning({ id: spaces.id });
  [{ id: deviceId }] = await t.db
    .insert(devices)
    .values({ sn, name: '告警测试门', spaceId: gate.id, secret: t.app.devices.box.seal(secret) })
    .returning({ id: devices.id });
  d = new SimulatedDevice({ url: t.app.devices.status().url!, sn, secret, protocol: '1.1' });
  await d.connect();
});
afterAll(async () => {
  await d?.close();
  await t?.close();
});

describe('exactly once', () => {
  test('a raise is one row (open, its building and device); the same id again changes nothing and is counted', async () => {
    const told: unknown[] = [];
    const stop = t.app.devices.onAlarm((change) => told.push(change));
    const at = minutesAgo(10);
    const id = await alarm({ kind: 'held-open', state: 'raised', at, detail: '门已打开 120 秒' });
    const [row] = await rowsOf(eq(deviceAlarms.messageId, id));
    expect(row).toMatchObject({
      deviceId,
      sn,
      deviceName: '告警测试门',
      buildingId,
      kind: 'held-open',
      state: 'open',
      detail: '门已打开 120 秒',
      clearedAt: null,
    });
    expect(row.raisedAt.getTime()).toBe(at);
    expect(told).toEqual([{ id: row.id, deviceId, sn, buildingId, kind: 'held-open', state: 'raised' }]);
    const before = await dropped();
    await alarm({ kind: 'held-open', state: 'raised', at, detail: '门已打开 120 秒' }, id);
    expect(await rowsOf(eq(deviceAlarms.messageId, id))).toEqual([row]);
    await until(async () => (await dropped()) === before + 1, 'the replay counted');
    expect(told).toHaveLength(1);
    stop();
  });

  test('a clear before its raise is kept, and closes the row when the raise arrives; sent again it changes nothing', async () => {
    const before = await dropped();
    const clearAt = minutesAgo(5);
    const raiseAt = minutesAgo(8);
    const clearId = await alarm({ kind: 'forced', state: 'cleared', at: clearAt });
    const forced = () => rowsOf(and(eq(deviceAlarms.sn, sn), eq(deviceAlarms.kind, 'forced')));
    expect(await forced()).toEqual([]);
    expect(
      await t.db.select().from(deviceAlarmClears).where(eq(deviceAlarmClears.messageId, clearId)),
    ).toHaveLength(1);
    const raiseId = await alarm({ kind: 'forced', state: 'raised', at: raiseAt });
    const [row] = await forced();
    expect(row).toMatchObject({ messageId: raiseId, state: 'cleared', clearedMessageId: clearId });
    expect(row.clearedAt?.getTime()).toBe(clearAt);
    expect(await t.db.select().from(deviceAlarmClears).where(eq(deviceAlarmClears.sn, sn))).toEqual([]);
    // The clear again (its PUBACK lost): neither kept again nor closing anything.
    await alarm({ kind: 'forced', state: 'cleared', at: clearAt }, clearId);
    await alarm({ kind: 'forced', state: 'raised', at: raiseAt }, raiseId);
    expect(await forced()).toEqual([row]);
    expect(await t.db.select().from(deviceAlarmClears).where(eq(deviceAlarmClears.sn, sn))).toEqual([]);
    await until(async () => (await dropped()) === before + 2, 'both replays counted');
  });

  test('a clear closes the latest open row of its kind; the same clear twice closes nothing more', async () => {
    const before = await dropped();
    const first = await alarm({ kind: 'power', state: 'raised', at: minutesAgo(30) });
    const second = await alarm({ kind: 'power', state: 'raised', at: minutesAgo(20) });
    const clearId = await alarm({ kind: 'power', state: 'cleared', at: minutesAgo(15) });
    await alarm({ kind: 'power', state: 'cleared', at: minutesAgo(15) }, clearId);
    const rows = await rowsOf(and(eq(deviceAlarms.sn, sn), eq(deviceAlarms.kind, 'power')));
    expect(rows.map((r) => [r.messageId, r.state, r.clearedMessageId])).toEqual([
      [first, 'open', null],
      [second, 'cleared', clearId],
    ]);
    await until(async () => (await dropped()) === before + 1, 'the replayed clear counted');
  });

  test('a raise and its clear arriving in the same turn: one row, closed', async () => {
    const raise = seal('alarm', { kind: 'tamper', state: 'raised', at: minutesAgo(3) }, secret);
    const clear = seal('alarm', { kind: 'tamper', state: 'cleared', at: minutesAgo(2) }, secret);
    await Promise.all([d.publishRaw(JSON.stringify(clear)), d.publishRaw(JSON.stringify(raise))]);
    const rows = await rowsOf(and(eq(deviceAlarms.sn, sn), eq(deviceAlarms.kind, 'tamper')));
    expect(rows.map((r) => [r.messageId, r.state, r.clearedMessageId])).toEqual([
      [raise.id, 'cleared', clear.id],
    ]);
  });

  test('a wrong kind, state, at or detail, an at out of range or a bad signature writes nothing and is counted', async () => {
    const before = await dropped();
    const count = (await rowsOf()).length;
    const bad = [
      { kind: 'smoke', state: 'raised', at: Date.now() },
      { kind: 'fault', state: 'open', at: Date.now() },
      { kind: 'fault', state: 'raised' },
      { kind: 'fault', state: 'raised', at: '2026-01-01' },
      { kind: 'fault', state: 'raised', at: Date.now(), detail: 'x'.repeat(201) },
      { kind: 'fault', state: 'raised', at: Date.now(), detail: 42 },
      { kind: 'fault', state: 'raised', at: Date.now() - 31 * 86_400_000 },
      { kind: 'fault', state: 'raised', at: Date.now() + 10 * 60_000 },
    ];
    for (const params of bad) await alarm(params);
    await alarm({ kind: 'fault', state: 'raised', at: Date.now() }, randomUUID(), 'not-the-secret');
    await until(async () => (await dropped()) === before + bad.length + 1, 'every bad event counted');
    expect(await rowsOf()).toHaveLength(count);
    const [row] = await t.db
      .select({ reason: devices.lastDropReason })
      .from(devices)
      .where(eq(devices.id, deviceId));
    expect(row.reason).toBe('bad-signature');
  });
});

describe('告警记录', () => {
  type Page = {
    records: { id: number; kind: string; state: string; buildingName: string | null }[];
    total: number;
  };
  const page = async (query: Record<string, string | number>) => {
    const res = await get(deviceEndpoints.alarmPage, { size: 100, ...query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Page }>().data;
  };
  const kinds = async (query: Record<string, string | number>) =>
    (await page(query)).records.map((r) => r.kind).sort();

  test('filters: kind, state, building, device, sn, days; a wrong value is a 400 naming the field', async () => {
    expect(await kinds({ kind: 'power' })).toEqual(['power', 'power']);
    expect(await kinds({ state: 'open' })).toEqual(['held-open', 'power']);
    expect(await kinds({ state: 'cleared', deviceId })).toEqual(['forced', 'power', 'tamper']);
    expect((await page({ buildingId })).total).toBe(5);
    expect((await page({ buildingId: buildingId + 1000 })).total).toBe(0);
    expect((await page({ sn: 'ALARM' })).total).toBe(5);
    expect((await page({ sn: 'NOPE' })).total).toBe(0);
    expect(await kinds({ atFrom: new Date(minutesAgo(12)).toISOString() })).toEqual([
      'forced',
      'held-open',
      'tamper',
    ]);
    expect(await kinds({ atTo: new Date(minutesAgo(25)).toISOString() })).toEqual(['power']);
    const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' });
    expect((await page({ atFrom: '2020-01-01', atTo: today })).total).toBe(5);
    expect((await page({ atFrom: '2020-01-01', atTo: '2020-01-02' })).total).toBe(0);
    const [first] = (await page({ kind: 'held-open' })).records;
    expect(first).toMatchObject({ buildingName, state: 'open' });

    const bad = await get(deviceEndpoints.alarmPage, { state: 'closed' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('告警状态');
    const badDay = await get(deviceEndpoints.alarmPage, { atFrom: '2026-13-45' });
    expect(badDay.statusCode).toBe(400);
    expect(badDay.json().msg).toContain('开始时间');
  });

  test('acknowledge: a note required; open becomes acknowledged, cleared stays cleared; twice is a 409; audited', async () => {
    const [open] = (await page({ kind: 'held-open' })).records;
    const noNote = await acknowledge({ id: open.id, note: '  ' });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().msg).toContain('处理说明');
    const tooLong = await acknowledge({ id: open.id, note: '长'.repeat(201) });
    expect(tooLong.statusCode).toBe(400);
    expect((await acknowledge({ id: 999_999, note: '看过' })).statusCode).toBe(404);

    const res = await acknowledge({ id: open.id, note: '已派保安关门' });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await rowsOf(eq(deviceAlarms.id, open.id));
    expect(row).toMatchObject({
      state: 'acknowledged',
      note: '已派保安关门',
      acknowledgedBy: expect.any(String),
    });
    expect(row.acknowledgedAt).not.toBeNull();
    const again = await acknowledge({ id: open.id, note: '再次确认' });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toContain('无需重复确认');
    expect((await rowsOf(eq(deviceAlarms.id, open.id)))[0].note).toBe('已派保安关门');
    const [entry] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.resource, 'device-alarm'), eq(auditLogs.resourceId, String(open.id))));
    expect(entry).toMatchObject({
      action: 'acknowledge',
      after: expect.objectContaining({ note: '已派保安关门' }),
    });

    // The device then says the door is shut: cleared, the acknowledgement kept beside it.
    await alarm({ kind: 'held-open', state: 'cleared', at: minutesAgo(1) });
    const [closed] = await rowsOf(eq(deviceAlarms.id, open.id));
    expect(closed).toMatchObject({ state: 'cleared', note: '已派保安关门' });

    const [cleared] = (await page({ kind: 'forced' })).records;
    expect((await acknowledge({ id: cleared.id, note: '已查看录像' })).statusCode).toBe(200);
    const [after] = await rowsOf(eq(deviceAlarms.id, cleared.id));
    expect(after).toMatchObject({ state: 'cleared', note: '已查看录像' });
    expect(after.acknowledgedAt).not.toBeNull();
  });

  test('the view code reads, only the edit code acknowledges (403); a role without either reads nothing', async () => {
    await createRole(t.db, { code: 'alarm_viewer', name: '告警查看', permissions: ['hardware:alarm:view'] });
    await createUser(t.db, { username: 'alarmviewer', password: 'Viewer@123', roleCodes: ['alarm_viewer'] });
    const viewer = await t.auth('alarmviewer', 'Viewer@123');
    expect((await get(deviceEndpoints.alarmPage, {}, viewer)).statusCode).toBe(200);
    const [open] = (await page({ state: 'open' })).records;
    expect((await acknowledge({ id: open.id, note: '看过' }, viewer)).statusCode).toBe(403);
    expect((await rowsOf(eq(deviceAlarms.id, open.id)))[0].acknowledgedAt).toBeNull();
    const caiwu = await t.auth(...demo.caiwu);
    expect((await get(deviceEndpoints.alarmPage, {}, caiwu)).statusCode).toBe(403);
    expect((await get(deviceEndpoints.alarmExport, {}, caiwu)).statusCode).toBe(403);
  });

  test('the export has the filtered rows with Chinese kinds and states', async () => {
    const res = await get(deviceEndpoints.alarmExport, { kind: 'power' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(new Uint8Array(res.rawPayload).buffer);
    const sheet = book.worksheets[0];
    const header = sheet.getRow(1).values;
    expect(header).toEqual(expect.arrayContaining(['告警时间', '类型', '状态', '楼宇', '处理说明']));
    expect(sheet.rowCount).toBe(3);
    const cells = [2, 3].map((r) => sheet.getRow(r).values);
    expect(cells.map((c) => JSON.stringify(c))).toEqual([
      expect.stringContaining('断电'),
      expect.stringContaining('断电'),
    ]);
    expect(cells.map((c) => JSON.stringify(c)).join()).toContain('已恢复');
    expect(JSON.stringify(cells)).toContain(buildingName);
  });

  test('the device detail lists the alarms it still has raised; the dashboard counts the open ones', async () => {
    const res = await get(`${deviceEndpoints.detail}/${deviceId}`);
    expect(res.statusCode, res.body).toBe(200);
    const raised = res.json().data.raisedAlarms;
    expect(raised.map((a: { kind: string; state: string }) => [a.kind, a.state])).toEqual([
      ['power', 'open'],
    ]);
    const summary = await get(dashboardEndpoints.summary);
    expect(summary.json().data.alarms).toEqual({ open: 1 });
    const caiwu = await t.auth(...demo.caiwu);
    expect((await get(dashboardEndpoints.summary, {}, caiwu)).json().data.alarms).toBeNull();
  });
});
