/**
 * The conditions of a page query's declared search fields, shared by the page, its prepared
 * queries and the lists that read the same filter another way (an export).
 */
import { eq, getTableColumns, gte, ilike, like, lt, lte, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { fieldInvalid, messages, type Fields, type ResourceDef } from '@cowork/contract';
import { badRequest } from '../http.ts';
import { containsPattern, prefixPattern } from '../like.ts';
import { parseTimeBound } from '../time.ts';

/**
 * How a filter value enters a condition: as itself (a one-off query), or as a named placeholder of a
 * prepared query, the value kept aside for its execution.
 */
export type Bind = <T>(name: string, value: T) => T | Placeholder;
const asItself: Bind = (_name, value) => value;

/**
 * The conditions of a page query's declared search fields (eq, like, ranges); 400 naming the field
 * on a bad bound. Shared by page and by lists that read the same filter another way (an export).
 */
export function searchConditions<F extends Fields>(
  resource: ResourceDef<F>,
  table: PgTable,
  query: Record<string, unknown>,
  bind: Bind = asItself,
): SQL[] {
  const columns: Record<string, PgColumn> = getTableColumns(table);
  const where: SQL[] = [];
  for (const [key, f] of Object.entries(resource.fields)) {
    const column = columns[key];
    // A searched field kept outside the table (child rows), or holding several ids (references:
    // rows holding the one asked for), is filtered by the `where` hook.
    if (!f.search || !column || f.kind === 'references') continue;
    if (f.search === 'range') {
      for (const [suffix, endOfDay] of [
        ['From', false],
        ['To', true],
      ] as const) {
        const name = `${key}${suffix}`;
        const raw = query[name];
        if (typeof raw !== 'string' || raw === '') continue;
        if (f.kind === 'integer' || f.kind === 'money') {
          const n = Number(raw);
          if (!Number.isFinite(n)) throw badRequest(fieldInvalid(f.label, '请输入数字'));
          where.push(suffix === 'From' ? gte(column, bind(name, n)) : lte(column, bind(name, n)));
        } else {
          const bound = parseTimeBound(raw, endOfDay);
          if (!bound) throw badRequest(fieldInvalid(f.label, messages.timeInvalid));
          where.push(suffix === 'From' ? gte(column, bind(name, bound)) : lt(column, bind(name, bound)));
        }
      }
      continue;
    }
    const value = query[key];
    if (value === undefined || value === '') continue;
    if (f.kind === 'boolean') where.push(eq(column, bind(key, value === 'true')));
    else if (f.search === 'like') where.push(ilike(column, bind(key, containsPattern(String(value).trim()))));
    else if (f.search === 'prefix') where.push(like(column, bind(key, prefixPattern(String(value).trim()))));
    else where.push(eq(column, bind(key, value)));
  }
  return where;
}
