import { ilike, like, type Column, type SQL } from 'drizzle-orm';

/** Typed text as a LIKE pattern's literal: `%`, `_` and `\` match only themselves. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The ILIKE pattern of `containing`, and the LIKE pattern of `startingWith`. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;
export const prefixPattern = (text: string) => `${escapeLike(text)}%`;

/** Rows whose text holds what was typed, in any case (names, titles). */
export const containing = (column: Column | SQL, text: string) => ilike(column, containsPattern(text));

/**
 * Rows whose phone or number starts with what was typed ("1391200", "UC20"); the columns searched so
 * have a text_pattern_ops index (db/schema.ts `prefixOps`), which serves this under any collation.
 */
export const startingWith = (column: Column | SQL, text: string) => like(column, prefixPattern(text));
