import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { maskIdCard, member, memberEndpoints } from '@cowork/contract/resources/member';
import type { Page } from '@cowork/contract';
import { csrSources, members } from '../src/db/schema.ts';
import { buildTestApp, callApi, createRole, createUser, demo, type TestApp } from './helper.ts';
import { resourceSuite } from './resource-suite.ts';

const base = member.base;

resourceSuite({
  resource: member,
  // Members come from the member app: the suite writes them straight to the table.
  insert: async (t, body) => {
    const [row] = await t.db
      .insert(members)
      .values(body as typeof members.$inferInsert)
      .returning({ id: members.id });
    return row.id;
  },
  samples: [
    {
      phone: '13800138000',
      nickname: '小张',
      realName: '张三',
      companyName: '上海云启科技',
      status: 'enabled',
    },
    { phone: '13900139000', nickname: '阿李', companyName: '北京星河互娱', status: 'disabled' },
  ],
  change: {
    nickname: '张小三',
    realName: '张三丰',
    companyName: '上海云启信息科技有限公司',
    status: 'disabled',
  },
  invalid: [
    { body: { nickname: '' }, field: 'nickname' },
    { body: { idCardNo: '12345' }, field: 'idCardNo' },
    { body: { idCardNo: '110105********002X' }, field: 'idCardNo' },
    { body: { status: 'paused' }, field: 'status' },
    { body: { sourceId: 999_999 }, field: 'sourceId' },
    { body: { companyName: '公'.repeat(101) }, field: 'companyName' },
  ],
  search: { phone: '138001' },
});

describe('会员 rules', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let viewer: { authorization: string };
  let memberId: number;
  let otherId: number;
  const idCard = '11010519900101002X';

  const call = <T = unknown>(
    headers: { authorization: string },
    method: 'GET' | 'PUT',
    url: string,
    payload?: object,
  ) => callApi<T>(t, headers, method, url, payload);

  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
    await createRole(t.db, { code: 'member_viewer', name: '会员查看', permissions: ['user:member:view'] });
    await createUser(t.db, {
      username: 'member_viewer',
      password: 'Viewer@2024',
      roleCodes: ['member_viewer'],
    });
    viewer = await t.auth('member_viewer', 'Viewer@2024');
    const [source] = await t.db
      .insert(csrSources)
      .values({ name: '官网', code: 'website', published: true })
      .returning();
    const rows = await t.db
      .insert(members)
      .values([
        {
          phone: '13812345678',
          nickname: '林晓峰',
          idCardNo: idCard,
          sourceId: source.id,
          registeredAt: new Date('2025-03-01T10:00:00+08:00'),
        },
        { phone: '13912345678', nickname: '陈思雨', registeredAt: new Date('2025-05-01T10:00:00+08:00') },
      ])
      .returning({ id: members.id });
    [memberId, otherId] = rows.map((r) => r.id);
  });
  afterAll(() => t?.close());

  test('lists mask ID numbers for everyone; phones are shown in full', async () => {
    for (const headers of [admin, viewer]) {
      const page = await call<Page<{ id: number; phone: string; idCardNo: string }>>(
        headers,
        'GET',
        `${base}/page?phone=13812345678`,
      );
      expect(page.body.data.records).toEqual([
        expect.objectContaining({ id: memberId, phone: '13812345678', idCardNo: '110105********002X' }),
      ]);
      expect(page.raw).not.toContain(idCard);
    }
    expect(maskIdCard(idCard)).toBe('110105********002X');
  });

  test('the detail shows the full ID number only to staff who may edit members', async () => {
    const full = await call<{ idCardNo: string }>(admin, 'GET', `${base}/detail/${memberId}`);
    expect(full.body.data.idCardNo).toBe(idCard);
    const masked = await call<{ idCardNo: string }>(viewer, 'GET', `${base}/detail/${memberId}`);
    expect(masked.body.data.idCardNo).toBe('110105********002X');
    expect(masked.raw).not.toContain(idCard);
    expect((await call(viewer, 'PUT', `${base}/edit`, { id: memberId, nickname: '改' })).status).toBe(403);
  });

  test('edit checks the ID number and the source; phone and registration stay', async () => {
    const res = await call<Record<string, unknown>>(admin, 'PUT', `${base}/edit`, {
      id: otherId,
      nickname: '思雨',
      idCardNo: '31011519950708062x',
      phone: '13000000000',
      registeredAt: '2020-01-01T00:00:00+08:00',
    });
    expect(res.status, res.body.msg).toBe(200);
    expect(res.body.data).toMatchObject({
      nickname: '思雨',
      idCardNo: '31011519950708062X',
      phone: '13912345678',
      registeredAt: '2025-05-01T10:00:00.000+08:00',
    });
    const cleared = await call<Record<string, unknown>>(admin, 'PUT', `${base}/edit`, {
      id: otherId,
      idCardNo: '',
    });
    expect(cleared.body.data.idCardNo).toBeNull();
  });

  test('search by nickname, source, status and registration range', async () => {
    const ids = async (query: string) =>
      (await call<Page<{ id: number }>>(admin, 'GET', `${base}/page?${query}`)).body.data.records.map(
        (r) => r.id,
      );
    expect(await ids('nickname=晓')).toEqual([memberId]);
    const [source] = await t.db.select().from(csrSources);
    expect(await ids(`sourceId=${source.id}`)).toEqual([memberId]);
    expect(await ids('registeredAtFrom=2025-04-01&registeredAtTo=2025-06-01')).toEqual([otherId]);
    expect((await call(admin, 'GET', `${base}/page?registeredAtFrom=notadate`)).status).toBe(400);
  });

  test('user-ids/username maps ids to nickname and phone for those who may see members', async () => {
    const yunying = await t.auth(...demo.yunying);
    const res = await call<Record<string, unknown>>(
      admin,
      'GET',
      `${memberEndpoints.usernames}?ids=${memberId},${otherId},999999`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      [memberId]: { id: memberId, nickname: '林晓峰', phone: '13812345678' },
      [otherId]: { id: otherId, nickname: '思雨', phone: '13912345678' },
    });
    const bad = await call(admin, 'GET', `${memberEndpoints.usernames}?ids=a,b`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('会员编号');
    expect((await call(yunying, 'GET', `${base}/page`)).status).toBe(403);
    expect((await call(yunying, 'GET', `${memberEndpoints.usernames}?ids=${memberId}`)).status).toBe(403);
  });

  test('there is no save or remove for members', async () => {
    for (const [method, url] of [
      ['POST', `${base}/save`],
      ['DELETE', `${base}/remove/${memberId}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: admin, payload: {} });
      expect(res.statusCode).toBe(404);
    }
  });
});

test('the demo data brings thirty members with valid, masked ID numbers, and the companies’ staff', async () => {
  const t = await buildTestApp();
  try {
    // The 企业门禁组 demo adds the companies' staff as members from 企业导入.
    const [enterprise] = await t.db
      .select({ id: csrSources.id })
      .from(csrSources)
      .where(eq(csrSources.code, 'enterprise'));
    const res = await t.app.inject({ url: `${base}/page?size=100`, headers: await t.auth(...demo.admin) });
    const page = res.json<{
      data: Page<{ nickname: string; idCardNo: string | null; sourceId: number | null }>;
    }>().data;
    const own = page.records.filter((r) => r.sourceId !== enterprise.id);
    expect(own).toHaveLength(30);
    expect(page.total - own.length).toBeGreaterThan(0);
    expect(page.records.every((r) => r.sourceId !== null)).toBe(true);
    for (const r of page.records) if (r.idCardNo) expect(r.idCardNo).toMatch(/^\d{6}\*{8}\d{3}[\dX]$/);
  } finally {
    await t.close();
  }
});
