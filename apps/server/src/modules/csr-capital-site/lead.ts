/**
 * A lead resource of one kind (定制场地 or 物业合作): the declaration's CRUD, plus
 * - the city checked against the area data and answered by name (cityName);
 * - source and owner checked to exist (400 naming the field);
 * - detail: the lead with its follow-up records, newest first, each with who wrote it;
 * - save-record: a follow-up by the caller, moving a 新线索 to 跟进中, audited;
 * - remove: the lead's records go with it in the same transaction, each removal audited.
 * Shared with csr-capital-website (the other kind), like orderModule is for orders.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  fieldInvalid,
  labelsOf,
  recordSchema,
  resourceMessages,
  resourcePaths,
  resourcePermissions,
  idOf,
} from '@cowork/contract';
import {
  leadRecord,
  saveRecordBody,
  saveRecordLabels,
  saveRecordPath,
  type LeadResource,
} from '@cowork/contract/resources/lead';
import type { Executor } from '../../db/client.ts';
import {
  csrCapitalRecords,
  csrCapitalSites,
  csrCapitalWebsites,
  csrSources,
  ssoUsers,
} from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { crudModule } from '../../lib/crud.ts';
import { badRequest, envelope, notFound, ok } from '../../lib/http.ts';
import { toIso, toIsoOrNull, withIsoTimes } from '../../lib/time.ts';
import { currentUser } from '../../plugins/auth.ts';
import { cityNameOf } from '../area/areas.ts';

/** The two kinds of lead keep the same columns, each kind its own extra ones. */
type LeadTable = typeof csrCapitalSites | typeof csrCapitalWebsites;

/** 400 naming the field unless the id is a row of the table. */
async function checkExists(
  tx: Executor,
  table: typeof csrSources | typeof ssoUsers,
  id: number | null | undefined,
  label: string,
) {
  if (id === undefined || id === null) return;
  const [row] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id));
  if (!row) throw badRequest(fieldInvalid(label, `所选${label}不存在或已被删除，请刷新后重新选择`));
}

export function leadModule(resource: LeadResource, table: LeadTable): FastifyPluginAsyncZod {
  const paths = resourcePaths(resource);
  const permissions = resourcePermissions(resource);
  const labels = labelsOf(resource);
  const kind = resource.kind;
  const recordsOf = eq(csrCapitalRecords.leadKind, kind);
  const detailAnswer = recordSchema(resource).extend({ records: z.array(leadRecord) });

  const crud = crudModule({
    // detail is answered below, with the records.
    resource: { ...resource, actions: resource.actions.filter((a) => a !== 'detail') },
    table,
    async prepare(values, { tx }) {
      if (values.cityCode && !cityNameOf(values.cityCode))
        throw badRequest(fieldInvalid('城市', '所选城市不存在，请重新选择'));
      await checkExists(tx, csrSources, values.sourceId, '来源');
      await checkExists(tx, ssoUsers, values.ownerId, '负责人');
      return values;
    },
    present: (row) => ({ ...row, cityName: cityNameOf(row.cityCode) }),
    async beforeRemove(rows, { request, tx }) {
      const ids = rows.map((row) => row.id);
      const removed = await tx
        .delete(csrCapitalRecords)
        .where(and(recordsOf, inArray(csrCapitalRecords.leadId, ids)))
        .returning();
      for (const record of removed) {
        await audit(
          request,
          { action: 'remove', resource: `${resource.key}-record`, resourceId: record.id, before: record },
          tx,
        );
      }
    },
  });

  async function load(db: Executor, id: number) {
    const [row] = await db.select().from(table).where(eq(table.id, id));
    if (!row) throw notFound(resourceMessages.notFound(resource));
    return row;
  }

  return async (app) => {
    await app.register(crud);
    const tags = [resource.key];

    app.get(
      `${paths.detail}/:id`,
      {
        config: { permission: permissions.view, fieldLabels: labels },
        schema: {
          tags,
          summary: `${resource.label}详情（含跟进记录，最新在前）`,
          params: z.object({
            id: idOf(),
          }),
          response: { 200: envelope(detailAnswer) },
        },
      },
      async (request) => {
        const row = await load(app.db, request.params.id);
        const records = await app.db
          .select({
            id: csrCapitalRecords.id,
            content: csrCapitalRecords.content,
            nextFollowAt: csrCapitalRecords.nextFollowAt,
            by: ssoUsers.nickname,
            at: csrCapitalRecords.createdAt,
          })
          .from(csrCapitalRecords)
          .leftJoin(ssoUsers, eq(ssoUsers.id, csrCapitalRecords.createdBy))
          .where(and(recordsOf, eq(csrCapitalRecords.leadId, row.id)))
          .orderBy(desc(csrCapitalRecords.createdAt), desc(csrCapitalRecords.id));
        const out = withIsoTimes({ ...row, cityName: cityNameOf(row.cityCode) });
        return ok({
          ...out,
          records: records.map((r) => ({ ...r, nextFollowAt: toIsoOrNull(r.nextFollowAt), at: toIso(r.at) })),
        });
      },
    );

    app.post(
      saveRecordPath(resource),
      {
        config: { permission: permissions.edit, fieldLabels: saveRecordLabels },
        schema: {
          tags,
          summary: `添加${resource.label}跟进记录（新线索转为跟进中）`,
          body: saveRecordBody,
          response: { 200: envelope(leadRecord) },
        },
      },
      async (request) => {
        const caller = currentUser(request);
        const { id, content, nextFollowAt } = request.body;
        const saved = await app.db.transaction(async (tx) => {
          const lead = await load(tx, id);
          const [record] = await tx
            .insert(csrCapitalRecords)
            .values({
              leadKind: kind,
              leadId: id,
              content,
              nextFollowAt: nextFollowAt ? new Date(nextFollowAt) : null,
              createdBy: caller.id,
            })
            .returning();
          // A first follow-up takes the lead out of 新线索; won or lost leads keep their status.
          if (lead.status === 'new') {
            await tx
              .update(table)
              .set({ status: 'following', updatedAt: new Date(), updatedBy: caller.id })
              .where(eq(table.id, id));
          }
          await audit(
            request,
            {
              action: 'save-record',
              resource: resource.key,
              resourceId: id,
              before: { status: lead.status },
              after: {
                status: lead.status === 'new' ? 'following' : lead.status,
                record,
              },
            },
            tx,
          );
          return record;
        });
        return ok(
          {
            id: saved.id,
            content: saved.content,
            nextFollowAt: toIsoOrNull(saved.nextFollowAt),
            by: caller.nickname ?? null,
            at: toIso(saved.createdAt),
          },
          '跟进记录已保存',
        );
      },
    );
  };
}
