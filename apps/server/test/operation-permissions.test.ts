/**
 * Money moves have their own codes: 前台 may take a payment without refunding it, a clerk may issue
 * invoices without voiding them; the role screen lists the codes as action menus under their page,
 * and roles that could make a move before it had its own code still can.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { messages } from '@cowork/contract';
import { invoice, invoicePaths } from '@cowork/contract/resources/invoice';
import { orderPaths, userCardOrder } from '@cowork/contract/resources/order';
import { invoices, members, orders, ssoMenus, ssoRoleMenus, ssoRoles } from '../src/db/schema.ts';
import { syncMenus } from '../src/seed/menus.ts';
import { insertOrder } from './order-fixture.ts';
import { buildTestApp, callApi, createRole, createUser, engine, type TestApp } from './helper.ts';

describe(`operation permissions (${engine})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const staffWith = async (code: string, permissions: string[]) => {
    await createRole(t.db, { code, name: code, permissions });
    await createUser(t.db, { username: code, password: 'Staff@1234', roleCodes: [code] });
    return t.auth(code, 'Staff@1234');
  };
  /** A fresh user-card order of the demo's first member in this status. */
  const orderOf = async (status: 'pending' | 'paid') => {
    const [member] = await t.db.select({ id: members.id, phone: members.phone }).from(members).limit(1);
    return insertOrder(t.db, { kind: 'user-card', memberId: member!.id, memberPhone: member!.phone, status });
  };

  test('前台 takes a payment but may not refund or cancel it', async () => {
    const reception = await staffWith('reception', ['order:member:view', 'order:member:pay']);
    const paths = orderPaths(userCardOrder);
    const pending = await orderOf('pending');
    const paid = await callApi(t, reception, 'PUT', paths.pay, { id: pending.id });
    expect(paid.status, paid.raw).toBe(200);
    expect(paid.body.data.status).toBe('paid');
    for (const [path, id] of [
      [paths.refund, pending.id],
      [paths.cancel, (await orderOf('pending')).id],
    ] as const) {
      const refused = await callApi(t, reception, 'PUT', path, { id, reason: '测试' });
      expect(refused.status).toBe(403);
      expect(refused.body.msg).toBe(messages.noPermission);
    }
    const [after] = await t.db
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, pending.id));
    expect(after!.status).toBe('paid');
    // Edit alone no longer moves money either.
    const editor = await staffWith('order-editor', ['order:member:view', 'order:member:edit']);
    expect((await callApi(t, editor, 'PUT', paths.refund, { id: pending.id, reason: '测试' })).status).toBe(
      403,
    );
  });

  test('开票 issues and rejects requests; voiding an issued invoice needs 作废', async () => {
    const clerk = await staffWith('invoice-clerk', ['invoice:jingying:view', 'invoice:jingying:issue']);
    const paths = invoicePaths(invoice);
    const [pending] = await t.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.kind, 'invoice'), eq(invoices.status, 'pending')))
      .limit(1);
    const rejected = await callApi(t, clerk, 'PUT', paths.reject, { id: pending!.id, reason: '抬头有误' });
    expect(rejected.status, rejected.raw).toBe(200);
    expect(rejected.body.data.status).toBe('rejected');

    const [issued] = await t.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.kind, 'invoice'), eq(invoices.status, 'issued')))
      .limit(1);
    const refused = await callApi(t, clerk, 'PUT', paths.reject, { id: issued!.id, reason: '开错了' });
    expect(refused.status).toBe(403);
    const [still] = await t.db
      .select({ status: invoices.status })
      .from(invoices)
      .where(eq(invoices.id, issued!.id));
    expect(still!.status).toBe('issued');

    const voider = await staffWith('invoice-voider', ['invoice:jingying:view', 'invoice:jingying:void']);
    const voided = await callApi(t, voider, 'PUT', paths.reject, { id: issued!.id, reason: '开错了' });
    expect(voided.status, voided.raw).toBe(200);
    expect(voided.body.data.status).toBe('voided');
  });

  test('the role screen lists each move under its page, and the demo roles that edit hold them', async () => {
    const names = await t.db
      .select({ name: ssoMenus.name, permission: ssoMenus.permission })
      .from(ssoMenus)
      .where(
        inArray(ssoMenus.permission, ['order:member:pay', 'order:member:refund', 'invoice:jingying:void']),
      );
    expect(names.map((m) => m.name).sort()).toEqual(['作废', '确认支付', '退款'].sort());
    const [finance] = await t.db.select().from(ssoRoles).where(eq(ssoRoles.code, 'finance'));
    expect(finance!.permissions).toEqual(
      expect.arrayContaining(['order:member:refund', 'invoice:jingying:void']),
    );
  });

  test('a role that could edit orders before the moves had codes keeps making them after the upgrade', async () => {
    // As on a database from before: no operation menus, a role with the edit code only.
    await t.db
      .delete(ssoMenus)
      .where(inArray(ssoMenus.permission, ['order:meeting:pay', 'order:meeting:refund']));
    const roleId = await createRole(t.db, {
      code: 'legacy',
      name: '旧角色',
      permissions: ['order:meeting:view', 'order:meeting:edit'],
    });
    await syncMenus(t.db);
    const [legacy] = await t.db.select().from(ssoRoles).where(eq(ssoRoles.id, roleId));
    expect(legacy!.permissions).toEqual(
      expect.arrayContaining(['order:meeting:pay', 'order:meeting:refund']),
    );
    const menus = await t.db
      .select({ permission: ssoMenus.permission })
      .from(ssoRoleMenus)
      .innerJoin(ssoMenus, eq(ssoMenus.id, ssoRoleMenus.menuId))
      .where(eq(ssoRoleMenus.roleId, roleId));
    expect(menus.map((m) => m.permission).sort()).toEqual(['order:meeting:pay', 'order:meeting:refund']);
  });
});
