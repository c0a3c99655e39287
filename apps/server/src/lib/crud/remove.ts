/**
 * `DELETE {base}/remove/:id` and `DELETE {base}/remove` (a batch): all the rows or none, each checked
 * by `authorize` and `inUse`, deleted in a savepoint of its own and audited.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { removeBody, resourceMessages, type Fields } from '@cowork/contract';
import { sqlState } from '../../db/client.ts';
import { audit } from '../audit.ts';
import { conflict, envelope, notFound, ok } from '../http.ts';
import type { CrudContext } from './context.ts';
import { asRows, type StoredRow } from './types.ts';

export function removeRoutes<F extends Fields>(app: FastifyInstance, crud: CrudContext<F>) {
  const {
    resource,
    table,
    hooks,
    titleKey,
    paths,
    permissions,
    labels,
    tags,
    idParams,
    authorize,
    forAudit,
  } = crud;
  const remove = async (request: FastifyRequest, ids: number[]) => {
    let removedRows: StoredRow[] = [];
    const answer = await app.db.transaction(async (tx) => {
      // Another building's record (an API key limited to buildings) is missing, as an unknown id is.
      const rows = asRows(
        await tx
          .select()
          .from(table)
          .where(and(inArray(table.id, ids), crud.scope(request))),
      );
      if (rows.length !== new Set(ids).size) throw notFound(resourceMessages.notFound(resource));
      for (const row of rows) authorize(row, request, 'remove');
      // In a batch, every refusal names the record it is about: 该角色… becomes 角色「运营」…, and a
      // reason that does not name it already gets the name in front.
      const titleOf = (row: StoredRow) => String(row[titleKey] ?? row.title ?? `#${String(row.id)}`);
      const named = (row: StoredRow) => `${resource.label}「${titleOf(row)}」`;
      const inBatch = (row: StoredRow, reason: string) =>
        reason.startsWith(`该${resource.label}`)
          ? `${named(row)}${reason.slice(1 + resource.label.length)}`
          : reason.includes(titleOf(row))
            ? reason
            : `${named(row)}：${reason}`;
      for (const row of rows) {
        const reason = await hooks.inUse?.(row.id, tx, request);
        if (reason) throw conflict(ids.length > 1 ? inBatch(row, reason) : reason);
      }
      await hooks.beforeRemove?.(rows, { request, tx });
      // One by one, each in a savepoint: a row other records still point to is named in the 409.
      for (const row of rows) {
        try {
          await tx.transaction((savepoint) => savepoint.delete(table).where(eq(table.id, row.id)));
        } catch (error) {
          if (sqlState(error) === '23503')
            throw conflict(`${named(row)}仍被其他记录使用，无法删除；请先解除这些引用后再删除`);
          throw error;
        }
      }
      for (const row of rows) {
        await audit(
          request,
          { action: 'remove', resource: resource.key, resourceId: row.id, before: forAudit(row) },
          tx,
        );
      }
      removedRows = rows;
      return ok({ removed: rows.length }, resourceMessages.removed(rows.length));
    });
    hooks.afterRemove?.(removedRows, request);
    return answer;
  };
  const removed = envelope(z.object({ removed: z.number().int() }));
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.delete(
    `${paths.remove}/:id`,
    {
      config: { permission: permissions.remove, fieldLabels: labels },
      schema: { tags, summary: `删除${resource.label}`, params: idParams, response: { 200: removed } },
    },
    async (request) => remove(request, [request.params.id]),
  );
  r.delete(
    paths.remove,
    {
      config: { permission: permissions.remove, fieldLabels: labels },
      schema: {
        tags,
        summary: `批量删除${resource.label}`,
        body: removeBody,
        response: { 200: removed },
      },
    },
    async (request) => remove(request, request.body.ids),
  );
}
