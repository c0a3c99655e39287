/**
 * Finding 7: changing one's own password needs the current one, so a stolen access token cannot
 * take the account, and guessing it is throttled like sign-in. Staff resetting another account's
 * password keep their route and permission without it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { endpoints, LOGIN_PAIR_FREE_FAILURES, messages } from '@cowork/contract';
import { buildTestApp, createUser, demo, signInAttempt, type TestApp } from '../helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
});
afterAll(() => t?.close());

const editPassword = (authorization: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: endpoints.userEditPassword,
    headers: { authorization },
    payload,
    remoteAddress: '10.80.0.1',
  });

async function victim(username: string) {
  const id = await createUser(t.db, { username, password: 'Mine@12345', roleCodes: ['operation'] });
  const { access_token } = await t.signIn(username, 'Mine@12345');
  return { id, authorization: `Bearer ${access_token}` };
}

const signsInWith = async (username: string, password: string) =>
  (await signInAttempt(t.app, username, password, '10.81.0.1')).statusCode === 200;

describe('own password', () => {
  test('without the current password: 400 naming 原密码, and nothing changes', async () => {
    const { id, authorization } = await victim('stolen1');
    const res = await editPassword(authorization, { ssoUserId: id, newPassword: 'Taken@12345' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 400, msg: `原密码：${messages.oldPasswordRequired}`, data: null });
    expect(await signsInWith('stolen1', 'Mine@12345')).toBe(true);
    expect(await signsInWith('stolen1', 'Taken@12345')).toBe(false);
  });

  test('with a wrong current password: 400 naming 原密码, and nothing changes', async () => {
    const { id, authorization } = await victim('stolen2');
    const res = await editPassword(authorization, {
      ssoUserId: id,
      oldPassword: 'Guess@12345',
      newPassword: 'Taken@12345',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(`原密码：${messages.oldPasswordWrong}`);
    expect(await signsInWith('stolen2', 'Mine@12345')).toBe(true);
  });

  test('with the current password it changes', async () => {
    const { id, authorization } = await victim('owner1');
    const res = await editPassword(authorization, {
      ssoUserId: id,
      oldPassword: 'Mine@12345',
      newPassword: 'Next@12345',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe(messages.passwordChanged);
    expect(await signsInWith('owner1', 'Next@12345')).toBe(true);
  });

  test('guessing the current password with a stolen token is throttled like sign-in', async () => {
    const { id, authorization } = await victim('stolen3');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        editPassword(authorization, { ssoUserId: id, oldPassword: `Guess@${i}`, newPassword: 'Taken@12345' }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 400)).toHaveLength(LOGIN_PAIR_FREE_FAILURES);
    expect(codes.filter((c) => c === 429)).toHaveLength(30 - LOGIN_PAIR_FREE_FAILURES);
    // Even the right one now waits: the guesses cannot go on.
    const right = await editPassword(authorization, {
      ssoUserId: id,
      oldPassword: 'Mine@12345',
      newPassword: 'Taken@12345',
    });
    expect(right.statusCode).toBe(429);
  });
});

test("staff reset another account's password without knowing it", async () => {
  const { id } = await victim('forgetful');
  const admin = await t.auth(...demo.admin);
  const res = await editPassword(admin.authorization, { ssoUserId: id, newPassword: 'Reset@12345' });
  expect(res.statusCode).toBe(200);
  expect(await signsInWith('forgetful', 'Reset@12345')).toBe(true);
});
