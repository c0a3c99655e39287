/**
 * The checks every resource built on lib/crud.ts must pass, run on a fresh app: create, read,
 * search, sort, edit, publish, remove (one and batch), each validation error (400 naming the field,
 * nothing written), permission denial (403), not found (404) and duplicate unique values (409).
 * A resource's test file calls `resourceSuite` with sample bodies and adds only what is special.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { labelsOf, resourcePaths, type Fields, type Page, type ResourceDef } from '@cowork/contract';
import { buildTestApp, createUser, demo, type TestApp } from './helper.ts';

type Body = Record<string, unknown>;
type Answer<T = unknown> = { status: number; body: { code: number; msg: string; data: T } };
type Row = Body & { id: number };

export interface SuiteOptions<F extends Fields> {
  resource: ResourceDef<F>;
  /** Two valid create bodies whose unique fields differ. */
  samples: [Body, Body];
  /** A valid change for `edit`. */
  change: Body;
  /** Bad create bodies, each with the field whose Chinese label the 400 must name. */
  invalid: { body: Body; field: string }[];
  /** A search that finds the first sample and not the second. */
  search?: Record<string, string>;
  /** Prepares data a sample needs (referenced records); runs once before the suite. */
  setup?: (t: TestApp) => Promise<void>;
  /**
   * A query every page call carries, so rows the suite did not make (demo staff, the suite's own
   * permission-less user) stay out of its counts, e.g. `{username: 'suite'}`.
   */
  scope?: Record<string, string>;
  /**
   * For a resource without `save` (records another app creates): writes one sample straight to the
   * database and returns its id. Invalid bodies are then checked against `edit`.
   */
  insert?: (t: TestApp, body: Body) => Promise<number>;
}

export function resourceSuite<F extends Fields>(options: SuiteOptions<F>) {
  const { resource, samples, change, invalid } = options;
  const paths = resourcePaths(resource);
  const labels = labelsOf(resource);
  const has = (a: ResourceDef['actions'][number]) => resource.actions.includes(a);
  let t: TestApp;
  let admin: Record<string, string>;

  const call = async <T = unknown>(method: string, url: string, payload?: Body): Promise<Answer<T>> => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: admin,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const scoped = (query: Record<string, string> = {}) =>
    new URLSearchParams({ ...options.scope, ...query }).toString();
  const count = async () =>
    (await call<Page<Row>>('GET', `${paths.page}?${scoped({ size: '100' })}`)).body.data.total;

  describe(`${resource.label} (${resource.key}) through the resource mechanism`, () => {
    beforeAll(async () => {
      t = await buildTestApp({ demoRows: false });
      admin = await t.auth(...demo.admin);
      await options.setup?.(t);
    });
    afterAll(() => t?.close());

    const created: Row[] = [];

    test(
      has('save') ? 'save creates records and answers them' : 'inserted records are answered',
      async () => {
        for (const sample of samples) {
          if (!has('save')) {
            const id = await options.insert!(t, sample);
            created.push((await call<Row>('GET', `${paths.detail}/${id}`)).body.data);
            continue;
          }
          const res = await call<Row>('POST', paths.save, sample);
          expect(res.status, res.body.msg).toBe(200);
          expect(res.body.data).toMatchObject({
            id: expect.any(Number),
            createdAt: expect.stringMatching(/\+08:00$/),
          });
          created.push(res.body.data);
        }
      },
    );

    test('each invalid body is a 400 naming the field, and nothing is written', async () => {
      const before = await count();
      for (const { body, field } of invalid) {
        const res = has('save')
          ? await call('POST', paths.save, body)
          : await call('PUT', paths.edit, { id: created[0].id, ...body });
        expect(res.status, `${JSON.stringify(body)} → ${res.body.msg}`).toBe(400);
        expect(res.body.msg).toContain(labels[field]);
        expect(res.body.msg).toMatch(/\p{Script=Han}/u);
      }
      expect(await count()).toBe(before);
      if (!has('save') && has('detail')) {
        expect((await call('GET', `${paths.detail}/${created[0].id}`)).body.data).toEqual(created[0]);
      }
    });

    test('page lists, pages and sorts; detail reads one', async () => {
      const page = await call<Page<Row>>(
        'GET',
        `${paths.page}?${scoped({ current: '1', size: '1', sortField: 'id', sortOrder: 'ascend' })}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.data).toMatchObject({ total: 2, current: 1, size: 1 });
      expect(page.body.data.records[0].id).toBe(created[0].id);
      if (has('detail')) {
        const detail = await call<Row>('GET', `${paths.detail}/${created[1].id}`);
        expect(detail.body.data).toEqual(created[1]);
      }
      expect((await call('GET', `${paths.page}?size=101`)).status).toBe(400);
      expect((await call('GET', `${paths.page}?sortField=passwordHash`)).status).toBe(400);
    });

    if (options.search) {
      test('search filters the page', async () => {
        const query = scoped(options.search);
        const page = await call<Page<Row>>('GET', `${paths.page}?${query}`);
        expect(page.body.data.records.map((r) => r.id)).toEqual([created[0].id]);
      });
    }

    const uniqueFields = Object.entries(resource.fields).filter(
      ([, f]) => f.unique && f.form !== false && (has('save') || !f.createOnly),
    );
    for (const [key, f] of uniqueFields) {
      test(`a duplicate ${key} is a 409 naming ${f.label}`, async () => {
        // Saving the first sample again clashes; editing the second to hold this one value names the field.
        if (has('save')) {
          expect((await call('POST', paths.save, samples[0])).status).toBe(409);
        }
        if (f.createOnly) return;
        // A value unique within a scope (uniqueWithin) clashes only in the first sample's scope.
        const scope = f.uniqueWithin ? { [f.uniqueWithin]: samples[0][f.uniqueWithin] } : {};
        const edit = await call('PUT', paths.edit, { id: created[1].id, [key]: samples[0][key], ...scope });
        expect(edit.status).toBe(409);
        expect(edit.body.msg).toContain(f.label);
      });
    }

    test('edit changes only what is sent; unknown ids are 404', async () => {
      const res = await call<Row>('PUT', paths.edit, { id: created[0].id, ...change });
      expect(res.status, res.body.msg).toBe(200);
      expect(res.body.data).toMatchObject(change);
      expect((await call('PUT', paths.edit, { id: 999_999, ...change })).status).toBe(404);
      if (has('detail')) expect((await call('GET', `${paths.detail}/999999`)).status).toBe(404);
    });

    if (has('saveOrUpdate')) {
      test('saveOrUpdate edits with an id and creates without one, with the same checks', async () => {
        const edit = await call<Row>('POST', paths.saveOrUpdate, { id: created[0].id, ...change });
        expect(edit.status, edit.body.msg).toBe(200);
        expect(edit.body.data).toMatchObject({ id: created[0].id, ...change });
        expect((await call('POST', paths.saveOrUpdate, { id: 999_999, ...change })).status).toBe(404);
        const before = await count();
        for (const { body, field } of invalid) {
          const res = await call('POST', paths.saveOrUpdate, body);
          expect(res.status, `${JSON.stringify(body)} → ${res.body.msg}`).toBe(400);
          expect(res.body.msg).toContain(labels[field]);
        }
        expect(await count()).toBe(before);
        if (!has('remove')) return;
        // Without an id it creates: the second sample again, once its first record is gone.
        expect((await call('DELETE', `${paths.remove}/${created[1].id}`)).status).toBe(200);
        const save = await call<Row>('POST', paths.saveOrUpdate, samples[1]);
        expect(save.status, save.body.msg).toBe(200);
        expect(save.body.data.id).not.toBe(created[1].id);
        created[1] = save.body.data;
        expect(await count()).toBe(before);
      });
    }

    if (has('publish')) {
      test('publish is edit-published under its second path', async () => {
        const on = await call<Row>('PUT', paths.publish, { id: created[1].id, published: true });
        expect(on.status, on.body.msg).toBe(200);
        expect(on.body.data.published).toBe(true);
        const off = await call<Row>('PUT', paths.publish, { id: created[1].id, published: false });
        expect(off.body.data.published).toBe(false);
        expect((await call('PUT', paths.publish, { id: 999_999, published: true })).status).toBe(404);
        expect((await call('PUT', paths.publish, { id: created[1].id })).status).toBe(400);
      });
    }

    if (has('editPublished')) {
      test('edit-published toggles and the list endpoint follows', async () => {
        const on = await call<Row>('PUT', paths.editPublished, { id: created[0].id, published: true });
        expect(on.body.data.published).toBe(true);
        if (has('list')) {
          const published = await call<{ value: number }[]>('GET', `${paths.list}?published=true`);
          expect(published.body.data.map((o) => o.value)).toContain(created[0].id);
        }
        const off = await call<Row>('PUT', paths.editPublished, { id: created[0].id, published: false });
        expect(off.body.data.published).toBe(false);
        expect((await call('PUT', paths.editPublished, { id: created[0].id, published: 'yes' })).status).toBe(
          400,
        );
      });
    }

    test('a user without the permission gets 403 and changes nothing', async () => {
      await createUser(t.db, { username: `noperm-${resource.key}`, password: 'Pass@1234' });
      const headers = await t.auth(`noperm-${resource.key}`, 'Pass@1234');
      const before = await count();
      const routes = [
        ['GET', paths.page],
        ...(has('save') ? [['POST', paths.save, samples[0]] as const] : []),
        ['PUT', paths.edit, { id: created[0].id, ...change }],
        ...(has('remove') ? [['DELETE', `${paths.remove}/${created[0].id}`] as const] : []),
        ...(has('publish') ? [['PUT', paths.publish, { id: created[0].id, published: true }] as const] : []),
        ...(has('saveOrUpdate')
          ? [
              ['POST', paths.saveOrUpdate, samples[0]] as const,
              ['POST', paths.saveOrUpdate, { id: created[0].id, ...change }] as const,
            ]
          : []),
      ] as const;
      for (const [method, url, payload] of routes) {
        const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().msg).toBe('您没有权限进行此操作');
      }
      expect(await count()).toBe(before);
    });

    test('every write is in the audit log', async () => {
      const log = await call<Page<{ action: string; resourceId: string }>>(
        'GET',
        `/api/user/admin/v1/audit-log/page?resource=${resource.key}&size=100`,
      );
      const actions = log.body.data.records.map((r) => r.action);
      expect(actions).toEqual(expect.arrayContaining(has('save') ? ['save', 'edit'] : ['edit']));
    });

    if (has('remove')) {
      test('remove deletes one or a batch; unknown ids are 404 and remove nothing', async () => {
        expect((await call('DELETE', paths.remove, { ids: [created[0].id, 999_999] })).status).toBe(404);
        expect(await count()).toBe(2);
        expect((await call('DELETE', `${paths.remove}/${created[0].id}`)).status).toBe(200);
        const again = await call('POST', paths.save, samples[0]);
        expect(again.status).toBe(200);
        const batch = await call<{ removed: number }>('DELETE', paths.remove, {
          ids: [created[1].id, (again.body.data as Row).id],
        });
        expect(batch.body.data.removed).toBe(2);
        expect(await count()).toBe(0);
        expect((await call('DELETE', paths.remove, { ids: [] })).status).toBe(400);
      });
    }
  });
}
