import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form, Input } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { request } from '../../lib/request.ts';
import { mockAdapter } from '../../test/mock-adapter.ts';
import { usePagedQuery, useSearchForm } from './use-paged-query.ts';

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

function SearchList() {
  const [form] = Form.useForm();
  const paged = usePagedQuery<{ id: number }>(['paged-form-test'], '/api/x/page');
  useSearchForm(form, paged, (q) => ({ phone: q.phone }));
  return (
    <Form form={form} onFinish={(values: Record<string, unknown>) => paged.search(values)}>
      <p>{`列表：${JSON.stringify(paged.query)}`}</p>
      <Form.Item name="phone">
        <Input aria-label="手机号" />
      </Form.Item>
      <button type="submit">搜索</button>
    </Form>
  );
}

/**
 * Draws `element` on a list route answered with an empty page of `total` rows, under a router whose
 * navigations after the first wait for `held.release()`, as the console's route checks may.
 */
function renderHeld(element: ReactNode, { initialEntry = '/list', total = 0 } = {}) {
  request.defaults.adapter = mockAdapter(() => ({
    status: 200,
    data: { code: 200, msg: '操作成功', data: { records: [], total, current: 1, size: 10 } },
  }));
  const held: { release: () => void } = { release: () => undefined };
  let first = true;
  const router = createMemoryRouter(
    [
      {
        path: '/list',
        element,
        loader: () => {
          if (first) return (first = false);
          return new Promise<null>((resolve) => (held.release = () => resolve(null)));
        },
      },
    ],
    { initialEntries: [initialEntry] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, held, adapter: request.defaults.adapter as ReturnType<typeof mockAdapter> };
}

/** The search field as drawn now (the list may draw it anew). */
const phone = () => screen.getByLabelText<HTMLInputElement>('手机号');

describe('usePagedQuery', () => {
  it('a page turned while the search’s navigation is still on its way keeps the search', async () => {
    // The route's checks (the session guard, in the console) hold each navigation until released.
    const { router, held } = renderHeld(<List />, { total: 30 });
    await screen.findByRole('button', { name: '搜索' });

    act(() => screen.getByRole('button', { name: '搜索' }).click());
    // The search has not reached the address yet: the list still shows the old query.
    expect(router.state.location.search).toBe('');
    act(() => screen.getByRole('button', { name: '第 2 页' }).click());
    act(() => held.release());

    await waitFor(() =>
      expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
        phone: '139',
        current: '2',
      }),
    );
  });

  it('text typed while a search is on its way stays in the form when the search arrives', async () => {
    const { router, held } = renderHeld(<SearchList />);
    await screen.findByLabelText('手机号');
    fireEvent.change(phone(), { target: { value: '139' } });
    fireEvent.click(screen.getByRole('button', { name: '搜索' }));
    await waitFor(() => expect(router.state.navigation.state).toBe('loading'));
    fireEvent.change(phone(), { target: { value: '1390' } });
    act(() => held.release());

    await screen.findByText('列表：{"phone":"139","current":1,"size":10}');
    await act(async () => undefined); // the list's effects after drawing the search's answer
    expect(phone().value).toBe('1390');
  });

  it('back and forward fill the form with the filters of the list they show', async () => {
    const { router, held } = renderHeld(<SearchList />, { initialEntry: '/list?phone=138' });
    await screen.findByLabelText('手机号');
    await waitFor(() => expect(phone().value).toBe('138'));
    fireEvent.change(phone(), { target: { value: '139' } });
    fireEvent.click(screen.getByRole('button', { name: '搜索' }));
    await waitFor(() => expect(router.state.navigation.state).toBe('loading'));
    act(() => held.release());
    await waitFor(() => expect(router.state.location.search).toContain('phone=139'));

    act(() => void router.navigate(-1));
    await waitFor(() => expect(router.state.navigation.state).toBe('loading'));
    act(() => held.release());
    await waitFor(() => expect(phone().value).toBe('138'));
    act(() => void router.navigate(1));
    await waitFor(() => expect(router.state.navigation.state).toBe('loading'));
    act(() => held.release());
    await waitFor(() => expect(phone().value).toBe('139'));
  });

  it('a search with the filters already shown asks the server again', async () => {
    const { router, held, adapter } = renderHeld(<List />, { initialEntry: '/list?phone=139' });
    await waitFor(() => expect(adapter.calls).toHaveLength(1));
    // The same filters: the address stays as it is, and the list is fetched anew all the same.
    act(() => screen.getByRole('button', { name: '搜索' }).click());
    await waitFor(() => expect(adapter.calls).toHaveLength(2));
    act(() => screen.getByRole('button', { name: '搜索' }).click());
    await waitFor(() => expect(adapter.calls).toHaveLength(3));
    expect(router.state.location.search).toBe('?phone=139');
    expect(router.state.navigation.state).toBe('idle');
    // Another page is still a navigation to the address of that page.
    act(() => screen.getByRole('button', { name: '第 2 页' }).click());
    act(() => held.release());
    await waitFor(() => expect(router.state.location.search).toBe('?phone=139&current=2'));
    await waitFor(() => expect(adapter.calls).toHaveLength(4));
  });
});
