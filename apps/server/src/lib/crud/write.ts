/**
 * The writes of a resource: `save`, `edit`, `saveOrUpdate` (one body, two shapes) and
 * `edit-published`/`publish`. Each runs in one transaction: authorize, clean rich text, `prepare`,
 * the unique checks, the row, `afterWrite` and the audit entry; `afterCommit` once committed.
 */
import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createSchema, publishBody, resourceMessages, updateSchema, type Fields } from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { audit } from '../audit.ts';
import { badRequest, conflict, envelope, ok } from '../http.ts';
import { recordOf } from '../unknown.ts';
import type { CrudContext } from './context.ts';
import { asRows, type StoredRow, type Values } from './types.ts';

/** Rich text keeps only what the policy allows; a required one left empty by it is a 400. */
async function cleanRichText(fields: Fields, values: Values) {
  const rich = Object.entries(fields).filter(
    ([key, f]) => f.kind === 'richtext' && typeof values[key] === 'string',
  );
  if (rich.length === 0) return;
  // sanitize-html and its HTML parser (about 2 MB of heap) load with the first rich text saved.
  const { hasRichContent, sanitizeRichText } = await import('../sanitize-html.ts');
  for (const [key, f] of rich) {
    const value = String(values[key]);
    const clean = sanitizeRichText(value);
    const required = !f.schema.safeParse(undefined).success;
    if (!hasRichContent(clean)) {
      if (required) throw badRequest(`请填写${f.label}（只含脚本或不允许的标签的内容不会保存）`);
      values[key] = null;
    } else values[key] = clean;
  }
}

/**
 * 409 naming the field when another record already holds a unique value (within the same value
 * of `uniqueWithin`, when declared: an edit moving a record to another scope is checked too).
 */
async function checkUnique<F extends Fields>(
  { resource, table, columns, labels }: CrudContext<F>,
  tx: Executor,
  values: Values,
  existing?: StoredRow,
) {
  for (const [key, f] of Object.entries(resource.fields)) {
    if (!f.unique) continue;
    const scope = f.uniqueWithin;
    if (values[key] === undefined && (!scope || values[scope] === undefined)) continue;
    const value = values[key] !== undefined ? values[key] : existing?.[key];
    if (value === undefined || value === null || value === '') continue;
    const column = columns[key];
    const conditions: SQL[] = [
      typeof value === 'string' ? sql`lower(${column}) = lower(${value})` : eq(column, value),
    ];
    if (scope) {
      const scopeValue = values[scope] !== undefined ? values[scope] : existing?.[scope];
      conditions.push(
        scopeValue === null || scopeValue === undefined
          ? sql`${columns[scope]} is null`
          : eq(columns[scope], scopeValue),
      );
    }
    if (existing) conditions.push(ne(table.id, existing.id));
    const [clash] = await tx
      .select({ id: table.id })
      .from(table)
      .where(and(...conditions))
      .limit(1);
    if (clash) {
      throw conflict(
        scope
          ? resourceMessages.duplicateWithin(resource, f.label, labels[scope] ?? scope)
          : resourceMessages.duplicate(resource, f.label),
      );
    }
  }
}

/** Saves (no `existing`) or edits a record, answering it as `present` shapes it. */
async function write<F extends Fields>(
  app: FastifyInstance,
  crud: CrudContext<F>,
  request: FastifyRequest,
  values: Values,
  existing?: StoredRow,
) {
  const { resource, table, hooks, authorize, expand, present, forAudit } = crud;
  let saved: StoredRow | undefined;
  const answer = await app.db.transaction(async (tx) => {
    const context = { request, tx, existing };
    if (existing) authorize(existing, request, 'edit');
    authorize({ ...existing, ...values }, request, 'edit');
    await cleanRichText(resource.fields, values);
    const prepared = hooks.prepare ? await hooks.prepare(values, context) : values;
    await checkUnique(crud, tx, prepared, existing);
    const by = request.user?.id ?? null;
    [saved] = asRows(
      existing
        ? await tx
            .update(table)
            .set({ ...prepared, updatedAt: new Date(), updatedBy: by })
            .where(eq(table.id, existing.id))
            .returning()
        : await tx
            .insert(table)
            .values({ ...prepared, createdBy: by, updatedBy: by })
            .returning(),
    );
    await hooks.afterWrite?.(saved!, prepared, context);
    const [answer] = await expand([saved!], tx);
    await audit(
      request,
      {
        action: existing ? 'edit' : 'save',
        resource: resource.key,
        resourceId: saved!.id,
        before: existing ? forAudit(existing) : null,
        after: forAudit(answer),
      },
      tx,
    );
    return present(answer, request);
  });
  hooks.afterCommit?.({ before: existing, after: saved! }, request);
  return answer;
}

/** The fields an edit sends: one left out (undefined) stays as stored. */
const sentOnly = (values: Values) =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));

export function writeRoutes<F extends Fields>(app: FastifyInstance, crud: CrudContext<F>) {
  const { resource, table, hooks, has, paths, permissions, labels, tags, record } = crud;
  const { load, authorize, expand, present } = crud;
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Fresh objects for each route, as Fastify keeps what it is given.
  const config = () => ({ permission: permissions.edit, fieldLabels: labels });
  const response = () => ({ 200: envelope(record) });

  if (has('save')) {
    r.post(
      paths.save,
      {
        config: config(),
        schema: {
          tags,
          summary: `新建${resource.label}`,
          body: createSchema(resource),
          response: response(),
        },
      },
      async (request) => ok(await write(app, crud, request, recordOf(request.body))),
    );
  }

  if (has('edit')) {
    r.put(
      paths.edit,
      {
        config: config(),
        schema: {
          tags,
          summary: `修改${resource.label}`,
          body: updateSchema(resource),
          response: response(),
        },
      },
      async (request) => {
        const { id, ...values } = recordOf(request.body);
        return ok(await write(app, crud, request, sentOnly(values), await load(app.db, Number(id), request)));
      },
    );
  }

  const editPublished = async (request: FastifyRequest<{ Body: z.infer<typeof publishBody> }>) => {
    const { id, published } = request.body;
    return ok(
      await app.db.transaction(async (tx) => {
        const existing = await load(tx, id, request);
        authorize(existing, request, 'edit');
        await hooks.beforePublish?.(existing, published, { request, tx, existing });
        const changes: Values = { published, updatedAt: new Date(), updatedBy: request.user?.id ?? null };
        const [saved] = asRows(await tx.update(table).set(changes).where(eq(table.id, id)).returning());
        await audit(
          request,
          {
            action: published ? 'publish' : 'unpublish',
            resource: resource.key,
            resourceId: id,
            before: { published: existing.published },
            after: { published },
          },
          tx,
        );
        return present((await expand([saved], tx))[0], request);
      }),
    );
  };
  // `publish` is the same action under the API's second name ("edit-published/publish").
  for (const [action, url] of [
    ['editPublished', paths.editPublished],
    ['publish', paths.publish],
  ] as const) {
    if (!has(action)) continue;
    r.put(
      url,
      {
        config: config(),
        schema: { tags, summary: `发布或下架${resource.label}`, body: publishBody, response: response() },
      },
      editPublished,
    );
  }

  if (has('saveOrUpdate')) {
    const create = createSchema(resource);
    const update = updateSchema(resource);
    // One body, two shapes: with an id it is checked as an edit, without one as a save.
    const body = z.looseObject({ id: z.unknown().optional() }).transform((value, ctx) => {
      const result = (value.id === undefined || value.id === null ? create : update).safeParse(value);
      if (result.success) {
        const { id, ...values } = recordOf(result.data);
        return { id: typeof id === 'number' ? id : undefined, values };
      }
      for (const issue of result.error.issues) {
        ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      }
      return z.NEVER;
    });
    r.post(
      paths.saveOrUpdate,
      {
        config: config(),
        schema: { tags, summary: `新建或修改${resource.label}（带编号为修改）`, body, response: response() },
      },
      async (request) => {
        const { id, values } = request.body;
        if (id === undefined) return ok(await write(app, crud, request, values));
        return ok(await write(app, crud, request, sentOnly(values), await load(app.db, id, request)));
      },
    );
  }
}
