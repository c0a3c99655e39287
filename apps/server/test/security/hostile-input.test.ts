/**
 * Finding 8, case by case: the fuzzed requests that answered 500 — NUL in a text, ids of 2³¹ and
 * beyond, `buildingIds=99999999999999999999`, a lone surrogate in the profile, `true` taken as id 1,
 * deleting a 来源 members use, an export whose filter holds NUL — now each answers 400 or 409 in
 * Chinese naming the field, and changes nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { endpoints, messages } from '@cowork/contract';
import { buildingChargePerson } from '@cowork/contract/resources/building-charge-person';
import { orderPaths, userCardOrder } from '@cowork/contract/resources/order';
import { source } from '@cowork/contract/resources/source';
import { csrSources, members, ssoUsers } from '../../src/db/schema.ts';
import { buildTestApp, callApi, demo, type TestApp } from '../helper.ts';

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.auth(...demo.admin);
});
afterAll(() => t?.close());

const sourceCount = async () => (await t.db.select().from(csrSources)).length;

describe('texts no column can keep', () => {
  test('NUL in a text: 400 naming the field, nothing written', async () => {
    const before = await sourceCount();
    const res = await callApi(t, admin, 'POST', `${source.base}/save`, { name: 'a\u0000b', code: 'nul_src' });
    expect(res.status, res.raw).toBe(400);
    expect(res.body.msg).toBe(`来源名称：${messages.textUnsavable}`);
    expect(await sourceCount()).toBe(before);
  });

  test('a lone surrogate in the profile: 400 naming 昵称, the nickname kept', async () => {
    const res = await callApi(t, admin, 'PUT', endpoints.profileEdit, { nickname: 'x\ud800' });
    expect(res.status, res.raw).toBe(400);
    expect(res.body.msg).toBe(`昵称：${messages.textUnsavable}`);
    const [user] = await t.db.select().from(ssoUsers).where(eq(ssoUsers.username, 'admin'));
    expect(user.nickname).not.toContain('\ud800');
  });

  test('an export whose filter holds NUL: 400 before any byte of the file', async () => {
    const res = await t.app.inject({
      url: `${orderPaths(userCardOrder).export}?memberPhone=${encodeURIComponent('138\u0000')}`,
      headers: admin,
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/json/);
    expect(res.json().msg).toContain(messages.textUnsavable);
  });
});

describe('ids', () => {
  test.each([
    ['2147483648', 'detail'],
    ['99999999999999999999', 'detail'],
    ['-1', 'detail'],
  ])('id %s in the path: 400, not a database error', async (id) => {
    const res = await callApi(t, admin, 'GET', `${source.base}/detail/${id}`);
    expect(res.status, res.raw).toBe(400);
    expect(res.body.msg).toMatch(/^编号：/);
  });

  test('an edit of id 2³¹ or `true`: 400 naming 编号, nothing changes', async () => {
    for (const id of [2_147_483_648, true, '1', 1.5]) {
      const res = await callApi(t, admin, 'PUT', `${source.base}/edit`, { id, name: '改名' });
      expect(res.status, `${JSON.stringify(id)} ${res.raw}`).toBe(id === '1' ? 200 : 400);
      if (id !== '1') expect(res.body.msg).toMatch(/^编号：/);
    }
    // '1' (a string of digits, as forms and query strings send ids) is id 1; true was taken as 1 before.
    await callApi(t, admin, 'PUT', `${source.base}/edit`, { id: 1, name: '官网' });
  });

  test('buildingIds=99999999999999999999 in a list filter: 400 naming 楼宇', async () => {
    const res = await callApi(
      t,
      admin,
      'GET',
      `${buildingChargePerson.base}/page?buildingIds=99999999999999999999`,
    );
    expect(res.status, res.raw).toBe(400);
    expect(res.body.msg).toMatch(/楼宇/);
  });
});

test('deleting a 来源 that members came from: 409 naming them, the source kept', async () => {
  const [member] = await t.db.select().from(members).limit(1);
  const [used] = await t.db.select().from(csrSources).limit(1);
  await t.db.update(members).set({ sourceId: used.id }).where(eq(members.id, member.id));
  const res = await callApi(t, admin, 'DELETE', `${source.base}/remove/${used.id}`);
  expect(res.status, res.raw).toBe(409);
  expect(res.body.msg).toContain('会员');
  expect(res.body.msg).toContain(member.phone);
  expect((await t.db.select().from(csrSources).where(eq(csrSources.id, used.id))).length).toBe(1);
});
