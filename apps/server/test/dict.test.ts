import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths } from '@cowork/contract';
import { dict, dictKeyPath } from '@cowork/contract/resources/dict';
import { dictItem } from '@cowork/contract/resources/dict-item';
import { buildTestApp, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

resourceSuite({
  resource: dict,
  samples: [
    { code: 'industry', name: '行业', description: '会员所属行业' },
    { code: 'company_size', name: '公司规模' },
  ],
  change: { name: '所属行业', description: null },
  invalid: [
    { body: { name: '行业' }, field: 'code' },
    { body: { code: 'Industry', name: '行业' }, field: 'code' },
    { body: { code: '1st', name: '行业' }, field: 'code' },
    { body: { code: 'desk-type', name: '工位类型' }, field: 'code' },
    { body: { code: 'desk_type' }, field: 'name' },
    { body: { code: 'desk_type', name: '工位类型', description: 'x'.repeat(501) }, field: 'description' },
  ],
  search: { code: 'indus' },
});

resourceSuite({
  resource: dictItem,
  setup: async (t) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${dict.base}/save`,
      headers: await t.auth(...demo.admin),
      payload: { code: 'industry', name: '行业' },
    });
    if (res.statusCode !== 200) throw new Error(res.body);
  },
  samples: [
    { dictCode: 'industry', label: '互联网/IT', value: 'internet', sort: 1 },
    { dictCode: 'industry', label: '金融', value: 'finance', sort: 2, enabled: false },
  ],
  change: { label: '互联网', enabled: false },
  invalid: [
    { body: { label: '教育', value: 'education' }, field: 'dictCode' },
    { body: { dictCode: 'no_such_dict', label: '教育', value: 'education' }, field: 'dictCode' },
    { body: { dictCode: 'industry', value: 'education' }, field: 'label' },
    { body: { dictCode: 'industry', label: '教育', value: '' }, field: 'value' },
    { body: { dictCode: 'industry', label: '教育', value: 'education', sort: -1 }, field: 'sort' },
    { body: { dictCode: 'industry', label: '教育', value: 'education', enabled: 'yes' }, field: 'enabled' },
  ],
  search: { label: '互联网' },
});

describe('数据字典 beyond the mechanism', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const dictPaths = resourcePaths(dict);
  const itemPaths = resourcePaths(dictItem);
  const call = async (method: string, url: string, payload?: Record<string, unknown>, headers = admin) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const saveDict = async (code: string, name: string) =>
    (await call('POST', dictPaths.save, { code, name })).body.data;
  const saveItem = (body: Record<string, unknown>) => call('POST', itemPaths.save, body);

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
  });
  afterAll(() => t?.close());

  test('an item value is unique within its dict only', async () => {
    await saveDict('industry', '行业');
    await saveDict('customer_source', '客户来源');
    expect((await saveItem({ dictCode: 'industry', label: '其他', value: 'other' })).status).toBe(200);
    expect((await saveItem({ dictCode: 'customer_source', label: '其他', value: 'other' })).status).toBe(200);
    const clash = await saveItem({ dictCode: 'industry', label: '其它', value: 'OTHER' });
    expect(clash.status).toBe(409);
    expect(clash.body.msg).toBe('同一所属字典下已存在字典值相同的字典项，请换一个字典值');
  });

  test('dict/key answers the enabled items in order to any signed-in user; unknown dicts are 404', async () => {
    await saveItem({ dictCode: 'industry', label: '金融', value: 'finance', sort: 2 });
    await saveItem({ dictCode: 'industry', label: '互联网/IT', value: 'internet', sort: 1 });
    await saveItem({
      dictCode: 'industry',
      label: '制造业',
      value: 'manufacturing',
      sort: 3,
      enabled: false,
    });
    const caiwu = await t.auth(...demo.caiwu);
    const res = await call('GET', dictKeyPath('industry'), undefined, caiwu);
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: { value: string }) => o.value)).toEqual(['other', 'internet', 'finance']);
    expect(res.body.data[1]).toMatchObject({ label: '互联网/IT', value: 'internet', sort: 1 });

    const unknown = await call('GET', dictKeyPath('no_such_dict'), undefined, caiwu);
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toContain('no_such_dict');
    expect((await call('GET', dictKeyPath('Bad-Code'), undefined, caiwu)).status).toBe(400);
    // Managing dictionaries stays closed to 财务.
    expect((await call('GET', dictPaths.page, undefined, caiwu)).status).toBe(403);
  });

  test('the item page filters by dictCode', async () => {
    const page = await call('GET', `${itemPaths.page}?dictCode=customer_source`);
    expect(page.body.data.records.map((r: { value: string }) => r.value)).toEqual(['other']);
  });

  test('changing a dict code carries its items along', async () => {
    const [row] = (await call('GET', `${dictPaths.page}?code=customer_source`)).body.data.records;
    expect((await call('PUT', dictPaths.edit, { id: row.id, code: 'lead_source' })).status).toBe(200);
    expect(
      (await call('GET', dictKeyPath('lead_source'))).body.data.map((o: { value: string }) => o.value),
    ).toEqual(['other']);
  });

  test('removing a dict removes its items in one audited transaction', async () => {
    const [industry] = (await call('GET', `${dictPaths.page}?code=industry`)).body.data.records;
    const items = (await call('GET', `${itemPaths.page}?dictCode=industry&size=100`)).body.data.records as {
      id: number;
    }[];
    expect(items).toHaveLength(4);
    const res = await call('DELETE', `${dictPaths.remove}/${industry.id}`);
    expect(res.status).toBe(200);
    expect((await call('GET', `${itemPaths.page}?dictCode=industry`)).body.data.total).toBe(0);
    expect((await call('GET', dictKeyPath('industry'))).status).toBe(404);
    // The other dict keeps its items.
    expect((await call('GET', `${itemPaths.page}?dictCode=lead_source`)).body.data.total).toBe(1);
    const log = await call(
      'GET',
      '/api/user/admin/v1/audit-log/page?resource=dict-item&action=remove&size=100',
    );
    expect(log.body.data.records.map((r: { resourceId: string }) => Number(r.resourceId)).sort()).toEqual(
      items.map((i) => i.id).sort(),
    );
  });

  test('an item cannot be moved to a dict that does not exist', async () => {
    const [item] = (await call('GET', `${itemPaths.page}?dictCode=lead_source`)).body.data.records;
    const res = await call('PUT', itemPaths.edit, { id: item.id, dictCode: 'nowhere' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('所属字典');
  });
});

test('the demo data brings 行业 and 公司规模 with their items', async () => {
  const t = await buildTestApp();
  try {
    const headers = await t.auth(...demo.yunying);
    const industry = await t.app.inject({ url: dictKeyPath('industry'), headers });
    expect(industry.json().data.map((o: { label: string }) => o.label)).toContain('互联网/IT');
    const size = await t.app.inject({ url: dictKeyPath('company_size'), headers });
    expect(size.json().data.length).toBeGreaterThanOrEqual(4);
  } finally {
    await t.close();
  }
});
