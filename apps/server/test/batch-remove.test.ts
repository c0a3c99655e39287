/** A refused batch delete says which of the chosen records is in use, and removes none of them. */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths } from '@cowork/contract';
import { source } from '@cowork/contract/resources/source';
import { role } from '@cowork/contract/resources/sso-role';
import { csrSources, members, ssoRoles } from '../src/db/schema.ts';
import { buildTestApp, callApi, createRole, demo, engine, type TestApp } from './helper.ts';

describe(`batch delete names the record in use (${engine})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp({ demoRows: false });
    admin = await t.auth(...demo.admin);
  });
  afterAll(() => t.close());

  test('a record another one points to (a source members came from)', async () => {
    const [used, free] = await t.db
      .insert(csrSources)
      .values([
        { name: '地推活动', code: 'ground' },
        { name: '公众号', code: 'wechat-mp' },
      ])
      .returning({ id: csrSources.id });
    await t.db.insert(members).values({ phone: '13900000001', nickname: '会员甲', sourceId: used!.id });
    const batch = await callApi(t, admin, 'DELETE', resourcePaths(source).remove, {
      ids: [free!.id, used!.id],
    });
    expect(batch.status).toBe(409);
    expect(batch.body.msg).toMatch(/^来源「地推活动」仍被会员 1 位（13900000001）使用/);
    const left = await t.db
      .select({ id: csrSources.id })
      .from(csrSources)
      .where(inArray(csrSources.id, [used!.id, free!.id]));
    expect(left).toHaveLength(2);
  });

  test('a record its own rule keeps (a role staff still hold)', async () => {
    const freeRole = await createRole(t.db, { code: 'temp', name: '临时角色', permissions: [] });
    const [operation] = await t.db
      .select({ id: ssoRoles.id })
      .from(ssoRoles)
      .where(eq(ssoRoles.code, 'operation'));
    const batch = await callApi(t, admin, 'DELETE', resourcePaths(role).remove, {
      ids: [freeRole, operation!.id],
    });
    expect(batch.status).toBe(409);
    expect(batch.body.msg).toMatch(/^角色「运营」仍有 \d+ 个用户在使用/);
    expect(await t.db.select().from(ssoRoles).where(eq(ssoRoles.id, freeRole))).toHaveLength(1);
  });
});
