import { expect, test } from 'vitest';
import { source } from '@cowork/contract/resources/source';
import { buildTestApp, demo } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

resourceSuite({
  resource: source,
  samples: [
    { name: '官网', code: 'website', sort: 1, published: true },
    { name: '微信小程序', code: 'wechat_mini' },
  ],
  change: { name: '官方网站', sort: 3 },
  invalid: [
    { body: { code: 'website2' }, field: 'name' },
    { body: { name: '', code: 'website2' }, field: 'name' },
    { body: { name: '地推', code: 'Bad Code!' }, field: 'code' },
    { body: { name: '地推', code: 'ground', sort: -1 }, field: 'sort' },
    { body: { name: '地推', code: 'ground', published: 'yes' }, field: 'published' },
    { body: { name: 'x'.repeat(51), code: 'ground' }, field: 'name' },
  ],
  search: { name: '官' },
});

test('the demo data brings Chinese sources', async () => {
  const t = await buildTestApp();
  try {
    const res = await t.app.inject({ url: `${source.base}/list`, headers: await t.auth(...demo.yunying) });
    expect(res.json().data.map((o: { label: string }) => o.label)).toContain('微信小程序');
  } finally {
    await t.close();
  }
});
