import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { request } from '../../lib/request.ts';
import { mockAdapter } from '../../test/mock-adapter.ts';
import { usePagedQuery } from './use-paged-query.ts';

const originalAdapter = request.defaults.adapter;
afterEach(() => {
  request.defaults.adapter = originalAdapter;
});

function List() {
  const { search, turnPage, query } = usePagedQuery<{ id: number }>(['paged-test'], '/api/x/page');
  return (
    <>
      <p>查询：{JSON.stringify(query)}</p>
      <button onClick={() => search({ phone: '139' })}>搜索</button>
      <button onClick={() => turnPage(2, 10)}>第 2 页</button>
    </>
  );
}

describe('usePagedQuery', () => {
  it('a page turned while the search’s navigation is still on its way keeps the search', async () => {
    request.defaults.adapter = mockAdapter(() => ({
      status: 200,
      data: { code: 200, msg: '操作成功', data: { records: [], total: 30, current: 1, size: 10 } },
    }));
    // The route's checks (the session guard, in the console) hold each navigation until released.
    let release: () => void = () => undefined;
    let first = true;
    const router = createMemoryRouter(
      [
        {
          path: '/list',
          element: <List />,
          loader: () => {
            if (first) return (first = false);
            return new Promise<null>((resolve) => (release = () => resolve(null)));
          },
        },
      ],
      { initialEntries: ['/list'] },
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await screen.findByRole('button', { name: '搜索' });

    act(() => screen.getByRole('button', { name: '搜索' }).click());
    // The search has not reached the address yet: the list still shows the old query.
    expect(router.state.location.search).toBe('');
    act(() => screen.getByRole('button', { name: '第 2 页' }).click());
    act(() => release());

    await waitFor(() =>
      expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
        phone: '139',
        current: '2',
      }),
    );
  });
});
