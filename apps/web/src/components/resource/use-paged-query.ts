/**
 * The paging of a list screen: the query (page, size, filters), the `GET …/page` call keeping the
 * previous page while the next loads, and the table's pagination. ResourcePage and the screens
 * with their own table (操作日志) share it. A screen's list keeps its query in the address's search
 * parameters: a link opens a list already filtered (首页: `?createdAtFrom=…`), and reload,
 * back/forward and a shared address show the same filters, page and sort.
 *
 * @example
 *   const { page, pagination, search, reset, turnPage } = usePagedQuery<Row>(['auditLogPage'], path);
 *   <Table dataSource={page.data?.records} pagination={{ ...pagination, onChange: turnPage }} />
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { FormInstance, TablePaginationConfig } from 'antd';
import { hashKey, keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { cleanPayload, type Page } from '@cowork/contract';
import type { Dayjs } from 'dayjs';
import { dayOfBound } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';

export type PagedQuery = Record<string, unknown> & { current: number; size: number };

/** The query after the table moved to page `current` of `size` rows: a new size starts at page 1. */
export const pageMoved = <Q extends PagedQuery>(
  q: Q,
  current: number | undefined,
  size: number | undefined,
): Q => ({
  ...q,
  current: size === q.size ? (current ?? 1) : 1,
  size: size ?? q.size,
});

const DEFAULT_PAGE = { current: 1, size: 10 } as const;

/** The query an address names: paging as numbers (1 and 10 when absent), every other parameter but the tab as a filter. */
export function queryOfAddress(params: URLSearchParams): PagedQuery {
  const { current, size, tab: _tab, ...filters } = Object.fromEntries(params);
  return {
    ...cleanPayload(filters),
    current: Number(current) > 0 ? Number(current) : DEFAULT_PAGE.current,
    size: Number(size) > 0 ? Number(size) : DEFAULT_PAGE.size,
  };
}

/** The address of a query: its filters and, when not the defaults, its page and size; the tab kept. */
export function addressOfQuery(query: PagedQuery, tab: string | null): URLSearchParams {
  const params = new URLSearchParams();
  if (tab) params.set('tab', tab);
  for (const [key, value] of Object.entries(cleanPayload(query))) {
    if ((key === 'current' || key === 'size') && value === DEFAULT_PAGE[key]) continue;
    params.set(key, String(value));
  }
  return params;
}

/**
 * @param queryKey the cache key before the query (invalidating it refreshes the list)
 * @param path the `page` endpoint
 * @param fixed filters every request carries, beside the query
 * @param options.inAddress false for a list inside a drawer: its query is its own, not the address's
 *   (the screen's main list keeps filters, page and sort in the address, so reload, back/forward
 *   and a shared link show the same list)
 * @param options.refetchInterval ms between refreshes of the page shown, for lists whose rows
 *   change by themselves (devices' state, door events); the query, and so page and filters, stay
 */
export function usePagedQuery<T>(
  queryKey: readonly unknown[],
  path: string,
  fixed: Record<string, unknown> = {},
  { inAddress = true, refetchInterval }: { inAddress?: boolean; refetchInterval?: number } = {},
) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [ownQuery, setOwnQuery] = useState<PagedQuery>({ ...DEFAULT_PAGE });
  const addressQuery = useMemo(() => queryOfAddress(searchParams), [searchParams]);
  const query = inAddress ? addressQuery : ownQuery;
  /**
   * The query asked for last, and the address it was asked on: a navigation finishes after the
   * route's checks, and a page turn clicked meanwhile must start from the search just made, not from
   * the list still drawn (which would drop its filters). Once the address moves on, it wins. Keyed to
   * the address rather than reset by an effect: an effect still pending when the click comes would
   * forget the search.
   */
  const asked = useRef<{ on: string; query: PagedQuery; to: string } | null>(null);
  const address = searchParams.toString();
  const setQuery = (next: PagedQuery | ((q: PagedQuery) => PagedQuery)) => {
    // A search or page turn still on its way to the address.
    const pending = asked.current?.on === address ? asked.current : null;
    const value = typeof next === 'function' ? next(pending?.query ?? query) : next;
    const to = addressOfQuery(value, searchParams.get('tab'));
    // The query shown asked again (查询 with unchanged filters): neither the address nor the cache
    // key changes, so nothing would be sent; the user asks for what is there now.
    const same = inAddress ? to.toString() === address : hashKey([value]) === hashKey([query]);
    if (same && !pending) return void page.refetch();
    if (!inAddress) return setOwnQuery(value);
    asked.current = { on: address, query: value, to: to.toString() };
    // Each search or page turn is a history entry, so the browser's back returns to the list before.
    setSearchParams(to);
  };
  /**
   * Whether the address has just reached the query asked for here (a search, a page turn), said
   * once: the search form already holds that search, and maybe more typed while it was on its way,
   * which filling the form from the address would throw away. Back and forward are not asked here.
   */
  const ownArrival = () => {
    const own = asked.current?.to === address;
    if (own) asked.current = null;
    return own;
  };
  const page = useQuery({
    queryKey: [...queryKey, query],
    queryFn: () => api.get<Page<T>>(path, cleanPayload({ ...query, ...fixed })),
    placeholderData: keepPreviousData,
    refetchInterval,
  });
  /** A new search from page 1, keeping the page size; empty filters are left out. */
  const search = (filters: Record<string, unknown>) =>
    setQuery((q) => ({ current: 1, size: q.size, ...cleanPayload(filters) }));
  const reset = () => setQuery((q) => ({ current: 1, size: q.size }));
  const turnPage = (current: number, size: number) => setQuery((q) => pageMoved(q, current, size));
  const pagination: TablePaginationConfig = {
    current: page.data?.current ?? query.current,
    pageSize: page.data?.size ?? query.size,
    total: page.data?.total ?? 0,
    showSizeChanger: true,
    showTotal: (total) => `共 ${total} 条`,
  };
  return { query, setQuery, page, search, reset, turnPage, pagination, ownArrival };
}

/**
 * Keeps a search form showing the filters its list applies, whatever changed them: a link with
 * filters (首页), a reload, back and forward. A search or page turn made on the list itself leaves
 * the form as the user has it. `valuesOf` turns the query (strings from the address) into the
 * form's values (numbers for ids, days for ranges).
 */
export function useSearchForm(
  form: FormInstance,
  paged: { query: PagedQuery; ownArrival: () => boolean },
  valuesOf: (query: PagedQuery) => Record<string, unknown>,
) {
  // The effect runs when the query's text changes, not each time the query object is made anew.
  const queryText = JSON.stringify(paged.query);
  const latest = useRef({ valuesOf, ownArrival: paged.ownArrival, query: paged.query });
  latest.current = { valuesOf, ownArrival: paged.ownArrival, query: paged.query };
  useEffect(() => {
    if (latest.current.ownArrival()) return;
    form.resetFields();
    form.setFieldsValue(latest.current.valuesOf(latest.current.query));
  }, [form, queryText]);
}

/** A filter from the address as a number (ids in a select), or as it is when it is not one. */
export const numberOrKept = (value: unknown) =>
  typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;

/** The two days of a filter's bounds (`createdAtFrom`, `createdAtTo`), for a range picker; undefined unless both are set. */
export function dayRangeOf(fromBound: unknown, toBound: unknown): [Dayjs, Dayjs] | undefined {
  const [from, to] = [dayOfBound(fromBound), dayOfBound(toBound)];
  return from && to ? [from, to] : undefined;
}
