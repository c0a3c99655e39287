/**
 * 企业门禁组: the groups (declaration's CRUD under `create`), their members (members.ts) and their
 * devices (devices.ts), as packages/contract/src/resources/kreator.ts describes. A group's edit
 * (validity, status) re-syncs its devices once committed; an expired group drops out of the devices'
 * access at its validTo through the devices' next expiry (device-link/access-sync.ts), which survives restarts.
 *
 * Permissions: enterprise:accessControl:view reads, :edit writes, :remove takes members and devices out.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fieldInvalid } from '@cowork/contract';
import { kreatorMessages, kreatorUserGroup } from '@cowork/contract/resources/kreator';
import { rowsOf } from '../../db/client.ts';
import { buildings, kreatorUserGroups } from '../../db/schema.ts';
import { crudModule, valueAfterWrite } from '../../lib/crud.ts';
import { badRequest } from '../../lib/http.ts';
import { kreatorDeviceRoutes } from './devices.ts';
import { kreatorUserRoutes } from './members.ts';
import { staffActor } from '../../device-link/actors.ts';

const labels = kreatorUserGroup.fields;

const groups = crudModule({
  resource: kreatorUserGroup,
  table: kreatorUserGroups,
  buildingColumn: kreatorUserGroups.buildingId,
  async prepare(values, { tx, existing }) {
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
    return values;
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
        (select count(*) from kreator_users u where u.group_id = g.id)::int as member_count,
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
