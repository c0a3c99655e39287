/**
 * Finding 4: with TRUST_PROXY set, a client's own X-Forwarded-For entries must not become its
 * address (throttling and audit key on it). Only the configured hops or proxy addresses are trusted.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOGIN_MAX_FAILURES_PER_ADDRESS } from '@cowork/contract';
import { buildApp, type App } from '../../src/app.ts';
import { ConfigError, loadConfig, parseTrustProxy } from '../../src/config.ts';
import { auditLogs } from '../../src/db/schema.ts';
import { buildTestApp, signInAttempt, userIdOf, type TestApp } from '../helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
});
afterAll(() => t?.close());

/** An app on the test database with TRUST_PROXY as the environment would set it. */
async function withTrustProxy(value: string, run: (app: App) => Promise<void>) {
  const trustProxy = loadConfig({ NODE_ENV: 'test', TRUST_PROXY: value }).trustProxy;
  const app = await buildApp({ config: { ...t.config, trustProxy }, db: t.db, logger: false });
  try {
    await run(app);
  } finally {
    await app.close();
  }
}

/** The address the audit log recorded for the user's latest sign-in. */
async function lastSignInAddress(username: string) {
  const [row] = await t.db
    .select({ ip: auditLogs.ip })
    .from(auditLogs)
    .where(and(eq(auditLogs.action, 'sign-in'), eq(auditLogs.actorId, await userIdOf(t.db, username))))
    .orderBy(desc(auditLogs.id))
    .limit(1);
  return row?.ip;
}

describe('TRUST_PROXY=true trusts exactly the proxy in front', () => {
  const proxy = '10.0.0.2';

  test('the audit records the address the proxy saw, not the forged left-most entry', async () => {
    await withTrustProxy('true', async (app) => {
      const res = await signInAttempt(app, 'caiwu', 'Caiwu@123', proxy, {
        'x-forwarded-for': '1.2.3.4, 203.0.113.7',
      });
      expect(res.statusCode).toBe(200);
      expect(await lastSignInAddress('caiwu')).toBe('203.0.113.7');
    });
  });

  test('a forged, changing X-Forwarded-For does not escape the address limit', async () => {
    await withTrustProxy('true', async (app) => {
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) {
        const res = await signInAttempt(app, `forger${i}`, 'Wrong@123', proxy, {
          'x-forwarded-for': `198.18.0.${i + 1}, 203.0.113.8`,
        });
        expect(res.statusCode).toBe(400);
      }
      const res = await signInAttempt(app, 'forger-last', 'Wrong@123', proxy, {
        'x-forwarded-for': '198.18.1.1, 203.0.113.8',
      });
      expect(res.statusCode).toBe(429);
    });
  });
});

describe('other settings', () => {
  test('a hop count takes the entry that many proxies in', async () => {
    await withTrustProxy('2', async (app) => {
      await signInAttempt(app, 'yunying', 'Yunying@123', '10.0.0.3', {
        'x-forwarded-for': '1.2.3.4, 203.0.113.20, 10.0.0.9',
      });
      expect(await lastSignInAddress('yunying')).toBe('203.0.113.20');
    });
  });

  test('a list trusts only those proxies; a client connecting directly keeps its own address', async () => {
    await withTrustProxy('10.0.0.0/8, 192.0.2.1', async (app) => {
      await signInAttempt(app, 'caiwu', 'Caiwu@123', '10.1.2.3', {
        'x-forwarded-for': '1.2.3.4, 203.0.113.30, 192.0.2.1',
      });
      expect(await lastSignInAddress('caiwu')).toBe('203.0.113.30');
      await signInAttempt(app, 'caiwu', 'Caiwu@123', '198.51.100.40', { 'x-forwarded-for': '1.2.3.4' });
      expect(await lastSignInAddress('caiwu')).toBe('198.51.100.40');
    });
  });

  test('false (the default) ignores X-Forwarded-For', async () => {
    await withTrustProxy('false', async (app) => {
      await signInAttempt(app, 'yunying', 'Yunying@123', '198.51.100.50', { 'x-forwarded-for': '1.2.3.4' });
      expect(await lastSignInAddress('yunying')).toBe('198.51.100.50');
    });
  });

  test('values are parsed, and a wrong one stops the start naming the variable', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('true')).toBe(1);
    expect(parseTrustProxy('3')).toBe(3);
    expect(parseTrustProxy('10.0.0.1, fd00::/8,loopback')).toEqual(['10.0.0.1', 'fd00::/8', 'loopback']);
    for (const bad of ['yes', '10.0.0.1/33', '10.0.0.1,,10.0.0.2', 'proxy.example.com', '-1']) {
      expect(parseTrustProxy(bad)).toBeUndefined();
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });
});
