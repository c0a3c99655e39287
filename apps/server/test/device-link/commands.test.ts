/**
 * Commands alone: the row each one leaves, its fate as the device answers, with a fake publish in
 * place of the transport and the device's ack handed to `onAck` as inbound would.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { deviceCommands } from '../../src/db/schema.ts';
import { createCommands } from '../../src/device-link/commands.ts';
import { parseEnvelope, seal, signedWith, topics, type Envelope } from '../../src/device-link/protocol.ts';
import { addDevice, box, useDatabase } from './fixture.ts';

const db = useDatabase();
const actor = { userId: null, name: '测试', reason: '检修' };

function setUp(options: { up?: boolean; publishFails?: boolean } = {}) {
  const published: { topic: string; message: Envelope }[] = [];
  let onPublish: (message: Envelope) => void = () => undefined;
  const commands = createCommands({
    db: db(),
    box,
    linkStatus: () => (options.up === false ? { up: false, reason: '无法连接 broker' } : { up: true }),
    publish: async (topic, payload) => {
      if (options.publishFails) throw new Error('broker gone');
      const message = parseEnvelope(payload);
      if (typeof message === 'string') throw new Error(message);
      published.push({ topic, message });
      onPublish(message);
    },
  });
  return {
    commands,
    published,
    /** What the device does with each command published from now on. */
    answer: (reply: (message: Envelope) => void) => {
      onPublish = reply;
    },
  };
}

const rowOf = async (id: string) =>
  (await db().select().from(deviceCommands).where(eq(deviceCommands.id, id)))[0];
const rowsOfDevice = (deviceId: number) =>
  db().select().from(deviceCommands).where(eq(deviceCommands.deviceId, deviceId));

describe('a command', () => {
  test('is sealed with the device secret, published on its cmd topic and answered by its ack', async () => {
    const device = await addDevice(db());
    const t = setUp();
    t.answer(
      (message) => void t.commands.onAck(device.id, seal('ack', { ref: message.id, ok: true }, device.plain)),
    );
    await t.commands.command(device, { type: 'open-door', params: { durationS: 3, by: 'admin' } }, actor);
    const [{ topic, message }] = t.published;
    expect(topic).toBe(topics.cmd(device.sn));
    expect(signedWith(message, device.plain)).toBe(true);
    expect(message.params).toEqual({ durationS: 3, by: 'admin' });
    expect(await rowOf(message.id)).toMatchObject({
      type: 'open-door',
      state: 'acked',
      byName: '测试',
      reason: '检修',
      error: null,
    });
  });

  test('refused by the device fails with its reason, recorded', async () => {
    const device = await addDevice(db());
    const t = setUp();
    t.answer(
      (message) =>
        void t.commands.onAck(
          device.id,
          seal('ack', { ref: message.id, ok: false, error: 'jammed' }, device.plain),
        ),
    );
    await expect(t.commands.command(device, { type: 'clear', params: {} }, actor)).rejects.toMatchObject({
      statusCode: 409,
    });
    expect(await rowOf(t.published[0].message.id)).toMatchObject({ state: 'failed', error: 'jammed' });
  });

  test('with the link down or the device offline, is refused at once and recorded as failed', async () => {
    const device = await addDevice(db());
    await expect(
      setUp({ up: false }).commands.command(device, { type: 'clear', params: {} }, actor),
    ).rejects.toMatchObject({
      statusCode: 503,
    });
    await expect(
      setUp().commands.command({ ...device, status: 'offline' }, { type: 'clear', params: {} }, actor),
    ).rejects.toMatchObject({ statusCode: 409 });
    const rows = await rowsOfDevice(device.id);
    expect(rows.map((r) => [r.state, r.error]).sort()).toEqual([
      ['failed', '无法连接 broker'],
      ['failed', '设备离线'],
    ]);
  });

  test('that cannot be published fails with the link down, recorded', async () => {
    const device = await addDevice(db());
    await expect(
      setUp({ publishFails: true }).commands.command(device, { type: 'clear', params: {} }, actor),
    ).rejects.toMatchObject({ statusCode: 503 });
    const [row] = await rowsOfDevice(device.id);
    expect(row).toMatchObject({ state: 'failed', error: 'Error: broker gone' });
  });

  test('still waiting when the link stops is answered as failed', async () => {
    const device = await addDevice(db());
    const t = setUp();
    t.answer(() => t.commands.stop());
    await expect(t.commands.command(device, { type: 'clear', params: {} }, actor)).rejects.toMatchObject({
      statusCode: 409,
    });
    expect(await rowOf(t.published[0].message.id)).toMatchObject({
      state: 'failed',
      error: 'server stopping',
    });
  });
});

test('an ack nobody here waits for (another instance sent it, or it came late) records the fate of a sent row once', async () => {
  const device = await addDevice(db());
  const id = randomUUID();
  await db()
    .insert(deviceCommands)
    .values({ id, deviceId: device.id, type: 'clear', byName: '测试', state: 'sent' });
  const { commands } = setUp();
  await commands.onAck(device.id, seal('ack', { ref: id, ok: true }, device.plain));
  await commands.onAck(device.id, seal('ack', { ref: id, ok: false, error: 'late' }, device.plain));
  expect(await rowOf(id)).toMatchObject({ state: 'acked', error: null });
});
