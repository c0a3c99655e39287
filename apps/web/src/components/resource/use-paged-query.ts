/**
 * The paging of a list screen: the query (page, size, filters), the `GET …/page` call keeping the
 * previous page while the next loads, and the table's pagination. ResourcePage and the screens
 * with their own table (操作日志) share it. The first query takes its filters from the address's
 * search parameters, so a link can open a list already filtered (首页: `?createdAtFrom=…`).
 *
 * @example
 *   const { page, pagination, search, reset, turnPage } = usePagedQuery<Row>(['auditLogPage'], path);
 *   <Table dataSource={page.data?.records} pagination={{ ...pagination, onChange: turnPage }} />
 */
import { useState } from 'react';
import type { TablePaginationConfig } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { cleanPayload, type Page } from '@cowork/contract';
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

/**
 * @param queryKey the cache key before the query (invalidating it refreshes the list)
 * @param path the `page` endpoint
 * @param fixed filters every request carries, beside the query
 */
export function usePagedQuery<T>(
  queryKey: readonly unknown[],
  path: string,
  fixed: Record<string, unknown> = {},
) {
  const [searchParams] = useSearchParams();
  // Paging and the screen's tab stay the screen's own; every other parameter is a filter (the
  // server checks it).
  const [query, setQuery] = useState<PagedQuery>(() => {
    const { current: _current, size: _size, tab: _tab, ...filters } = Object.fromEntries(searchParams);
    return { current: 1, size: 10, ...cleanPayload(filters) };
  });
  const page = useQuery({
    queryKey: [...queryKey, query],
    queryFn: () => api.get<Page<T>>(path, cleanPayload({ ...query, ...fixed })),
    placeholderData: keepPreviousData,
  });
  /** A new search from page 1, keeping the page size; empty filters are left out. */
  const search = (filters: Record<string, unknown>) =>
    setQuery({ current: 1, size: query.size, ...cleanPayload(filters) });
  const reset = () => setQuery({ current: 1, size: query.size });
  const turnPage = (current: number, size: number) => setQuery((q) => pageMoved(q, current, size));
  const pagination: TablePaginationConfig = {
    current: page.data?.current ?? query.current,
    pageSize: page.data?.size ?? query.size,
    total: page.data?.total ?? 0,
    showSizeChanger: true,
    showTotal: (total) => `共 ${total} 条`,
  };
  return { query, setQuery, page, search, reset, turnPage, pagination };
}
