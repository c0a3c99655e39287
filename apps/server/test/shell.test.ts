import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  AUDIT_LOG_PERMISSION,
  permissionOf,
  endpoints,
  MENU_ICON_BASE,
  menuGroups,
  menuRoutes,
  messages,
  type AuditLogRecord,
  type MenuItem,
  type Page,
  type UserInfo,
} from '@cowork/contract';
import { ssoMenus, ssoRoleMenus, ssoRoles, ssoUserRoles } from '../src/db/schema.ts';
import { refreshDemoRoles } from '../src/seed/demo.ts';
import { syncMenus } from '../src/seed/menus.ts';
import { financeRole, operationRole, permissionsOf } from '../src/seed/roles.ts';
import { buildTestApp, createUser, demo, userIdOf, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const get = async <T>(url: string, headers: Record<string, string>) => {
  const res = await t.app.inject({ url, headers });
  return { status: res.statusCode, body: res.json<{ code: number; msg: string; data: T }>() };
};

describe('user-info', () => {
  test('answers the caller', async () => {
    const { status, body } = await get<UserInfo>(endpoints.userInfo, await t.auth(...demo.yunying));
    expect(status).toBe(200);
    expect(body.code).toBe(200);
    expect(body.data).toMatchObject({
      username: 'yunying',
      nickname: '运营专员',
      avatar: null,
      roles: ['operation'],
      roleNames: ['运营'],
    });
    expect(body.data.permissions).toContain('product:member:view');
    expect(body.data.permissions).not.toContain(AUDIT_LOG_PERMISSION);
  });
});

describe('menu user-tree', () => {
  test('超级管理员 sees every built screen, grouped, in order, with icons', async () => {
    const { body } = await get<MenuItem[]>(endpoints.menuUserTree, await t.auth(...demo.admin));
    const built = menuRoutes.filter((r) => r.built);
    const expected = menuGroups
      .filter((g) => built.some((r) => r.group === g.key))
      .map((g) => ({
        id: expect.any(Number),
        name: g.name,
        url: `/${g.key}`,
        iconUrl: `${MENU_ICON_BASE}/${g.key}.svg`,
        iconBrightUrl: `${MENU_ICON_BASE}/${g.key}-bright.svg`,
        children: built
          .filter((r) => r.group === g.key)
          .sort((a, b) => a.sort - b.sort)
          .map((r) => ({
            id: expect.any(Number),
            name: r.pageTitle,
            url: r.path,
            iconUrl: `${MENU_ICON_BASE}/${r.path.slice(1).replace('/', '-')}.svg`,
            iconBrightUrl: `${MENU_ICON_BASE}/${r.path.slice(1).replace('/', '-')}-bright.svg`,
            children: [],
          })),
      }));
    expect(body.data).toEqual(expected);
    expect(body.data.find((g) => g.name === '系统配置')?.children.map((c) => c.name)).toContain('操作日志');
  });

  test('运营 and 财务 never see 系统配置', async () => {
    for (const user of [demo.yunying, demo.caiwu] as const) {
      const { status, body } = await get<MenuItem[]>(endpoints.menuUserTree, await t.auth(user[0], user[1]));
      expect(status).toBe(200);
      expect(body.data.map((g) => g.name)).not.toContain('系统配置');
    }
  });

  test('a user without roles gets an empty tree', async () => {
    await createUser(t.db, { username: 'norole-tree', password: 'Pass@1234' });
    const { body } = await get<MenuItem[]>(endpoints.menuUserTree, await t.auth('norole-tree', 'Pass@1234'));
    expect(body.data).toEqual([]);
  });

  test('hidden menus are left out, and a group with nothing left is dropped', async () => {
    const systemPages = menuRoutes.filter((r) => r.built && r.group === 'system').map((r) => r.path);
    await t.db.update(ssoMenus).set({ visible: false }).where(inArray(ssoMenus.url, systemPages));
    try {
      const { body } = await get<MenuItem[]>(endpoints.menuUserTree, await t.auth(...demo.admin));
      expect(body.data.map((g) => g.name)).not.toContain('系统配置');
    } finally {
      await t.db.update(ssoMenus).set({ visible: true }).where(inArray(ssoMenus.url, systemPages));
    }
  });

  test('a role change applies at the next request (menus and permissions)', async () => {
    await createUser(t.db, { username: 'promoted', password: 'Pass@1234', roleCodes: ['operation'] });
    const headers = await t.auth('promoted', 'Pass@1234');
    expect((await get(endpoints.auditLogPage, headers)).status).toBe(403);

    const [role] = await t.db
      .insert(ssoRoles)
      .values({ name: '审计', code: 'auditor', permissions: [AUDIT_LOG_PERMISSION] })
      .returning();
    const menus = await t.db.select({ id: ssoMenus.id }).from(ssoMenus);
    await t.db.insert(ssoRoleMenus).values(menus.map((m) => ({ roleId: role.id, menuId: m.id })));
    await t.db.insert(ssoUserRoles).values({ userId: await userIdOf(t.db, 'promoted'), roleId: role.id });

    // Written straight into the database, not through the API (whose writes this instance applies
    // before answering): the kept session is dropped when the database's notification arrives.
    const deadline = Date.now() + 1_000;
    while ((await get(endpoints.auditLogPage, headers)).status !== 200 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect((await get(endpoints.auditLogPage, headers)).status).toBe(200);
    const tree = await get<MenuItem[]>(endpoints.menuUserTree, headers);
    expect(tree.body.data.map((m) => m.name)).toContain('系统配置');
    const info = await get<UserInfo>(endpoints.userInfo, headers);
    expect(info.body.data.roles).toEqual(['auditor', 'operation']);
  });
});

describe('role definitions follow the route table', () => {
  test('运营: view/edit/remove of product, order and clue; nothing of system', () => {
    const codes = permissionsOf(operationRole);
    expect(codes).toContain('product:member:remove');
    expect(codes).toContain('order:airport:edit');
    expect(codes).toContain('clue:place:view');
    expect(codes.some((c) => c.startsWith('system:'))).toBe(false);
    expect(codes.some((c) => c.startsWith('invoice:'))).toBe(false);
  });

  test('财务: order/invoice view+edit, merchant share view+edit, view-only product/building/merchant', () => {
    const codes = permissionsOf(financeRole);
    expect(codes).toEqual(
      expect.arrayContaining(['order:seat:edit', 'invoice:jingying:edit', 'merchant:share:edit']),
    );
    expect(codes).toEqual(
      expect.arrayContaining(['product:seat:view', 'building:list:view', 'merchant:brand:view']),
    );
    for (const denied of [
      'order:seat:remove',
      'product:seat:edit',
      'merchant:brand:edit',
      'building:list:edit',
      'system:log:view',
    ]) {
      expect(codes).not.toContain(denied);
    }
  });

  // A screen not built yet (the last of the table); none once every screen is built.
  const unbuilt = menuRoutes.filter((r) => !r.built).at(-1);
  test.skipIf(!unbuilt)(
    'a screen built later joins the menus and the roles that cover its group',
    async () => {
      const route = unbuilt!;
      const group = menuGroups.find((g) => g.key === route.group)!;
      const grants = operationRole.grants === '*' ? undefined : operationRole.grants.groups;
      const coveredByOperation = Boolean(grants?.[route.group!]);
      route.built = true;
      try {
        await syncMenus(t.db);
        await refreshDemoRoles(t.db);
        const menu = async (user: readonly [string, string]) =>
          (await get<MenuItem[]>(endpoints.menuUserTree, await t.auth(user[0], user[1]))).body.data.find(
            (m) => m.name === group.name,
          );
        // Beside the screens of the group already built (in menu order).
        const built = menuRoutes.filter((r) => r.group === route.group && r.built).map((r) => r.path);
        expect(built).toContain(route.path);
        expect((await menu(demo.admin))?.children.map((c) => c.url)).toEqual(built);
        // 运营 gains it when its definition covers the group, and sees nothing of it otherwise.
        const seen = (await menu(demo.yunying))?.children.map((c) => c.url) ?? [];
        expect(seen.includes(route.path)).toBe(coveredByOperation);
        const actions = await t.db.select().from(ssoMenus).where(eq(ssoMenus.type, 'action'));
        expect(actions.map((a) => a.permission)).toEqual(
          expect.arrayContaining((['view', 'edit', 'remove'] as const).map((a) => permissionOf(route, a))),
        );
        // Syncing again adds nothing.
        const before = (await t.db.select().from(ssoMenus)).length;
        await syncMenus(t.db);
        expect((await t.db.select().from(ssoMenus)).length).toBe(before);
      } finally {
        route.built = false;
      }
    },
  );
});

describe('audit-log page', () => {
  const page = (query: string, headers: Record<string, string>) =>
    get<Page<AuditLogRecord>>(`${endpoints.auditLogPage}${query}`, headers);

  test('403 for 运营 and 财务', async () => {
    for (const user of [demo.yunying, demo.caiwu] as const) {
      const { status, body } = await page('', await t.auth(user[0], user[1]));
      expect(status).toBe(403);
      expect(body).toEqual({ code: 403, msg: messages.noPermission, data: null });
    }
  });

  test('newest first, paged, times with offset', async () => {
    const admin = await t.auth(...demo.admin);
    const all = await page('?current=1&size=100', admin);
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ current: 1, size: 100 });
    const records = all.body.data.records;
    expect(records.length).toBeGreaterThan(3);
    expect(all.body.data.total).toBe(records.length);
    const times = records.map((r) => Date.parse(r.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(records[0].at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+08:00$/);

    const second = await page('?current=2&size=1', admin);
    expect(second.body.data.records).toEqual([records[1]]);
    expect(second.body.data.total).toBe(records.length);
  });

  test('filters by action, actor, resource and time', async () => {
    const admin = await t.auth(...demo.admin);
    const adminId = (await get<UserInfo>(endpoints.userInfo, admin)).body.data.ssoUserId;
    const signIns = await page(`?action=sign-in&actorId=${adminId}&resource=auth`, admin);
    expect(signIns.body.data.total).toBeGreaterThan(0);
    for (const r of signIns.body.data.records) {
      expect(r).toMatchObject({
        action: 'sign-in',
        actorId: adminId,
        resource: 'auth',
        actorName: '系统管理员',
        actorUsername: 'admin',
      });
    }
    expect((await page('?action=no-such-action', admin)).body.data.total).toBe(0);
    expect((await page('?from=2999-01-01', admin)).body.data.total).toBe(0);
    expect((await page('?to=2000-01-01', admin)).body.data.total).toBe(0);
    // A date bound is a whole day in Shanghai: the day of the newest entry holds every entry of that day.
    const all = (await page('?size=100', admin)).body.data.records;
    const day = all[0].at.slice(0, 10);
    const sameDay = await page(`?from=${day}&to=${day}&size=100`, admin);
    expect(sameDay.body.data.total).toBe(all.filter((r) => r.at.startsWith(day)).length);
  });

  test('bad filters are 400 naming the field; size is capped at 100', async () => {
    const admin = await t.auth(...demo.admin);
    const badTime = await page('?from=yesterday', admin);
    expect(badTime.status).toBe(400);
    expect(badTime.body.msg).toBe(`开始时间：${messages.timeInvalid}`);
    const tooBig = await page('?size=101', admin);
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.msg).toMatch(/^每页条数：/);
  });
});
