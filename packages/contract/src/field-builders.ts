/**
 * The field builders: the common kinds with their Chinese messages, each making a field of the
 * `Field` union (fields.ts) with a schema typed by its options (an optional field's value may be
 * null). A resource declares its fields with them (resource.ts), and adjusts one by spreading it.
 *
 * @example
 *   fields: { name: field.text('名称', { search: 'like' }), cover: field.image('封面', { optional: false }) }
 */
import { z } from 'zod';
import { ownFileUrl } from './urls.ts';
import { blankAsNull, emailSchema, idOf, INT32_MAX, numeric, phoneSchema } from './validators.ts';
import { formatYuan, type Field, type FieldBase } from './fields.ts';

/** What a builder's caller may set: what every field declares but the label and schema, which the builder takes and makes. */
type FieldOptions = Partial<Omit<FieldBase<z.ZodType>, 'label' | 'schema'>>;

const required = (label: string) => `请填写${label}`;
const isEmpty = (value: unknown) => value === undefined || value === null || value === '';
/** zod's error for a value it cannot read: 请填写/请选择 when the field was left empty, else what is wrong. */
const emptyOr = (empty: string, wrong: string) => (issue: { input?: unknown }) =>
  isEmpty(issue.input) ? empty : wrong;
const tooLong = (max: number) => `最多 ${max} 个字符，请删减后重试`;

/**
 * A field's schema, optional or not: typed by which, so the values a server module reads are typed
 * from the declaration (a required number is a number, an optional one may be null). `optional`
 * left out means `absent` (required for most kinds, optional for an image), as the builder's type
 * parameter O defaults.
 */
const optionalOr = <O extends boolean, R extends z.ZodType, N extends z.ZodType>(
  optional: O | undefined,
  whenRequired: R,
  whenOptional: () => N,
  absent = false,
) => ((optional ?? absent) ? whenOptional() : whenRequired) as O extends true ? N : R;

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

/** Text in a set format (a phone number, an email address); optional, '' clears it (as null). */
const formatted = <K extends 'phone' | 'email', O extends boolean>(
  kind: K,
  format: z.ZodString,
  label: string,
  extra: FieldOptions & { optional?: O },
) => {
  const { optional, ...rest } = extra;
  const base = z.string({ error: emptyOr(required(label), `${label}必须是文字`) }).pipe(format);
  return {
    label,
    kind,
    schema: optionalOr(optional, base, () => blankAsNull(base)),
    ...rest,
  };
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
    const base = z.enum(
      options.map((o) => o.value),
      { error: `请选择${label}` },
    );
    return {
      label,
      kind: 'enum' as const,
      options,
      schema: optionalOr(optional, base, () => base.nullish()),
      search: 'eq' as const,
      ...rest,
    } satisfies Field;
  },
  phone: <const O extends boolean = false>(label = '手机号', extra: FieldOptions & { optional?: O } = {}) =>
    formatted('phone', phoneSchema, label, extra) satisfies Field,
  email: <const O extends boolean = false>(label = '邮箱', extra: FieldOptions & { optional?: O } = {}) =>
    formatted('email', emailSchema, label, extra) satisfies Field,
  image: <const O extends boolean = true>(label: string, extra: FieldOptions & { optional?: O } = {}) => {
    const { optional, ...rest } = extra;
    const base = ownFileUrl(label);
    return {
      label,
      kind: 'image' as const,
      // Optional unless said otherwise: '' clears it (as null), like leaving it out.
      schema: optionalOr(optional, base, () => blankAsNull(base), true),
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
