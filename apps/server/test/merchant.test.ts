import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths, type Page } from '@cowork/contract';
import { maskBankAccount, merchant } from '@cowork/contract/resources/merchant';
import { and, desc, eq } from 'drizzle-orm';
import { auditLogs, buildings, merchantShares, merchants, ssoRoles } from '../src/db/schema.ts';
import { buildTestApp, createUser, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

const paths = resourcePaths(merchant);

resourceSuite({
  resource: merchant,
  samples: [
    {
      name: '氪空间联合办公',
      logoUrl: '/file/uploads/20250301/logo.png',
      contactName: '林晓峰',
      contactPhone: '13810012001',
      bankAccountNo: '6214830100012001',
      sort: 1,
    },
    { name: '梧桐树办公', contactName: '周雨桐', contactPhone: '13916022002' },
  ],
  change: { name: '氪空间（北京）', bankAccountNo: '6214830100019999', sort: 5 },
  invalid: [
    { body: { name: '' }, field: 'name' },
    { body: { name: '账号带字母', bankAccountNo: '62148301abc01' }, field: 'bankAccountNo' },
    { body: { name: '账号太短', bankAccountNo: '1234567' }, field: 'bankAccountNo' },
    { body: { name: '账号太长', bankAccountNo: '1'.repeat(31) }, field: 'bankAccountNo' },
    { body: { name: '电话', contactPhone: '12345' }, field: 'contactPhone' },
    { body: { name: '排序', sort: -1 }, field: 'sort' },
  ],
  search: { contactName: '晓峰' },
});

describe('商户 rules', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let viewer: { authorization: string };
  let merchantId: number;
  const account = '6214830100012001';

  const call = async <T = unknown>(
    headers: { authorization: string },
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
  ) => {
    const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return {
      status: res.statusCode,
      body: res.json<{ code: number; msg: string; data: T }>(),
      raw: res.body,
    };
  };

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
    await t.db
      .insert(ssoRoles)
      .values({ code: 'merchant_viewer', name: '商户查看', permissions: ['merchant:brand:view'] });
    await createUser(t.db, {
      username: 'merchant_viewer',
      password: 'Viewer@2024',
      roleCodes: ['merchant_viewer'],
    });
    viewer = await t.auth('merchant_viewer', 'Viewer@2024');
    const [row] = await t.db
      .insert(merchants)
      .values({ name: '氪空间联合办公', bankAccountNo: account, published: true })
      .returning({ id: merchants.id });
    merchantId = row.id;
  });
  afterAll(() => t?.close());

  test('a viewer gets the account number masked in page and detail; an editor sees it in full', async () => {
    expect(maskBankAccount(account)).toBe('************2001');
    const maskedPage = await call<Page<{ bankAccountNo: string }>>(
      viewer,
      'GET',
      `${paths.page}?name=氪空间`,
    );
    const maskedDetail = await call<{ bankAccountNo: string }>(
      viewer,
      'GET',
      `${paths.detail}/${merchantId}`,
    );
    expect(maskedPage.body.data.records[0].bankAccountNo).toBe('************2001');
    expect(maskedDetail.body.data.bankAccountNo).toBe('************2001');
    const masked = [maskedPage, maskedDetail];
    for (const res of masked) expect(res.raw).not.toContain(account);

    const page = await call<Page<{ bankAccountNo: string }>>(admin, 'GET', `${paths.page}?name=氪空间`);
    expect(page.body.data.records[0].bankAccountNo).toBe(account);
    const detail = await call<{ bankAccountNo: string }>(admin, 'GET', `${paths.detail}/${merchantId}`);
    expect(detail.body.data.bankAccountNo).toBe(account);
    const list = await call(viewer, 'GET', paths.list);
    expect(list.status).toBe(200);
    expect(list.raw).not.toContain(account);
    expect((await call(viewer, 'PUT', paths.edit, { id: merchantId, name: '改名' })).status).toBe(403);
  });

  test('an editor changes the full number and the write answer carries it; empty clears it', async () => {
    const res = await call<{ bankAccountNo: string }>(admin, 'PUT', paths.edit, {
      id: merchantId,
      bankAccountNo: '6214830100012002',
    });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data.bankAccountNo).toBe('6214830100012002');
    const cleared = await call<{ bankAccountNo: string | null }>(admin, 'PUT', paths.edit, {
      id: merchantId,
      bankAccountNo: '',
    });
    expect(cleared.body.data.bankAccountNo).toBeNull();
    await call(admin, 'PUT', paths.edit, { id: merchantId, bankAccountNo: account });
  });

  test('the audit log keeps account numbers masked, before and after', async () => {
    await call(admin, 'PUT', paths.edit, { id: merchantId, bankAccountNo: '6214830100019999' });
    const [entry] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.resource, 'merchant'), eq(auditLogs.resourceId, String(merchantId))))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    expect(entry.after).toMatchObject({ bankAccountNo: '************9999' });
    expect(JSON.stringify(entry)).not.toMatch(/62148301000(1|9)/);
    await call(admin, 'PUT', paths.edit, { id: merchantId, bankAccountNo: account });
  });

  test('a merchant with buildings or share rules is not removed (one or batch), unpublishing is', async () => {
    await t.db.insert(buildings).values(
      ['氪空间·望京SOHO', '氪空间·国贸中心', '氪空间·中关村'].map((name, sort) => ({
        merchantId,
        name,
        provinceCode: '110000',
        cityCode: '110100',
        address: '北京市朝阳区',
        sort,
      })),
    );
    await t.db.insert(merchantShares).values(
      (['office-seat', 'meeting-room'] as const).map((siteType) => ({
        merchantId,
        siteType,
        ratioBasisPoints: 1500,
        effectiveFrom: new Date('2026-01-01T00:00:00+08:00'),
      })),
    );
    const [free] = await t.db.insert(merchants).values({ name: '西湖栖舍' }).returning({ id: merchants.id });
    const expected =
      '商户“氪空间联合办公”下还有 3 个楼宇（氪空间·望京SOHO 等）和 2 条分账规则，不能删除；请先处理这些记录，或将商户下架';
    const one = await call(admin, 'DELETE', `${paths.remove}/${merchantId}`);
    expect(one.status).toBe(409);
    expect(one.body.msg).toBe(expected);
    const batch = await call(admin, 'DELETE', paths.remove, { ids: [free.id, merchantId] });
    expect(batch.status).toBe(409);
    expect(batch.body.msg).toBe(expected);
    expect((await call(admin, 'GET', `${paths.detail}/${free.id}`)).status).toBe(200);

    const off = await call<{ published: boolean }>(admin, 'PUT', paths.editPublished, {
      id: merchantId,
      published: false,
    });
    expect(off.body.data.published).toBe(false);

    await t.db.delete(merchantShares);
    const onlyBuildings = await call(admin, 'DELETE', `${paths.remove}/${merchantId}`);
    expect(onlyBuildings.body.msg).toBe(
      '商户“氪空间联合办公”下还有 3 个楼宇（氪空间·望京SOHO 等），不能删除；请先处理这些记录，或将商户下架',
    );
    await t.db.delete(buildings);
    await t.db.insert(merchantShares).values({
      merchantId,
      siteType: 'airport',
      ratioBasisPoints: 500,
      effectiveFrom: new Date('2026-01-01T00:00:00+08:00'),
    });
    const onlyRules = await call(admin, 'DELETE', `${paths.remove}/${merchantId}`);
    expect(onlyRules.body.msg).toBe(
      '商户“氪空间联合办公”下还有 1 条分账规则，不能删除；请先处理这些记录，或将商户下架',
    );
    await t.db.delete(merchantShares);
    expect((await call(admin, 'DELETE', `${paths.remove}/${merchantId}`)).status).toBe(200);
  });
});

test('the demo data brings four merchants, three of them published, with masked accounts for viewers', async () => {
  const t = await buildTestApp();
  try {
    const res = await t.app.inject({ url: `${paths.page}?size=100`, headers: await t.auth(...demo.caiwu) });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ data: Page<{ published: boolean; bankAccountNo: string }> }>().data;
    expect(page.total).toBe(4);
    expect(page.records.filter((r) => r.published)).toHaveLength(3);
    // 财务 may only view merchants.
    for (const r of page.records) expect(r.bankAccountNo).toMatch(/^\*{12}\d{4}$/);
  } finally {
    await t.close();
  }
});
