import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { endpoints, type UserInfo } from '@cowork/contract';
import { buildTestApp, demo, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
});
afterAll(() => t?.close());

const put = async (payload: Record<string, unknown>, headers: Record<string, string>) => {
  const res = await t.app.inject({ method: 'PUT', url: endpoints.profileEdit, headers, payload });
  return { status: res.statusCode, body: res.json<{ code: number; msg: string; data: UserInfo }>() };
};

describe('个人中心 profile', () => {
  test('changes one’s own nickname, email and avatar, and user-info follows', async () => {
    const headers = await t.auth(...demo.caiwu);
    const res = await put(
      { nickname: '财务主管', email: 'cfo@cowork.example', avatar: '/file/uploads/a.png' },
      headers,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      nickname: '财务主管',
      email: 'cfo@cowork.example',
      roleNames: ['财务'],
    });
    const info = await t.app.inject({ url: endpoints.userInfo, headers });
    expect(info.json().data).toMatchObject({ nickname: '财务主管', avatar: '/file/uploads/a.png' });
  });

  test('never takes roles, status, username or another id from the body', async () => {
    const headers = await t.auth(...demo.yunying);
    const res = await put(
      { nickname: '运营', roles: ['super_admin'], status: 'disabled', username: 'x', id: 1 },
      headers,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ username: 'yunying', roles: ['operation'] });
    const admin = await t.app.inject({ url: endpoints.userInfo, headers: await t.auth(...demo.admin) });
    expect(admin.json().data.nickname).toBe('系统管理员');
  });

  test('bad input is a 400 naming the field; nothing changes', async () => {
    const headers = await t.auth(...demo.yunying);
    const empty = await put({ nickname: '' }, headers);
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('昵称：请填写昵称');
    const email = await put({ nickname: '运营二号', email: 'not-an-email' }, headers);
    expect(email.status).toBe(400);
    expect(email.body.msg).toContain('邮箱');
    const info = await t.app.inject({ url: endpoints.userInfo, headers });
    expect(info.json().data.nickname).toBe('运营');
  });

  test('needs a signed-in user', async () => {
    expect(
      (await t.app.inject({ method: 'PUT', url: endpoints.profileEdit, payload: { nickname: 'x' } }))
        .statusCode,
    ).toBe(401);
  });
});
