/**
 * Finding 13: URL fields took `javascript:` and any host. Image and file fields now keep only
 * files this system serves; each refusal is a 400 naming the field, and nothing is saved.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { endpoints } from '@cowork/contract';
import { banner } from '@cowork/contract/resources/banner';
import { invoice, invoicePaths } from '@cowork/contract/resources/invoice';
import { banners, invoices, ssoUsers } from '../../src/db/schema.ts';
import { buildTestApp, callApi, demo, type TestApp } from '../helper.ts';

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.auth(...demo.admin);
});
afterAll(() => t?.close());

const HOSTILE = [
  'javascript:alert(1)',
  'https://evil.example/x.png',
  '//evil.example/x.png',
  'data:text/html,x',
];

test('banner 图片: only our files', async () => {
  const before = (await t.db.select().from(banners)).length;
  for (const imageUrl of HOSTILE) {
    const res = await callApi(t, admin, 'POST', `${banner.base}/save`, {
      type: 'banner',
      title: '恶意横幅',
      imageUrl,
    });
    expect(res.status, `${imageUrl} ${res.raw}`).toBe(400);
    expect(res.body.msg).toBe('图片：请通过上传按钮上传，只能使用本系统上传的文件地址');
  }
  expect((await t.db.select().from(banners)).length).toBe(before);
});

test('profile 头像: only our files; an upload path is kept', async () => {
  for (const avatar of HOSTILE) {
    const res = await callApi(t, admin, 'PUT', endpoints.profileEdit, { nickname: '系统管理员', avatar });
    expect(res.status, `${avatar} ${res.raw}`).toBe(400);
    expect(res.body.msg).toMatch(/^头像：/);
  }
  const [user] = await t.db.select().from(ssoUsers).where(eq(ssoUsers.username, 'admin'));
  expect(user.avatar ?? '').not.toMatch(/evil|javascript/);
  const ok = await callApi(t, admin, 'PUT', endpoints.profileEdit, {
    nickname: '系统管理员',
    avatar: '/file/uploads/20250101/a.png',
  });
  expect(ok.status, ok.raw).toBe(200);
});

test('invoice 发票文件: a javascript: address is refused before anything else', async () => {
  const [pending] = await t.db.select().from(invoices).where(eq(invoices.status, 'pending')).limit(1);
  const res = await callApi(t, admin, 'PUT', invoicePaths(invoice).issue, {
    id: pending.id,
    invoiceNo: '12345678',
    fileUrl: 'javascript:alert(1)',
  });
  expect(res.status, res.raw).toBe(400);
  expect(res.body.msg).toMatch(/发票/);
  const [after] = await t.db.select().from(invoices).where(eq(invoices.id, pending.id));
  expect(after.status).toBe('pending');
});
