/**
 * The schemas a resource declaration gives its endpoints: the `save` and `edit` bodies, the `page`
 * query and the record `page` and `detail` answer, each built from the fields, so the server checks
 * and the OpenAPI document describe exactly what the declaration says.
 */
import { z } from 'zod';
import { MAX_PAGE_SIZE } from './constants.ts';
import type { Field, Fields } from './fields.ts';
import { pageParams } from './paging.ts';
import type { ResourceDef } from './resource.ts';
import { idOf, INT32_MAX, numeric } from './validators.ts';

type SchemaOf<F extends Fields> = { [K in keyof F]: F[K]['schema'] };
export type CreateOf<F extends Fields> = z.output<z.ZodObject<SchemaOf<F>>>;

const isWritable = (f: Field) => f.form !== false;

/**
 * The schemas of the fields `keep` accepts, keyed as declared. Typed as if every field were kept,
 * so a module reads each value of a body by its declared type (one it never receives is undefined).
 */
function schemasOf<F extends Fields>(fields: F, keep: (f: Field) => boolean) {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, f]) => keep(f))
      .map(([k, f]) => [k, f.schema]),
  ) as SchemaOf<F>;
}

/** Body of `save`: every writable field. */
export function createSchema<F extends Fields>(def: ResourceDef<F>) {
  return z.object(schemasOf(def.fields, isWritable));
}

const idSchema = idOf();

/** A field's schema without its default, so an edit that leaves the field out leaves it unchanged. */
const withoutDefault = (schema: z.ZodType) => (schema instanceof z.ZodDefault ? schema.unwrap() : schema);

/** Body of `edit`: the id plus any writable fields to change. */
export function updateSchema<F extends Fields>(def: ResourceDef<F>) {
  const shape = Object.fromEntries(
    Object.entries(def.fields)
      .filter(([, f]) => isWritable(f) && !f.createOnly)
      .map(([k, f]) => [k, z.optional(withoutDefault(f.schema))]),
  );
  return z.object({ id: idSchema, ...shape });
}

/** The query filter of a searched field: what its search form sends, checked by kind. */
function filterOf(f: Field): z.ZodType {
  if (f.kind === 'boolean') {
    return z.enum(['true', 'false'], { error: `${f.label}必须是 true 或 false` }).optional();
  }
  if (f.kind === 'reference' || f.kind === 'integer') {
    return numeric(
      z
        .number({ error: `${f.label}必须是数字` })
        .int(`${f.label}必须是整数`)
        .min(-INT32_MAX, `${f.label}超出范围`)
        .max(INT32_MAX, `${f.label}超出范围`)
        .optional(),
    );
  }
  if (f.kind === 'enum') {
    return z
      .enum(
        f.options.map((o) => o.value),
        { error: `${f.label}不是可选的值` },
      )
      .optional();
  }
  return z.string().max(100).optional();
}

/** Query of `page`: paging, sorting on the sortable fields, and each search field. */
export function pageQuerySchema<F extends Fields>(def: ResourceDef<F>) {
  const sortable = [
    'id',
    'createdAt',
    'updatedAt',
    ...Object.keys(def.fields).filter((k) => def.fields[k].sortable),
  ];
  const filters: Record<string, z.ZodType> = {};
  for (const [key, f] of Object.entries(def.fields)) {
    if (f.search === 'range') {
      filters[`${key}From`] = z.string().optional();
      filters[`${key}To`] = z.string().optional();
    } else if (f.search) {
      filters[key] = filterOf(f);
    }
  }
  // The filters are read by name (the server's searchConditions, a module's queryText): their
  // schemas check them, and the type names the paging and sorting keys every page has.
  return z.object({
    ...pageParams,
    sortField: z.enum(sortable, { error: '该字段不支持排序' }).optional(),
    sortOrder: z.enum(['ascend', 'descend'], { error: '排序方向必须是 ascend 或 descend' }).optional(),
    ...filters,
  });
}

/** Body of `edit-published`. */
export const publishBody = z.object({
  id: idSchema,
  published: z.boolean({ error: '发布状态必须是是或否' }),
});

/** Body of a batch `remove`. */
export const removeBody = z.object({
  ids: z.array(idSchema, { error: '请选择要删除的记录' }).min(1, '请选择要删除的记录').max(MAX_PAGE_SIZE),
});

/** An option of a `list` endpoint. */
export const listOption = z.object({
  value: z.number().int(),
  label: z.string(),
  published: z.boolean().optional(),
});
export type ListOption = z.infer<typeof listOption>;

/** The value a record carries for a field kind in answers (what the server sends back). */
const outputOf = (f: Field): z.ZodType => {
  switch (f.kind) {
    case 'integer':
    case 'decimal':
    case 'money':
    case 'percent':
    case 'reference':
      return z.number().nullable();
    case 'boolean':
      return z.boolean();
    case 'references':
      return z.array(z.number());
    case 'images':
    case 'tags':
      return z.array(z.string());
    default:
      return z.string().nullable();
  }
};

/** A record as `page` and `detail` answer it. */
export function recordSchema<F extends Fields>(def: ResourceDef<F>) {
  const shape = Object.fromEntries(
    Object.entries(def.fields)
      .filter(([, f]) => !f.writeOnly)
      .map(([k, f]) => [k, outputOf(f)]),
  );
  return z.object({ id: z.number().int(), ...shape, createdAt: z.string(), updatedAt: z.string() });
}
