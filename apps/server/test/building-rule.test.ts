import { expect, test } from 'vitest';
import { buildingRule } from '@cowork/contract/resources/building-rule';
import { buildTestApp, demo } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

resourceSuite({
  resource: buildingRule,
  samples: [
    { name: '禁止吸烟', description: '室内全域禁烟。', sort: 1, published: true },
    { name: '宠物友好' },
  ],
  change: { name: '全域禁烟', description: null, iconUrl: '/file/uploads/20260101/smoke.png' },
  invalid: [
    { body: {}, field: 'name' },
    { body: { name: '  ' }, field: 'name' },
    { body: { name: 'x'.repeat(31) }, field: 'name' },
    { body: { name: '保持安静', description: 'x'.repeat(201) }, field: 'description' },
    { body: { name: '保持安静', sort: 'first' }, field: 'sort' },
    { body: { name: '保持安静', published: 'yes' }, field: 'published' },
  ],
  search: { name: '吸烟' },
});

test('the demo data brings Chinese rules, listed in order', async () => {
  const t = await buildTestApp();
  try {
    const res = await t.app.inject({
      url: `${buildingRule.base}/list?published=true`,
      headers: await t.auth(...demo.yunying),
    });
    expect(
      res
        .json()
        .data.map((o: { label: string }) => o.label)
        .slice(0, 3),
    ).toEqual(['禁止吸烟', '宠物友好', '保持安静']);
  } finally {
    await t.close();
  }
});
