/**
 * 企业门禁组: the groups (declaration's CRUD under `create`), their chosen people (members.ts) and
 * their devices (devices.ts), as packages/contract/src/resources/kreator.ts describes. A group
 * belongs to a company and takes from its staff list by `staffScope`; its `companyName` is the
 * company's. A group's edit (validity, status, scope) re-syncs its devices once committed; an
 * expired group drops out of the devices' access at its validTo through the devices' next expiry
 * (device-link/access-sync.ts), which survives restarts. Leaving `people` (or the company) drops
 * the chosen people; webhooks hear who joined or left the group through the change.
 *
 * Permissions: enterprise:accessControl:view reads, :edit writes, :remove takes members and devices out.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { fieldInvalid } from '@cowork/contract';
import { staffScopeMessages } from '@cowork/contract/resources/company';
import { kreatorMessages, kreatorUser, kreatorUserGroup } from '@cowork/contract/resources/kreator';
import { rowsOf } from '../../db/client.ts';
import { buildings, companies, kreatorUserGroups, kreatorUsers } from '../../db/schema.ts';
import { auditMany } from '../../lib/audit.ts';
import { crudModule, valueAfterWrite } from '../../lib/crud.ts';
import { badRequest } from '../../lib/http.ts';
import { groupTakesStaff } from '../../lib/staff-scope.ts';
import { kreatorDeviceRoutes } from './devices.ts';
import { kreatorUserRoutes } from './members.ts';
import { groupPeople, recordPeopleChanges, type GroupMember } from './webhook-events.ts';
import { staffActor } from '../../device-link/actors.ts';

const labels = kreatorUserGroup.fields;

/** A group's people before an edit, read in `prepare` for the webhook difference in `afterWrite`. */
const peopleBefore = new WeakMap<FastifyRequest, GroupMember[]>();
const ofGroup = (id: number) => sql`g.id = ${id}`;

const groups = crudModule({
  resource: kreatorUserGroup,
  table: kreatorUserGroups,
  buildingColumn: kreatorUserGroups.buildingId,
  async prepare(values, { tx, existing, request }) {
    const from = valueAfterWrite('validFrom', values, existing);
    const to = valueAfterWrite('validTo', values, existing);
    if (to.getTime() <= from.getTime())
      throw badRequest(fieldInvalid(labels.validTo.label, kreatorMessages.validRange));
    if (values.buildingId !== undefined) {
      const [building] = await tx
        .select({ id: buildings.id })
        .from(buildings)
        .where(eq(buildings.id, values.buildingId));
      if (!building) throw badRequest(fieldInvalid(labels.buildingId.label, kreatorMessages.buildingMissing));
    }
    if (values.companyId !== undefined) {
      const [company] = await tx
        .select({ name: companies.name })
        .from(companies)
        .where(eq(companies.id, values.companyId));
      if (!company) throw badRequest(fieldInvalid(labels.companyId.label, staffScopeMessages.companyMissing));
      values = { ...values, companyName: company.name };
    }
    if (values.departments !== undefined)
      values = { ...values, departments: [...new Set(values.departments)] };
    if (
      valueAfterWrite('staffScope', values, existing) === 'departments' &&
      valueAfterWrite('departments', values, existing).length === 0
    )
      throw badRequest(fieldInvalid(labels.departments.label, staffScopeMessages.departmentsRequired));
    if (existing) peopleBefore.set(request, await groupPeople(tx, ofGroup(existing.id)));
    return values;
  },
  async afterWrite(record, _values, { tx, request, existing }) {
    // Chosen people belong to a `people` group of the company: leaving either drops them.
    if (existing && (record.staffScope !== 'people' || record.companyId !== existing.companyId)) {
      const dropped = await tx.delete(kreatorUsers).where(eq(kreatorUsers.groupId, record.id)).returning();
      await auditMany(
        request,
        dropped.map((row) => ({
          action: 'remove',
          resource: kreatorUser.key,
          resourceId: row.id,
          before: row,
        })),
        tx,
      );
    }
    await recordPeopleChanges(tx, peopleBefore.get(request) ?? [], await groupPeople(tx, ofGroup(record.id)));
  },
  async expand(rows, db) {
    if (rows.length === 0) return rows;
    const ids = sql.join(
      rows.map((r) => sql`${r.id}::int`),
      sql`, `,
    );
    const counts = await rowsOf<{
      id: number | string;
      member_count: number | string;
      device_count: number | string;
    }>(
      db,
      sql`
      select g.id,
        (select count(*) from company_staff s where ${groupTakesStaff('g', 's')})::int as member_count,
        (select count(*) from kreator_devices d where d.group_id = g.id)::int as device_count
      from kreator_user_groups g where g.id in (${ids})`,
    );
    const byId = new Map(counts.map((c) => [Number(c.id), c]));
    return rows.map((row) => ({
      ...row,
      memberCount: Number(byId.get(row.id)?.member_count ?? 0),
      deviceCount: Number(byId.get(row.id)?.device_count ?? 0),
    }));
  },
  // Validity and status decide whether the group opens anything: its devices are re-synced at once.
  afterCommit({ after }, request) {
    void request.server.devices.accessChanged({ groupIds: [after.id] }, staffActor(request));
  },
});

export const kreatorRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(groups);
  await app.register(kreatorUserRoutes);
  await app.register(kreatorDeviceRoutes);
};

export default kreatorRoutes;
