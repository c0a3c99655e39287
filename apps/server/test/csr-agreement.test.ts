import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths } from '@cowork/contract';
import { agreement } from '@cowork/contract/resources/agreement';
import { buildTestApp, callApi, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

const paths = resourcePaths(agreement);

resourceSuite({
  resource: agreement,
  samples: [
    { type: 'privacy', title: '隐私政策', version: 'v1.0', content: '<p>第一版</p>' },
    { type: 'privacy', title: '隐私政策（修订）', version: 'v1.1', content: '<p>第二版</p>' },
  ],
  change: { title: '隐私政策（定稿）' },
  invalid: [
    { body: { title: '缺类型', version: 'v1', content: '<p>x</p>' }, field: 'type' },
    { body: { type: 'cookie', title: '类型错', version: 'v1', content: '<p>x</p>' }, field: 'type' },
    { body: { type: 'user', version: 'v1', content: '<p>x</p>' }, field: 'title' },
    { body: { type: 'user', title: '版本', version: '一点二', content: '<p>x</p>' }, field: 'version' },
    { body: { type: 'user', title: '版本', content: '<p>x</p>' }, field: 'version' },
    { body: { type: 'user', title: '内容', version: 'v1' }, field: 'content' },
    {
      body: { type: 'user', title: '内容', version: 'v1', content: '<script>alert(1)</script>' },
      field: 'content',
    },
  ],
  search: { version: 'v1.0' },
});

describe('agreement specifics', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const call = (method: string, url: string, payload?: object) => callApi(t, admin, method, url, payload);
  const published = async (type: string) =>
    (await call('GET', `${paths.page}?type=${type}&published=true&size=100`)).body.data.records.map(
      (r: { version: string }) => r.version,
    );
  const save = async (body: object) => {
    const res = await call('POST', paths.save, body);
    expect(res.status, res.body.msg).toBe(200);
    return res.body.data as { id: number; published: boolean };
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth(...demo.admin);
  });
  afterAll(() => t?.close());

  test('the demo brings a published 隐私政策 and 用户协议', async () => {
    expect(await published('privacy')).toEqual(['v1.1']);
    expect(await published('user')).toEqual(['v1.0']);
  });

  test('the same version twice within one type is a 409 naming 版本号; another type may reuse it', async () => {
    const clash = await call('POST', paths.save, {
      type: 'privacy',
      title: '隐私政策',
      version: 'V1.1',
      content: '<p>x</p>',
    });
    expect(clash.status).toBe(409);
    expect(clash.body.msg).toContain('版本号');
    await save({ type: 'service', title: '服务协议', version: 'v1.1', content: '<p>服务</p>' });
  });

  test('publishing one version unpublishes the others of its type only, with audit entries', async () => {
    const draft = await save({ type: 'privacy', title: '隐私政策', version: 'v2.0', content: '<p>v2</p>' });
    const on = await call('PUT', paths.editPublished, { id: draft.id, published: true });
    expect(on.status, on.body.msg).toBe(200);
    expect(await published('privacy')).toEqual(['v2.0']);
    expect(await published('user')).toEqual(['v1.0']);
    const log = await call('GET', `/api/user/admin/v1/audit-log/page?resource=csr-agreement&size=100`);
    expect(log.body.data.records.map((r: { action: string }) => r.action)).toEqual(
      expect.arrayContaining(['publish', 'unpublish']),
    );

    // Saving a new version already published, and editing one to published, follow the same rule.
    await save({
      type: 'privacy',
      title: '隐私政策',
      version: 'v2.1',
      content: '<p>v2.1</p>',
      published: true,
    });
    expect(await published('privacy')).toEqual(['v2.1']);
    const edit = await call('PUT', paths.edit, { id: draft.id, published: true });
    expect(edit.status, edit.body.msg).toBe(200);
    expect(await published('privacy')).toEqual(['v2.0']);
  });

  test('a published version cannot be removed (409 telling to unpublish first); unpublished it can', async () => {
    const row = await save({
      type: 'user',
      title: '用户协议',
      version: 'v3.0',
      content: '<p>v3</p>',
      published: true,
    });
    const refused = await call('DELETE', `${paths.remove}/${row.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain('请先下架');
    expect((await call('DELETE', paths.remove, { ids: [row.id] })).status).toBe(409);
    expect((await call('GET', `${paths.detail}/${row.id}`)).status).toBe(200);
    await call('PUT', paths.editPublished, { id: row.id, published: false });
    expect((await call('DELETE', `${paths.remove}/${row.id}`)).status).toBe(200);
  });

  test('agreement content is sanitized', async () => {
    const row = await save({
      type: 'service',
      title: '服务协议',
      version: 'v9',
      content:
        '<p>条款<a href="javascript:alert(1)">链接</a><img src="x" onerror="alert(1)"></p><script>x()</script>',
    });
    const content = (await call('GET', `${paths.detail}/${row.id}`)).body.data.content as string;
    expect(content).toBe('<p>条款<a target="_blank" rel="noopener noreferrer">链接</a><img src="x" /></p>');
  });
});
