/**
 * Sign-in throttling (the policy is written out in docs/security.md). Every password check (sign-in,
 * and the current password when changing one's own) first reserves an attempt on three counters in
 * one transaction, each reservation one upsert that counts and decides under the row's lock, so
 * parallel attempts cannot all pass a check made before any of them was counted:
 * - pair (account + address): 5 failures, then each further attempt waits 30 s, 1 min, 2 min, … up
 *   to 15 min after the last one. This bounds guesses from any one address at any account.
 * - account: 10 failures in 15 min from addresses the account has not signed in from.
 * - address: 20 failures in 15 min at any accounts the address has not signed in to.
 * An address where the right password signed in before (a known address) skips the account and
 * address counters, so an attacker elsewhere, or behind the same office NAT at other accounts, cannot
 * lock the owner out; it stays bounded by its pair counter.
 */
import { and, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  LOGIN_BACKOFF_BASE_SECONDS,
  LOGIN_BACKOFF_MAX_SECONDS,
  LOGIN_FAILURE_WINDOW_SECONDS,
  LOGIN_KNOWN_ADDRESS_DAYS,
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_PAIR_FREE_FAILURES,
  LOGIN_PAIR_RESET_SECONDS,
  messages,
} from '@cowork/contract';
import type { Database, Executor } from '../../db/client.ts';
import { signInCounters, signInKnownAddresses } from '../../db/schema.ts';
import { AppError } from '../../lib/http.ts';

type Scope = 'pair' | 'account' | 'address';

interface Rule {
  /** Failures allowed before the counter refuses. */
  free: number;
  /** When the counter starts again from zero: seconds after its window started or its last attempt. */
  resetAfter: { column: 'windowStart' | 'lastAt'; seconds: number };
  /** Past `free`, an attempt is let through once this wait after the last one has passed. */
  backoff?: { baseSeconds: number; maxSeconds: number };
}

const rules: Record<Scope, Rule> = {
  pair: {
    free: LOGIN_PAIR_FREE_FAILURES,
    resetAfter: { column: 'lastAt', seconds: LOGIN_PAIR_RESET_SECONDS },
    backoff: { baseSeconds: LOGIN_BACKOFF_BASE_SECONDS, maxSeconds: LOGIN_BACKOFF_MAX_SECONDS },
  },
  account: {
    free: LOGIN_MAX_FAILURES_PER_ACCOUNT,
    resetAfter: { column: 'windowStart', seconds: LOGIN_FAILURE_WINDOW_SECONDS },
  },
  address: {
    free: LOGIN_MAX_FAILURES_PER_ADDRESS,
    resetAfter: { column: 'windowStart', seconds: LOGIN_FAILURE_WINDOW_SECONDS },
  },
};

const seconds = (n: number | SQL) => sql`make_interval(secs => ${n})`;

/** SQL: whether the row's counter has expired (it then starts again at 1). */
const expired = (rule: Rule) =>
  sql`${signInCounters[rule.resetAfter.column]} <= now() - ${seconds(rule.resetAfter.seconds)}`;

/** SQL: the wait after the last attempt before the next one may try (rule with back-off, past free). */
const backoffWait = ({ free, backoff }: Rule & Required<Pick<Rule, 'backoff'>>) =>
  seconds(
    sql`least(${backoff.baseSeconds} * power(2, ${signInCounters.failures} - ${free}), ${backoff.maxSeconds})`,
  );

/**
 * Counts one attempt on a counter if the counter allows it, in one statement under the row lock.
 * Undefined when it refuses (and then nothing is counted).
 */
async function reserve(tx: Executor, scope: Scope, key: string): Promise<number | undefined> {
  const rule = rules[scope];
  const allowed = [expired(rule), sql`${signInCounters.failures} < ${rule.free}`];
  if (rule.backoff)
    allowed.push(sql`now() >= ${signInCounters.lastAt} + ${backoffWait({ ...rule, backoff: rule.backoff })}`);
  const [row] = await tx
    .insert(signInCounters)
    .values({ scope, key, failures: 1, windowStart: sql`now()`, lastAt: sql`now()` })
    .onConflictDoUpdate({
      target: [signInCounters.scope, signInCounters.key],
      set: {
        failures: sql`case when ${expired(rule)} then 1 else ${signInCounters.failures} + 1 end`,
        windowStart: sql`case when ${expired(rule)} then now() else ${signInCounters.windowStart} end`,
        lastAt: sql`now()`,
      },
      setWhere: sql.join(allowed, sql` or `),
    })
    .returning({ failures: signInCounters.failures });
  return row?.failures;
}

/** Seconds until a refusing counter lets the next attempt through. */
async function waitOf(tx: Executor, scope: Scope, key: string): Promise<number> {
  const rule = rules[scope];
  const until = rule.backoff
    ? sql`${signInCounters.lastAt} + ${backoffWait({ ...rule, backoff: rule.backoff })}`
    : sql`${signInCounters[rule.resetAfter.column]} + ${seconds(rule.resetAfter.seconds)}`;
  const [row] = await tx
    .select({ wait: sql<number>`extract(epoch from (${until}) - now())`.mapWith(Number) })
    .from(signInCounters)
    .where(and(eq(signInCounters.scope, scope), eq(signInCounters.key, key)));
  return Math.max(1, Math.ceil(row?.wait ?? 1));
}

/** 429 with the wait in the message (whole minutes) and in Retry-After (seconds). */
export class TooManyAttempts extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, messages.tooManyAttemptsWait.replace('{minutes}', String(Math.ceil(retryAfterSeconds / 60))));
  }
}

/**
 * The address a counter keys on. An IPv6 client usually holds a whole /64, so that is one address
 * here (the same normalisation @fastify/rate-limit applies).
 */
export const throttleAddress = (ip: string) => normalizeIP(ip, 64);

/** SQL: the oldest success that still makes an address known. */
const knownSince = () => sql`now() - ${seconds(LOGIN_KNOWN_ADDRESS_DAYS * 86_400)}`;

const pairKey = (account: string, address: string) => `${account}\n${address}`;

/** A reserved attempt; `settle` it once the password has been checked. */
export interface Reservation {
  account: string;
  address: string;
  /** The account signed in from this address before: account and address counters were skipped. */
  known: boolean;
}

/**
 * Reserves one password check for `account` (lower-cased username, existing or not) from `ip`, or
 * throws TooManyAttempts. All counters are reserved in one transaction: when a later one refuses,
 * the earlier reservations roll back.
 */
export async function reserveAttempt(db: Database, account: string, ip: string): Promise<Reservation> {
  const address = throttleAddress(ip);
  return db.transaction(async (tx) => {
    const [known] = await tx
      .select({ at: signInKnownAddresses.lastSuccessAt })
      .from(signInKnownAddresses)
      .where(
        and(
          eq(signInKnownAddresses.username, account),
          eq(signInKnownAddresses.address, address),
          gt(signInKnownAddresses.lastSuccessAt, knownSince()),
        ),
      );
    const counters: [Scope, string][] = [['pair', pairKey(account, address)]];
    if (!known) counters.push(['account', account], ['address', address]);
    for (const [scope, key] of counters) {
      if ((await reserve(tx, scope, key)) === undefined) {
        throw new TooManyAttempts(await waitOf(tx, scope, key));
      }
    }
    return { account, address, known: Boolean(known) };
  });
}

/**
 * After the password check. A failure leaves the reservations counted (and drops counters idle for
 * a day). A success clears the pair, gives back the account and address reservations, and makes the
 * address known to the account.
 */
export async function settleAttempt(db: Database, reservation: Reservation, success: boolean) {
  const { account, address, known } = reservation;
  if (!success) {
    await db
      .delete(signInCounters)
      .where(lt(signInCounters.lastAt, sql`now() - ${seconds(LOGIN_PAIR_RESET_SECONDS)}`));
    return;
  }
  await db.transaction(async (tx) => {
    await tx
      .delete(signInCounters)
      .where(and(eq(signInCounters.scope, 'pair'), eq(signInCounters.key, pairKey(account, address))));
    if (!known) {
      for (const [scope, key] of [
        ['account', account],
        ['address', address],
      ] as const) {
        await tx
          .update(signInCounters)
          .set({ failures: sql`greatest(${signInCounters.failures} - 1, 0)` })
          .where(and(eq(signInCounters.scope, scope), eq(signInCounters.key, key)));
      }
    }
    await tx
      .insert(signInKnownAddresses)
      .values({ username: account, address, lastSuccessAt: sql`now()` })
      .onConflictDoUpdate({
        target: [signInKnownAddresses.username, signInKnownAddresses.address],
        set: { lastSuccessAt: sql`now()` },
      });
    // The account's addresses unused for too long are forgotten.
    await tx
      .delete(signInKnownAddresses)
      .where(
        and(eq(signInKnownAddresses.username, account), lt(signInKnownAddresses.lastSuccessAt, knownSince())),
      );
  });
}

/**
 * Checks a password under the throttle: reserves the attempt for `account` from the caller's
 * address, runs `check`, settles. When a counter refuses, `check` never runs: 429 with Retry-After.
 */
export async function throttledCheck(
  request: FastifyRequest,
  reply: FastifyReply,
  account: string,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const { db } = request.server;
  let reservation: Reservation;
  try {
    reservation = await reserveAttempt(db, account, request.ip);
  } catch (error) {
    if (error instanceof TooManyAttempts) reply.header('retry-after', String(error.retryAfterSeconds));
    throw error;
  }
  let valid = false;
  try {
    valid = await check();
  } finally {
    await settleAttempt(db, reservation, valid);
  }
  return valid;
}
