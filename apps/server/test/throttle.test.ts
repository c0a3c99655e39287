import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  endpoints,
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  messages,
} from '@cowork/contract';
import { buildApp } from '../src/app.ts';
import { basicAuth, buildTestApp, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const attempt = (username: string, password: string, remoteAddress: string, app = t.app) =>
  app.inject({
    method: 'POST',
    url: endpoints.token,
    headers: { authorization: basicAuth },
    payload: { grant_type: 'password', username, password },
    remoteAddress,
  });

describe('per account', () => {
  test('after the allowed failures, any address gets 429, even with the right password', async () => {
    const cases = ['yunying', 'YunYing', 'YUNYING', 'yunYing', 'Yunying'];
    expect(cases).toHaveLength(LOGIN_MAX_FAILURES_PER_ACCOUNT);
    for (const [i, username] of cases.entries()) {
      const res = await attempt(username, 'Wrong@123', `10.10.0.${i + 1}`);
      expect(res.statusCode).toBe(400);
    }
    const locked = await attempt('yunying', 'Yunying@123', '10.10.1.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ code: 429, msg: messages.tooManyAttempts, data: null });
    // Another account from a fresh address is not affected.
    expect((await attempt('caiwu', 'Caiwu@123', '10.10.1.2')).statusCode).toBe(200);
  });

  test('the counter lives in the database: a restarted app still refuses', async () => {
    const restarted = await buildApp({ config: t.config, db: t.db, logger: false });
    try {
      expect((await attempt('yunying', 'Yunying@123', '10.10.2.1', restarted)).statusCode).toBe(429);
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
    expect(res.json().msg).toBe(messages.tooManyAttempts);
  });

  test('each failure waits longer than the one before', async () => {
    const timed = async (ip: string) => {
      const start = performance.now();
      await attempt('slowcheck', 'Wrong@123', ip);
      return performance.now() - start;
    };
    await timed('10.12.0.1');
    await timed('10.12.0.2');
    // The third failure of the account waits 300 ms.
    expect(await timed('10.12.0.3')).toBeGreaterThanOrEqual(290);
  });

  test('a success clears the account counter', async () => {
    const fail = (i: number) => attempt('caiwu', 'Wrong@123', `10.13.0.${i}`);
    for (let i = 1; i < LOGIN_MAX_FAILURES_PER_ACCOUNT; i++) expect((await fail(i)).statusCode).toBe(400);
    expect((await attempt('caiwu', 'Caiwu@123', '10.13.1.1')).statusCode).toBe(200);
    for (let i = 1; i < LOGIN_MAX_FAILURES_PER_ACCOUNT; i++)
      expect((await fail(10 + i)).statusCode).toBe(400);
    expect((await attempt('caiwu', 'Caiwu@123', '10.13.1.2')).statusCode).toBe(200);
  });
});

describe('per address', () => {
  test('after the allowed failures from one address, it gets 429 even with the right password', async () => {
    const ip = '10.20.0.1';
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) {
      expect((await attempt(`nobody${i}`, 'Wrong@123', ip)).statusCode).toBe(400);
    }
    const locked = await attempt('admin', 'Admin@123', ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().msg).toBe(messages.tooManyAttempts);
    expect((await attempt('someone-new', 'x', ip)).statusCode).toBe(429);
    // The account itself is fine from elsewhere.
    expect((await attempt('admin', 'Admin@123', '10.20.0.2')).statusCode).toBe(200);
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
