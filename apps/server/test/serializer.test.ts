/**
 * Answers serialised by their schema (lib/serializer.ts): only declared fields leave, and the test
 * suite's zod check refuses an answer off its contract. Runs the compiler on a small Fastify app.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSerializerCompiler } from '../src/lib/serializer.ts';

const account = z.object({ id: z.number().int(), name: z.string(), note: z.string().nullable() });

async function appAnswering(data: unknown, checkResponses: boolean) {
  const app = Fastify({ logger: false });
  app.setSerializerCompiler(createSerializerCompiler({ checkResponses }));
  app.get('/account', { schema: { response: { 200: account } } }, () => data);
  await app.ready();
  return app;
}

describe('response serialiser', () => {
  it('writes the declared fields only: a password hash on the row never leaves', async () => {
    const app = await appAnswering({ id: 1, name: '张三', note: null, passwordHash: 'secret' }, false);
    const res = await app.inject({ method: 'GET', url: '/account' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 1, name: '张三', note: null });
    expect(res.body).not.toContain('secret');
    await app.close();
  });

  it('with checkResponses, an answer off its contract is a 500, not a coerced value', async () => {
    const app = await appAnswering({ id: 'not a number', name: '张三', note: null }, true);
    const res = await app.inject({ method: 'GET', url: '/account' });
    expect(res.statusCode).toBe(500);
    await app.close();
  });
});
