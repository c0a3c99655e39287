import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { messages, resourcePaths } from '@cowork/contract';
import { banner, scheduleState } from '@cowork/contract/resources/banner';
import { buildTestApp, callApi, createRole, createUser, demo, type TestApp } from './helper.ts';
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
      imageUrl: '/file/uploads/20250101/b.png',
      content: '<p>正文</p>',
    },
  ],
  change: { title: '夏季工位特惠', sort: 3 },
  invalid: [
    { body: { type: 'banner', imageUrl: '/file/uploads/20250101/a.png' }, field: 'title' },
    { body: { type: 'banner', title: '无图' }, field: 'imageUrl' },
    { body: { type: 'poster', title: '类型错', imageUrl: '/file/uploads/20250101/a.png' }, field: 'type' },
    {
      body: {
        type: 'banner',
        title: '链接',
        imageUrl: '/file/uploads/20250101/a.png',
        linkUrl: 'javascript:alert(1)',
      },
      field: 'linkUrl',
    },
    {
      body: {
        type: 'banner',
        title: '链接',
        imageUrl: '/file/uploads/20250101/a.png',
        linkUrl: '//evil.example.com',
      },
      field: 'linkUrl',
    },
    {
      body: { type: 'banner', title: '时间', imageUrl: '/file/uploads/20250101/a.png', startAt: '明天' },
      field: 'startAt',
    },
    {
      body: {
        type: 'banner',
        title: '时间',
        imageUrl: '/file/uploads/20250101/a.png',
        startAt: '2025-03-02T00:00:00+08:00',
        endAt: '2025-03-01T00:00:00+08:00',
      },
      field: 'endAt',
    },
    { body: { type: 'news', title: '空新闻', imageUrl: '/file/uploads/20250101/a.png' }, field: 'content' },
    {
      body: {
        type: 'news',
        title: '脚本',
        imageUrl: '/file/uploads/20250101/a.png',
        content: '<script>alert(1)</script>',
      },
      field: 'content',
    },
    {
      body: {
        type: 'banner',
        title: '轮播',
        imageUrl: '/file/uploads/20250101/a.png',
        content: '<p>正文</p>',
      },
      field: 'content',
    },
  ],
  search: { title: '春' },
});

describe('banner specifics', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const call = (method: string, url: string, payload?: object) => callApi(t, admin, method, url, payload);
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
      imageUrl: '/file/uploads/20250101/a.png',
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
      imageUrl: '/file/uploads/20250101/a.png',
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

  describe('each type has its own codes: 轮播图 system:banner:*, 案例新闻 system:news:*', () => {
    const roleOf = async (code: string, prefix: string) => {
      await createRole(t.db, {
        code,
        name: code,
        permissions: ['view', 'edit', 'remove'].map((a) => `${prefix}:${a}`),
      });
      await createUser(t.db, { username: code, password: 'Editor@123', roleCodes: [code] });
      const headers = await t.auth(code, 'Editor@123');
      return (method: string, url: string, payload?: object) => callApi(t, headers, method, url, payload);
    };
    const idOf = async (type: string) =>
      (await call('GET', `${paths.page}?type=${type}&size=1`)).body.data.records[0].id as number;
    const types = (page: { body: { data: { records: { type: string }[] } } }) => [
      ...new Set(page.body.data.records.map((r) => r.type)),
    ];

    test('a role with only 案例新闻 codes sees only news and is refused banners', async () => {
      const news = await roleOf('news_editor', 'system:news');
      const bannerId = await idOf('banner');
      const newsId = await idOf('news');

      const all = await news('GET', `${paths.page}?size=100`);
      expect(all.status).toBe(200);
      expect(types(all)).toEqual(['news']);
      expect(all.body.data.total).toBe((await call('GET', `${paths.page}?type=news&size=1`)).body.data.total);
      expect((await news('GET', `${paths.page}?type=banner`)).body.data.total).toBe(0);

      expect((await news('GET', `${paths.detail}/${newsId}`)).status).toBe(200);
      expect((await news('PUT', paths.edit, { id: newsId, title: '新闻改名' })).status).toBe(200);
      const saved = await news('POST', paths.save, {
        type: 'news',
        title: '新闻编辑写的',
        imageUrl: '/file/uploads/20250101/a.png',
        content: '<p>正文</p>',
      });
      expect(saved.status, saved.body.msg).toBe(200);

      const refused = [
        await news('GET', `${paths.detail}/${bannerId}`),
        await news('PUT', paths.edit, { id: bannerId, title: '改轮播' }),
        await news('PUT', paths.editPublished, { id: bannerId, published: false }),
        await news('DELETE', `${paths.remove}/${bannerId}`),
        await news('DELETE', paths.remove, { ids: [saved.body.data.id, bannerId] }),
        await news('POST', paths.save, {
          type: 'banner',
          title: '越权轮播',
          imageUrl: '/file/uploads/20250101/a.png',
        }),
        // Moving a news item into the other type is a write of that type.
        await news('PUT', paths.edit, { id: saved.body.data.id, type: 'banner', content: null }),
      ];
      for (const res of refused) {
        expect(res.status).toBe(403);
        expect(res.body.msg).toBe(messages.noPermission);
      }
      // Nothing refused was written.
      expect((await call('GET', `${paths.detail}/${bannerId}`)).body.data.title).not.toBe('改轮播');
      expect((await call('GET', `${paths.detail}/${saved.body.data.id}`)).body.data.type).toBe('news');
      expect((await call('GET', `${paths.page}?title=越权轮播`)).body.data.total).toBe(0);
      expect((await news('DELETE', `${paths.remove}/${saved.body.data.id}`)).status).toBe(200);
    });

    test('a role with only 轮播图 codes sees only banners and is refused news', async () => {
      const banners = await roleOf('banner_editor', 'system:banner');
      const all = await banners('GET', `${paths.page}?size=100`);
      expect(types(all)).toEqual(['banner']);
      expect((await banners('GET', `${paths.detail}/${await idOf('news')}`)).status).toBe(403);
      expect((await banners('GET', `${paths.detail}/${await idOf('banner')}`)).status).toBe(200);
    });

    test('超级管理员 sees both types', async () => {
      expect(types(await call('GET', `${paths.page}?size=100`)).sort()).toEqual(['banner', 'news']);
    });
  });
});
