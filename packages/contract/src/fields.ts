/**
 * What a resource's field is: a union by `kind`, each kind holding only what it takes (an enum its
 * options, a reference its list endpoint, an image its upload rules). A consumer switches on
 * `field.kind` and reads those properties with no cast. The builders that make fields are in
 * field-builders.ts; see docs/resources.md.
 */
import type { z } from 'zod';

export interface Option {
  value: string;
  label: string;
  /** The colour of its tag (an antd preset colour), for statuses a list shows as tags. */
  color?: string;
}

/** What every field declares, whatever its kind. */
export interface FieldBase<S extends z.ZodType> {
  label: string;
  /** The value in save/edit bodies, required-ness included. */
  schema: S;
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
}

/** One value of a fixed list, entered with a select and shown by its Chinese label. */
export interface EnumField<S extends z.ZodType = z.ZodType> extends FieldBase<S> {
  kind: 'enum';
  /** The values with their Chinese labels (and tag colours). */
  options: readonly Option[];
}

/** The id of another resource's record (`reference`), or several (`references`). */
export interface ReferenceField<S extends z.ZodType = z.ZodType> extends FieldBase<S> {
  kind: 'reference' | 'references';
  /** Where the options come from: a `GET …/list` endpoint answering `{value,label}[]`. */
  listEndpoint: string;
}

/** One uploaded picture's URL (`image`), or a gallery of them in order (`images`). */
export interface ImageField<S extends z.ZodType = z.ZodType> extends FieldBase<S> {
  kind: 'image' | 'images';
  /** Allowed extensions (without dot) and the largest file in KB. */
  upload?: { accept?: string[]; maxSizeKb?: number };
}

/** A kind that needs nothing beyond what every field declares: its kind says how it is entered and shown. */
export interface PlainField<S extends z.ZodType = z.ZodType> extends FieldBase<S> {
  kind:
    | 'text'
    | 'textarea'
    | 'richtext'
    | 'integer'
    | 'decimal'
    | 'money'
    | 'percent'
    | 'boolean'
    | 'date'
    | 'datetime'
    | 'time'
    | 'phone'
    | 'email'
    | 'password'
    | 'tags';
}

/** A field of a resource declaration: how it is validated, searched, listed and edited. */
export type Field<S extends z.ZodType = z.ZodType> =
  EnumField<S> | ReferenceField<S> | ImageField<S> | PlainField<S>;

/** How a field is shown and entered. */
export type FieldKind = Field['kind'];

export type Fields = Record<string, Field>;

/** An enumeration value's Chinese label, the value itself when it is not one of the options. */
export const optionLabel = (options: readonly Option[], value: string) =>
  options.find((o) => o.value === value)?.label ?? value;

/** Fen as the console shows money: `50000` → `¥500.00`. */
const yuanFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Fen as yuan the way staff read money: `¥2,127,590.00` (thousands separated, two decimals). */
export const formatYuan = (fen: number) => `¥${yuanFormat.format(fen / 100)}`;

/** Basis points as a percentage with two decimals: 1250 → `12.50%`. */
export const formatPercent = (basisPoints: number) => `${(basisPoints / 100).toFixed(2)}%`;
