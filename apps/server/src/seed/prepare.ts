/**
 * What main.ts does to the data before serving: count days in BUSINESS_TIME_ZONE, bring the menu up
 * to the built screens, then load demo data into an empty database, or in production make sure an
 * administrator exists.
 */
import { and, arrayContains, desc, eq, sql } from 'drizzle-orm';
import { ALL_PERMISSIONS } from '@cowork/contract';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { auditLogs, devices, ssoRoles, ssoUserRoles, ssoUsers } from '../db/schema.ts';
import { hashPassword } from '../lib/password.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import { alignBusinessCalendar } from './business-calendar.ts';
import { isDatabaseEmpty, refreshDemoRoles, seedDemo } from './demo.ts';
import { syncMenus } from './menus.ts';
import { ensureRole, roleIdsByCode, superAdminRole } from './roles.ts';

export class StartupError extends Error {
  override name = 'StartupError';
}

export const ADMIN_USERNAME = 'admin';

/** Whether an enabled user holds a role granting `*`. */
export async function administratorExists(db: Database) {
  const rows = await db
    .select({ id: ssoUsers.id })
    .from(ssoUsers)
    .innerJoin(ssoUserRoles, eq(ssoUserRoles.userId, ssoUsers.id))
    .innerJoin(ssoRoles, eq(ssoRoles.id, ssoUserRoles.roleId))
    .where(and(eq(ssoUsers.status, 'enabled'), arrayContains(ssoRoles.permissions, [ALL_PERMISSIONS])))
    .limit(1);
  return rows.length > 0;
}

/** Creates (or restores) the `admin` account with the 超级管理员 role and the given password. */
export async function createAdministrator(db: Database, password: string) {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const roleId = await ensureRole(tx, superAdminRole);
    const [existing] = await tx
      .select({ id: ssoUsers.id })
      .from(ssoUsers)
      .where(sql`lower(${ssoUsers.username}) = ${ADMIN_USERNAME}`);
    let userId: number;
    if (existing) {
      userId = existing.id;
      await tx
        .update(ssoUsers)
        .set({ passwordHash, status: 'enabled', updatedAt: new Date() })
        .where(eq(ssoUsers.id, userId));
    } else {
      const [row] = await tx
        .insert(ssoUsers)
        .values({ username: ADMIN_USERNAME, nickname: '系统管理员', passwordHash })
        .returning({ id: ssoUsers.id });
      userId = row.id;
    }
    await tx.insert(ssoUserRoles).values({ userId, roleId }).onConflictDoNothing();
    await tx.insert(auditLogs).values({
      action: 'create-administrator',
      resource: 'sso-user',
      resourceId: String(userId),
      after: { username: ADMIN_USERNAME, role: superAdminRole.code },
    });
  });
}

export interface PrepareResult {
  /** Demo data was loaded just now. */
  seededDemo: boolean;
  /** The administrator was created from ADMIN_PASSWORD just now. */
  createdAdministrator: boolean;
  /** BUSINESS_TIME_ZONE changed since the last start: the order day totals were counted again. */
  recountedDays: boolean;
  /** ADMIN_PASSWORD was set but not used: an administrator already exists. */
  adminPasswordIgnored: boolean;
}

/**
 * Refuses to serve with a SECRET_KEY other than the one the stored device secrets were encrypted
 * with: every device command through this instance would fail (behind a load balancer, one in N).
 * The newest device's secret tells (AES-GCM fails on a wrong key); no device yet, nothing to check.
 */
export async function checkSecretKey(db: Database, box: SecretBox) {
  const [row] = await db.select({ secret: devices.secret }).from(devices).orderBy(desc(devices.id)).limit(1);
  if (!row) return;
  try {
    box.open(row.secret);
  } catch {
    throw new StartupError(
      'SECRET_KEY does not match the key the stored device secrets were encrypted with. Set SECRET_KEY to that key (the one the other instances use, or the previous start used; without SECRET_KEY it is read from DATA_DIR/secret.key).',
    );
  }
}

export async function prepareData(db: Database, config: Config): Promise<PrepareResult> {
  const recountedDays = await alignBusinessCalendar(db, config.timeZone);
  await syncMenus(db);
  // ADMIN_PASSWORD only ever creates the first administrator; main.ts says when it was not used.
  const adminPasswordIgnored = config.adminPassword !== undefined;
  if (config.nodeEnv === 'production') {
    let createdAdministrator = false;
    if (!(await administratorExists(db))) {
      if (!config.adminPassword) {
        throw new StartupError(
          'No administrator exists. Set ADMIN_PASSWORD (8 to 64 characters mixing letters, digits or symbols) to create the `admin` account (超级管理员).',
        );
      }
      await createAdministrator(db, config.adminPassword);
      createdAdministrator = true;
    }
    // The 超级管理员 role also lists the menus of newly built screens.
    if ((await roleIdsByCode(db, [superAdminRole.code])).size > 0) await ensureRole(db, superAdminRole);
    return {
      seededDemo: false,
      createdAdministrator,
      recountedDays,
      adminPasswordIgnored: adminPasswordIgnored && !createdAdministrator,
    };
  }
  if (await isDatabaseEmpty(db)) {
    await seedDemo(db);
    return { seededDemo: true, createdAdministrator: false, recountedDays, adminPasswordIgnored };
  }
  await refreshDemoRoles(db);
  return { seededDemo: false, createdAdministrator: false, recountedDays, adminPasswordIgnored };
}
