/**
 * The simulator as a protocol v1.1 door, through the embedded broker and the real server: it
 * repeats the sync version in heartbeats, takes a lease only for the version it holds, judges
 * credentials by the mode (lockdown: admin passwords only; release: open) and the lease, restarts
 * on reboot, installs firmware served over plain HTTP once size and SHA-256 match (and not when the
 * check fails), and keeps alarms raised while disconnected until they are delivered.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { deviceEndpoints, type DeviceCommand } from '@cowork/contract';
import { deviceAlarms, devices } from '../src/db/schema.ts';
import { memberTotpKey, totpCode } from '../src/device-link/protocol.ts';
import { adminPasswordEntry } from '../src/device-link/secrets-v11.ts';
import { SimulatedDevice } from '../src/device-link/simulator.ts';
import { refusals } from '../src/device-link/simulator-state.ts';
import { doorFixture } from './device-fixture.ts';
import { type TestApp, until } from './helper.ts';

const doors = doorFixture({
  enrolKey: 'test-enrol-key-simulator-v11',
  device: { protocol: '1.1', heartbeatMs: 60_000 },
});
const { get, pageOf, registered } = doors;
let t: TestApp;

/** Sends a command as the console does; answers the error's message when the device refused it. */
async function command(id: number, cmd: DeviceCommand): Promise<string | undefined> {
  const [row] = await t.db
    .select({
      id: devices.id,
      sn: devices.sn,
      name: devices.name,
      secret: devices.secret,
      status: devices.status,
    })
    .from(devices)
    .where(eq(devices.id, id));
  try {
    await t.app.devices.command(row, cmd, { userId: null, name: '测试' });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

beforeAll(async () => {
  t = await doors.start();
});

afterAll(() => doors.close());

describe('sync state: version, mode and lease', () => {
  let door: Awaited<ReturnType<typeof registered>>;
  const memberId = 4242;
  const admin = '24681357';
  const card = 'CARD8888';
  const hour = 3_600_000;

  /** A sync as the server sends it, with this version, mode and validUntil. */
  async function sync(version: number, mode: 'normal' | 'lockdown' | 'release', validUntil: number) {
    const now = Date.now();
    const failed = await command(door.id, {
      type: 'sync',
      params: {
        now,
        access: [{ memberId, phone: '138****0000', validFrom: now - hour, validTo: now + hour }],
        adminPasswords: [await adminPasswordEntry('P1', admin)],
        cardRules: [{ cardNo: card, validFrom: now - hour, validTo: now + hour }],
        version,
        mode,
        validUntil,
      },
    });
    expect(failed).toBeUndefined();
    expect(door.d.state).toMatchObject({ version, mode, validUntil });
  }
  const memberCode = () => totpCode(memberTotpKey(door.secret, memberId)).code;

  beforeAll(async () => {
    door = await registered('SIM11-STATE');
  });

  test('heartbeats carry the sync version it holds; a v1 device sends none', async () => {
    await sync(7, 'normal', Date.now() + hour);
    expect(door.d.heartbeatParams()).toMatchObject({ version: 7 });
    const beat = new SimulatedDevice({ url: doors.url, sn: 'unused', protocol: '1' });
    beat.state = { ...door.d.state };
    expect(beat.heartbeatParams()).not.toHaveProperty('version');
    // The timer's heartbeat says the same on the wire.
    const quick = await registered('SIM11-BEAT', { heartbeatMs: 200 });
    const beats = vi.spyOn(quick.d, 'send');
    await until(() => beats.mock.calls.some(([type]) => type === 'heartbeat'), 'a heartbeat');
    const [, params] = beats.mock.calls.find(([type]) => type === 'heartbeat')!;
    expect(params).toHaveProperty('uptimeS');
    expect(params.version).toBe(quick.d.state.version);
  });

  test('lease: extends validUntil for the version held, refuses another version', async () => {
    const until1 = Date.now() + hour;
    await sync(8, 'normal', until1);
    const later = until1 + 5 * hour;
    expect(await command(door.id, { type: 'lease', params: { version: 7, validUntil: later } })).toContain(
      'version mismatch',
    );
    expect(door.d.state.validUntil).toBe(until1);
    expect(
      await command(door.id, { type: 'lease', params: { version: 8, validUntil: later } }),
    ).toBeUndefined();
    expect(door.d.state.validUntil).toBe(later);
  });

  test('normal: member code, card and admin password open', async () => {
    await sync(9, 'normal', Date.now() + hour);
    expect(await door.d.enterCode(memberCode())).toEqual({ result: 'success' });
    expect(await door.d.swipeCard(card)).toEqual({ result: 'success' });
    expect(await door.d.enterPassword(admin)).toEqual({ result: 'success' });
    expect(await door.d.enterPassword('11112222')).toEqual({ result: 'denied', reason: refusals.password });
  });

  test('lockdown refuses a member code, a card and a remote opening, not an admin password', async () => {
    await sync(10, 'lockdown', Date.now() + hour);
    expect(await door.d.enterCode(memberCode())).toEqual({ result: 'denied', reason: refusals.lockdown });
    expect(await door.d.swipeCard(card)).toEqual({ result: 'denied', reason: refusals.lockdown });
    expect(await door.d.enterPassword(admin)).toEqual({ result: 'success' });
    const remote = await command(door.id, { type: 'open-door', params: { durationS: 3, by: 'admin' } });
    expect(remote).toContain('lockdown');
  });

  test('release opens for anyone', async () => {
    await sync(11, 'release', Date.now() + hour);
    expect(await door.d.enterCode('000000')).toEqual({ result: 'success' });
    expect(await door.d.swipeCard('UNKNOWN1')).toEqual({ result: 'success' });
    expect(await door.d.enterPassword('99990000')).toEqual({ result: 'success' });
  });

  test('past validUntil: member codes and cards are refused, admin passwords still work', async () => {
    await sync(12, 'normal', Date.now() - 1_000);
    expect(door.d.leaseExpired).toBe(true);
    expect(await door.d.enterCode(memberCode())).toEqual({ result: 'denied', reason: refusals.leaseExpired });
    expect(await door.d.swipeCard(card)).toEqual({ result: 'denied', reason: refusals.leaseExpired });
    expect(await door.d.enterPassword(admin)).toEqual({ result: 'success' });
    // The refusals reach the open log as any door event.
    await until(async () => {
      const res = await get(deviceEndpoints.openLogPage, { sn: door.d.sn, result: 'denied', size: '50' });
      const rows = res.json<{ data: { records: { reason: string }[] } }>().data.records;
      return rows.filter((r) => r.reason === refusals.leaseExpired).length >= 2;
    }, 'lease refusals logged');
  });
});

describe('reboot, firmware and kept alarms', () => {
  let http: Server;
  let base: string;
  const image = Buffer.alloc(300_000, 7);
  const sha256 = createHash('sha256').update(image).digest('hex');

  beforeAll(async () => {
    http = createServer((req, res) => {
      if (req.url !== '/fw.bin') return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(image);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const address = http.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  test('reboot: acks, drops the connection, reconnects and says hello again', async () => {
    const { d, id } = await registered('SIM11-BOOT');
    const hellos = vi.spyOn(d, 'send');
    let reconnects = 0;
    d.on('connected', () => reconnects++);
    expect(await command(id, { type: 'reboot', params: {} })).toBeUndefined();
    await until(() => reconnects === 1 && d.connected, 'back after reboot');
    expect(hellos.mock.calls.some(([type]) => type === 'hello')).toBe(true);
    await until(async () => (await pageOf(d.sn)).status === 'online', 'online after reboot');
  });

  test('firmware: downloads, verifies, installs, restarts and says hello with the new version', async () => {
    const { d, id } = await registered('SIM11-FW', { firmware: '1.0.0' });
    const stages: string[] = [];
    const sent = vi.spyOn(d, 'send');
    d.on('progress', (p) => stages.push(p.stage));
    const params = { version: '2.0.0', url: `${base}/fw.bin`, sha256, size: image.length };
    expect(await command(id, { type: 'firmware', params })).toBeUndefined();
    await until(() => stages.includes('done'), 'firmware done');
    expect(stages[0]).toBe('downloading');
    expect(stages.slice(-3)).toEqual(['verifying', 'installing', 'done']);
    const firmwareCommand = d.commands.findLast((c) => c.type === 'firmware')!;
    const progress = sent.mock.calls.filter(([type]) => type === 'progress').map(([, p]) => p);
    expect(progress.every((p) => p.ref === firmwareCommand.id)).toBe(true);
    await until(
      () => sent.mock.calls.some(([type, p]) => type === 'hello' && p.firmware === '2.0.0'),
      'hello with 2.0.0',
    );
    expect(d.firmware).toBe('2.0.0');
    await until(async () => (await pageOf(d.sn)).firmware === '2.0.0', 'the console shows 2.0.0');
  });

  test('firmware: a failed check reports failed and keeps the old version; a wrong size too', async () => {
    const { d, id } = await registered('SIM11-FWBAD', { firmware: '1.0.0', failFirmwareCheck: true });
    const reports: { stage: string; error?: string }[] = [];
    d.on('progress', (p) => reports.push(p));
    let reconnects = 0;
    d.on('connected', () => reconnects++);
    const params = { version: '2.0.0', url: `${base}/fw.bin`, sha256, size: image.length };
    expect(await command(id, { type: 'firmware', params })).toBeUndefined();
    await until(() => reports.some((r) => r.stage === 'failed'), 'firmware failed');
    expect(reports.map((r) => r.stage)).not.toContain('installing');
    expect(reports.at(-1)!.error).toContain('sha256');
    expect(d.firmware).toBe('1.0.0');
    expect(reconnects).toBe(0);

    // A file longer than announced is not read past its size and not installed.
    const good = await registered('SIM11-FWSIZE', { firmware: '1.0.0' });
    const sized: { stage: string; error?: string }[] = [];
    good.d.on('progress', (p) => sized.push(p));
    const short = { ...params, size: image.length - 1 };
    expect(await command(good.id, { type: 'firmware', params: short })).toBeUndefined();
    await until(() => sized.some((r) => r.stage === 'failed'), 'size failure');
    expect(sized.at(-1)!.error).toContain('size mismatch');
    expect(good.d.firmware).toBe('1.0.0');
  });

  test('alarms raised while disconnected are kept and sent after reconnect, oldest first', async () => {
    const { d } = await registered('SIM11-ALARM', { reconnectMs: 2_000 });
    const delivered: string[] = [];
    d.on('delivered', (messageId) => delivered.push(messageId));
    expect(await d.raiseAlarm('tamper', '外壳被打开')).toBe(true);
    expect(await d.raiseAlarm('tamper')).toBe(false); // raised already
    await until(() => delivered.length === 1, 'the first alarm delivered');

    // The connection is cut (not closed, as a cable pulled): what happens now is kept.
    const reconnected = new Promise((resolve) => d.once('connected', () => resolve(true)));
    d['client']?.stream.destroy();
    await until(() => !d.connected, 'disconnected');
    expect(await d.clearAlarm('tamper')).toBe(true);
    expect(await d.raiseAlarm('power', '市电中断')).toBe(true);
    expect(d.keptEvents.map((e) => [e.params.kind, e.params.state])).toEqual([
      ['tamper', 'cleared'],
      ['power', 'raised'],
    ]);
    expect(await d.clearAlarm('forced')).toBe(false); // never raised
    const ids = d.keptEvents.map((e) => e.id);

    await reconnected;
    await until(() => delivered.length === 3, 'kept alarms delivered after reconnect', 15_000);
    expect(delivered.slice(1)).toEqual(ids);
    expect(d.keptEvents).toHaveLength(0);
    // Delivered means written: 告警记录 has the tamper closed by its kept clear, the power cut open.
    const rows = await t.db
      .select({ kind: deviceAlarms.kind, state: deviceAlarms.state, detail: deviceAlarms.detail })
      .from(deviceAlarms)
      .where(eq(deviceAlarms.sn, d.sn))
      .orderBy(asc(deviceAlarms.raisedAt));
    expect(rows).toEqual([
      { kind: 'tamper', state: 'cleared', detail: '外壳被打开' },
      { kind: 'power', state: 'open', detail: '市电中断' },
    ]);
  });

  test('a v1 device has no alarms and refuses v1.1 commands as unknown', async () => {
    const { d, id } = await registered('SIM1-OLD', { protocol: '1' });
    await expect(d.raiseAlarm('fault')).rejects.toThrow('v1.1');
    expect(await command(id, { type: 'reboot', params: {} })).toContain('unknown command reboot');
    expect(d.state).not.toHaveProperty('version');
  });
});
