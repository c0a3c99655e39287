import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { endpoints, messages } from '@cowork/contract';
import { auditLogs, ssoUsers } from '../src/db/schema.ts';
import { basicAuth, buildTestApp, createUser, demo, userIdOf, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const editPassword = (headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'POST', url: endpoints.userEditPassword, headers, payload: payload as object });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const signInStatus = async (username: string, password: string, remoteAddress: string) =>
  (
    await t.app.inject({
      method: 'POST',
      url: endpoints.token,
      headers: { authorization: basicAuth },
      payload: { grant_type: 'password', username, password },
      remoteAddress,
    })
  ).statusCode;

describe('own password', () => {
  test('changes it, ends every session of the user, and the new password signs in', async () => {
    const id = await createUser(t.db, {
      username: 'selfchange',
      password: 'Old@Pass1',
      roleCodes: ['operation'],
    });
    const session = await t.signIn('selfchange', 'Old@Pass1');
    const other = await t.signIn('selfchange', 'Old@Pass1');
    const res = await editPassword(bearer(session.access_token), {
      oldPassword: 'Old@Pass1',
      newPassword: 'New@Pass12',
      ssoUserId: id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, msg: messages.passwordChanged, data: null });
    for (const token of [session.access_token, other.access_token]) {
      expect((await t.app.inject({ url: endpoints.userInfo, headers: bearer(token) })).statusCode).toBe(401);
    }
    expect(await signInStatus('selfchange', 'Old@Pass1', '10.50.0.1')).toBe(400);
    expect(await signInStatus('selfchange', 'New@Pass12', '10.50.0.2')).toBe(200);

    const [user] = await t.db.select().from(ssoUsers).where(eq(ssoUsers.id, id));
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user.updatedBy).toBe(id);
  });

  test('is audited without the password or its hash', async () => {
    const rows = await t.db.select().from(auditLogs).where(eq(auditLogs.action, 'edit-password'));
    expect(rows.length).toBeGreaterThan(0);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('New@Pass12');
    expect(text).not.toContain('argon2');
  });

  test('is taken as typed, spaces included', async () => {
    const id = await createUser(t.db, { username: 'spaces', password: 'Old@Pass1' });
    const { access_token } = await t.signIn('spaces', 'Old@Pass1');
    expect(
      (
        await editPassword(bearer(access_token), {
          oldPassword: 'Old@Pass1',
          newPassword: '  two  spaces  ',
          ssoUserId: id,
        })
      ).statusCode,
    ).toBe(200);
    expect(await signInStatus('spaces', 'two  spaces', '10.51.0.1')).toBe(400);
    expect(await signInStatus('spaces', '  two  spaces  ', '10.51.0.2')).toBe(200);
  });
});

describe('validation', () => {
  let headers: { authorization: string };
  let id: number;
  beforeAll(async () => {
    id = await createUser(t.db, { username: 'lengths', password: 'Old@Pass1' });
  });
  // A successful change ends the session, so each accepted case signs in again.
  const fresh = async (password: string) => {
    headers = bearer((await t.signIn('lengths', password)).access_token);
  };

  test('too short: 400 naming the field', async () => {
    await fresh('Old@Pass1');
    const res = await editPassword(headers, { newPassword: 'Ab@1234', ssoUserId: id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 400, msg: `新密码：${messages.passwordTooShort}`, data: null });
  });

  test('guessed at once (password, only digits): 400 naming the field, the old one still works', async () => {
    await fresh('Old@Pass1');
    for (const weak of ['password', '12345678']) {
      const res = await editPassword(headers, { newPassword: weak, ssoUserId: id });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(`新密码：${messages.passwordGuessable}`);
    }
    await fresh('Old@Pass1');
  });

  test('missing: 400 asking for it', async () => {
    const res = await editPassword(headers, { ssoUserId: id });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(`新密码：${messages.passwordRequired}`);
  });

  test('64 characters are accepted, 65 refused (counted as characters, not bytes)', async () => {
    const sixtyFour = '密'.repeat(60) + 'A@1b';
    expect([...sixtyFour]).toHaveLength(64);
    const tooLong = await editPassword(headers, { newPassword: `${sixtyFour}x`, ssoUserId: id });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().msg).toBe(`新密码：${messages.passwordTooLong}`);
    const accepted = await editPassword(headers, {
      oldPassword: 'Old@Pass1',
      newPassword: sixtyFour,
      ssoUserId: id,
    });
    expect(accepted.statusCode).toBe(200);
    await fresh(sixtyFour);
  });

  test('a bad ssoUserId names that field', async () => {
    const res = await editPassword(headers, { newPassword: 'Good@Pass1', ssoUserId: 'abc' });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toMatch(/^用户编号：/);
  });

  test('fields a caller may not set are ignored', async () => {
    const res = await editPassword(headers, {
      oldPassword: '密'.repeat(60) + 'A@1b',
      newPassword: 'Other@Pass1',
      ssoUserId: id,
      status: 'disabled',
      passwordHash: 'x',
      username: 'renamed',
    });
    expect(res.statusCode).toBe(200);
    const [user] = await t.db.select().from(ssoUsers).where(eq(ssoUsers.id, id));
    expect(user).toMatchObject({ status: 'enabled', username: 'lengths' });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
  });
});

describe("another user's password", () => {
  test('refused with 403 without the user-management permission', async () => {
    const caiwu = await userIdOf(t.db, 'caiwu');
    const res = await editPassword(await t.auth(...demo.yunying), {
      newPassword: 'Hijack@123',
      ssoUserId: caiwu,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 403, msg: messages.noPermission, data: null });
    expect(await signInStatus('caiwu', 'Caiwu@123', '10.52.0.1')).toBe(200);
  });

  test('403 also for an unknown id (nothing learnt about which ids exist)', async () => {
    const res = await editPassword(await t.auth(...demo.yunying), {
      newPassword: 'Hijack@123',
      ssoUserId: 99999,
    });
    expect(res.statusCode).toBe(403);
  });

  test('allowed for an administrator, and ends that user’s sessions', async () => {
    const id = await createUser(t.db, { username: 'resetme', password: 'Old@Pass1' });
    const victim = await t.signIn('resetme', 'Old@Pass1');
    const res = await editPassword(await t.auth(...demo.admin), {
      newPassword: 'Reset@Pass1',
      ssoUserId: id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().msg).toBe(messages.ok);
    expect(
      (await t.app.inject({ url: endpoints.userInfo, headers: bearer(victim.access_token) })).statusCode,
    ).toBe(401);
    expect(await signInStatus('resetme', 'Reset@Pass1', '10.53.0.1')).toBe(200);
    // The administrator's own session goes on.
    expect(
      (await t.app.inject({ url: endpoints.userInfo, headers: await t.auth(...demo.admin) })).statusCode,
    ).toBe(200);
  });

  test('an unknown user is 404 for an administrator', async () => {
    const res = await editPassword(await t.auth(...demo.admin), {
      newPassword: 'Reset@Pass1',
      ssoUserId: 99999,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 404, msg: messages.notFound, data: null });
  });
});
