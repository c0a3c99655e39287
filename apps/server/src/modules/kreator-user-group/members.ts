/**
 * A group's chosen people (kreator-user, groups of staffScope `people`): page, `add` (one person by
 * name and phone), `bind` (existing members), `delete` and the Excel import. Each row is a person of
 * the company's staff list, put on it when absent (a phone no member has yet becomes a new member
 * with source 企业导入 and the company's name). A group taking all staff or departments refuses
 * them (its people follow the list). Every change re-syncs the group's devices once committed.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { fieldInvalid, optionLabel } from '@cowork/contract';
import { staffScopeMessages, staffScopeOptions } from '@cowork/contract/resources/company';
import {
  KREATOR_EDIT_PERMISSION,
  kreatorAddedAnswer,
  kreatorBindBody,
  kreatorFieldLabels,
  kreatorGroupQuery,
  kreatorMessages,
  kreatorUser,
  kreatorUserEndpoints,
} from '@cowork/contract/resources/kreator';
import type { Executor } from '../../db/client.ts';
import { kreatorUserGroups, kreatorUsers, members } from '../../db/schema.ts';
import { auditMany } from '../../lib/audit.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { crudModule, type ValuesOf, type WriteContext } from '../../lib/crud.ts';
import { excelImportRoutes } from '../../lib/excel-import.ts';
import { badRequest, envelope, notFound, ok } from '../../lib/http.ts';
import { staffActor } from '../../device-link/actors.ts';
import { memberOfPhone, staffOfMember } from '../company/staff.ts';
import { recordGroupMembers, recordMemberCreated } from './webhook-events.ts';

/**
 * The group a call names, or a 400 naming 门禁组. An API key limited to buildings finds only their
 * groups: another building's answers as one that does not exist, so nothing of it is changed or read.
 */
export async function loadGroup(tx: Executor, id: number, request: FastifyRequest) {
  const [group] = await tx
    .select()
    .from(kreatorUserGroups)
    .where(and(eq(kreatorUserGroups.id, id), inKeyBuildings(request, kreatorUserGroups.buildingId)));
  if (!group) throw badRequest(fieldInvalid(kreatorFieldLabels.groupId, kreatorMessages.groupNotFound));
  return group;
}

/** The group people are chosen for one by one: one of scope `people`, else a 400 saying to change it. */
async function loadPeopleGroup(tx: Executor, id: number, request: FastifyRequest) {
  const group = await loadGroup(tx, id, request);
  if (group.staffScope !== 'people')
    throw badRequest(
      fieldInvalid(
        kreatorFieldLabels.groupId,
        staffScopeMessages.notPeopleGroup(group.name, optionLabel(staffScopeOptions, group.staffScope)),
      ),
    );
  return group;
}

/** The company of a group, as staffOfMember takes it. */
const companyOf = (group: typeof kreatorUserGroups.$inferSelect) => ({
  id: group.companyId,
  name: group.companyName,
});

/** `inKeyBuildings` for rows of a door group (its members, its devices): the group's building. */
export function groupInKeyBuildings(request: FastifyRequest, groupId: PgColumn): SQL | undefined {
  const inKeys = inKeyBuildings(request, kreatorUserGroups.buildingId);
  return (
    inKeys && sql`${groupId} in (select ${kreatorUserGroups.id} from ${kreatorUserGroups} where ${inKeys})`
  );
}

const resync = (request: FastifyRequest, groupIds: number[]) =>
  void request.server.devices.accessChanged({ groupIds: [...new Set(groupIds)] }, staffActor(request));

const options = {
  resource: kreatorUser,
  table: kreatorUsers,
  async prepare(
    values: ValuesOf<typeof kreatorUsers, (typeof kreatorUser)['fields']>,
    { tx, request }: Pick<WriteContext, 'tx' | 'request'>,
  ) {
    // The group comes from the query (fixedValues) on import, from the body on add.
    if (values.groupId === undefined)
      throw badRequest(fieldInvalid(kreatorFieldLabels.groupId, kreatorMessages.groupRequired));
    const group = await loadPeopleGroup(tx, values.groupId, request);
    // An import row whose phone was refused is already reported: there is no member to link.
    if (typeof values.phone !== 'string') return values;
    const name = typeof values.name === 'string' ? values.name : '';
    const memberId = await memberOfPhone(tx, values.phone, name, group.companyName, (member) =>
      recordMemberCreated(tx, member),
    );
    // No staff row for a row missing its name: that row is already refused.
    if (!name) return { ...values, memberId };
    const staff = await staffOfMember(
      tx,
      companyOf(group),
      { memberId, name, phone: values.phone },
      request.user?.id ?? null,
    );
    return { ...values, memberId, staffId: staff.id };
  },
  // Added one by one or imported (a group's members are never edited).
  async afterWrite(
    record: typeof kreatorUsers.$inferSelect,
    _values: unknown,
    { tx }: Pick<WriteContext, 'tx'>,
  ) {
    await recordGroupMembers(tx, 'enterprise.member.added', [record]);
  },
};

/** The group an import goes into: `?groupId=` of the template and import calls. */
function importedGroup(request: FastifyRequest) {
  const query = kreatorGroupQuery.safeParse(request.query);
  if (!query.success)
    throw badRequest(fieldInvalid(kreatorFieldLabels.groupId, kreatorMessages.importGroupRequired));
  return query.data;
}

export const kreatorUserRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(
    crudModule({
      ...options,
      // A key limited to buildings lists and removes only its groups' members.
      keyScope: (request) => groupInKeyBuildings(request, kreatorUsers.groupId),
      afterCommit: ({ after }, request) => resync(request, [after.groupId]),
      beforeRemove: (rows, { tx }) => recordGroupMembers(tx, 'enterprise.member.removed', rows),
      afterRemove: (rows, request) =>
        resync(
          request,
          rows.map((r) => r.groupId),
        ),
    }),
  );
  await app.register(
    excelImportRoutes({
      ...options,
      fields: ['name', 'phone'],
      example: { name: '张三', phone: '13800138000' },
      fixedValues: async (request) => {
        const { groupId } = importedGroup(request);
        await loadPeopleGroup(request.server.db, groupId, request);
        return { groupId };
      },
      afterImport: (request) => resync(request, [importedGroup(request).groupId]),
    }),
  );

  app.post(
    kreatorUserEndpoints.bind,
    {
      config: { permission: KREATOR_EDIT_PERMISSION, fieldLabels: kreatorFieldLabels },
      schema: {
        tags: [kreatorUser.key],
        summary: '把已有会员加入门禁组（已在组内的跳过）',
        body: kreatorBindBody,
        response: { 200: envelope(kreatorAddedAnswer) },
      },
    },
    async (request) => {
      const { groupId, memberIds } = request.body;
      const ids = [...new Set(memberIds)];
      const answer = await app.db.transaction(async (tx) => {
        const group = await loadPeopleGroup(tx, groupId, request);
        const found = await tx
          .select({
            id: members.id,
            phone: members.phone,
            nickname: members.nickname,
            realName: members.realName,
            status: members.status,
          })
          .from(members)
          .where(inArray(members.id, ids));
        if (found.length !== ids.length) throw notFound(kreatorMessages.membersMissing);
        const disabled = found.find((m) => m.status !== 'enabled');
        if (disabled)
          throw badRequest(
            fieldInvalid(kreatorFieldLabels.memberIds, kreatorMessages.memberDisabled(disabled.phone)),
          );
        const by = request.user?.id ?? null;
        // Each joins the company's staff list first when not on it.
        const chosen = [];
        for (const m of found) {
          const name = m.realName || m.nickname || m.phone;
          const staff = await staffOfMember(
            tx,
            companyOf(group),
            { memberId: m.id, name, phone: m.phone },
            by,
          );
          chosen.push({ groupId, staffId: staff.id, memberId: m.id, phone: m.phone, name: staff.name });
        }
        const added = await tx
          .insert(kreatorUsers)
          .values(chosen.map((row) => ({ ...row, createdBy: by, updatedBy: by })))
          .onConflictDoNothing()
          .returning();
        await auditMany(
          request,
          added.map((row) => ({ action: 'bind', resource: kreatorUser.key, resourceId: row.id, after: row })),
          tx,
        );
        await recordGroupMembers(tx, 'enterprise.member.added', added);
        return { added: added.length, skipped: ids.length - added.length };
      });
      resync(request, [groupId]);
      return ok(answer, kreatorMessages.bound(answer.added, answer.skipped));
    },
  );
};
