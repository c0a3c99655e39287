import { afterAll, beforeAll, expect, test } from 'vitest';
import { endpoints, type AuditLogRecord, type ListOption, type Page } from '@cowork/contract';
import { buildTestApp, callApi, createUser, demo, userIdOf, type TestApp } from './helper.ts';

let t: TestApp;
let admin: { authorization: string };

beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
  admin = await t.auth(...demo.admin);
  // yunying's sign-in is an audited act; 'quiet' never does anything.
  await t.auth(...demo.yunying);
  await createUser(t.db, { username: 'quiet', password: 'Quiet@123' });
});
afterAll(() => t?.close());

test('actors: the staff who appear in the log, named 昵称（用户名）, and no one else', async () => {
  const res = await callApi<ListOption[]>(t, admin, 'GET', endpoints.auditLogActors);
  expect(res.status).toBe(200);
  const byId = new Map(res.body.data.map((o) => [o.value, o.label]));
  const adminId = await userIdOf(t.db, 'admin');
  const yunyingId = await userIdOf(t.db, 'yunying');
  expect(byId.get(adminId)).toMatch(/（admin）$/);
  expect(byId.get(yunyingId)).toMatch(/（yunying）$/);
  expect(byId.has(await userIdOf(t.db, 'quiet'))).toBe(false);
  expect(res.body.data.length).toBe(byId.size);
});

test('the page filtered by an actor lists only what that person did', async () => {
  const yunyingId = await userIdOf(t.db, 'yunying');
  const page = await callApi<Page<AuditLogRecord>>(
    t,
    admin,
    'GET',
    `${endpoints.auditLogPage}?actorId=${yunyingId}&size=100`,
  );
  expect(page.body.data.total).toBeGreaterThan(0);
  expect(page.body.data.records.every((r) => r.actorId === yunyingId)).toBe(true);
});

test('actors need 操作日志 (system:log:view): 运营 is refused', async () => {
  const res = await callApi(t, await t.auth(...demo.yunying), 'GET', endpoints.auditLogActors);
  expect(res.status).toBe(403);
});
