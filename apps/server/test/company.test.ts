/**
 * 企业 (company): created, searched, listed with what 开票 prefills, edited and removed; bad input
 * (a credit code failing its check digit, a duplicate name or code, a phone that is not a mobile
 * number, a contract ending before it starts) is a 400 naming the field and changes nothing; a
 * company with staff, groups or cards is a 409 naming them. Its detail's tabs read its groups and
 * cards (their pages by companyId), its invoices (by tax number) and its 操作记录 (the audit log by
 * companyId); the server checks every right itself.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { endpoints, resourcePaths } from '@cowork/contract';
import {
  companyEndpoints as paths,
  companyStaffEndpoints as staffPaths,
} from '@cowork/contract/resources/company';
import { companyCardEndpoints } from '@cowork/contract/resources/company-card';
import { invoice, invoicePaths } from '@cowork/contract/resources/invoice';
import { kreatorUserGroup } from '@cowork/contract/resources/kreator';
import { buildings, companies, invoices, teamCards } from '../src/db/schema.ts';
import { buildTestApp, callApi, createRole, createUser, demo, type TestApp } from './helper.ts';

const DAY = 86_400_000;
// Real codes from business licences (check digits valid); the last one's check digit is wrong.
const CODE = '91110000802100433B';
const OTHER_CODE = '914403001922038216';
const WRONG_CODE = '91110000802100433A';

let t: TestApp;
let admin: Record<string, string>;
let buildingId: number;

const call = (method: string, url: string, payload?: object, as = admin) =>
  method === 'GET' && payload
    ? callApi(
        t,
        as,
        method,
        `${url}?${new URLSearchParams(Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, String(v)])))}`,
      )
    : callApi(t, as, method, url, payload);

const valid = {
  name: '测试百度网讯有限公司',
  creditCode: CODE,
  contactName: '张联系',
  contactPhone: '13812345678',
  validFrom: new Date(Date.now() - 30 * DAY).toISOString(),
  validTo: new Date(Date.now() + 300 * DAY).toISOString(),
  status: 'enabled',
  invoiceTitle: '测试百度网讯有限公司',
  taxNo: CODE,
  remark: '测试',
};

const companyCount = async () => (await t.db.select({ n: count() }).from(companies))[0].n;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.auth(...demo.admin);
  [{ id: buildingId }] = await t.db
    .select({ id: buildings.id })
    .from(buildings)
    .orderBy(buildings.id)
    .limit(1);
});

afterAll(() => t?.close());

describe('the company record', () => {
  let id: number;

  test('save, page (searched by name, credit code, status; phone masked), detail (in full) and list', async () => {
    const created = await call('POST', paths.save, { ...valid, buildingIds: [buildingId, buildingId] });
    expect(created.status, created.raw).toBe(200);
    id = created.body.data.id;
    expect(created.body.data).toMatchObject({
      name: valid.name,
      creditCode: CODE,
      buildingIds: [buildingId],
      staffCount: 0,
    });

    for (const query of [
      { name: '百度网讯' },
      { creditCode: '911100008021' },
      { status: 'enabled', name: '测试百度' },
    ]) {
      const page = await call('GET', paths.page, query);
      expect(page.status, page.raw).toBe(200);
      expect(page.body.data.records).toEqual([
        expect.objectContaining({
          id,
          name: valid.name,
          creditCode: CODE,
          contactName: '张联系',
          contactPhone: '138****5678',
          buildingIds: [buildingId],
          validFrom: expect.any(String),
          validTo: expect.any(String),
          status: 'enabled',
          staffCount: 0,
        }),
      ]);
    }
    const disabled = await call('GET', paths.page, { status: 'disabled', name: '百度网讯' });
    expect(disabled.body.data.total).toBe(0);
    const detail = await call('GET', `${paths.detail}/${id}`);
    expect(detail.body.data).toMatchObject({
      contactPhone: '13812345678',
      invoiceTitle: valid.name,
      taxNo: CODE,
    });

    // The options carry what 开票 prefills; any signed-in staff member may read them.
    const list = await call('GET', paths.list);
    expect(list.body.data).toContainEqual({
      value: id,
      label: valid.name,
      status: 'enabled',
      invoiceTitle: valid.name,
      taxNo: CODE,
    });
  });

  test('bad input is a 400 naming the field and changes nothing', async () => {
    const before = await companyCount();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...valid, name: '校验位错误公司', creditCode: WRONG_CODE }, /^统一社会信用代码：校验位不正确/],
      [{ ...valid, name: '长度错误公司', creditCode: '9111000080210043' }, /^统一社会信用代码：须为 18 位/],
      [{ ...valid, name: '测试百度网讯有限公司'.toUpperCase(), creditCode: null }, /^企业名称：已有名为/],
      [{ ...valid, name: ' 测试百度网讯有限公司 ', creditCode: null }, /^企业名称：/],
      [
        { ...valid, name: '代码重复公司' },
        /^统一社会信用代码：该统一社会信用代码已用于企业“测试百度网讯有限公司”/,
      ],
      [
        { ...valid, name: '电话错误公司', creditCode: OTHER_CODE, contactPhone: '02112345678' },
        /^联系电话：/,
      ],
      [
        {
          ...valid,
          name: '合同倒置公司',
          creditCode: OTHER_CODE,
          validTo: valid.validFrom,
          validFrom: valid.validTo,
        },
        /^合同到期：/,
      ],
      [{ ...valid, name: '税号错误公司', creditCode: OTHER_CODE, taxNo: 'abc' }, /^税号：/],
      [{ ...valid, name: '楼宇错误公司', creditCode: OTHER_CODE, buildingIds: [999_999] }, /^入驻楼宇：/],
      [{ ...valid, name: '' }, /^企业名称：/],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', paths.save, body);
      expect([res.status, res.body.msg], JSON.stringify(body)).toEqual([400, expect.stringMatching(message)]);
    }
    expect(await companyCount()).toBe(before);
    // An edit is checked the same way.
    const other = await call('POST', paths.save, {
      ...valid,
      name: '另一家公司',
      creditCode: OTHER_CODE,
      taxNo: null,
    });
    expect(other.status, other.raw).toBe(200);
    const clash = await call('PUT', paths.edit, { id: other.body.data.id, name: valid.name });
    expect([clash.status, clash.body.msg]).toEqual([400, expect.stringMatching(/^企业名称：/)]);
    // A credit code typed in lower case is stored upper-cased.
    const lower = await call('PUT', paths.edit, {
      id: other.body.data.id,
      creditCode: OTHER_CODE.toLowerCase(),
    });
    expect(lower.status, lower.raw).toBe(200);
  });

  test('a company with staff, groups or cards cannot be removed (409 naming them); an empty one can', async () => {
    const staff = await call('POST', staffPaths.save, {
      companyId: id,
      name: '删前员工',
      phone: '17600001001',
    });
    expect(staff.status, staff.raw).toBe(200);
    const group = await call('POST', resourcePaths(kreatorUserGroup).save, {
      name: '删前门禁组',
      companyId: id,
      staffScope: 'all',
      buildingId,
      validFrom: new Date(Date.now() - DAY).toISOString(),
      validTo: new Date(Date.now() + 30 * DAY).toISOString(),
      status: 'enabled',
    });
    expect(group.status, group.raw).toBe(200);
    const [product] = await t.db
      .insert(teamCards)
      .values({
        name: '删前卡产品',
        faceValueFen: 1,
        priceFen: 1,
        validDays: 1,
        buildingIds: [buildingId],
        published: true,
      })
      .returning({ id: teamCards.id });
    const card = await call('POST', companyCardEndpoints.saveOrUpdate, {
      companyId: id,
      teamCardId: product.id,
      balanceFen: 0,
      staffScope: 'all',
      validUntil: new Date(Date.now() + 30 * DAY).toISOString(),
      status: 'enabled',
    });
    expect(card.status, card.raw).toBe(200);

    const refused = await call('DELETE', `${paths.remove}/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(
      `该企业还有员工 1 名、门禁组“删前门禁组”、企业会议卡“${card.body.data.cardNo}”，不能删除；请先删除员工、门禁组和企业会议卡，或把企业停用`,
    );
    // The detail's tabs: its groups and cards by companyId, the staff count.
    const groups = await call('GET', resourcePaths(kreatorUserGroup).page, { companyId: id });
    expect(groups.body.data.records).toMatchObject([
      { name: '删前门禁组', companyName: valid.name, memberCount: 1 },
    ]);
    const cards = await call('GET', companyCardEndpoints.page, { companyId: id });
    expect(cards.body.data.records).toMatchObject([
      { cardNo: card.body.data.cardNo, companyName: valid.name },
    ]);
    expect((await call('GET', `${paths.detail}/${id}`)).body.data.staffCount).toBe(1);

    const empty = await call('POST', paths.save, { name: '空企业' });
    expect(empty.status, empty.raw).toBe(200);
    const removed = await call('DELETE', `${paths.remove}/${empty.body.data.id}`);
    expect(removed.status, removed.raw).toBe(200);
  });

  test('操作记录: the audit log by companyId holds the company, its staff, groups and cards', async () => {
    const log = await call('GET', endpoints.auditLogPage, { companyId: id, size: 50 });
    expect(log.status, log.raw).toBe(200);
    const resources = new Set(log.body.data.records.map((r: { resource: string }) => r.resource));
    expect([...resources].sort()).toEqual(['company', 'company-card', 'company-staff', 'kreator-user-group']);
    const others = await call('GET', endpoints.auditLogPage, { companyId: 999_999 });
    expect(others.body.data.total).toBe(0);
  });

  test('invoices by the company’s tax number; orders paid with its cards (none yet)', async () => {
    const [issued] = await t.db
      .select({ taxNo: invoices.taxNo })
      .from(invoices)
      .where(eq(invoices.titleType, 'company'))
      .limit(1);
    const page = await call('GET', invoicePaths(invoice).page, { taxNo: issued.taxNo!, size: 100 });
    expect(page.status, page.raw).toBe(200);
    expect(page.body.data.total).toBeGreaterThan(0);
    const all = await t.db
      .select({ taxNo: invoices.taxNo })
      .from(invoices)
      .where(eq(invoices.kind, 'invoice'));
    expect(page.body.data.total).toBe(all.filter((i) => i.taxNo === issued.taxNo).length);
    const orders = await call('GET', paths.orders, { id });
    expect(orders.status, orders.raw).toBe(200);
    expect(orders.body.data).toMatchObject({ records: [], total: 0 });
    expect((await call('GET', paths.orders, { id: 999_999 })).status).toBe(404);
  });

  test('a rename reaches its groups and cards; the server checks every right', async () => {
    const renamed = await call('PUT', paths.edit, { id, name: '测试百度（北京）有限公司' });
    expect(renamed.status, renamed.raw).toBe(200);
    const groups = await call('GET', resourcePaths(kreatorUserGroup).page, { companyId: id });
    expect(groups.body.data.records[0].companyName).toBe('测试百度（北京）有限公司');
    const cards = await call('GET', companyCardEndpoints.page, { companyId: id });
    expect(cards.body.data.records[0].companyName).toBe('测试百度（北京）有限公司');

    await createRole(t.db, {
      code: 'company-reader',
      name: '企业只读',
      permissions: ['enterprise:company:view'],
    });
    await createUser(t.db, { username: 'creader', password: 'Creader@123', roleCodes: ['company-reader'] });
    await createUser(t.db, { username: 'nobody', password: 'Nobody@123' });
    const reader = await t.auth('creader', 'Creader@123');
    const nobody = await t.auth('nobody', 'Nobody@123');
    expect((await call('GET', paths.page, {}, reader)).status).toBe(200);
    expect((await call('GET', staffPaths.page, { companyId: id }, reader)).status).toBe(200);
    expect((await call('GET', paths.page, {}, nobody)).status).toBe(403);
    for (const [method, url, body] of [
      ['POST', paths.save, { name: '越权企业' }],
      ['PUT', paths.edit, { id, status: 'disabled' }],
      ['DELETE', `${paths.remove}/${id}`, undefined],
      ['POST', staffPaths.save, { companyId: id, name: '越权', phone: '17600001099' }],
      ['PUT', staffPaths.edit, { id: 1, department: 'x' }],
      ['POST', staffPaths.leave, { ids: [1] }],
      ['DELETE', staffPaths.remove, { ids: [1] }],
    ] as const) {
      const res = await call(method, url, body, reader);
      expect(res.status, `${method} ${url}`).toBe(403);
    }
    // Whoever picks people for an access group reads the staff list, and changes nothing of it.
    await createRole(t.db, {
      code: 'group-editor',
      name: '门禁组编辑',
      permissions: ['enterprise:accessControl:edit'],
    });
    await createUser(t.db, { username: 'geditor', password: 'Geditor@123', roleCodes: ['group-editor'] });
    const groupEditor = await t.auth('geditor', 'Geditor@123');
    expect((await call('GET', staffPaths.page, { companyId: id }, groupEditor)).status).toBe(200);
    expect((await call('GET', staffPaths.departments, { companyId: id }, groupEditor)).status).toBe(200);
    expect((await call('GET', paths.page, {}, groupEditor)).status).toBe(403);
    expect((await call('POST', staffPaths.leave, { ids: [1] }, groupEditor)).status).toBe(403);
    const [stored] = await t.db
      .select({ status: companies.status })
      .from(companies)
      .where(eq(companies.id, id));
    expect(stored.status).toBe('enabled');
  });
});
