/**
 * The inbound side alone: envelope and signature checks, the fair rate, and which piece each
 * message kind goes to, with fakes for every piece it hands messages to.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { DeviceKeys } from '../../src/device-link/device-keys.ts';
import { createInbound, Declined } from '../../src/device-link/inbound.ts';
import { seal, type DropReason, type Envelope } from '../../src/device-link/protocol.ts';

const enrolKey = 'inbound-enrol-key-0123456789';
const secret = 'inbound-device-secret-0123456789';
const device: DeviceKeys = { id: 7, name: '前门', secrets: [secret] };

function setUp(options: { doorRefusal?: DropReason; doorFails?: boolean; alarmRefusal?: DropReason } = {}) {
  const drops: [string, string][] = [];
  const background: Promise<unknown>[] = [];
  const heard: string[] = [];
  const acks: Envelope[] = [];
  const enrolled: Envelope[] = [];
  const hellos: Envelope[] = [];
  const doors: Envelope[] = [];
  const alarms: Envelope[] = [];
  const statuses: string[] = [];
  const held: [number, number][] = [];
  const inbound = createInbound({
    config: { deviceEnrolKey: enrolKey },
    keysOf: async (sn) => (sn === 'DOOR-1' ? device : undefined),
    countDrop: (sn, reason) => void drops.push([sn, reason]),
    background: (_sn, work) => void background.push(work),
    presence: {
      heard: (sn) => void heard.push(sn),
      onStatus: async (_sn, payload) => void statuses.push(payload.toString()),
    },
    commands: { onAck: async (_id, message) => void acks.push(message) },
    hellos: {
      enrol: async (_sn, message) => void enrolled.push(message),
      hello: async (_id, _sn, message) => void hellos.push(message),
    },
    alarms: {
      record: async (_device, _sn, message) => {
        alarms.push(message);
        return options.alarmRefusal;
      },
    },
    versions: { held: async (id, version) => void held.push([id, version]) },
    doors: {
      record: async (_device, _sn, message) => {
        if (options.doorFails) throw new Error('database away');
        doors.push(message);
        return options.doorRefusal;
      },
    },
  });
  const send = (message: unknown, canDecline = true, sn = 'DOOR-1') =>
    inbound.received(sn, Buffer.from(JSON.stringify(message)), '10.0.0.1', canDecline);
  return { inbound, send, drops, background, heard, acks, enrolled, hellos, doors, alarms, statuses, held };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('envelope checks', () => {
  test('what is not a signed envelope is counted and goes nowhere', async () => {
    const t = setUp();
    await t.inbound.received('DOOR-1', Buffer.from('not json'), undefined, true);
    await t.send({ ...seal('heartbeat', {}, secret), sig: undefined });
    await t.send(seal('heartbeat', {}, 'another-secret-0123456789'));
    expect(t.drops).toEqual([
      ['DOOR-1', 'malformed'],
      ['DOOR-1', 'unsigned'],
      ['DOOR-1', 'bad-signature'],
    ]);
    expect(t.heard).toEqual([]);
  });

  test('a message seen before, or out of the clock window, is dropped', async () => {
    const t = setUp();
    const beat = seal('heartbeat', {}, secret);
    await t.send(beat);
    await t.send(beat);
    await t.send(seal('heartbeat', {}, secret, Date.now() - 10 * 60_000));
    expect(t.drops).toEqual([
      ['DOOR-1', 'replayed'],
      ['DOOR-1', 'stale'],
    ]);
    expect(t.heard).toEqual(['DOOR-1']);
  });

  test('an sn not registered is heard only for a hello signed with the enrolment key', async () => {
    const t = setUp();
    await t.send(seal('hello', { model: 'X' }, enrolKey), true, 'NEW-1');
    await t.send(seal('heartbeat', {}, enrolKey), true, 'NEW-1');
    await t.send(seal('hello', {}, 'not-the-enrolment-key-012345'), true, 'NEW-1');
    expect(t.enrolled.map((m) => m.params)).toEqual([{ model: 'X' }]);
    expect(t.drops).toEqual([]);
  });
});

describe('dispatch', () => {
  test('ack and hello go to their pieces in the background; a heartbeat is only heard', async () => {
    const t = setUp();
    await t.send(seal('ack', { ref: 'x', ok: true }, secret));
    await t.send(seal('hello', { protocol: '1.1' }, secret));
    await t.send(seal('heartbeat', { uptimeS: 3 }, secret));
    await t.send(seal('reboot', {}, secret));
    await Promise.all(t.background);
    expect(t.acks.map((m) => m.type)).toEqual(['ack']);
    expect(t.hellos.map((m) => m.params)).toEqual([{ protocol: '1.1' }]);
    expect(t.heard).toEqual(['DOOR-1', 'DOOR-1', 'DOOR-1', 'DOOR-1']);
    expect(t.drops).toEqual([['DOOR-1', 'malformed']]);
  });

  test("a v1.1 heartbeat's version says what the device holds; one without a whole version says nothing", async () => {
    const t = setUp();
    await t.send(seal('heartbeat', { uptimeS: 3, version: 12 }, secret));
    await t.send(seal('heartbeat', { uptimeS: 4 }, secret));
    await t.send(seal('heartbeat', { uptimeS: 5, version: 1.5 }, secret));
    await t.send(seal('heartbeat', { uptimeS: 6, version: '13' }, secret));
    await Promise.all(t.background);
    expect(t.held).toEqual([[7, 12]]);
  });

  test('a door event is written before it resolves; a late one is written but does not say the device is there', async () => {
    const t = setUp();
    await t.send(seal('door', { method: 'card', result: 'success', at: Date.now() }, secret));
    expect(t.doors).toHaveLength(1);
    const late = seal('door', { method: 'card', result: 'success', at: Date.now() - 3_600_000 }, secret);
    await t.send({ ...late, ...seal('door', late.params, secret, Date.now() - 3_600_000, late.id) });
    expect(t.doors).toHaveLength(2);
    expect(t.heard).toEqual(['DOOR-1']);
    await t.send(seal('alarm', { kind: 'forced' }, secret));
    expect(t.alarms).toHaveLength(1);
    expect(t.drops).toEqual([]);
  });

  test('an alarm sent again is counted on the embedded broker, not on an external one (every instance hears it)', async () => {
    const t = setUp({ alarmRefusal: 'replayed' });
    const alarm = seal('alarm', { kind: 'forced', state: 'raised', at: Date.now() }, secret);
    await t.send(alarm);
    await t.send(alarm, false);
    expect(t.alarms).toHaveLength(2);
    expect(t.drops).toEqual([['DOOR-1', 'replayed']]);
  });

  test('a door event the open log refuses is counted with its reason', async () => {
    const t = setUp({ doorRefusal: 'at-out-of-range' });
    await t.send(seal('door', { method: 'card', result: 'success', at: 1 }, secret));
    expect(t.drops).toEqual([['DOOR-1', 'at-out-of-range']]);
  });

  test('a door event that cannot be written rejects (no acknowledgement) and is counted', async () => {
    const t = setUp({ doorFails: true });
    await expect(t.send(seal('door', { method: 'card', result: 'success' }, secret))).rejects.toThrow(
      'database away',
    );
    expect(t.drops).toEqual([['DOOR-1', 'not-written']]);
  });

  test('status payloads go to presence; refusals of the broker are counted', async () => {
    const t = setUp();
    await t.inbound.status('DOOR-1', Buffer.from('{"online":true}'));
    t.inbound.refused('DOOR-1', 'topic');
    expect(t.statuses).toEqual(['{"online":true}']);
    expect(t.drops).toEqual([['DOOR-1', 'topic']]);
  });
});

describe('the fair rate', () => {
  test('where it can decline (embedded broker), a flood is held, then declined and counted', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    const t = setUp();
    // 100 at once (the burst), 100 more held up to 5 s for their turn, then declined.
    const sent = Array.from({ length: 201 }, () => t.send(seal('heartbeat', {}, secret)));
    await expect(sent[200]).rejects.toBeInstanceOf(Declined);
    expect(t.drops).toEqual([['DOOR-1', 'rate']]);
    await vi.runAllTimersAsync();
    await Promise.all(sent.slice(0, 200));
    expect(t.heard).toHaveLength(200);
  });

  test('where it cannot (external broker), beyond the rate only door events are still written', async () => {
    vi.useFakeTimers({ toFake: ['Date'] }); // no token earned back meanwhile
    const t = setUp();
    for (let i = 0; i < 100; i++) await t.send(seal('heartbeat', {}, secret), false);
    await t.send(seal('heartbeat', {}, secret), false);
    await t.send(seal('door', { method: 'card', result: 'success' }, secret), false);
    expect(t.drops).toEqual([['DOOR-1', 'rate']]);
    expect(t.doors).toHaveLength(1);
  });

  test('enrolling hellos are held to their own rate per sn', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t = setUp();
    for (let i = 0; i < 11; i++) await t.send(seal('hello', {}, enrolKey), false, 'NEW-2');
    expect(t.enrolled).toHaveLength(10);
    expect(t.drops).toEqual([['NEW-2', 'enrol-rate']]);
  });
});
