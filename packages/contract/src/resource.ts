/**
 * A resource declared once: its fields (Chinese label, zod schema, how it is searched, listed and
 * edited), its endpoints and its permission codes. The server builds page/detail/save/edit/remove/
 * edit-published/list from it (apps/server/src/lib/crud.ts); the web builds the search form, table
 * and edit form from it (apps/web/src/components/resource/ResourcePage.tsx). See docs/resources.md.
 *
 * @example
 *   export const source = defineResource({
 *     key: 'csr-source', base: `${prefixes.user}/csr-source`, label: '来源', permission: 'system:source',
 *     fields: { name: field.text('名称', { search: 'like' }), published: field.published() },
 *   });
 */
import { z } from 'zod';
import { MAX_PAGE_SIZE } from './constants.ts';
import { messages } from './messages.ts';
import { ownFileUrl } from './urls.ts';
import { blankAsNull, emailSchema, idOf, INT32_MAX, numeric, phoneSchema } from './validators.ts';

/** How a field is shown and entered. */
type FieldKind =
  | 'text'
  | 'textarea'
  | 'richtext'
  | 'integer'
  | 'decimal'
  | 'money'
  | 'percent'
  | 'boolean'
  | 'enum'
  | 'date'
  | 'datetime'
  | 'time'
  | 'image'
  | 'images'
  | 'phone'
  | 'email'
  | 'password'
  | 'reference'
  | 'references'
  | 'tags';

export interface Option {
  value: string;
  label: string;
  /** The colour of its tag (an antd preset colour), for statuses a list shows as tags. */
  color?: string;
}

export interface Field<S extends z.ZodType = z.ZodType> {
  label: string;
  kind: FieldKind;
  /** The value in save/edit bodies, required-ness included. */
  schema: S;
  /** Enumeration values with their Chinese labels (kind enum). */
  options?: readonly Option[];
  /** Search-form filter: exact match, substring (case-insensitive), first characters (phones, numbers: 1391200, UC20), or a from–to range. */
  search?: 'eq' | 'like' | 'prefix' | 'range';
  /** A table column (default true, except for long text, rich text and galleries). */
  list?: boolean;
  /** In the create/edit form (default true). False for values the server computes. */
  form?: boolean;
  sortable?: boolean;
  /** Values must be unique (case-insensitive for text): the server answers 409 naming the field. */
  unique?: boolean;
  /** Entered when creating only (a username, an initial password): not in edit bodies nor the edit form. */
  createOnly?: boolean;
  /** Accepted in bodies but never answered nor listed (an initial password). */
  writeOnly?: boolean;
  /** With `unique`: unique only among records holding the same value of this other field (e.g. `kind`). */
  uniqueWithin?: string;
  /** Where a reference's options come from: a `GET …/list` endpoint answering `{value,label}[]`. */
  listEndpoint?: string;
  /** Hint under the form input. */
  help?: string;
  /**
   * In the form only while another field holds one of these values (次数 for times cards); when
   * hidden the form sends null, so switching the other field clears it.
   */
  shownWhen?: { field: string; in: readonly string[] };
  /**
   * A personal or financial number (ID card, bank account): how it reads when it must not be shown
   * in full. The audit log always keeps it masked; modules mask answers by the caller's rights.
   */
  mask?: (value: string) => string | null;
  /** Upload constraints of image fields. */
  upload?: { accept?: string[]; maxSizeKb?: number };
}

export type Fields = Record<string, Field>;

/** An enumeration value's Chinese label, the value itself when it is not one of the options. */
export const optionLabel = (options: readonly Option[], value: string) =>
  options.find((o) => o.value === value)?.label ?? value;

/** What a field builder's caller may set: anything but the schema, which the builder makes (typed). */
type FieldOptions = Partial<Omit<Field, 'schema'>>;

export type ResourceAction =
  | 'page'
  | 'detail'
  | 'save'
  | 'edit'
  | 'remove'
  | 'editPublished'
  | 'list'
  /** `PUT {res}/publish`: edit-published under the spec's second name (opt-in). */
  | 'publish'
  /** `POST {res}/saveOrUpdate`: edits when the body holds an id, creates otherwise (opt-in). */
  | 'saveOrUpdate';

export interface ResourceDef<F extends Fields = Fields, K extends string = string> {
  /** Path segment, e.g. `csr-source`; also the audit log's resource name. */
  key: K;
  /** Full path of the resource, e.g. `/api/user/admin/v1/csr-source`. */
  base: string;
  /** Chinese name of one record, used in titles and messages (新建来源, 来源不存在). */
  label: string;
  /** Permission prefix: `{permission}:view`, `:edit`, `:remove`. */
  permission: string;
  fields: F;
  actions: readonly ResourceAction[];
  /** The field the `list` endpoint shows as an option's label. */
  titleField?: keyof F & string;
  /**
   * The path segment of `save`, `remove` and `saveOrUpdate` where the spec names them otherwise
   * (企业门禁组 creates with `create`, its members are added with `add` and deleted with `delete`,
   * 企业会议卡 has `save-update`).
   */
  names?: Partial<Record<'save' | 'remove' | 'saveOrUpdate', string>>;
  defaultSort?: { field: keyof F & string; order: 'ascend' | 'descend' };
}

export const allActions: readonly ResourceAction[] = [
  'page',
  'detail',
  'save',
  'edit',
  'remove',
  'editPublished',
  'list',
];

export function defineResource<const F extends Fields, const K extends string = string>(
  def: Omit<ResourceDef<F, K>, 'actions'> & { actions?: readonly ResourceAction[] },
): ResourceDef<F, K> {
  return { ...def, actions: def.actions ?? allActions };
}

// ---- Field builders: the common kinds with their Chinese messages ----

/** Fen as the console shows money: `50000` → `¥500.00`. */
const yuanFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Fen as yuan the way staff read money: `¥2,127,590.00` (thousands separated, two decimals). */
export const formatYuan = (fen: number) => `¥${yuanFormat.format(fen / 100)}`;

const required = (label: string) => `请填写${label}`;
const isEmpty = (value: unknown) => value === undefined || value === null || value === '';
/** zod's error for a value it cannot read: 请填写/请选择 when the field was left empty, else what is wrong. */
const emptyOr = (empty: string, wrong: string) => (issue: { input?: unknown }) =>
  isEmpty(issue.input) ? empty : wrong;
const tooLong = (max: number) => `最多 ${max} 个字符，请删减后重试`;

/**
 * A field's schema, optional or not: typed by which, so the values a server module reads are typed
 * from the declaration (a required number is a number, an optional one may be null).
 */
const optionalOr = <O extends boolean, R extends z.ZodType, N extends z.ZodType>(
  optional: O | undefined,
  whenRequired: R,
  whenOptional: () => N,
) => (optional ? whenOptional() : whenRequired) as O extends true ? N : R;

const text = <const O extends boolean = false>(
  label: string,
  options: FieldOptions & { max?: number; optional?: O } = {},
) => {
  const { max = 100, optional, ...rest } = options;
  const base = z
    .string({ error: required(label) })
    .trim()
    .max(max, tooLong(max));
  return {
    label,
    kind: 'text' as const,
    schema: optionalOr(optional, base.min(1, required(label)), () => base.nullish()),
    ...rest,
  } satisfies Field;
};

export const field = {
  text,
  textarea: <const O extends boolean = false>(
    label: string,
    options: FieldOptions & { max?: number; optional?: O } = {},
  ) =>
    ({ ...text(label, { max: 2000, ...options }), kind: 'textarea' as const, list: false }) satisfies Field,
  integer: <const O extends boolean = false>(
    label: string,
    options: FieldOptions & { min?: number; max?: number; optional?: O } = {},
  ) => {
    const { min = 0, max = 2_147_483_647, optional, ...rest } = options;
    const base = numeric(
      z
        .number({ error: emptyOr(required(label), `${label}必须是整数`) })
        .int(`${label}必须是整数`)
        .min(min, `${label}不能小于 ${min}`)
        .max(max, `${label}不能大于 ${max}`),
    );
    return {
      label,
      kind: 'integer' as const,
      schema: optionalOr(optional, base, () => base.nullish()),
      ...rest,
    } satisfies Field;
  },
  /** Sort order: a whole number, smaller first. */
  sort: () =>
    ({
      label: '排序',
      kind: 'integer' as const,
      schema: numeric(
        z
          .number({ error: '排序必须是整数' })
          .int('排序必须是整数')
          .min(0, '排序不能小于 0')
          .max(INT32_MAX, `排序不能大于 ${INT32_MAX}`)
          .default(0),
      ),
      sortable: true,
      help: '数字越小越靠前',
    }) satisfies Field,
  published: () =>
    ({
      label: '发布状态',
      kind: 'boolean' as const,
      schema: z.boolean({ error: '发布状态必须是是或否' }).default(false),
      search: 'eq' as const,
    }) satisfies Field,
  enumeration: <const V extends string, const O extends boolean = false>(
    label: string,
    options: readonly { value: V; label: string }[],
    extra: FieldOptions & { optional?: O } = {},
  ) => {
    const { optional, ...rest } = extra;
    const values = options.map((o) => o.value) as [V, ...V[]];
    const base = z.enum(values, { error: `请选择${label}` });
    return {
      label,
      kind: 'enum' as const,
      options,
      schema: optionalOr(optional, base, () => base.nullish()),
      search: 'eq' as const,
      ...rest,
    } satisfies Field;
  },
  phone: <const O extends boolean = false>(label = '手机号', extra: FieldOptions & { optional?: O } = {}) => {
    const { optional, ...rest } = extra;
    const base = z.string({ error: emptyOr(required(label), `${label}必须是文字`) }).pipe(phoneSchema);
    return {
      label,
      kind: 'phone' as const,
      schema: optionalOr(optional, base, () => blankAsNull(base)),
      ...rest,
    } satisfies Field;
  },
  email: <const O extends boolean = false>(label = '邮箱', extra: FieldOptions & { optional?: O } = {}) => {
    const { optional, ...rest } = extra;
    const base = z.string({ error: emptyOr(required(label), `${label}必须是文字`) }).pipe(emailSchema);
    return {
      label,
      kind: 'email' as const,
      schema: optionalOr(optional, base, () => blankAsNull(base)),
      ...rest,
    } satisfies Field;
  },
  image: <const O extends boolean = true>(label: string, extra: FieldOptions & { optional?: O } = {}) => {
    const { optional = true as O, ...rest } = extra;
    const base = ownFileUrl(label);
    return {
      label,
      kind: 'image' as const,
      // Optional: '' clears it (as null), like leaving it out.
      schema: optionalOr(optional, base, () => blankAsNull(base)),
      upload: { accept: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg'], maxSizeKb: 2048 },
      ...rest,
    } satisfies Field;
  },
  /**
   * Money in integer fen (the API), entered and shown in yuan with two decimals (¥). Never negative;
   * `min` (fen) raises the floor, e.g. 1 for an amount that must be more than zero.
   */
  money: <const O extends boolean = false>(
    label: string,
    extra: FieldOptions & { optional?: O; min?: number; max?: number } = {},
  ) => {
    // ¥20,000,000 at most: amounts are PostgreSQL `integer` fen (up to 2 147 483 647).
    const { optional, min = 0, max = 2_000_000_000, ...rest } = extra;
    const base = numeric(
      z
        .number({ error: `请填写${label}` })
        .int(`${label}须精确到分`)
        .min(0, `${label}不能为负数，请填写 0 或更大的金额`)
        .min(min, `${label}不能低于 ${formatYuan(min)}`)
        .max(max, `${label}不能超过 ${formatYuan(max)}`),
    );
    return {
      label,
      kind: 'money' as const,
      schema: optionalOr(optional, base, () => base.nullish()),
      sortable: true,
      ...rest,
    } satisfies Field;
  },
  /**
   * A percentage stored in basis points (integer 0–10000 = 0.00 %–100.00 %), entered and shown as a
   * percentage with two decimals (`formatPercent`).
   */
  percent: <const O extends boolean = false>(label: string, extra: FieldOptions & { optional?: O } = {}) => {
    const { optional, ...rest } = extra;
    const base = numeric(
      z
        .number({ error: `请填写${label}` })
        .int(`${label}最多保留两位小数`)
        .min(0, `${label}须在 0.00% 到 100.00% 之间`)
        .max(10_000, `${label}须在 0.00% 到 100.00% 之间`),
    );
    return {
      label,
      kind: 'percent' as const,
      schema: optionalOr(optional, base, () => base.nullish()),
      sortable: true,
      ...rest,
    } satisfies Field;
  },
  /** A decimal number (coordinates, square metres) within [min, max]. */
  decimal: <const O extends boolean = false>(
    label: string,
    options: FieldOptions & { min?: number; max?: number; optional?: O } = {},
  ) => {
    const { min = 0, max = 1_000_000_000, optional, ...rest } = options;
    const base = numeric(
      z
        .number({ error: emptyOr(required(label), `${label}必须是数字`) })
        .min(min, `${label}不能小于 ${min}`)
        .max(max, `${label}不能大于 ${max}`),
    );
    return {
      label,
      kind: 'decimal' as const,
      schema: optionalOr(optional, base, () => base.nullish()),
      ...rest,
    } satisfies Field;
  },
  /** A time of day, 'HH:mm' (00:00–23:59). */
  time: <const O extends boolean = false>(label: string, extra: FieldOptions & { optional?: O } = {}) => {
    const { optional, ...rest } = extra;
    const base = z
      .string({ error: emptyOr(`请选择${label}`, `${label}格式不正确，请按 时:分 选择，如 09:00`) })
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${label}格式不正确，请按 时:分 选择，如 09:00`);
    return {
      label,
      kind: 'time' as const,
      schema: optionalOr(optional, base, () => blankAsNull(base)),
      ...rest,
    } satisfies Field;
  },
  /** A gallery: several uploaded image URLs, in order. */
  images: (label: string, extra: FieldOptions & { max?: number } = {}) => {
    const { max = 20, ...rest } = extra;
    return {
      label,
      kind: 'images' as const,
      schema: z
        .array(ownFileUrl(label), { error: `请上传${label}` })
        .max(max, `${label}最多 ${max} 张`)
        .default([]),
      list: false,
      upload: { accept: ['png', 'jpg', 'jpeg', 'gif', 'webp'], maxSizeKb: 5120 },
      ...rest,
    } satisfies Field;
  },
  /** A moment (ISO 8601 with offset, or Z); parsed to a Date for the database. */
  datetime: <const O extends boolean = false>(label: string, extra: FieldOptions & { optional?: O } = {}) => {
    const { optional, ...rest } = extra;
    const base = z.iso
      .datetime({ offset: true, error: emptyOr(`请选择${label}`, `${label}格式不正确，请选择日期和时间`) })
      .transform((value) => new Date(value));
    return {
      label,
      kind: 'datetime' as const,
      schema: optionalOr(optional, base, () => blankAsNull(base)),
      ...rest,
    } satisfies Field;
  },
  /**
   * Rich text (HTML). The server keeps only what `richTextPolicy` allows before storing it
   * (apps/server/src/lib/sanitize-html.ts); the console's editor previews the same policy.
   */
  richtext: <const O extends boolean = false>(
    label: string,
    extra: FieldOptions & { max?: number; optional?: O } = {},
  ) => {
    const { max = 100_000, optional, ...rest } = extra;
    const base = z.string({ error: required(label) }).max(max, tooLong(max));
    return {
      label,
      kind: 'richtext' as const,
      schema: optionalOr(optional, base.trim().min(1, required(label)), () => base.nullish()),
      list: false,
      ...rest,
    } satisfies Field;
  },
  reference: <const O extends boolean = false>(
    label: string,
    listEndpoint: string,
    extra: FieldOptions & { optional?: O } = {},
  ) => {
    const { optional, ...rest } = extra;
    const base = idOf(`请选择${label}`);
    return {
      label,
      kind: 'reference' as const,
      listEndpoint,
      schema: optionalOr(optional, base, () => base.nullish()),
      search: 'eq' as const,
      ...rest,
    } satisfies Field;
  },
  references: (label: string, listEndpoint: string, extra: FieldOptions = {}) =>
    ({
      label,
      kind: 'references' as const,
      listEndpoint,
      schema: z
        .array(numeric(z.number().int().positive().max(INT32_MAX, '编号必须是正整数')), {
          error: `请选择${label}`,
        })
        .default([]),
      list: false,
      ...extra,
    }) satisfies Field,
  /** A list of short codes (permission codes, keywords), entered as tags. */
  tags: (label: string, extra: FieldOptions & { max?: number; pattern?: RegExp; hint?: string } = {}) => {
    const { max = 100, pattern, hint = '格式不正确', ...rest } = extra;
    const item = z
      .string({ error: `${label}必须是文字` })
      .trim()
      .min(1, `${label}不能为空`)
      .max(max, `${label}每项最多 ${max} 个字符`);
    return {
      label,
      kind: 'tags' as const,
      schema: z
        .array(pattern ? item.regex(pattern, `${label}${hint}`) : item, { error: `${label}必须是列表` })
        .max(1000, `${label}最多 1000 项`)
        .default([]),
      list: false,
      ...rest,
    } satisfies Field;
  },
};

/**
 * What rich text may contain: these tags, these attributes per tag, and links and images only
 * with these URL schemes (or relative paths). Everything else (script, style, iframe, on* handlers,
 * javascript: URLs, inline styles) is removed.
 */
export const richTextPolicy = {
  tags: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'blockquote',
    'pre',
    'code',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'span',
    'div',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  attributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  } as Record<string, string[]>,
  /** URL schemes allowed in href and src. */
  schemes: { a: ['http', 'https', 'mailto', 'tel'], img: ['http', 'https'] } as Record<string, string[]>,
} as const;

// ---- Schemas derived from a declaration ----

type SchemaOf<F extends Fields> = { [K in keyof F]: F[K]['schema'] };
export type CreateOf<F extends Fields> = z.output<z.ZodObject<SchemaOf<F>>>;

const isWritable = (f: Field) => f.form !== false;

/** Body of `save`: every writable field. */
export function createSchema<F extends Fields>(def: ResourceDef<F>) {
  const shape = Object.fromEntries(
    Object.entries(def.fields)
      .filter(([, f]) => isWritable(f))
      .map(([k, f]) => [k, f.schema]),
  );
  return z.object(shape) as unknown as z.ZodObject<SchemaOf<F>>;
}

const idSchema = idOf();

/** A field's schema without its default, so an edit that leaves the field out leaves it unchanged. */
const withoutDefault = (schema: z.ZodType): z.ZodType =>
  schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : schema;

/** Body of `edit`: the id plus any writable fields to change. */
export function updateSchema<F extends Fields>(def: ResourceDef<F>) {
  const shape = Object.fromEntries(
    Object.entries(def.fields)
      .filter(([, f]) => isWritable(f) && !f.createOnly)
      .map(([k, f]) => [k, withoutDefault(f.schema).optional()]),
  );
  return z.object({ id: idSchema, ...shape });
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
    } else if (f.search && f.kind === 'boolean') {
      filters[key] = z.enum(['true', 'false'], { error: `${f.label}必须是 true 或 false` }).optional();
    } else if (f.search && (f.kind === 'reference' || f.kind === 'integer')) {
      filters[key] = numeric(
        z
          .number({ error: `${f.label}必须是数字` })
          .int(`${f.label}必须是整数`)
          .min(-INT32_MAX, `${f.label}超出范围`)
          .max(INT32_MAX, `${f.label}超出范围`)
          .optional(),
      );
    } else if (f.search && f.kind === 'enum') {
      const values = f.options!.map((o) => o.value) as [string, ...string[]];
      filters[key] = z.enum(values, { error: `${f.label}不是可选的值` }).optional();
    } else if (f.search) {
      filters[key] = z.string().max(100).optional();
    }
  }
  // The filters are read by name (the server's searchConditions, a module's queryText): their
  // schemas check them, and the type names the paging and sorting keys every page has.
  const paging = z.object({
    current: numeric(z.number({ error: '页码必须是正整数' }).int().min(1, '页码必须是正整数').default(1)),
    size: numeric(
      z
        .number({ error: '每页条数必须是正整数' })
        .int()
        .min(1, '每页条数必须是正整数')
        .max(MAX_PAGE_SIZE, `每页最多 ${MAX_PAGE_SIZE} 条`)
        .default(10),
    ),
    sortField: z.enum(sortable as [string, ...string[]], { error: '该字段不支持排序' }).optional(),
    sortOrder: z.enum(['ascend', 'descend'], { error: '排序方向必须是 ascend 或 descend' }).optional(),
  });
  return paging.extend(filters as Record<never, never>);
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

/** Basis points as a percentage with two decimals: 1250 → `12.50%`. */
export const formatPercent = (basisPoints: number) => `${(basisPoints / 100).toFixed(2)}%`;

/** Endpoint paths of a resource (their shapes: docs/api.md). */
export const resourcePaths = (def: Pick<ResourceDef, 'base' | 'names'>) => ({
  page: `${def.base}/page`,
  detail: `${def.base}/detail`,
  save: `${def.base}/${def.names?.save ?? 'save'}`,
  edit: `${def.base}/edit`,
  remove: `${def.base}/${def.names?.remove ?? 'remove'}`,
  editPublished: `${def.base}/edit-published`,
  list: `${def.base}/list`,
  publish: `${def.base}/publish`,
  saveOrUpdate: `${def.base}/${def.names?.saveOrUpdate ?? 'saveOrUpdate'}`,
});

export const resourcePermissions = (def: Pick<ResourceDef, 'permission'>) => ({
  view: `${def.permission}:view`,
  edit: `${def.permission}:edit`,
  remove: `${def.permission}:remove`,
});

/** The Chinese labels of a resource's fields, for messages that name a field. */
export const labelsOf = (def: { fields: Fields }) =>
  Object.fromEntries([['id', '编号'], ...Object.entries(def.fields).map(([k, f]) => [k, f.label])]) as Record<
    string,
    string
  >;

export const resourceMessages = {
  notFound: (def: Pick<ResourceDef, 'label'>) => `该${def.label}不存在或已被删除，请刷新列表后重试`,
  duplicate: (def: Pick<ResourceDef, 'label'>, label: string) =>
    `已存在${label}相同的${def.label}，请换一个${label}`,
  duplicateWithin: (def: Pick<ResourceDef, 'label'>, label: string, scopeLabel: string) =>
    `同一${scopeLabel}下已存在${label}相同的${def.label}，请换一个${label}`,
  removed: (n: number) => `已删除 ${n} 条记录`,
  saved: messages.ok,
};

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
