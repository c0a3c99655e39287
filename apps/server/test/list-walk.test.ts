/**
 * The list walk: every `GET …/list` the app registers (read from its route catalogue, so lists
 * added later are covered without editing this file) answers the administrator without a server
 * error, in the envelope. A list whose label column the table lacks answered 500 on every call.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { teamCardActivity } from '@cowork/contract/resources/team-card-activity';
import { teamCardActivities } from '../src/db/schema.ts';
import { crudModule } from '../src/lib/crud.ts';
import { buildTestApp, demo, type TestApp } from './helper.ts';

let t: TestApp;
let admin: { authorization: string };

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.auth(...demo.admin);
});
afterAll(() => t?.close());

/** A concrete address for a route pattern: path parameters become 1, wildcards x. */
const concrete = (url: string) => url.replace(/:[^/]+/g, '1').replace(/\*/g, 'x');

test('every list endpoint answers the administrator in the envelope, never a 5xx', async () => {
  const lists = t.app.routeCatalogue.filter(
    (r) => r.method === 'GET' && r.url.startsWith('/api/') && /\/list(\/|$)/.test(r.url),
  );
  // The walk reaches the lists of the declared resources, the one that failed among them.
  expect(lists.map((r) => r.url)).toEqual(
    expect.arrayContaining([
      '/api/card/admin/v1/team-card-activity/list',
      '/api/card/admin/v1/team-card/list',
      '/api/user/admin/v1/csr-source/list',
    ]),
  );
  const failures: string[] = [];
  for (const route of lists) {
    const url = concrete(route.url);
    const res = await t.app.inject({ method: 'GET', url, headers: admin });
    const body = res.json<{ code: number; msg: unknown; data: unknown }>();
    const enveloped = body.code === res.statusCode && typeof body.msg === 'string' && body.data !== undefined;
    // A select's options each carry a label it can show.
    const labelled =
      !Array.isArray(body.data) ||
      (body.data as Record<string, unknown>[]).every((o) => !('label' in o) || typeof o.label === 'string');
    if (res.statusCode >= 500 || !enveloped || !labelled)
      failures.push(`${url}: ${res.statusCode} ${res.body}`);
  }
  expect(failures).toEqual([]);
});

test('the failing list names its activities by title', async () => {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/card/admin/v1/team-card-activity/list',
    headers: admin,
  });
  expect(res.statusCode).toBe(200);
  const options = res.json<{ data: { value: number; label: string }[] }>().data;
  expect(options.length).toBeGreaterThan(0);
  const page = await t.app.inject({
    method: 'GET',
    url: '/api/card/admin/v1/team-card-activity/page?size=100',
    headers: admin,
  });
  const titles = page.json<{ data: { records: { id: number; title: string }[] } }>().data.records;
  expect(options.map((o) => [o.value, o.label]).sort()).toEqual(titles.map((r) => [r.id, r.title]).sort());
});

test('a resource with a list and no label column in its table is refused when declared', () => {
  const { titleField: _, ...unnamed } = teamCardActivity;
  expect(() => crudModule({ resource: unnamed, table: teamCardActivities })).toThrow(
    /team-card-activity: its table has no column "name"/,
  );
  // Without a list there is nothing to label.
  expect(() =>
    crudModule({ resource: { ...unnamed, actions: ['page', 'detail'] }, table: teamCardActivities }),
  ).not.toThrow();
});
