/**
 * Findings 3 and 5: sign-in throttling counted and decided atomically (parallel attempts cannot all
 * be checked), and a lockout that cannot be turned against the owner (docs/security.md).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  LOGIN_KNOWN_ADDRESS_DAYS,
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_PAIR_FREE_FAILURES,
} from '@cowork/contract';
import { buildApp } from '../../src/app.ts';
import { signInKnownAddresses } from '../../src/db/schema.ts';
import { buildTestApp, createUser, signInAttempt, type TestApp } from '../helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
});
afterAll(() => t?.close());

const attempt = (username: string, password: string, remoteAddress: string) =>
  signInAttempt(t.app, username, password, remoteAddress);

/** How many of the answers were each status. */
async function statuses(requests: Promise<{ statusCode: number }>[]) {
  const counts: Record<number, number> = {};
  for (const res of await Promise.all(requests)) counts[res.statusCode] = (counts[res.statusCode] ?? 0) + 1;
  return counts;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('parallel attempts are counted before any password is checked', () => {
  test('40 wrong passwords at once for one account from one address: only the free ones are checked', async () => {
    await createUser(t.db, { username: 'race1', password: 'Race@1234' });
    const counts = await statuses(range(40).map(() => attempt('race1', 'Wrong@123', '10.60.0.1')));
    // 400 = the password was checked (and wrong); 429 = refused before checking.
    expect(counts).toEqual({ 400: LOGIN_PAIR_FREE_FAILURES, 429: 40 - LOGIN_PAIR_FREE_FAILURES });
  });

  test('100 at once from one address at different accounts: at most the address limit are checked', async () => {
    const counts = await statuses(
      range(100).map((i) => attempt(`race-nobody-${i}`, 'Wrong@123', '10.60.0.2')),
    );
    expect(counts).toEqual({
      400: LOGIN_MAX_FAILURES_PER_ADDRESS,
      429: 100 - LOGIN_MAX_FAILURES_PER_ADDRESS,
    });
  });

  test('40 at once for one account from 40 addresses: at most the account limit are checked', async () => {
    await createUser(t.db, { username: 'race2', password: 'Race@1234' });
    const counts = await statuses(range(40).map((i) => attempt('race2', 'Wrong@123', `10.61.0.${i + 1}`)));
    expect(counts).toEqual({ 400: LOGIN_MAX_FAILURES_PER_ACCOUNT, 429: 40 - LOGIN_MAX_FAILURES_PER_ACCOUNT });
  });

  test('two instances on one database share the counters', async () => {
    await createUser(t.db, { username: 'race3', password: 'Race@1234' });
    const second = await buildApp({ config: t.config, db: t.db, logger: false });
    try {
      const counts = await statuses(
        range(20).map((i) => signInAttempt(i % 2 ? second : t.app, 'race3', 'Wrong@123', '10.60.0.3')),
      );
      expect(counts).toEqual({ 400: LOGIN_PAIR_FREE_FAILURES, 429: 20 - LOGIN_PAIR_FREE_FAILURES });
    } finally {
      await second.close();
    }
  });
});

describe('the owner is not locked out', () => {
  const home = '10.70.0.1';

  test('the account locked by failures from elsewhere still signs in from an address it used before', async () => {
    await createUser(t.db, { username: 'owner', password: 'Owner@1234' });
    expect((await attempt('owner', 'Owner@1234', home)).statusCode).toBe(200);
    // An attacker spreads wrong passwords over many addresses until the account is locked.
    await statuses(range(30).map((i) => attempt('owner', 'Wrong@123', `10.71.0.${i + 1}`)));
    expect((await attempt('owner', 'Owner@1234', '10.71.1.1')).statusCode).toBe(429);
    expect((await attempt('owner', 'Owner@1234', home)).statusCode).toBe(200);
    // The known address is not a way around the limit for a wrong password: its own pair counter holds.
    const counts = await statuses(range(20).map(() => attempt('owner', 'Wrong@123', home)));
    expect(counts).toEqual({ 400: LOGIN_PAIR_FREE_FAILURES, 429: 20 - LOGIN_PAIR_FREE_FAILURES });
  });

  test('an address unused for longer than LOGIN_KNOWN_ADDRESS_DAYS is a stranger again', async () => {
    const away = '10.74.0.1';
    await createUser(t.db, { username: 'traveller', password: 'Travel@1234' });
    expect((await attempt('traveller', 'Travel@1234', away)).statusCode).toBe(200);
    await statuses(
      range(LOGIN_MAX_FAILURES_PER_ACCOUNT).map((i) => attempt('traveller', 'Wrong@123', `10.75.0.${i + 1}`)),
    );
    expect((await attempt('traveller', 'Travel@1234', away)).statusCode).toBe(200);
    await t.db
      .update(signInKnownAddresses)
      .set({ lastSuccessAt: new Date(Date.now() - (LOGIN_KNOWN_ADDRESS_DAYS + 1) * 86_400_000) })
      .where(eq(signInKnownAddresses.username, 'traveller'));
    expect((await attempt('traveller', 'Travel@1234', away)).statusCode).toBe(429);
  });

  test('behind a shared address that failures at other accounts locked, known accounts still sign in', async () => {
    const office = '10.72.0.1';
    await createUser(t.db, { username: 'staff1', password: 'Staff@1234' });
    await createUser(t.db, { username: 'newcomer', password: 'Staff@1234' });
    expect((await attempt('staff1', 'Staff@1234', office)).statusCode).toBe(200);
    await statuses(
      range(LOGIN_MAX_FAILURES_PER_ADDRESS + 5).map((i) => attempt(`guess${i}`, 'Wrong@123', office)),
    );
    expect((await attempt('guess-more', 'Wrong@123', office)).statusCode).toBe(429);
    expect((await attempt('staff1', 'Staff@1234', office)).statusCode).toBe(200);
    // An account that never signed in from there waits for the window like any other stranger.
    expect((await attempt('newcomer', 'Staff@1234', office)).statusCode).toBe(429);
  });

  test('one address cannot lock every account: failures at one account leave the others alone', async () => {
    const ip = '10.73.0.1';
    await createUser(t.db, { username: 'target', password: 'Target@123' });
    await createUser(t.db, { username: 'bystander', password: 'Bystander@1' });
    await statuses(range(LOGIN_PAIR_FREE_FAILURES).map(() => attempt('target', 'Wrong@123', ip)));
    expect((await attempt('target', 'Target@123', ip)).statusCode).toBe(429);
    expect((await attempt('bystander', 'Bystander@1', ip)).statusCode).toBe(200);
  });
});
