/**
 * 线索管理: 定制场地 (csr-capital-site) and 物业合作 (csr-capital-website) through the resource
 * mechanism, then what is special: the detail with its follow-up records, save-record (moving a
 * 新线索 to 跟进中), removal taking the records along, the staff options for 负责人, and 403s.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths, type Page } from '@cowork/contract';
import { csrCapitalSite } from '@cowork/contract/resources/csr-capital-site';
import { csrCapitalWebsite } from '@cowork/contract/resources/csr-capital-website';
import { saveRecordPath, staffListEndpoint, type LeadRecord } from '@cowork/contract/resources/lead';
import { and, eq } from 'drizzle-orm';
import { auditLogs, csrCapitalRecords } from '../src/db/schema.ts';
import { buildTestApp, callApi, createRole, createUser, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

// The detail answers the records too, so the suite checks the rest and the detail is tested below.
const withoutDetail = <R extends { actions: readonly string[] }>(r: R) => ({
  ...r,
  actions: r.actions.filter((a) => a !== 'detail') as R['actions'],
});

const sharedInvalid = [
  { body: { contactPhone: '13800138000' }, field: 'contactName' },
  { body: { contactName: '王磊', contactPhone: '12345' }, field: 'contactPhone' },
  { body: { contactName: '王磊', contactPhone: '13800138000', status: 'hot' }, field: 'status' },
  { body: { contactName: '王磊', contactPhone: '13800138000', cityCode: '123' }, field: 'cityCode' },
  // A well-formed code that names no city.
  { body: { contactName: '王磊', contactPhone: '13800138000', cityCode: '999900' }, field: 'cityCode' },
  { body: { contactName: '王磊', contactPhone: '13800138000', sourceId: 999_999 }, field: 'sourceId' },
  { body: { contactName: '王磊', contactPhone: '13800138000', ownerId: 999_999 }, field: 'ownerId' },
];

resourceSuite({
  resource: withoutDetail(csrCapitalSite),
  samples: [
    {
      contactName: '王磊',
      contactPhone: '13800138000',
      companyName: '上海星河科技有限公司',
      cityCode: '310100',
      headcount: 30,
      areaSqm: 200,
      budgetFen: 5_000_000,
      expectedDate: '2026-12-01',
      demand: '需要 30 人的独立办公室，带会议室',
    },
    { contactName: '李娜', contactPhone: '13900139000', companyName: '北京云帆文化传媒' },
  ],
  change: { status: 'won', budgetFen: 6_000_000, headcount: 35 },
  invalid: [
    ...sharedInvalid,
    { body: { contactName: '王磊', contactPhone: '13800138000', budgetFen: -1 }, field: 'budgetFen' },
    { body: { contactName: '王磊', contactPhone: '13800138000', headcount: 0 }, field: 'headcount' },
    {
      body: { contactName: '王磊', contactPhone: '13800138000', expectedDate: '明天' },
      field: 'expectedDate',
    },
  ],
  search: { companyName: '星河' },
});

resourceSuite({
  resource: withoutDetail(csrCapitalWebsite),
  samples: [
    {
      contactName: '赵强',
      contactPhone: '13700137000',
      companyName: '深圳前海置业有限公司',
      cityCode: '440300',
      propertyAddress: '深圳市南山区科技园南区 8 栋',
      propertyAreaSqm: 3000,
    },
    { contactName: '孙悦', contactPhone: '13600136000', companyName: '杭州西溪物业' },
  ],
  change: { status: 'following', propertyAreaSqm: 3200 },
  invalid: [
    ...sharedInvalid,
    {
      body: { contactName: '赵强', contactPhone: '13700137000', propertyAreaSqm: -5 },
      field: 'propertyAreaSqm',
    },
  ],
  search: { contactPhone: '13700137000' },
});

type Lead = { id: number; status: string; cityName: string | null; records: LeadRecord[] };

describe('线索: detail, save-record and remove', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const site = resourcePaths(csrCapitalSite);
  const website = resourcePaths(csrCapitalWebsite);

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
  });
  afterAll(() => t?.close());

  const newLead = async (paths: typeof site, body: Record<string, unknown> = {}) => {
    const res = await callApi<Lead>(t, admin, 'POST', paths.save, {
      contactName: '周洁',
      contactPhone: '13512345678',
      cityCode: '310100',
      ...body,
    });
    expect(res.status, res.body.msg).toBe(200);
    return res.body.data;
  };
  const detail = async (paths: typeof site, id: number) =>
    (await callApi<Lead>(t, admin, 'GET', `${paths.detail}/${id}`)).body.data;

  test('a new lead starts as 新线索 and answers its city by name', async () => {
    const lead = await newLead(site);
    expect(lead).toMatchObject({ status: 'new', cityName: '上海市' });
    expect(await detail(site, lead.id)).toMatchObject({ status: 'new', records: [] });
  });

  test('save-record adds a record by the caller, moves 新线索 to 跟进中, newest first, audited', async () => {
    const lead = await newLead(site);
    const first = await callApi<LeadRecord>(t, admin, 'POST', saveRecordPath(csrCapitalSite), {
      id: lead.id,
      content: '电话沟通，客户想下周看场地',
      nextFollowAt: '2026-12-01T10:00:00+08:00',
    });
    expect(first.status, first.body.msg).toBe(200);
    expect(first.body.data).toMatchObject({
      content: '电话沟通，客户想下周看场地',
      nextFollowAt: '2026-12-01T10:00:00.000+08:00',
      at: expect.stringMatching(/\+08:00$/),
    });
    let read = await detail(site, lead.id);
    expect(read.status).toBe('following');
    await callApi(t, admin, 'POST', saveRecordPath(csrCapitalSite), {
      id: lead.id,
      content: '已带看，等待报价',
    });
    read = await detail(site, lead.id);
    expect(read.records.map((r) => r.content)).toEqual(['已带看，等待报价', '电话沟通，客户想下周看场地']);
    expect(read.records[0]).toMatchObject({ nextFollowAt: null, by: expect.any(String) });
    expect(read.records[0].by).toBe(read.records[1].by);
    const log = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.resource, csrCapitalSite.key), eq(auditLogs.action, 'save-record')));
    expect(log.filter((l) => l.resourceId === String(lead.id))).toHaveLength(2);
  });

  test('a won or lost lead keeps its status when followed up', async () => {
    const lead = await newLead(website, { status: 'won' });
    const res = await callApi(t, admin, 'POST', saveRecordPath(csrCapitalWebsite), {
      id: lead.id,
      content: '回访：合同已签',
    });
    expect(res.status).toBe(200);
    expect((await detail(website, lead.id)).status).toBe('won');
  });

  test('bad save-record bodies are 400s naming the field; unknown leads are 404; nothing is written', async () => {
    const lead = await newLead(site);
    const url = saveRecordPath(csrCapitalSite);
    for (const [body, label] of [
      [{ id: lead.id }, '跟进内容'],
      [{ id: lead.id, content: '   ' }, '跟进内容'],
      [{ id: lead.id, content: '长'.repeat(501) }, '跟进内容'],
      [{ id: lead.id, content: '好', nextFollowAt: '下周一' }, '下次跟进时间'],
      [{ content: '好' }, '线索编号'],
    ] as const) {
      const res = await callApi(t, admin, 'POST', url, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toContain(label);
    }
    expect((await callApi(t, admin, 'POST', url, { id: 999_999, content: '好' })).status).toBe(404);
    expect(await detail(site, lead.id)).toMatchObject({ status: 'new', records: [] });
  });

  test('removing a lead removes its records (not those of the other kind with the same id), audited', async () => {
    // Make both kinds hold a lead of the same id, each with a record.
    let a = await newLead(site);
    let b = await newLead(website);
    while (a.id !== b.id) {
      if (a.id < b.id) a = await newLead(site);
      else b = await newLead(website);
    }
    await callApi(t, admin, 'POST', saveRecordPath(csrCapitalSite), { id: a.id, content: '场地记录' });
    await callApi(t, admin, 'POST', saveRecordPath(csrCapitalWebsite), { id: b.id, content: '物业记录' });
    const removed = await callApi(t, admin, 'DELETE', `${site.remove}/${a.id}`);
    expect(removed.status, removed.body.msg).toBe(200);
    const left = await t.db.select().from(csrCapitalRecords).where(eq(csrCapitalRecords.leadId, a.id));
    expect(left.map((r) => [r.leadKind, r.content])).toEqual([['website', '物业记录']]);
    expect((await callApi(t, admin, 'GET', `${site.detail}/${a.id}`)).status).toBe(404);
    const log = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.resource, `${csrCapitalSite.key}-record`), eq(auditLogs.action, 'remove')));
    expect(log.length).toBeGreaterThanOrEqual(1);
  });

  test('without the code: detail and save-record are 403; view alone reads but cannot follow up', async () => {
    const lead = await newLead(site);
    await createUser(t.db, { username: 'lead-none', password: 'Pass@1234' });
    const none = await t.auth('lead-none', 'Pass@1234');
    await createRole(t.db, { code: 'lead_view', name: '线索查看', permissions: ['clue:place:view'] });
    await createUser(t.db, { username: 'lead-view', password: 'Pass@1234', roleCodes: ['lead_view'] });
    const viewer = await t.auth('lead-view', 'Pass@1234');
    const body = { id: lead.id, content: '越权跟进' };
    expect((await callApi(t, none, 'GET', `${site.detail}/${lead.id}`)).status).toBe(403);
    expect((await callApi(t, none, 'POST', saveRecordPath(csrCapitalSite), body)).status).toBe(403);
    expect((await callApi(t, viewer, 'GET', `${site.detail}/${lead.id}`)).status).toBe(200);
    expect((await callApi(t, viewer, 'GET', `${website.page}`)).status).toBe(403);
    const denied = await callApi(t, viewer, 'POST', saveRecordPath(csrCapitalSite), body);
    expect(denied.status).toBe(403);
    expect(denied.body.msg).toBe('您没有权限进行此操作');
    expect(await detail(site, lead.id)).toMatchObject({ status: 'new', records: [] });
  });

  test('负责人 options: staff by nickname for any signed-in user; owner and source filter the page', async () => {
    const staff = await callApi<{ value: number; label: string }[]>(
      t,
      await t.auth('lead-view', 'Pass@1234'),
      'GET',
      staffListEndpoint,
    );
    expect(staff.status).toBe(200);
    const owner = staff.body.data.find((o) => o.label === 'lead-view')!;
    expect(owner).toBeDefined();
    const lead = await newLead(site, { ownerId: owner.value, contactPhone: '13587654321' });
    const page = await callApi<Page<Lead>>(t, admin, 'GET', `${site.page}?ownerId=${owner.value}`);
    expect(page.body.data.records.map((r) => r.id)).toEqual([lead.id]);
    const phone = await callApi<Page<Lead>>(t, admin, 'GET', `${site.page}?contactPhone=13587654321`);
    expect(phone.body.data.total).toBe(1);
    const status = await callApi<Page<Lead>>(t, admin, 'GET', `${site.page}?status=won&size=100`);
    expect(status.body.data.records.every((r) => r.status === 'won')).toBe(true);
  });
});

test('the demo brings twenty leads of each kind in every status, some today, with records', async () => {
  const t = await buildTestApp();
  try {
    const headers = await t.auth(...demo.yunying);
    for (const resource of [csrCapitalSite, csrCapitalWebsite]) {
      const paths = resourcePaths(resource);
      const page = await callApi<Page<Lead>>(t, headers, 'GET', `${paths.page}?size=100`);
      expect(page.status, page.body.msg).toBe(200);
      expect(page.body.data.total).toBe(20);
      const leads = page.body.data.records;
      expect(new Set(leads.map((l) => l.status))).toEqual(new Set(['new', 'following', 'won', 'lost']));
      const followed = leads.find((l) => l.status === 'following')!;
      const read = await callApi<Lead>(t, headers, 'GET', `${paths.detail}/${followed.id}`);
      expect(read.body.data.records.length).toBeGreaterThan(0);
      expect(leads.every((l) => l.cityName)).toBe(true);
    }
  } finally {
    await t.close();
  }
});
