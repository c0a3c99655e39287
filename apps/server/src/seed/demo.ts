/**
 * Demo data for development and tests (never loaded in production): the menu, three roles and one
 * user for each. main.ts loads it into an empty database and prints demoSignIns.
 */
import type { Database } from '../db/client.ts';
import { ssoUserRoles, ssoUsers } from '../db/schema.ts';
import { hashPassword } from '../lib/password.ts';
import { syncMenus } from './menus.ts';
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

export async function seedDemo(db: Database) {
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
