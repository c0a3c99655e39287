/**
 * 企业员工 (company-staff): one staff list per company, as packages/contract/src/resources/company.ts
 * describes. Every change to a list locks its company first (lockCompany), so two staff changing one
 * list at once lose nothing and the same phone twice makes one row. A person added is found or made
 * a member by phone and joins at once the groups taking all staff or their department (webhooks told,
 * devices re-synced); one added again after leaving comes back 在职. 离职 and removal end in one
 * transaction everything the company gave (staff-end.ts) and answer what ended.
 *
 * Permissions: enterprise:company:view reads (page, export, departments), :edit adds, edits,
 * imports and marks 离职, :remove deletes.
 */
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createSchema, fieldInvalid, recordSchema, resourcePermissions } from '@cowork/contract';
import { companyCard } from '@cowork/contract/resources/company-card';
import { kreatorUserGroup } from '@cowork/contract/resources/kreator';
import {
  companyFieldLabels,
  companyIdQuery,
  companyMessages,
  companyStaff,
  companyStaffEndpoints,
  companyStaffLeaveBody,
  companyStaffRemoveBody,
  staffEndedAnswer,
  staffEndedSentence,
} from '@cowork/contract/resources/company';
import type { Executor } from '../../db/client.ts';
import {
  companyCards,
  companyStaff as staffTable,
  kreatorUserGroups,
  kreatorUsers,
  type members,
} from '../../db/schema.ts';
import { audit, auditMany } from '../../lib/audit.ts';
import { crudModule, exportRoute, type ValuesOf, type WriteContext } from '../../lib/crud.ts';
import { fieldColumns } from '../../lib/excel-export.ts';
import { excelImportRoutes } from '../../lib/excel-import.ts';
import { badRequest, conflict, envelope, notFound, ok } from '../../lib/http.ts';
import { withIsoTimes } from '../../lib/time.ts';
import { staffActor } from '../../device-link/actors.ts';
import {
  groupPeople,
  recordMembersCreated,
  recordPeopleChanges,
} from '../kreator-user-group/webhook-events.ts';
import { findCompany, lockCompany, memberOfPhone, type Company, type Staff } from './staff.ts';
import { endStaff, staffJoined } from './staff-end.ts';

const permissions = resourcePermissions(companyStaff);
/**
 * Who reads a staff list and its departments: the company's readers, and staff choosing from it
 * for an access group or a meeting card (their screens' edit right).
 */
const readers = [
  permissions.view,
  resourcePermissions(kreatorUserGroup).edit,
  resourcePermissions(companyCard).edit,
];
const labels: Record<string, string> = {
  ...companyFieldLabels,
  ...Object.fromEntries(Object.entries(companyStaff.fields).map(([k, f]) => [k, f.label])),
};
const tags = [companyStaff.key];
const record = recordSchema(companyStaff);

const resync = (request: FastifyRequest, groupIds: readonly number[]) => {
  if (groupIds.length)
    void request.server.devices.accessChanged({ groupIds: [...new Set(groupIds)] }, staffActor(request));
};

/** Groups whose devices a committed change re-syncs, found in its transaction. */
const resyncAfter = new WeakMap<FastifyRequest, number[]>();
const ofStaff = (id: number) => sql`s.id = ${id}`;
/** A staff row's people of groups before an edit, for the webhook difference after it. */
const peopleBefore = new WeakMap<FastifyRequest, Awaited<ReturnType<typeof groupPeople>>>();

/** The groups of a company that take people without choosing them (all staff, departments). */
const listGroups = async (tx: Executor, companyId: number) =>
  (
    await tx
      .select({ id: kreatorUserGroups.id })
      .from(kreatorUserGroups)
      .where(
        and(
          eq(kreatorUserGroups.companyId, companyId),
          inArray(kreatorUserGroups.staffScope, ['all', 'departments']),
        ),
      )
  ).map((g) => g.id);

type StaffValues = ValuesOf<typeof staffTable, (typeof companyStaff)['fields']>;

/** Members a transaction made for new staff: member.created is recorded for them all at once. */
const createdIn = new WeakMap<Executor, (typeof members.$inferSelect)[]>();
const recordCreated = async (tx: Executor) => {
  await recordMembersCreated(tx, createdIn.get(tx) ?? []);
  createdIn.delete(tx);
};

/** The company a transaction locked, so an import's rows do not read it again one by one. */
const lockedIn = new WeakMap<Executor, Company>();

/** Checks a row the list takes (add, import): its company, its member (found or made by phone). */
async function prepareNew(values: StaffValues, { tx }: Pick<WriteContext, 'tx'>) {
  if (values.companyId === undefined)
    throw badRequest(fieldInvalid(companyFieldLabels.companyId, companyMessages.staffRequired));
  let company = lockedIn.get(tx);
  if (company?.id !== values.companyId) {
    company = await lockCompany(tx, values.companyId);
    lockedIn.set(tx, company);
  }
  if (typeof values.phone !== 'string' || typeof values.name !== 'string') return values;
  const memberId = await memberOfPhone(tx, values.phone, values.name, company.name, (member) => {
    createdIn.set(tx, [...(createdIn.get(tx) ?? []), member]);
  });
  return { ...values, memberId, joinedAt: values.joinedAt ?? new Date() };
}

/** The staff rows a call names, their companies locked; 404 when one is missing. */
async function loadStaff(tx: Executor, ids: readonly number[]): Promise<Staff[]> {
  const unique = [...new Set(ids)];
  const first = await tx.select().from(staffTable).where(inArray(staffTable.id, unique));
  if (first.length !== unique.length) throw notFound(companyMessages.staffMissing);
  // Companies in id order, so two calls over the same companies never wait on each other in a ring.
  for (const companyId of [...new Set(first.map((r) => r.companyId))].sort((a, b) => a - b))
    await lockCompany(tx, companyId);
  // Read again under the locks: what another change wrote meanwhile is seen.
  return tx.select().from(staffTable).where(inArray(staffTable.id, unique)).orderBy(asc(staffTable.id));
}

const edits = crudModule({
  resource: { ...companyStaff, actions: ['page', 'edit'] },
  table: staffTable,
  permissions: { view: readers },
  async prepare(values, { tx, request, existing }) {
    await lockCompany(tx, existing!.companyId);
    const joinedAt = values.joinedAt ?? existing!.joinedAt;
    if (existing!.leftAt && joinedAt && joinedAt.getTime() > existing!.leftAt.getTime())
      throw badRequest(fieldInvalid(labels.joinedAt, companyMessages.leftBeforeJoined(existing!.name)));
    peopleBefore.set(request, await groupPeople(tx, ofStaff(existing!.id)));
    return values.joinedAt === null ? { ...values, joinedAt: existing!.joinedAt } : values;
  },
  async afterWrite(row, _values, { tx, request, existing }) {
    if (existing && row.name !== existing.name)
      await tx.update(kreatorUsers).set({ name: row.name }).where(eq(kreatorUsers.staffId, row.id));
    // A new department may take the person into groups of departments, or out of them.
    const before = peopleBefore.get(request) ?? [];
    const after = await groupPeople(tx, ofStaff(row.id));
    await recordPeopleChanges(tx, before, after);
    resyncAfter.set(
      request,
      [...before, ...after].map((p) => p.groupId),
    );
  },
  afterCommit: (_change, request) => resync(request, resyncAfter.get(request) ?? []),
});

export const companyStaffRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(edits);

  app.post(
    companyStaffEndpoints.save,
    {
      config: { permission: permissions.edit, fieldLabels: labels },
      schema: {
        tags,
        summary: '添加企业员工（按手机号找到或新建会员；已离职的重新入职）',
        body: createSchema(companyStaff),
        response: { 200: envelope(record) },
      },
    },
    async (request) => {
      let message = '';
      const { row, groupIds } = await app.db.transaction(async (tx) => {
        const { body } = request;
        const values = await prepareNew({ ...body, joinedAt: body.joinedAt ?? undefined }, { tx });
        await recordCreated(tx);
        const by = request.user?.id ?? null;
        const [found] = await tx
          .select()
          .from(staffTable)
          .where(
            and(
              eq(staffTable.companyId, values.companyId!),
              eq(staffTable.memberId, Number(values.memberId)),
            ),
          );
        if (found?.status === 'active') throw conflict(companyMessages.phoneTaken(found.phone));
        const changes = {
          name: request.body.name,
          department: request.body.department ?? null,
          joinedAt: request.body.joinedAt ?? new Date(),
        };
        const [saved] = found
          ? await tx
              .update(staffTable)
              .set({ ...changes, status: 'active', leftAt: null, updatedAt: new Date(), updatedBy: by })
              .where(eq(staffTable.id, found.id))
              .returning()
          : await tx
              .insert(staffTable)
              .values({
                ...changes,
                companyId: request.body.companyId,
                memberId: Number(values.memberId),
                phone: request.body.phone,
                createdBy: by,
                updatedBy: by,
              })
              .returning();
        await audit(
          request,
          {
            action: found ? 'rejoin' : 'save',
            resource: companyStaff.key,
            resourceId: saved.id,
            before: found ?? null,
            after: saved,
          },
          tx,
        );
        const joined = await staffJoined(tx, [saved.id]);
        message = found
          ? companyMessages.rejoined(saved.name)
          : companyMessages.added(saved.name, joined.length);
        return { row: saved, groupIds: joined };
      });
      resync(request, groupIds);
      return ok(withIsoTimes(row), message);
    },
  );

  app.post(
    companyStaffEndpoints.leave,
    {
      config: { permission: permissions.edit, fieldLabels: labels },
      schema: {
        tags,
        summary: '员工离职：收回企业给的门禁与会议卡（一个事务）',
        body: companyStaffLeaveBody,
        response: { 200: envelope(staffEndedAnswer) },
      },
    },
    async (request) => {
      const leftAt = request.body.leftAt ?? new Date();
      const { rows, ended } = await app.db.transaction(async (tx) => {
        const rows = await loadStaff(tx, request.body.ids);
        const gone = rows.find((r) => r.status !== 'active');
        if (gone) throw badRequest(fieldInvalid(labels.ids, companyMessages.alreadyLeft(gone.name)));
        const early = rows.find((r) => leftAt.getTime() < r.joinedAt.getTime());
        if (early)
          throw badRequest(fieldInvalid(labels.leftAt, companyMessages.leftBeforeJoined(early.name)));
        const ended = await endStaff(tx, request, rows);
        const by = request.user?.id ?? null;
        const after = await tx
          .update(staffTable)
          .set({ status: 'left', leftAt, updatedAt: new Date(), updatedBy: by })
          .where(
            inArray(
              staffTable.id,
              rows.map((r) => r.id),
            ),
          )
          .returning();
        const byId = new Map(rows.map((r) => [r.id, r]));
        await auditMany(
          request,
          after.map((row) => ({
            action: 'leave',
            resource: companyStaff.key,
            resourceId: row.id,
            before: byId.get(row.id),
            after: row,
          })),
          tx,
        );
        return { rows, ended };
      });
      resync(request, ended.groupIds);
      return ok(
        { count: rows.length, groups: ended.groups, cards: ended.cards },
        staffEndedSentence(
          '已离职',
          rows.map((r) => r.name),
          ended,
        ),
      );
    },
  );

  const remove = async (request: FastifyRequest, ids: readonly number[]) => {
    const { rows, ended } = await app.db.transaction(async (tx) => {
      const rows = await loadStaff(tx, ids);
      const ended = await endStaff(tx, request, rows);
      await tx.delete(staffTable).where(
        inArray(
          staffTable.id,
          rows.map((r) => r.id),
        ),
      );
      await auditMany(
        request,
        rows.map((row) => ({
          action: 'remove',
          resource: companyStaff.key,
          resourceId: row.id,
          before: row,
        })),
        tx,
      );
      return { rows, ended };
    });
    resync(request, ended.groupIds);
    return ok(
      { count: rows.length, groups: ended.groups, cards: ended.cards },
      staffEndedSentence(
        '已从员工列表删除',
        rows.map((r) => r.name),
        ended,
      ),
    );
  };
  const removeConfig = () => ({ permission: permissions.remove, fieldLabels: labels });
  app.delete(
    companyStaffEndpoints.remove,
    {
      config: removeConfig(),
      schema: {
        tags,
        summary: '删除企业员工（同时收回门禁与会议卡）',
        body: companyStaffRemoveBody,
        response: { 200: envelope(staffEndedAnswer) },
      },
    },
    (request) => remove(request, request.body.ids),
  );
  app.delete(
    `${companyStaffEndpoints.remove}/:id`,
    {
      config: removeConfig(),
      schema: {
        tags,
        summary: '删除一名企业员工',
        params: z.object({ id: companyStaffRemoveBody.shape.ids.element }),
        response: { 200: envelope(staffEndedAnswer) },
      },
    },
    (request) => remove(request, [request.params.id]),
  );

  await app.register(
    excelImportRoutes({
      resource: companyStaff,
      table: staffTable,
      prepare: prepareNew,
      fields: ['name', 'phone', 'department'],
      example: { name: '张三', phone: '13800138000', department: '行政部' },
      fixedValues: async (request) => {
        const query = companyIdQuery.safeParse(request.query);
        if (!query.success)
          throw badRequest(fieldInvalid(companyFieldLabels.companyId, companyMessages.staffRequired));
        await findCompany(request.server.db, query.data.companyId);
        return { companyId: query.data.companyId };
      },
      beforeRows: async ({ tx, fixed }) => {
        lockedIn.set(tx, await lockCompany(tx, Number(fixed.companyId)));
      },
      afterRows: async (records, { tx }) => {
        await recordCreated(tx);
        await staffJoined(
          tx,
          records.map((r) => r.id),
        );
      },
      // Once for the whole file: each device of the company's all-staff and department groups.
      afterImport: (request) => {
        const { companyId } = companyIdQuery.parse(request.query);
        void listGroups(request.server.db, companyId).then((ids) => resync(request, ids));
      },
    }),
  );

  exportRoute(app, {
    resource: companyStaff,
    path: companyStaffEndpoints.export,
    table: staffTable,
    columns: fieldColumns(companyStaff),
    config: { permission: permissions.view, fieldLabels: labels },
    where: () => undefined,
  });

  app.get(
    companyStaffEndpoints.departments,
    {
      config: { permission: readers, fieldLabels: labels },
      schema: {
        tags,
        summary: '企业的部门（员工与门禁组、会议卡用到的）',
        querystring: companyIdQuery,
        response: { 200: envelope(z.array(z.string())) },
      },
    },
    async (request) => {
      const { companyId } = request.query;
      const named = await app.db
        .selectDistinct({ department: staffTable.department })
        .from(staffTable)
        .where(and(eq(staffTable.companyId, companyId), isNotNull(staffTable.department)));
      const inGroups = await app.db
        .select({ departments: kreatorUserGroups.departments })
        .from(kreatorUserGroups)
        .where(eq(kreatorUserGroups.companyId, companyId));
      const inCards = await app.db
        .select({ departments: companyCards.departments })
        .from(companyCards)
        .where(eq(companyCards.companyId, companyId));
      const all = new Set([
        ...named.map((d) => d.department ?? ''),
        ...[...inGroups, ...inCards].flatMap((g) => g.departments),
      ]);
      all.delete('');
      return ok([...all].sort((a, b) => a.localeCompare(b, 'zh-CN')));
    },
  );
};
