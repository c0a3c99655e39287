/**
 * Door devices end to end through a real MQTT broker: the embedded one on a free port, or, when
 * TEST_MQTT_URL is set (CI: the local Mosquitto), that broker with the server as its client. A
 * simulated device (the same code as `npm run device`) enrols, is registered, is commanded, opens
 * the door, and sends everything a hostile device could.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deviceEndpoints, deviceMessages, endpoints } from '@cowork/contract';
import { seal, topics } from '../src/device-link/protocol.ts';
import { SimulatedDevice } from '../src/device-link/simulator.ts';
import { doorFixture, type DeviceOptions } from './device-fixture.ts';
import { buildTestApp, demo, type TestApp, until } from './helper.ts';

const brokers = ['embedded', ...(process.env.TEST_MQTT_URL ? ['external'] : [])];
/** The external broker's URL while its run goes on, else undefined. */
let external: string | undefined;
let t: TestApp;
const enrolKey = 'test-enrol-key-0123456789';
const doors = doorFixture({ enrolKey, device: { heartbeatMs: 1_000 } });
const { get, post, pageOf, waiting } = doors;
/** Serial numbers unique per run: an external broker keeps retained messages between runs. */
const run = randomBytes(3).toString('hex');
const snOf = (name: string) => `T${run}-${name}`;

const openLogs = async (sn: string) =>
  (await get(deviceEndpoints.openLogPage, { sn, size: 100 })).json<{
    data: { total: number; records: Record<string, unknown>[] };
  }>().data;

/** Registers the device `name` (its sn made unique per run); answers it online and sent its sync. */
const registered = (name: string, options: DeviceOptions = {}) =>
  doors.registered(snOf(name), options, { name: `门 ${name}` });

describe.each(brokers)('through the %s broker', (kind) => {
  beforeAll(async () => {
    external = kind === 'external' ? process.env.TEST_MQTT_URL : undefined;
    t = await doors.start({
      demoRows: false,
      // A client id of this run's own: its persistent session is nobody else's.
      config: external ? { mqttUrl: external, mqttClientId: `cowork-test.${run}` } : {},
      brokerUrl: external,
    });
  });

  afterAll(() => doors.close());

  describe('enrol and register', () => {
    test('a device saying hello with the enrolment key waits; registering answers its secret once', async () => {
      const { d, id, sn, secret } = await registered('A');
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await waiting(sn)).toBe(false);
      const row = await pageOf(sn);
      expect(row).toMatchObject({
        id,
        sn,
        name: '门 A',
        status: 'online',
        model: 'SIM-100',
      });
      // 已同步 once the device acked the sync sent after its hello.
      await until(async () => (await pageOf(sn)).syncState === 'synced', 'A synced');
      expect(JSON.stringify(row)).not.toContain(secret);
      // The secret is stored encrypted, never in plain text.
      const stored = await t.db.execute<{ secret: string }>(`select secret from devices where id = ${id}`);
      expect(JSON.stringify(stored)).not.toContain(secret);
      expect(d.connected).toBe(true);
    });

    test('bad registrations are refused and change nothing', async () => {
      const bad = await post(deviceEndpoints.register, { sn: 'bad sn!', name: 'x', spaceId: null });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().msg).toContain(deviceMessages.snInvalid);
      const never = await post(deviceEndpoints.register, { sn: snOf('never'), name: 'x', spaceId: null });
      expect(never.statusCode).toBe(400);
      expect(never.json().msg).toContain('尚未');
      const again = await post(deviceEndpoints.register, { sn: snOf('A'), name: 'x', spaceId: null });
      expect(again.statusCode).toBe(409);
      expect(again.json().msg).toBe(deviceMessages.snTaken(snOf('A')));
      const noSpace = await post(deviceEndpoints.register, { sn: snOf('A'), name: 'x', spaceId: 99999 });
      expect([400, 409]).toContain(noSpace.statusCode);
    });
  });

  describe('commands', () => {
    test('远程开门 answers once acked, and the door event lands in the open log once, credited to the staff', async () => {
      const { d, id, sn } = await registered('B');
      const res = await post(deviceEndpoints.openDoor, { id, durationS: 8 });
      expect(res.statusCode, res.body).toBe(200);
      const command = d.commands.find((c) => c.type === 'open-door')!;
      expect(command.params).toMatchObject({ durationS: 8, by: 'admin' });
      const log = await until(async () => (await openLogs(sn)).records[0], 'the remote opening logged');
      expect(log).toMatchObject({
        sn,
        deviceId: id,
        method: 'remote',
        result: 'success',
        deviceName: '门 B',
      });
      expect(log.who).toBeTruthy();
      const detail = (await get(`${deviceEndpoints.detail}/${id}`)).json().data;
      expect(detail.commands[0]).toMatchObject({ type: 'open-door', state: 'acked' });
    });

    test('the door code from totp-code opens the door; a wrong one is logged as denied', async () => {
      const { d, id, sn } = await registered('C');
      const { code, expiresAt } = (await get(deviceEndpoints.totpCode, { id })).json().data;
      expect(code).toMatch(/^\d{6}$/);
      expect(expiresAt).toBeGreaterThan(Date.now());
      expect((await d.enterCode(code)).result).toBe('success');
      expect((await d.enterCode(code === '000000' ? '111111' : '000000')).result).toBe('denied');
      const logs = await until(async () => {
        const page = await openLogs(sn);
        return page.total === 2 && page;
      }, 'two code events');
      expect(logs.records.map((r) => r.result).sort()).toEqual(['denied', 'success']);
      expect(logs.records.every((r) => r.method === 'totp' && String(r.credential).length === 4)).toBe(true);
    });

    test('a device that does not ack fails within 6 s naming it; an offline one at once', async () => {
      const { id, d } = await registered('D', { answer: () => 'silent' });
      const started = Date.now();
      const res = await post(deviceEndpoints.refreshScreen, { id });
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(res.statusCode).toBe(504);
      expect(res.json().msg).toBe(deviceMessages.timeout('门 D'));

      await d.close();
      await until(async () => (await pageOf(snOf('D'))).status === 'offline', 'D offline');
      const offline = await post(deviceEndpoints.openDoor, { id });
      expect(offline.statusCode).toBe(409);
      expect(offline.json().msg).toBe(deviceMessages.offline('门 D'));
      const detail = (await get(`${deviceEndpoints.detail}/${id}`)).json().data;
      expect(detail.commands.map((c: { state: string }) => c.state)).toEqual(
        expect.arrayContaining(['timeout', 'failed']),
      );
    });

    test('a refused command says why; clear keeps its reason in the audit log', async () => {
      const { id } = await registered('E', {
        answer: (c) => (c.type === 'clear' ? { ok: false, error: '存储故障' } : { ok: true }),
      });
      const res = await post(deviceEndpoints.clear, { id, reason: '门禁名单异常' });
      expect(res.statusCode).toBe(409);
      expect(res.json().msg).toBe(deviceMessages.refused('门 E', '存储故障'));
      const audit = await t.db.execute<{ after: { reason?: string } }>(
        `select after from audit_logs where resource = 'device' and action = 'clear' order by id desc limit 1`,
      );
      expect(JSON.stringify(audit)).toContain('门禁名单异常');
    });

    test('reset-config answers a new secret once the device acked with its old one; the device carries on with it', async () => {
      const { d, id, secret } = await registered('F');
      const res = await post(deviceEndpoints.resetConfig, { id, reason: '更换控制器' });
      expect(res.statusCode, res.body).toBe(200);
      const fresh = res.json<{ data: { secret: string } }>().data.secret;
      expect(fresh).not.toBe(secret);
      await until(async () => d.secret === fresh && d.connected, 'reconnected with the new secret');
      await until(
        async () => (await post(deviceEndpoints.openDoor, { id })).statusCode === 200,
        'open with new secret',
      );
    });

    test('管理员密码 and 卡规则: saved (a password as hashes only), synced at once, working at the keypad and reader', async () => {
      const { d, id } = await registered('K');
      const saved = await post(deviceEndpoints.adminPwdSave, {
        id,
        password: '20261125',
        reason: '保洁夜间进出',
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().msg).toBe(deviceMessages.listSynced('管理员密码'));
      const { pwdId } = saved.json<{ data: { pwdId: string } }>().data;
      const listed = (await get(deviceEndpoints.adminPwdList, { id })).json<{
        data: { id: string; sha256: string; needsReentry: boolean }[];
      }>().data;
      expect(listed).toEqual([
        { id: pwdId, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), needsReentry: false },
      ]);
      expect(JSON.stringify(listed)).not.toContain('20261125');
      expect((await d.enterPassword('20261125')).result).toBe('success');
      expect(
        (await post(deviceEndpoints.adminPwdSave, { id, password: '20261125', reason: '重复' })).statusCode,
      ).toBe(409);

      const noReason = await post(deviceEndpoints.adminPwdSave, { id, password: '123456' });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json().msg).toContain('操作原因');
      const short = await post(deviceEndpoints.adminPwdSave, { id, password: '12345', reason: '测试' });
      expect(short.statusCode).toBe(400);
      expect(short.json().msg).toBe(`管理员密码：${deviceMessages.passwordInvalid}`);

      const removed = await post(deviceEndpoints.adminPwdRemove, { id, pwdId, reason: '保洁合同结束' });
      expect(removed.statusCode).toBe(200);
      expect((await d.enterPassword('20261125')).result).toBe('denied');

      const now = Date.now();
      const card = await post(deviceEndpoints.cardRuleSave, {
        id,
        cardNo: 'AB12CD34',
        validFrom: now - 1000,
        validTo: now + 3_600_000,
      });
      expect(card.statusCode, card.body).toBe(200);
      expect((await get(deviceEndpoints.cardRuleList, { id })).json().data).toEqual([
        { cardNo: 'AB12CD34', validFrom: now - 1000, validTo: now + 3_600_000 },
      ]);
      expect((await d.swipeCard('AB12CD34')).result).toBe('success');
      const backwards = await post(deviceEndpoints.cardRuleSave, {
        id,
        cardNo: 'AB12CD34',
        validFrom: now,
        validTo: now - 1,
      });
      expect(backwards.statusCode).toBe(400);
      expect(backwards.json().msg).toContain(deviceMessages.cardRangeInvalid);
      expect((await post(deviceEndpoints.cardRuleRemove, { id, cardNo: 'AB12CD34' })).statusCode).toBe(200);
      expect((await d.swipeCard('AB12CD34')).result).toBe('denied');
      const audit = await t.db.execute(
        `select after from audit_logs where resource = 'device' and action = 'admin-pwd-save' order by id desc limit 1`,
      );
      expect(JSON.stringify(audit)).toContain('保洁夜间进出');
      expect(JSON.stringify(audit)).not.toContain('20261125');
    });

    test('unregister: the device is cut off and its secret no longer connects', async () => {
      const { d, id, sn, secret } = await registered('G');
      const res = await post(deviceEndpoints.unregister, { id });
      expect(res.statusCode).toBe(200);
      expect((await get(`${deviceEndpoints.detail}/${id}`)).statusCode).toBe(404);
      if (external) return; // an external broker enforces credentials through its own auth (docs/deploy.md)
      await until(async () => !d.connected, 'disconnected');
      await expect(new SimulatedDevice({ url: doors.url, sn, secret }).connect()).rejects.toThrow();
    });
  });

  describe('hostile messages are dropped and counted, nothing logged twice, the server alive', () => {
    test('wrong signature, replay, stale ts, `at` out of range, deep nesting, upper-case id, 300 KB, not JSON', async () => {
      const { d, id, sn, secret } = await registered('H');
      const door = { method: 'card', credential: '1234', result: 'success', at: Date.now() };
      const good = seal('door', door, secret);
      await d.publishRaw(JSON.stringify(good));
      await until(async () => (await openLogs(sn)).total === 1, 'the good event');

      // The same door event again (its PUBACK lost): acknowledged, changes nothing, not a drop.
      await d.publishRaw(JSON.stringify(good));
      await d.publishRaw(JSON.stringify(seal('door', door, secret, Date.now(), good.id)));
      const beat = seal('heartbeat', { uptimeS: 1 }, secret);
      await d.publishRaw(JSON.stringify(beat));
      await d.publishRaw(JSON.stringify(beat)); // replayed id
      await d.publishRaw(JSON.stringify(seal('door', door, 'not-the-secret'))); // wrong signature
      const { sig: _sig, ...unsigned } = seal('door', door, secret);
      await d.publishRaw(JSON.stringify(unsigned)); // unsigned
      await d.publishRaw(JSON.stringify(seal('heartbeat', { uptimeS: 2 }, secret, Date.now() - 120_000))); // stale
      await d.publishRaw('not json at all'); // malformed
      // v1.1: `at` from 30 days ago to 5 minutes ahead; the year 2200 and 31 days ago are refused.
      await d.publishRaw(JSON.stringify(seal('door', { ...door, at: Date.UTC(2200, 0, 1) }, secret)));
      await d.publishRaw(JSON.stringify(seal('door', { ...door, at: Date.now() - 31 * 86_400_000 }, secret)));
      // An upper-case copy of the logged event's id, signed: a second spelling is refused.
      await d.publishRaw(JSON.stringify(seal('door', door, secret, Date.now(), good.id.toUpperCase())));
      // 5 000 levels of nesting in params.
      const deep = `{"id":"${randomUUID()}","type":"door","ts":${Date.now()},"params":{"x":${'['.repeat(5000)}${']'.repeat(5000)}},"sig":"${'0'.repeat(64)}"}`;
      await d.publishRaw(deep);
      await until(async () => Number((await pageOf(sn)).droppedCount) === 9, 'nine drops counted');
      // The embedded broker acknowledges each once handled, so they are handled in order.
      if (!external)
        expect((await get(`${deviceEndpoints.detail}/${id}`)).json().data.lastDropReason).toBe('too-deep');
      if (!external) {
        // 300 KB: the embedded broker cuts the connection before buffering it.
        // Not awaited: the broker never acknowledges it, it closes the connection.
        void d.publishRaw(Buffer.alloc(300 * 1024, 'a')).catch(() => undefined);
        await until(async () => !d.connected, 'oversized sender disconnected');
      }
      expect((await openLogs(sn)).total).toBe(1);
      expect((await get(`${deviceEndpoints.detail}/${id}`)).statusCode).toBe(200);
    });
  });

  describe.skipIf(kind === 'external')('the embedded broker enforces the protocol', () => {
    const connect = (options: mqtt.IClientOptions) =>
      mqtt.connectAsync(doors.url, { reconnectPeriod: 0, connectTimeout: 3_000, ...options });

    test('wrong credentials, a client id that is not the username, bad sn: refused', async () => {
      await expect(
        connect({ clientId: snOf('X'), username: snOf('X'), password: 'wrong-key' }),
      ).rejects.toThrow();
      await expect(connect({ clientId: 'other', username: snOf('X'), password: enrolKey })).rejects.toThrow();
      await expect(connect({ clientId: 'a b', username: 'a b', password: enrolKey })).rejects.toThrow();
      // Once registered, the enrolment key no longer connects that sn.
      const { sn } = await registered('I');
      await expect(connect({ clientId: sn, username: sn, password: enrolKey })).rejects.toThrow();
    });

    test('an enrolling device may say hello and nothing else', async () => {
      const sn = snOf('J');
      const client = await connect({ clientId: sn, username: sn, password: enrolKey });
      client.on('error', () => undefined);
      // Its own hello is heard and lists it as waiting.
      await client.publishAsync(topics.evt(sn), JSON.stringify(seal('hello', { model: 'X' }, enrolKey)));
      await until(() => waiting(sn), 'J waiting');
      // Anything else: the broker closes the connection (MQTT 3.1.1 has no publish refusal).
      void client
        .publishAsync(topics.evt(sn), JSON.stringify(seal('door', { method: 'card' }, enrolKey)))
        .catch(() => undefined);
      await until(async () => !client.connected, 'disconnected for a non-hello');
      await client.endAsync(true);
    });
  });
});

test('a taken MQTT_PORT leaves the console up and the device link down, said everywhere', async () => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as net.AddressInfo).port;
  const down = await buildTestApp({ demoRows: false, config: { mqttPort: port } });
  try {
    await down.app.ready();
    const health = (await down.app.inject({ url: endpoints.health })).json().data;
    expect(health).toMatchObject({ status: 'up', mqtt: 'down' });
    expect(health.mqttReason).toContain(String(port));
    const auth = await down.auth(...demo.admin);
    const link = (await down.app.inject({ url: deviceEndpoints.linkStatus, headers: auth })).json().data;
    expect(link).toMatchObject({ up: false });
    // The console itself answers as usual.
    expect((await down.app.inject({ url: deviceEndpoints.page, headers: auth })).statusCode).toBe(200);
  } finally {
    await down.close();
    holder.close();
  }
});
