/**
 * Column shapes the tables share.
 */
import { sql } from 'drizzle-orm';
import { integer, text, timestamp, type ExtraConfigColumn } from 'drizzle-orm/pg-core';

export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A text column indexed for `LIKE 'typed%'`: phones and numbers are searched by their first digits
 * (lib/like.ts), and a plain btree serves a prefix only under the C collation, text_pattern_ops under any.
 */
export const prefixOps = (column: ExtraConfigColumn) => column.op('text_pattern_ops');

/** createdAt, updatedAt, createdBy, updatedBy of tables staff write. */
export const authored = () => ({
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  createdBy: integer('created_by'),
  updatedBy: integer('updated_by'),
});

/** Integer array column defaulting to empty (ids of referenced rows kept on the record). */
export const ids = (name: string) =>
  integer(name)
    .array()
    .notNull()
    .default(sql`'{}'::integer[]`);

/** Text array column defaulting to empty. */
export const texts = (name: string) =>
  text(name)
    .array()
    .notNull()
    .default(sql`'{}'::text[]`);

/** A CHECK condition: `column` holds one of `values` (the enum lists of the schema files). */
export const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);
