/**
 * Every field a resource's save or edit body carries has its column in the table the module stores
 * it in through crudModule: drizzle drops a value whose key names no column without a word, so a
 * field declared in the contract but missing from the table would be accepted and lost. The
 * resources and tables are those the app registers (crudModule is watched while the app starts), so
 * a new resource is covered without editing this test. Fields the body carries but the module keeps
 * elsewhere are listed below with where they go; fields outside the form (`form: false`) are values
 * the server computes or joins for display and are not written.
 */
import { getTableColumns } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Fields, ResourceDef } from '@cowork/contract';
import type { CrudOptions, ResourceTable } from '../src/lib/crud.ts';
import type { TestApp } from './helper.ts';

const registered = vi.hoisted(
  () => [] as { resource: Pick<ResourceDef, 'key' | 'fields'>; table: ResourceTable }[],
);

vi.mock('../src/lib/crud.ts', async (importOriginal) => {
  const crud = await importOriginal<typeof import('../src/lib/crud.ts')>();
  return {
    ...crud,
    crudModule<F extends Fields, T extends ResourceTable>(options: CrudOptions<F, T>) {
      registered.push({ resource: options.resource, table: options.table });
      return crud.crudModule(options);
    },
  };
});

/** Body fields a module stores outside its table, by resource key: field → where it goes. */
const keptOutsideTable: Record<string, Record<string, string>> = {
  'sso-role': { menuIds: 'sso_role_menus, written by afterWrite' },
  'sso-user': {
    roleIds: 'sso_user_roles, written by afterWrite',
    password: 'password_hash, hashed by prepare',
  },
};

let t: TestApp;
beforeAll(async () => {
  // A fresh module graph, so the mock above wraps crudModule even when an earlier file of this
  // worker already loaded the app (vitest without isolation).
  vi.resetModules();
  const { buildTestApp } = await import('./helper.ts');
  t = await buildTestApp({ seed: false });
  // Modules register (and build their crudModule routes) when the app gets ready.
  await t.app.ready();
});
afterAll(() => t?.close());

describe('contract fields and table columns', () => {
  test('every field a body carries has its column, or is listed as kept outside the table', () => {
    expect(registered.length).toBeGreaterThan(30);
    const missing = registered.flatMap(({ resource, table }) => {
      const columns = getTableColumns(table);
      const outside = keptOutsideTable[resource.key] ?? {};
      return Object.entries(resource.fields)
        .filter(([key, field]) => field.form !== false && !(key in columns) && !(key in outside))
        .map(([key]) => `${resource.key}.${key}`);
    });
    expect(missing).toEqual([]);
  });

  test('the fields listed as kept outside are body fields without a column, of registered resources', () => {
    const stale = Object.entries(keptOutsideTable).flatMap(([key, fields]) => {
      const found = registered.find(({ resource }) => resource.key === key);
      if (!found) return [`${key} (no such resource)`];
      const columns = getTableColumns(found.table);
      return Object.keys(fields)
        .filter((field) => !(field in found.resource.fields) || field in columns)
        .map((field) => `${key}.${field}`);
    });
    expect(stale).toEqual([]);
  });
});
