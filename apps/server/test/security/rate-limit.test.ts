/**
 * Finding 14 (token endpoint): the per-minute limit is kept in the database, so two instances on one
 * database share it instead of each allowing the full limit.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { messages } from '@cowork/contract';
import { buildApp } from '../../src/app.ts';
import { buildTestApp, signInAttempt, type TestApp } from '../helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
});
afterAll(() => t?.close());

test('two instances on one database count one limit, atomically', async () => {
  const config = { ...t.config, tokenRateLimitPerMinute: 4 };
  const [one, two] = await Promise.all([
    buildApp({ config, db: t.db, logger: false }),
    buildApp({ config, db: t.db, logger: false }),
  ]);
  try {
    // 12 requests at once, alternating instances, from one address: 4 pass in all, not 4 per instance.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        signInAttempt(i % 2 ? two : one, 'caiwu', 'Caiwu@123', '10.90.0.1'),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(4);
    expect(codes.filter((c) => c === 429)).toHaveLength(8);
    const refused = answers.find((a) => a.statusCode === 429);
    expect(refused?.json()).toEqual({ code: 429, msg: messages.tooManyRequests, data: null });
    // Another address has its own count.
    expect((await signInAttempt(two, 'caiwu', 'Caiwu@123', '10.90.0.2')).statusCode).toBe(200);
  } finally {
    await Promise.all([one.close(), two.close()]);
  }
});
