import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths } from '@cowork/contract';
import { banner, scheduleState } from '@cowork/contract/resources/banner';
import { buildTestApp, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

const paths = resourcePaths(banner);

resourceSuite({
  resource: banner,
  samples: [
    {
      type: 'banner',
      title: '春季工位特惠',
      imageUrl: '/file/uploads/20250301/a.png',
      linkUrl: '/pages/product/seat',
      sort: 1,
      startAt: '2025-03-01T00:00:00+08:00',
      endAt: '2025-04-01T00:00:00+08:00',
    },
    {
      type: 'news',
      title: '入驻案例',
      imageUrl: 'https://cdn.example.com/b.png',
      content: '<p>正文</p>',
    },
  ],
  change: { title: '夏季工位特惠', sort: 3 },
  invalid: [
    { body: { type: 'banner', imageUrl: '/a.png' }, field: 'title' },
    { body: { type: 'banner', title: '无图' }, field: 'imageUrl' },
    { body: { type: 'poster', title: '类型错', imageUrl: '/a.png' }, field: 'type' },
    {
      body: { type: 'banner', title: '链接', imageUrl: '/a.png', linkUrl: 'javascript:alert(1)' },
      field: 'linkUrl',
    },
    {
      body: { type: 'banner', title: '链接', imageUrl: '/a.png', linkUrl: '//evil.example.com' },
      field: 'linkUrl',
    },
    { body: { type: 'banner', title: '时间', imageUrl: '/a.png', startAt: '明天' }, field: 'startAt' },
    {
      body: {
        type: 'banner',
        title: '时间',
        imageUrl: '/a.png',
        startAt: '2025-03-02T00:00:00+08:00',
        endAt: '2025-03-01T00:00:00+08:00',
      },
      field: 'endAt',
    },
    { body: { type: 'news', title: '空新闻', imageUrl: '/a.png' }, field: 'content' },
    {
      body: { type: 'news', title: '脚本', imageUrl: '/a.png', content: '<script>alert(1)</script>' },
      field: 'content',
    },
    { body: { type: 'banner', title: '轮播', imageUrl: '/a.png', content: '<p>正文</p>' }, field: 'content' },
  ],
  search: { title: '春' },
});

describe('banner specifics', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const call = async (method: string, url: string, payload?: object) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: admin,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth(...demo.admin);
  });
  afterAll(() => t?.close());

  test('the demo brings 4 banners and 3 news items, and each route type lists only its own', async () => {
    const banners = await call('GET', `${paths.page}?type=banner&size=100`);
    const news = await call('GET', `${paths.page}?type=news&size=100`);
    expect(banners.body.data.total).toBe(4);
    expect(news.body.data.total).toBe(3);
    expect(banners.body.data.records.every((r: { type: string }) => r.type === 'banner')).toBe(true);
    expect(news.body.data.records.every((r: { type: string }) => r.type === 'news')).toBe(true);
    expect((await call('GET', `${paths.page}?type=poster`)).status).toBe(400);
  });

  test('rich text is sanitized before it is stored: scripts, handlers and javascript: links go, markup stays', async () => {
    const res = await call('POST', paths.save, {
      type: 'news',
      title: '安全正文',
      imageUrl: '/a.png',
      content:
        '<h2>标题</h2><p onclick="steal()">段落<strong>加粗</strong><script>alert(1)</script></p>' +
        '<img src="/file/uploads/x.png" onerror="alert(1)" alt="图"><a href="javascript:alert(1)">坏链接</a>' +
        '<a href="https://example.com/a">好链接</a><iframe src="https://evil.example.com"></iframe>' +
        '<style>body{display:none}</style><p style="color:red">样式</p>',
    });
    expect(res.status, res.body.msg).toBe(200);
    const stored = (await call('GET', `${paths.detail}/${res.body.data.id}`)).body.data.content as string;
    for (const bad of ['script', 'onclick', 'onerror', 'javascript:', 'iframe', 'style', 'alert']) {
      expect(stored).not.toContain(bad);
    }
    expect(stored).toContain('<h2>标题</h2>');
    expect(stored).toContain('<strong>加粗</strong>');
    expect(stored).toContain('<img src="/file/uploads/x.png" alt="图" />');
    expect(stored).toContain(
      '<a href="https://example.com/a" target="_blank" rel="noopener noreferrer">好链接</a>',
    );
    expect(stored).toContain('<p>样式</p>');

    const edit = await call('PUT', paths.edit, {
      id: res.body.data.id,
      content: '<p>新<img src=x onerror=alert(2)></p>',
    });
    expect(edit.body.data.content).toBe('<p>新<img src="x" /></p>');
  });

  test('an edit is checked against the stored window: ending before the stored start is a 400', async () => {
    const saved = await call('POST', paths.save, {
      type: 'banner',
      title: '窗口',
      imageUrl: '/a.png',
      startAt: '2025-05-01T10:00:00+08:00',
    });
    expect(saved.body.data.startAt).toBe('2025-05-01T10:00:00.000+08:00');
    const bad = await call('PUT', paths.edit, { id: saved.body.data.id, endAt: '2025-05-01T09:00:00+08:00' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('结束时间');
    const good = await call('PUT', paths.edit, { id: saved.body.data.id, endAt: '2025-05-02T09:00:00Z' });
    expect(good.body.data.endAt).toBe('2025-05-02T17:00:00.000+08:00');
    const cleared = await call('PUT', paths.edit, { id: saved.body.data.id, startAt: null, endAt: '' });
    expect(cleared.body.data).toMatchObject({ startAt: null, endAt: null });
  });

  test('schedule state: 未开始, 展示中, 已结束', () => {
    const now = new Date('2025-03-15T00:00:00+08:00');
    expect(scheduleState('2025-04-01T00:00:00+08:00', null, now)).toBe('pending');
    expect(scheduleState('2025-03-01T00:00:00+08:00', '2025-04-01T00:00:00+08:00', now)).toBe('showing');
    expect(scheduleState(null, null, now)).toBe('showing');
    expect(scheduleState(null, '2025-03-15T00:00:00+08:00', now)).toBe('ended');
  });

  test('运营 (no 系统配置 grant) is refused', async () => {
    const res = await t.app.inject({
      url: `${paths.page}?type=news`,
      headers: await t.auth(...demo.yunying),
    });
    expect(res.statusCode).toBe(403);
  });
});
