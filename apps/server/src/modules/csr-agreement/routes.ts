/**
 * 隐私协议: versions of each agreement type. Publishing a version (by edit-published, or by saving
 * it published) unpublishes the other versions of its type in the same transaction, so members
 * always see exactly one; a unique partial index backs this up. A published version cannot be
 * removed: it is what members are agreeing to.
 */
import { agreement } from '@cowork/contract/resources/agreement';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../../db/client.ts';
import { csrAgreements } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { crudModule, valueAfterWrite } from '../../lib/crud.ts';

type AgreementType = (typeof csrAgreements.$inferSelect)['type'];

/** Unpublishes the published versions of `type` other than `keepId`, each with an audit entry. */
async function unpublishOthers(request: FastifyRequest, tx: Executor, type: AgreementType, keepId?: number) {
  const others = await tx
    .update(csrAgreements)
    .set({ published: false, updatedAt: new Date(), updatedBy: request.user?.id ?? null })
    .where(
      and(
        eq(csrAgreements.type, type),
        eq(csrAgreements.published, true),
        keepId === undefined ? undefined : ne(csrAgreements.id, keepId),
      ),
    )
    .returning({ id: csrAgreements.id });
  for (const { id } of others) {
    await audit(
      request,
      {
        action: 'unpublish',
        resource: agreement.key,
        resourceId: id,
        before: { published: true },
        after: { published: false },
      },
      tx,
    );
  }
}

export const csrAgreementRoutes = crudModule({
  resource: agreement,
  table: csrAgreements,
  prepare: async (values, { request, tx, existing }) => {
    if (valueAfterWrite('published', values, existing)) {
      const type = valueAfterWrite('type', values, existing);
      await unpublishOthers(request, tx, type, existing?.id);
    }
    return values;
  },
  beforePublish: async (record, published, { request, tx }) => {
    if (published) await unpublishOthers(request, tx, record.type, record.id);
  },
  inUse: async (id, tx) => {
    const [row] = await tx
      .select({ published: csrAgreements.published, version: csrAgreements.version })
      .from(csrAgreements)
      .where(eq(csrAgreements.id, id));
    return row?.published ? `协议版本 ${row.version} 正在发布中，不能删除：请先下架，再删除` : undefined;
  },
});

export default csrAgreementRoutes;
