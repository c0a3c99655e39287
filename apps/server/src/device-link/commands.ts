/**
 * Commands to devices: each is sealed with the device's secret, recorded as a row (the command
 * log), published, and answered once the device acks it or DEVICE_ACK_TIMEOUT_MS passes. The row
 * records its fate either way (acked, failed, timeout). An ack for a command this instance does not
 * wait for (another instance sent it, or it came after the timeout) still records the fate.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { DEVICE_ACK_TIMEOUT_MS, deviceMessages, type DeviceCommand } from '@cowork/contract';
import type { Database } from '../db/client.ts';
import { deviceCommands } from '../db/schema.ts';
import { batchWriter } from '../lib/batch.ts';
import { AppError } from '../lib/http.ts';
import type { CommandFate, DeviceMetrics } from '../lib/metrics.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import { seal, textParam, topics, type Envelope } from './protocol.ts';

export interface CommandActor {
  userId: number | null;
  name: string;
  reason?: string;
  /** The log of the request that caused it (actors.ts): the command's lines carry that request's id. */
  log?: FastifyBaseLogger;
}

export interface DeviceRow {
  id: number;
  sn: string;
  name: string;
  secret: string;
  status: 'online' | 'offline';
}

type Ack = { ok: boolean; error?: string };
type Fate = { id: string; state: 'failed' | 'timeout' | 'acked'; error: string | null; at: Date };

export interface CommandDeps {
  db: Database;
  box: SecretBox;
  /** Whether the link is up, and why not (sent to the caller in Chinese). */
  linkStatus: () => { up: boolean; reason?: string };
  /** Publishes on the broker with QoS 1; rejects when it cannot. */
  publish: (topic: string, payload: string) => Promise<void>;
  /** Where a command's fate is logged when no request caused it (a sync after a hello, an expiry). */
  log?: FastifyBaseLogger;
  metrics?: DeviceMetrics;
}

export type Commands = ReturnType<typeof createCommands>;

/**
 * Logs and counts a command's fate, naming the device and the command (its message id, the row's
 * id): a staff member's under their request's id, and the server's own acked ones at debug level
 * (every device's sync after each change would fill the log).
 */
function told(
  { log, metrics }: Pick<CommandDeps, 'log' | 'metrics'>,
  device: DeviceRow,
  type: string,
  actor: CommandActor,
  fate: CommandFate,
  commandId: string,
  answered?: { seconds?: number; error?: string },
) {
  metrics?.command(type, fate, answered?.seconds);
  const logger = actor.log ?? log;
  if (!logger) return;
  const line = {
    deviceId: device.id,
    sn: device.sn,
    commandId,
    type,
    fate,
    ...(answered?.seconds !== undefined && { ms: Math.round(answered.seconds * 1000) }),
    ...(answered?.error && { error: answered.error }),
  };
  if (fate === 'acked' || fate === 'offline')
    logger[actor.userId === null && fate === 'acked' ? 'debug' : 'info'](line, `device command ${fate}`);
  else logger.warn(line, `device command ${fate}`);
}

export function createCommands({ db, box, linkStatus, publish, log, metrics }: CommandDeps) {
  const waiters = new Map<string, (ack: Ack) => void>();

  /** Command rows written as they are sent, and their fates as they are known, many at a time. */
  const insertCommand = batchWriter(async (rows: (typeof deviceCommands.$inferInsert)[]) => {
    await db.insert(deviceCommands).values(rows);
  });
  const recordFate = batchWriter(async (fates: Fate[]) => {
    const values = sql.join(
      fates.map(
        (f) => sql`(${f.id}::uuid, ${f.state}::text, ${f.error}::text, ${f.at.toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    await db.execute(sql`update device_commands c set state = v.state, error = v.error, answered_at = v.at
      from (values ${values}) as v(id, state, error, at) where c.id = v.id`);
  });
  const record = (id: string, state: Fate['state'], error?: string) =>
    recordFate({ id, state, error: error ?? null, at: new Date() });

  /** The device's answer to the command of this id, or 'timeout'. */
  function answerTo(id: string): Promise<Ack | 'timeout'> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiters.delete(id);
        resolve('timeout');
      }, DEVICE_ACK_TIMEOUT_MS);
      waiters.set(id, (ack) => {
        clearTimeout(timer);
        resolve(ack);
      });
    });
  }

  /** Sends one signed command and waits for its ack; the row records its fate either way. */
  async function command(
    device: DeviceRow,
    { type, params }: DeviceCommand,
    actor: CommandActor,
  ): Promise<void> {
    const insertRow = (id: string, state: 'sent' | 'failed', error?: string) =>
      insertCommand({
        id,
        deviceId: device.id,
        type,
        byUserId: actor.userId,
        byName: actor.name,
        reason: actor.reason ?? null,
        state,
        error: error ?? null,
        answeredAt: state === 'failed' ? new Date() : null,
      });
    const tell = (fate: CommandFate, id: string, answered?: { seconds?: number; error?: string }) =>
      told({ log, metrics }, device, type, actor, fate, id, answered);
    const link = linkStatus();
    if (!link.up) {
      const id = randomUUID();
      await insertRow(id, 'failed', link.reason);
      tell('link-down', id);
      throw new AppError(503, deviceMessages.linkDown(link.reason ?? '未启动'));
    }
    if (device.status !== 'online') {
      const id = randomUUID();
      await insertRow(id, 'failed', '设备离线');
      tell('offline', id);
      throw new AppError(409, deviceMessages.offline(device.name));
    }
    const message = seal(type, params, box.open(device.secret));
    await insertRow(message.id, 'sent');
    const answer = answerTo(message.id);
    const sentAt = performance.now();
    try {
      await publish(topics.cmd(device.sn), JSON.stringify(message));
    } catch (error) {
      waiters.delete(message.id);
      await record(message.id, 'failed', String(error));
      tell('publish-failed', message.id, { error: String(error) });
      throw new AppError(503, deviceMessages.linkDown(String(error)));
    }
    const ack = await answer;
    const seconds = (performance.now() - sentAt) / 1000;
    if (ack === 'timeout') {
      await record(message.id, 'timeout', '5 秒内无应答');
      tell('timeout', message.id);
      throw new AppError(504, deviceMessages.timeout(device.name));
    }
    if (!ack.ok) {
      await record(message.id, 'failed', ack.error);
      tell('refused', message.id, { seconds, error: ack.error });
      throw new AppError(409, deviceMessages.refused(device.name, ack.error ?? ''));
    }
    await record(message.id, 'acked');
    tell('acked', message.id, { seconds });
  }

  /** A device's signed, fresh `ack`: `{ref, ok, error?}`. */
  async function onAck(deviceId: number, message: Envelope) {
    const ref = message.params.ref;
    if (typeof ref !== 'string') return;
    const ok = message.params.ok === true;
    const error = ok ? undefined : (textParam(message.params.error, 200) ?? '');
    const waiter = waiters.get(ref);
    if (waiter) {
      waiters.delete(ref);
      return waiter({ ok, error });
    }
    // Another instance sent it (and waits for it), or it came after the timeout: record the fate.
    await db
      .update(deviceCommands)
      .set({ state: ok ? 'acked' : 'failed', error, answeredAt: new Date() })
      .where(
        and(
          eq(deviceCommands.id, ref),
          eq(deviceCommands.deviceId, deviceId),
          eq(deviceCommands.state, 'sent'),
        ),
      );
  }

  return {
    command,
    onAck,
    /** Answers every command still waiting as failed (the server stops). */
    stop() {
      for (const resolve of waiters.values()) resolve({ ok: false, error: 'server stopping' });
      waiters.clear();
    },
  };
}
