/**
 * Least privilege of the two lookups other screens may use: user-ids/username answers members'
 * nicknames and full phones, sso-user/user-id a staff member's username. Each needs the view code
 * of the list that shows the same (会员, 后台用户), and a member lookup reads a page's worth at most.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MAX_PAGE_SIZE, type Page } from '@cowork/contract';
import { member, memberEndpoints } from '@cowork/contract/resources/member';
import { ssoUserEndpoints } from '@cowork/contract/resources/sso-user';
import { buildTestApp, callApi, createRole, createUser, demo, userIdOf, type TestApp } from './helper.ts';

let t: TestApp;
let noRole: { authorization: string };
let memberViewer: { authorization: string };
let staffViewer: { authorization: string };
let admin: { authorization: string };
let memberIds: number[];

beforeAll(async () => {
  t = await buildTestApp();
  await createUser(t.db, { username: 'lookup_none', password: 'Lookup@123' });
  noRole = await t.auth('lookup_none', 'Lookup@123');
  for (const [code, permission] of [
    ['lookup_member', 'user:member:view'],
    ['lookup_staff', 'user:admin:view'],
  ]) {
    await createRole(t.db, { code, name: code, permissions: [permission] });
    await createUser(t.db, { username: code, password: 'Lookup@123', roleCodes: [code] });
  }
  memberViewer = await t.auth('lookup_member', 'Lookup@123');
  staffViewer = await t.auth('lookup_staff', 'Lookup@123');
  admin = await t.auth(...demo.admin);
  const page = await callApi<Page<{ id: number }>>(t, admin, 'GET', `${member.base}/page?size=5`);
  memberIds = page.body.data.records.map((r) => r.id);
  expect(memberIds.length).toBeGreaterThan(1);
});
afterAll(() => t?.close());

const lookup = (ids: number[] | string) =>
  `${memberEndpoints.usernames}?ids=${Array.isArray(ids) ? ids.join(',') : ids}`;

test('a staff member holding no permission learns no member and no username', async () => {
  for (const url of [lookup(memberIds), `${ssoUserEndpoints.userId}/${await userIdOf(t.db, 'admin')}`]) {
    const res = await callApi(t, noRole, 'GET', url);
    expect(res.status, url).toBe(403);
    expect(res.body.data, url).toBeNull();
  }
  // Each code opens only its own lookup.
  expect((await callApi(t, staffViewer, 'GET', lookup(memberIds))).status).toBe(403);
  const adminId = await userIdOf(t.db, 'admin');
  expect((await callApi(t, memberViewer, 'GET', `${ssoUserEndpoints.userId}/${adminId}`)).status).toBe(403);
});

test('who may open 会员 gets the names and phones that list shows them', async () => {
  const page = await callApi<Page<{ id: number; nickname: string; phone: string }>>(
    t,
    memberViewer,
    'GET',
    `${member.base}/page?size=5`,
  );
  expect(page.status).toBe(200);
  const res = await callApi<Record<string, { id: number; nickname: string; phone: string }>>(
    t,
    memberViewer,
    'GET',
    lookup(memberIds),
  );
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual(
    Object.fromEntries(
      page.body.data.records.map((r) => [String(r.id), { id: r.id, nickname: r.nickname, phone: r.phone }]),
    ),
  );
});

test('who may open 后台用户 gets a username', async () => {
  const id = await userIdOf(t.db, 'yunying');
  const res = await callApi(t, staffViewer, 'GET', `${ssoUserEndpoints.userId}/${id}`);
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ id, username: 'yunying' });
});

test('a member lookup reads one page of ids at most', async () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  expect((await callApi(t, memberViewer, 'GET', lookup(ids(MAX_PAGE_SIZE)))).status).toBe(200);
  const tooMany = await callApi(t, memberViewer, 'GET', lookup(ids(MAX_PAGE_SIZE + 1)));
  expect(tooMany.status).toBe(400);
  expect(tooMany.body.msg).toContain('会员编号');
  expect(tooMany.body.msg).toContain(String(MAX_PAGE_SIZE));
});
