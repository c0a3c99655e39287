/**
 * Sign-in throttling, one rule at a time (docs/security.md). The races and the owner's way past a
 * lock are in security/signin.test.ts.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  LOGIN_BACKOFF_BASE_SECONDS,
  LOGIN_FAILURE_WINDOW_SECONDS,
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_PAIR_FREE_FAILURES,
  messages,
} from '@cowork/contract';
import { buildApp } from '../src/app.ts';
import { signInCounters } from '../src/db/schema.ts';
import { buildTestApp, createUser, signInAttempt, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
});
afterAll(() => t?.close());

const attempt = (username: string, password: string, remoteAddress: string, app = t.app) =>
  signInAttempt(app, username, password, remoteAddress);

/** Moves every counter `seconds` into the past, as if that time had gone by. */
const age = (seconds: number) =>
  t.db.update(signInCounters).set({
    windowStart: sql`${signInCounters.windowStart} - make_interval(secs => ${seconds})`,
    lastAt: sql`${signInCounters.lastAt} - make_interval(secs => ${seconds})`,
  });

const tooMany = (minutes: number) => messages.tooManyAttemptsWait.replace('{minutes}', String(minutes));

describe('per account', () => {
  test('after the allowed failures from unknown addresses, a new address gets 429 even with the right password', async () => {
    await createUser(t.db, { username: 'acct', password: 'Acct@1234' });
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ACCOUNT; i++) {
      const username = i % 2 ? 'ACCT' : 'acct';
      expect((await attempt(username, 'Wrong@123', `10.10.0.${i + 1}`)).statusCode).toBe(400);
    }
    const locked = await attempt('acct', 'Acct@1234', '10.10.1.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ code: 429, msg: tooMany(15), data: null });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(LOGIN_FAILURE_WINDOW_SECONDS - 60);
    // Another account from a fresh address is not affected.
    expect((await attempt('caiwu', 'Caiwu@123', '10.10.1.2')).statusCode).toBe(200);
  });

  test('the counter lives in the database: a restarted app still refuses', async () => {
    const restarted = await buildApp({ config: t.config, db: t.db, logger: false });
    try {
      expect((await attempt('acct', 'Acct@1234', '10.10.2.1', restarted)).statusCode).toBe(429);
    } finally {
      await restarted.close();
    }
  });

  test('unknown usernames are throttled the same way', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ACCOUNT; i++) {
      expect((await attempt('ghost', 'Wrong@123', `10.11.0.${i + 1}`)).statusCode).toBe(400);
    }
    const res = await attempt('Ghost', 'Wrong@123', '10.11.1.1');
    expect(res.statusCode).toBe(429);
  });

  test('the lock ends with its window', async () => {
    await age(LOGIN_FAILURE_WINDOW_SECONDS);
    expect((await attempt('acct', 'Acct@1234', '10.10.3.1')).statusCode).toBe(200);
  });

  test('a successful sign-in is not counted as a failure', async () => {
    await createUser(t.db, { username: 'often', password: 'Often@123' });
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ACCOUNT * 2; i++) {
      expect((await attempt('often', 'Often@123', `10.13.0.${i + 1}`)).statusCode).toBe(200);
    }
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ACCOUNT; i++) {
      expect((await attempt('often', 'Wrong@123', `10.13.1.${i + 1}`)).statusCode).toBe(400);
    }
  });
});

describe('per account and address', () => {
  test('past the free failures each attempt waits twice as long as the one before', async () => {
    await createUser(t.db, { username: 'pair', password: 'Pair@1234' });
    const ip = '10.14.0.1';
    for (let i = 0; i < LOGIN_PAIR_FREE_FAILURES; i++) {
      expect((await attempt('pair', 'Wrong@123', ip)).statusCode).toBe(400);
    }
    const waiting = await attempt('pair', 'Pair@1234', ip);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json().msg).toBe(tooMany(1));
    expect(Number(waiting.headers['retry-after'])).toBe(LOGIN_BACKOFF_BASE_SECONDS);
    // The same account from another address is not held up.
    expect((await attempt('pair', 'Wrong@123', '10.14.0.2')).statusCode).toBe(400);

    await age(LOGIN_BACKOFF_BASE_SECONDS);
    expect((await attempt('pair', 'Wrong@123', ip)).statusCode).toBe(400);
    const longer = await attempt('pair', 'Wrong@123', ip);
    expect(longer.statusCode).toBe(429);
    expect(Number(longer.headers['retry-after'])).toBe(LOGIN_BACKOFF_BASE_SECONDS * 2);
    await age(LOGIN_BACKOFF_BASE_SECONDS);
    expect((await attempt('pair', 'Pair@1234', ip)).statusCode).toBe(429);
    await age(LOGIN_BACKOFF_BASE_SECONDS);
    // The right password after the wait signs in and clears the pair.
    expect((await attempt('pair', 'Pair@1234', ip)).statusCode).toBe(200);
    for (let i = 0; i < LOGIN_PAIR_FREE_FAILURES; i++) {
      expect((await attempt('pair', 'Wrong@123', ip)).statusCode).toBe(400);
    }
  });
});

describe('per address', () => {
  test('after the allowed failures from one address, it gets 429 for accounts not signed in from it', async () => {
    const ip = '10.20.0.1';
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) {
      expect((await attempt(`nobody${i}`, 'Wrong@123', ip)).statusCode).toBe(400);
    }
    const locked = await attempt('admin', 'Admin@123', ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().msg).toBe(tooMany(15));
    expect((await attempt('someone-new', 'x', ip)).statusCode).toBe(429);
    // The account itself is fine from elsewhere.
    expect((await attempt('admin', 'Admin@123', '10.20.0.2')).statusCode).toBe(200);
  });

  test('an IPv6 client is one address for its whole /64', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) {
      expect((await attempt(`v6nobody${i}`, 'Wrong@123', `2001:db8:1:2::${i + 1}`)).statusCode).toBe(400);
    }
    expect((await attempt('v6late', 'Wrong@123', '2001:db8:1:2:ffff::9')).statusCode).toBe(429);
    expect((await attempt('v6late', 'Wrong@123', '2001:db8:1:3::1')).statusCode).toBe(400);
  });
});

test('the token endpoint is rate limited per address with a 429 envelope', async () => {
  const limited = await buildApp({
    config: { ...t.config, tokenRateLimitPerMinute: 3 },
    db: t.db,
    logger: false,
  });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await attempt('caiwu', 'Caiwu@123', '10.30.0.1', limited)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const res = await attempt('caiwu', 'Caiwu@123', '10.30.0.1', limited);
    expect(res.json()).toEqual({ code: 429, msg: messages.tooManyRequests, data: null });
    expect((await attempt('caiwu', 'Caiwu@123', '10.30.0.2', limited)).statusCode).toBe(200);
  } finally {
    await limited.close();
  }
});
