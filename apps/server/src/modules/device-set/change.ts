/**
 * What every 门禁联动 call shares: loading a set (404 when gone), the devices it has, the check that
 * named devices or spaces exist, and `changeSet`, the one way a set is written: in a transaction,
 * audited, and re-syncing every device it touched (before and after) once committed. A device
 * whose access did not change is sent nothing (the link compares the access state's hash).
 */
import { count, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { deviceSetFieldLabels, deviceSetMessages } from '@cowork/contract/resources/device-set';
import { sqlState, type Executor } from '../../db/client.ts';
import { deviceSetDevices, deviceSets, devices, spaces } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, conflict, notFound } from '../../lib/http.ts';
import { textOf } from '../../lib/unknown.ts';
import { staffActor } from '../../device-link/actors.ts';

export const tags = ['device-set'];
/** The audit log's resource name of a set's writes. */
const resource = 'device-set';

/** A route's config: its permission, and the field labels its 400 messages name. */
export const configOf = (permission: string) => ({ permission, fieldLabels: deviceSetFieldLabels });

export async function loadSet(db: Executor, id: number) {
  const [row] = await db.select().from(deviceSets).where(eq(deviceSets.id, id));
  if (!row) throw notFound(deviceSetMessages.notFound);
  return row;
}

export async function devicesOfSet(db: Executor, setId: number) {
  const rows = await db
    .select({ id: deviceSetDevices.deviceId })
    .from(deviceSetDevices)
    .where(eq(deviceSetDevices.setId, setId));
  return rows.map((r) => r.id);
}

/** A 400 with `message` unless every one of `ids` is a row of `table`. */
export async function assertAllExist(
  db: Executor,
  ids: readonly number[],
  table: typeof devices | typeof spaces,
  message: string,
) {
  if (ids.length === 0) return;
  const [{ n }] = await db
    .select({ n: count() })
    .from(table)
    .where(inArray(table.id, [...ids]));
  if (n !== new Set(ids).size) throw badRequest(message);
}

/** What a write did: the set, the call's answer, and the audit entry's before and after. */
interface SetChange<T> {
  id: number;
  answer: T;
  before?: unknown;
  after?: unknown;
  /** Devices to re-sync besides those the set had before the write or has after it. */
  deviceIds?: number[];
}

/**
 * Runs `work` on the set `setId` (undefined for a new one) in one transaction with its audit entry,
 * then re-syncs the devices the set had before or has after. A name another set has is a 409.
 */
export async function changeSet<T>(
  request: FastifyRequest,
  action: string,
  setId: number | undefined,
  work: (tx: Executor) => Promise<SetChange<T>>,
): Promise<T> {
  const app = request.server;
  let touched: number[] = [];
  const answer = await app.db
    .transaction(async (tx) => {
      const before = setId ? await devicesOfSet(tx, setId) : [];
      const result = await work(tx);
      const after = await devicesOfSet(tx, result.id);
      touched = [...new Set([...before, ...after, ...(result.deviceIds ?? [])])];
      await audit(
        request,
        { action, resource, resourceId: result.id, before: result.before, after: result.after },
        tx,
      );
      return result.answer;
    })
    .catch((error: unknown) => {
      if (sqlState(error) === '23505')
        throw conflict(deviceSetMessages.nameTaken(textOf(request.body, 'name') ?? ''));
      throw error;
    });
  void app.devices.accessChanged({ deviceIds: touched }, staffActor(request));
  return answer;
}
