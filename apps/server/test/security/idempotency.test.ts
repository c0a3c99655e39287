/**
 * Point 17 (server half): a double click on 保存 must not create two records. Creates sent with the
 * same Idempotency-Key answer the first result once, whether they arrive together (also on two
 * instances sharing the database), later, or with another body (refused).
 */
import { randomUUID } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, messages, resourcePaths } from '@cowork/contract';
import { csrCapitalWebsite } from '@cowork/contract/resources/csr-capital-website';
import { source } from '@cowork/contract/resources/source';
import { buildApp, type App } from '../../src/app.ts';
import { csrCapitalWebsites, csrSources, idempotencyKeys } from '../../src/db/schema.ts';
import { buildTestApp, demo, userIdOf, type TestApp } from '../helper.ts';

let t: TestApp;
/** A second instance on the same database, as behind a load balancer. */
let other: App;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
  other = await buildApp({ config: t.config, db: t.db, logger: false });
  headers = await t.auth(...demo.admin);
});

afterAll(async () => {
  await other?.close();
  await t?.close();
});

const websitePaths = resourcePaths(csrCapitalWebsite);
const sourcePaths = resourcePaths(source);

function post(app: App, url: string, key: string | undefined, payload: object) {
  return app.inject({
    method: 'POST',
    url,
    headers: { ...headers, ...(key === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: key }) },
    payload,
  });
}

const leadsOf = async (companyName: string) =>
  (
    await t.db
      .select({ n: count() })
      .from(csrCapitalWebsites)
      .where(eq(csrCapitalWebsites.companyName, companyName))
  )[0].n;

describe('物业合作: a double click on 保存', () => {
  const key = randomUUID();
  const lead = { contactName: '赵强', contactPhone: '13700137000', companyName: '幂等置业有限公司' };
  let first: string;

  test('two identical creates at once write one lead and both answer the same', async () => {
    const [a, b] = await Promise.all([
      post(t.app, websitePaths.save, key, lead),
      post(t.app, websitePaths.save, key, lead),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().data.companyName).toBe(lead.companyName);
    expect(b.body).toBe(a.body);
    expect(await leadsOf(lead.companyName)).toBe(1);
    first = a.body;
  });

  test('a repeat later answers the first result and writes nothing', async () => {
    const again = await post(t.app, websitePaths.save, key, lead);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await leadsOf(lead.companyName)).toBe(1);
  });

  test('the same key with another body is refused and writes nothing', async () => {
    const other = await post(t.app, websitePaths.save, key, { ...lead, companyName: '另一家物业' });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ code: 422, msg: messages.idempotencyKeyReused, data: null });
    expect(await leadsOf('另一家物业')).toBe(0);
  });

  test('another user with the same key gets their own create', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: websitePaths.save,
      headers: { ...(await t.auth(...demo.yunying)), [IDEMPOTENCY_KEY_HEADER]: key },
      payload: lead,
    });
    expect(res.statusCode).toBe(200);
    expect(await leadsOf(lead.companyName)).toBe(2);
  });
});

describe('来源配置: a double click on 保存', () => {
  test('one success, not a success and a 名称已存在', async () => {
    const key = randomUUID();
    const body = { name: '双击来源', code: 'double_click' };
    const answers = await Promise.all([
      post(t.app, sourcePaths.save, key, body),
      post(t.app, sourcePaths.save, key, body),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(answers[1].body).toBe(answers[0].body);
    const [row] = await t.db.select({ n: count() }).from(csrSources).where(eq(csrSources.name, body.name));
    expect(row.n).toBe(1);
  });

  test('two instances on one database: one create, one answer', async () => {
    const key = randomUUID();
    const body = { name: '双实例来源', code: 'two_instances' };
    const [a, b] = await Promise.all([
      post(t.app, sourcePaths.save, key, body),
      post(other, sourcePaths.save, key, body),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.body).toBe(a.body);
    const [row] = await t.db.select({ n: count() }).from(csrSources).where(eq(csrSources.name, body.name));
    expect(row.n).toBe(1);
  });

  test('a failed create is not kept: the corrected request with the same key runs', async () => {
    const key = randomUUID();
    const taken = await post(t.app, sourcePaths.save, key, { name: '双击来源', code: 'taken_name' });
    expect(taken.statusCode).toBe(409);
    const fixed = await post(t.app, sourcePaths.save, key, { name: '改正来源', code: 'taken_name' });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json().data.name).toBe('改正来源');
  });

  test('without the header, nothing changes: a second create is a second request', async () => {
    const body = { name: '无键来源', code: 'no_key' };
    expect((await post(t.app, sourcePaths.save, undefined, body)).statusCode).toBe(200);
    expect((await post(t.app, sourcePaths.save, undefined, body)).statusCode).toBe(409);
  });
});

describe('the key itself', () => {
  test('a malformed key is a 400 naming the header, and nothing is written', async () => {
    for (const key of ['short', 'x'.repeat(129), '带中文的幂等键值abc', 'has space 12345']) {
      const res = await post(t.app, sourcePaths.save, key, { name: `坏键${key.length}`, code: 'bad_key' });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(messages.idempotencyKeyInvalid);
    }
    const [row] = await t.db.select({ n: count() }).from(csrSources).where(eq(csrSources.code, 'bad_key'));
    expect(row.n).toBe(0);
  });

  test('a claim in flight with another body is refused at once; an abandoned one is taken over', async () => {
    const userId = await userIdOf(t.db, demo.admin[0]);
    const [running, abandoned] = [randomUUID(), randomUUID()];
    await t.db.insert(idempotencyKeys).values([
      { userId, key: running, fingerprint: 'another request, still running' },
      // Claimed three minutes ago by a process that died before answering.
      {
        userId,
        key: abandoned,
        fingerprint: 'a crashed request',
        createdAt: sql`now() - interval '3 minutes'`,
      },
    ]);
    const refused = await post(t.app, sourcePaths.save, running, { name: '运行中来源', code: 'in_flight' });
    expect(refused.statusCode).toBe(422);
    const taken = await post(t.app, sourcePaths.save, abandoned, { name: '接管来源', code: 'taken_over' });
    expect(taken.statusCode).toBe(200);
    const again = await post(t.app, sourcePaths.save, abandoned, { name: '接管来源', code: 'taken_over' });
    expect(again.body).toBe(taken.body);
  });

  test('kept 24 hours: then the key is free again and old rows are removed', async () => {
    const key = randomUUID();
    const body = { name: '过期来源', code: 'expired_key' };
    expect((await post(t.app, sourcePaths.save, key, body)).statusCode).toBe(200);
    await t.db.update(idempotencyKeys).set({ createdAt: sql`now() - interval '25 hours'` });
    const renamed = await post(t.app, sourcePaths.save, key, {
      ...body,
      name: '过期后来源',
      code: 'after_expiry',
    });
    expect(renamed.statusCode).toBe(200);
    // A fresh instance sweeps at its first keyed request: only the row just claimed is left.
    const fresh = await buildApp({ config: t.config, db: t.db, logger: false });
    try {
      const res = await post(fresh, sourcePaths.save, randomUUID(), { name: '清理来源', code: 'sweep' });
      expect(res.statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
    const rows = await t.db
      .select({ n: count() })
      .from(idempotencyKeys)
      .where(sql`${idempotencyKeys.createdAt} < now() - interval '24 hours'`);
    expect(rows[0].n).toBe(0);
  });
});
