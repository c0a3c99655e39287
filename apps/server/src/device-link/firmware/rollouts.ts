/**
 * Firmware rollouts, as the server drives them: the `firmware` command goes to `batch_size` devices
 * of a running rollout at a time, and the next device starts as one finishes. A device is done when
 * it says hello with the new version, failed when it reports `progress` `failed` (or its command is
 * not taken), and failed when neither happens within the rollout's `timeout_minutes`. A rollout
 * halts once `stop_after_failures` of its devices failed, and is done when none is left.
 *
 * Every step is one conditional statement on the rows (`where state = …`) or a claim under the
 * rollout's row lock (`for update skip locked`), so with several instances each device is sent its
 * command by exactly one of them. A tick every TICK_MS moves every rollout along; an event (a
 * hello, a progress, a change from the console) moves it at once.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { firmwareMessages, firmwareStages, type DeviceCommand, type FirmwareStage } from '@cowork/contract';
import { rowsOf, type Database } from '../../db/client.ts';
import { AppError } from '../../lib/http.ts';
import type { CommandActor, DeviceRow } from '../commands.ts';
import { textParam, type Envelope } from '../protocol.ts';
import type { FirmwareLinks } from './signed-url.ts';

/** How often every rollout is moved along (timeouts, halts, the next devices). */
export const ROLLOUT_TICK_MS = 2_000;

/** A device's states while its update is under way. */
const IN_FLIGHT = sql.raw(`('sent', 'downloading', 'verifying', 'installing')`);

export interface RolloutDeps {
  db: Database;
  log: FastifyBaseLogger;
  links: FirmwareLinks;
  /** Sends one command and waits for its ack (commands.ts). */
  command: (device: DeviceRow, command: DeviceCommand, actor: CommandActor) => Promise<void>;
}

/** Why a `progress` event changed nothing: counted on the device as a dropped message. */
export type ProgressDrop = 'malformed' | 'unknown-ref';

export type Rollouts = ReturnType<typeof createRollouts>;

interface Claimed {
  device_id: number;
  sn: string;
  name: string;
  secret: string;
  status: 'online' | 'offline';
  version: string;
  sha256: string;
  size: number;
  firmware_id: number;
  created_by_id: number | null;
  created_by: string | null;
}

/** A `progress` event's params as the protocol has them, or undefined. */
function progressOf(params: Record<string, unknown>) {
  const { ref, stage, percent } = params;
  if (typeof ref !== 'string' || !/^[0-9a-f-]{36}$/i.test(ref)) return undefined;
  const isStage = (value: unknown): value is FirmwareStage => firmwareStages.some((s) => s === value);
  if (!isStage(stage)) return undefined;
  if (typeof percent !== 'number' || !Number.isInteger(percent) || percent < 0 || percent > 100)
    return undefined;
  if (params.error !== undefined && typeof params.error !== 'string') return undefined;
  return { ref, stage, percent, error: textParam(params.error, 200) };
}

export function createRollouts({ db, log, links, command }: RolloutDeps) {
  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;
  const sending = new Set<Promise<void>>();
  const haltedListeners: ((rolloutIds: number[]) => void)[] = [];

  /** Devices whose update took too long fail; rollouts at their failure limit halt; empty ones are done. */
  async function settle() {
    await db.execute(sql`
      update firmware_rollout_devices d
      set state = 'failed', error = ${firmwareMessages.timedOut}, active = false,
        finished_at = now(), updated_at = now()
      from firmware_rollouts r
      where r.id = d.rollout_id and d.state in ${IN_FLIGHT}
        and d.sent_at < now() - make_interval(mins => r.timeout_minutes)`);
    const halted = await rowsOf<{ id: number }>(
      db,
      sql`
      update firmware_rollouts r set state = 'halted', finished_at = now(), updated_at = now()
      where r.state in ('running', 'paused') and r.stop_after_failures <= (
        select count(*) from firmware_rollout_devices d where d.rollout_id = r.id and d.state = 'failed')
      returning r.id`,
    );
    // The devices a halted or cancelled rollout never reached may join another one.
    await db.execute(sql`
      update firmware_rollout_devices d set active = false, updated_at = now()
      from firmware_rollouts r
      where r.id = d.rollout_id and r.state in ('halted', 'cancelled') and d.state = 'queued' and d.active`);
    await db.execute(sql`
      update firmware_rollouts r set state = 'done', finished_at = now(), updated_at = now()
      where r.state = 'running' and not exists (
        select 1 from firmware_rollout_devices d
        where d.rollout_id = r.id and d.state not in ('done', 'failed'))`);
    if (halted.length > 0) {
      const ids = halted.map((h) => h.id);
      log.warn({ rollouts: ids }, 'firmware rollout halted at its failure limit');
      for (const listener of haltedListeners) listener(ids);
    }
  }

  /**
   * Takes the next queued devices of one running rollout, as many as its batch has room for, under
   * the rollout's row lock: another instance skips a rollout being claimed.
   */
  async function claim(rolloutId: number): Promise<Claimed[]> {
    return db.transaction(async (tx) => {
      const [rollout] = await rowsOf<{ id: number; room: number }>(
        tx,
        sql`
        select r.id, r.batch_size - (
          select count(*) from firmware_rollout_devices d
          where d.rollout_id = r.id and d.state in ${IN_FLIGHT})::int as room
        from firmware_rollouts r where r.id = ${rolloutId} and r.state = 'running'
          -- A failure since this tick's settle: the rollout halts at the next, and sends nothing now.
          and r.stop_after_failures > (
            select count(*) from firmware_rollout_devices d
            where d.rollout_id = r.id and d.state = 'failed')
        for update of r skip locked`,
      );
      if (!rollout || rollout.room <= 0) return [];
      return rowsOf<Claimed>(
        tx,
        sql`
        with next as (
          select rollout_id, device_id from firmware_rollout_devices
          where rollout_id = ${rolloutId} and state = 'queued' and active
          order by position limit ${rollout.room})
        update firmware_rollout_devices d
        set state = 'sent', percent = 0, sent_at = now(), updated_at = now()
        from next, devices v, firmware_rollouts r, firmware_files f
        where d.rollout_id = next.rollout_id and d.device_id = next.device_id and v.id = d.device_id
          and r.id = d.rollout_id and f.id = r.firmware_id
        returning d.device_id, v.sn, v.name, v.secret, v.status, f.version, f.sha256, f.size,
          f.id as firmware_id, r.created_by_id, r.created_by`,
      );
    });
  }

  /** A device's update ends in failure (unless it already ended), with the sentence the console shows. */
  async function fail(rolloutId: number, deviceId: number, error: string) {
    await db.execute(sql`
      update firmware_rollout_devices set state = 'failed', error = ${error}, active = false,
        finished_at = now(), updated_at = now()
      where rollout_id = ${rolloutId} and device_id = ${deviceId} and state in ${IN_FLIGHT}`);
  }

  /** Sends one claimed device its `firmware` command; the command's id is kept for its `progress`. */
  async function send(rolloutId: number, c: Claimed) {
    const actor: CommandActor = {
      userId: c.created_by_id,
      name: c.created_by ?? '系统自动',
      reason: `固件升级任务 #${rolloutId}`,
    };
    const device: DeviceRow = { id: c.device_id, sn: c.sn, name: c.name, secret: c.secret, status: c.status };
    try {
      await command(
        device,
        {
          type: 'firmware',
          params: { version: c.version, url: links.url(c.firmware_id), sha256: c.sha256, size: c.size },
        },
        actor,
      );
    } catch (error) {
      const text = error instanceof AppError ? error.message : String(error);
      await fail(rolloutId, c.device_id, firmwareMessages.notSent(text));
      return;
    }
    await db.execute(sql`
      update firmware_rollout_devices d set command_id = (
        select c.id from device_commands c
        where c.device_id = d.device_id and c.type = 'firmware' and c.sent_at >= d.sent_at
        order by c.sent_at desc limit 1)
      where d.rollout_id = ${rolloutId} and d.device_id = ${c.device_id} and d.command_id is null`);
  }

  async function tick() {
    await settle();
    const rollouts = await rowsOf<{ id: number }>(
      db,
      sql`select id from firmware_rollouts where state = 'running' order by id`,
    );
    for (const { id } of rollouts) {
      for (const claimed of await claim(id)) {
        const work = send(id, claimed)
          .catch((error: unknown) => log.warn({ err: error, rollout: id }, 'firmware command failed'))
          .finally(() => {
            sending.delete(work);
            advance();
          });
        sending.add(work);
      }
    }
  }

  /** Runs a tick now, or right after the one under way. */
  function runTick(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = tick()
      .catch((error: unknown) => log.warn({ err: error }, 'firmware rollout tick failed'))
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void runTick();
        }
      });
    return running;
  }

  /** Moves the rollouts along soon (a few events in a row make one tick). */
  function advance() {
    if (stopped || soon) return;
    soon = setTimeout(() => {
      soon = undefined;
      void runTick();
    }, 20);
    soon.unref();
  }

  return {
    start() {
      stopped = false;
      timer = setInterval(() => void runTick(), ROLLOUT_TICK_MS);
      timer.unref();
      advance();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(soon);
      soon = undefined;
      await running;
      await Promise.all(sending);
    },
    advance,
    /** A whole tick that starts after this call, awaited (tests; one under way may predate it). */
    async tick() {
      await running;
      await runTick();
    },
    links,
    /** Called with the ids of rollouts that halted at their failure limit (alerts). */
    onHalted(listener: (rolloutIds: number[]) => void) {
      haltedListeners.push(listener);
    },

    /**
     * A device's signed, fresh `progress`: its rollout row follows the stage. Params that are not the
     * protocol's, or a `ref` that is not this device's current firmware command, change nothing and
     * are answered as the reason to count.
     */
    async progress(deviceId: number, message: Envelope): Promise<ProgressDrop | undefined> {
      const p = progressOf(message.params);
      if (!p) return 'malformed';
      const failed = p.stage === 'failed';
      // `done` means installed; the device is done once it says hello with the new version.
      const state = failed ? 'failed' : p.stage === 'done' ? 'installing' : p.stage;
      const updated = await rowsOf<{ rollout_id: number }>(
        db,
        sql`
        update firmware_rollout_devices d
        set state = ${state}, percent = ${failed ? sql`d.percent` : p.percent},
          error = ${failed ? (p.error ?? firmwareMessages.failedOnDevice) : null},
          command_id = ${p.ref}::uuid, updated_at = now(),
          active = ${!failed}, finished_at = ${failed ? sql`now()` : null}
        where d.device_id = ${deviceId} and d.active and d.state in ${IN_FLIGHT}
          and (d.command_id = ${p.ref}::uuid or (d.command_id is null and exists (
            select 1 from device_commands c where c.id = ${p.ref}::uuid and c.device_id = ${deviceId}
              and c.type = 'firmware' and c.sent_at >= d.sent_at)))
        returning d.rollout_id`,
      );
      if (updated.length === 0) return 'unknown-ref';
      if (failed) advance();
      return undefined;
    },

    /** A device's claimed hello: naming its rollout's version, its update is done. */
    async hello(deviceId: number, firmware: string | null) {
      if (!firmware) return;
      const done = await rowsOf<{ rollout_id: number }>(
        db,
        sql`
        update firmware_rollout_devices d
        set state = 'done', percent = 100, error = null, active = false, finished_at = now(), updated_at = now()
        from firmware_rollouts r, firmware_files f
        where r.id = d.rollout_id and f.id = r.firmware_id and d.device_id = ${deviceId}
          and d.active and d.state in ${IN_FLIGHT} and f.version = ${firmware}
        returning d.rollout_id`,
      );
      if (done.length > 0) advance();
    },
  };
}
