/**
 * Sign-in throttling. Failures are counted per account (lower-cased username, from any address)
 * and per client address inside a sliding window, in the database so restarts do not reset them.
 */
import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import {
  LOGIN_FAILURE_WINDOW_SECONDS,
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
} from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { loginFailures } from '../../db/schema.ts';

const windowStart = () => new Date(Date.now() - LOGIN_FAILURE_WINDOW_SECONDS * 1000);

export interface FailureCounts {
  account: number;
  address: number;
}

export async function countFailures(db: Executor, account: string, ip: string): Promise<FailureCounts> {
  const [row] = await db
    .select({
      account: sql<number>`count(*) filter (where ${loginFailures.username} = ${account})`.mapWith(Number),
      address: sql<number>`count(*) filter (where ${loginFailures.ip} = ${ip})`.mapWith(Number),
    })
    .from(loginFailures)
    .where(
      and(
        gt(loginFailures.at, windowStart()),
        or(eq(loginFailures.username, account), eq(loginFailures.ip, ip)),
      ),
    );
  return { account: row?.account ?? 0, address: row?.address ?? 0 };
}

export const isLockedOut = (counts: FailureCounts) =>
  counts.account >= LOGIN_MAX_FAILURES_PER_ACCOUNT || counts.address >= LOGIN_MAX_FAILURES_PER_ADDRESS;

export async function recordFailure(db: Executor, account: string, ip: string) {
  await db.insert(loginFailures).values({ username: account, ip });
  // Rows older than the window no longer count; dropping them keeps the table small.
  await db.delete(loginFailures).where(lt(loginFailures.at, windowStart()));
}

/** A successful sign-in clears the account's counter (not the address's). */
export async function clearAccountFailures(db: Executor, account: string) {
  await db.delete(loginFailures).where(eq(loginFailures.username, account));
}

/** Each failure waits a little longer than the last (100 ms per failure so far, at most 1 s). */
export const failureDelayMs = (failuresSoFar: number) => Math.min(100 * failuresSoFar, 1000);
