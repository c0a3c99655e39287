/**
 * Demo data for development and tests (never loaded in production): the menu, three roles and one
 * user for each. main.ts loads it into an empty database and prints demoSignIns.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { Database, Executor } from '../db/client.ts';
import { ssoUserRoles, ssoUsers } from '../db/schema.ts';
import { hashPassword } from '../lib/password.ts';
import { syncMenus } from './menus.ts';
import { ownFileExtension } from '../lib/module-files.ts';
import { isFunction, propertyOf } from '../lib/unknown.ts';
import {
  ensureRole,
  financeRole,
  operationRole,
  roleIdsByCode,
  superAdminRole,
  type RoleDefinition,
} from './roles.ts';

export const demoRoles: RoleDefinition[] = [superAdminRole, operationRole, financeRole];

interface DemoUser {
  username: string;
  password: string;
  nickname: string;
  email: string;
  role: RoleDefinition;
}

const demoUsers: DemoUser[] = [
  {
    username: 'admin',
    password: 'Admin@123',
    nickname: '系统管理员',
    email: 'admin@cowork.example',
    role: superAdminRole,
  },
  {
    username: 'yunying',
    password: 'Yunying@123',
    nickname: '运营专员',
    email: 'yunying@cowork.example',
    role: operationRole,
  },
  {
    username: 'caiwu',
    password: 'Caiwu@123',
    nickname: '财务专员',
    email: 'caiwu@cowork.example',
    role: financeRole,
  },
];

/** The demo sign-ins, printed at start and listed in the README. */
export const demoSignIns = demoUsers.map((u) => ({
  username: u.username,
  password: u.password,
  role: u.role.name,
}));

/** Demo rows of one resource, written inside the seeding transaction. */
export type DemoSeed = (tx: Executor) => Promise<void>;

/**
 * Every module with a demo.ts (default export: a DemoSeed) brings its own demo rows, found like
 * its routes, in folder order; a module whose rows reference another's names that folder in `after`.
 */
async function moduleSeeds(): Promise<DemoSeed[]> {
  const dir = new URL('../modules/', import.meta.url);
  const folders = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory());
  const seeds: { name: string; after: string[]; seed: DemoSeed }[] = [];
  for (const name of folders.map((d) => d.name).sort()) {
    const file = new URL(`${name}/demo.${ownFileExtension}`, dir);
    if (!existsSync(file)) continue;
    const module: unknown = await import(file.href);
    const seed = propertyOf(module, 'default');
    const after = propertyOf(module, 'after');
    if (!isFunction<DemoSeed>(seed)) throw new Error(`modules/${name}/demo.ts has no default export seed`);
    seeds.push({ name, after: Array.isArray(after) ? after.map(String) : [], seed });
  }
  // Dependencies first (a plain topological order; the graph is small and acyclic).
  const ordered: typeof seeds = [];
  const visit = (entry: (typeof seeds)[number], path: string[] = []) => {
    if (ordered.includes(entry)) return;
    if (path.includes(entry.name))
      throw new Error(`demo seeds depend on each other: ${[...path, entry.name].join(' → ')}`);
    for (const dep of entry.after) {
      const target = seeds.find((s) => s.name === dep);
      if (target) visit(target, [...path, entry.name]);
    }
    ordered.push(entry);
  };
  seeds.forEach((entry) => visit(entry));
  return ordered.map((entry) => entry.seed);
}

/** `withRows: false` loads only users, roles and menus (tests that start from empty resources). */
export async function seedDemo(db: Database, options: { withRows?: boolean } = {}) {
  const seeds = options.withRows === false ? [] : await moduleSeeds();
  const hashes = await Promise.all(demoUsers.map((u) => hashPassword(u.password)));
  await db.transaction(async (tx) => {
    await syncMenus(tx);
    const roleIds = new Map<string, number>();
    for (const role of demoRoles) roleIds.set(role.code, await ensureRole(tx, role));
    for (const [index, user] of demoUsers.entries()) {
      const [row] = await tx
        .insert(ssoUsers)
        .values({
          username: user.username,
          nickname: user.nickname,
          email: user.email,
          passwordHash: hashes[index],
        })
        .returning({ id: ssoUsers.id });
      await tx.insert(ssoUserRoles).values({ userId: row.id, roleId: roleIds.get(user.role.code)! });
    }
    for (const seed of seeds) await seed(tx);
  });
}

/** On a database seeded earlier, grants the demo roles the menus and codes of newly built screens. */
export async function refreshDemoRoles(db: Database) {
  const existing = await roleIdsByCode(
    db,
    demoRoles.map((r) => r.code),
  );
  await db.transaction(async (tx) => {
    for (const role of demoRoles) if (existing.has(role.code)) await ensureRole(tx, role);
  });
}

export async function isDatabaseEmpty(db: Database) {
  const rows = await db.select({ id: ssoUsers.id }).from(ssoUsers).limit(1);
  return rows.length === 0;
}
