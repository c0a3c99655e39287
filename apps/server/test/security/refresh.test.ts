/**
 * Finding 9: two tabs refreshing at once must not sign the user out. A spent refresh token shown
 * again within the grace gets the same new pair; after it, reuse still ends the whole family.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { endpoints, REFRESH_REUSE_GRACE_SECONDS, type TokenResponse } from '@cowork/contract';
import { authTokens } from '../../src/db/schema.ts';
import { hashToken } from '../../src/lib/sessions.ts';
import { basicAuth, buildTestApp, demo, type TestApp } from '../helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
});
afterAll(() => t?.close());

const refresh = (refreshToken: string) =>
  t.app.inject({
    method: 'POST',
    url: endpoints.token,
    headers: { authorization: basicAuth },
    payload: { grant_type: 'refresh_token', refresh_token: refreshToken },
  });
const userInfo = async (token: string) =>
  (await t.app.inject({ url: endpoints.userInfo, headers: { authorization: `Bearer ${token}` } })).statusCode;
const rowOf = async (token: string) =>
  (
    await t.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.tokenHash, hashToken(token)))
  )[0];

test('5 refreshes at once with one token all get the same new pair, and it works', async () => {
  const first = await t.signIn(...demo.yunying);
  const answers = await Promise.all(Array.from({ length: 5 }, () => refresh(first.refresh_token)));
  expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
  const pairs = answers.map((a) => a.json<TokenResponse>());
  const { access_token, refresh_token } = pairs[0];
  for (const pair of pairs) expect(pair).toEqual(pairs[0]);
  expect(access_token).not.toBe(first.access_token);
  expect(await userInfo(access_token)).toBe(200);
  expect(await userInfo(first.access_token)).toBe(401);
  // One rotation happened: the family holds the first pair and one new pair.
  const family = await t.db
    .select()
    .from(authTokens)
    .where(eq(authTokens.familyId, (await rowOf(first.refresh_token)).familyId));
  expect(family).toHaveLength(4);
  // The new refresh token goes on rotating normally.
  const next = await refresh(refresh_token);
  expect(next.statusCode).toBe(200);
  expect(await userInfo(next.json<TokenResponse>().access_token)).toBe(200);
});

test('the database never holds the new pair in plain text', async () => {
  const first = await t.signIn(...demo.caiwu);
  const second = (await refresh(first.refresh_token)).json<TokenResponse>();
  const row = await rowOf(first.refresh_token);
  expect(row.successor).toEqual(expect.any(String));
  const everything = JSON.stringify(await t.db.select().from(authTokens));
  expect(everything).not.toContain(second.access_token);
  expect(everything).not.toContain(second.refresh_token);
  expect(everything).not.toContain(first.refresh_token);
});

test('after the grace, the spent token is a stolen copy: the whole family ends', async () => {
  const first = await t.signIn(...demo.yunying);
  const second = (await refresh(first.refresh_token)).json<TokenResponse>();
  expect((await refresh(first.refresh_token)).json<TokenResponse>().access_token).toBe(second.access_token);
  await t.db
    .update(authTokens)
    .set({ usedAt: new Date(Date.now() - (REFRESH_REUSE_GRACE_SECONDS + 1) * 1000) })
    .where(eq(authTokens.tokenHash, hashToken(first.refresh_token)));
  expect((await refresh(first.refresh_token)).statusCode).toBe(401);
  expect(await userInfo(second.access_token)).toBe(401);
  expect((await refresh(second.refresh_token)).statusCode).toBe(401);
});

test('within the grace, a family ended by logout stays ended', async () => {
  const first = await t.signIn(...demo.caiwu);
  const second = (await refresh(first.refresh_token)).json<TokenResponse>();
  const out = await t.app.inject({
    method: 'DELETE',
    url: endpoints.logout,
    headers: { authorization: `Bearer ${second.access_token}` },
  });
  expect(out.statusCode).toBe(200);
  expect((await refresh(first.refresh_token)).statusCode).toBe(401);
});
