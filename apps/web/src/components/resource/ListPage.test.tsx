/**
 * ListPage draws a list from its declaration: the search form from `filters` (text trimmed, a range
 * sent as its two bounds, ids read back from the address as numbers), the table from `columns`
 * ('—' for an empty value), the slots a page fills (toolbar with the filters in effect, row
 * actions), and a `list` source answered whole and filtered on the screen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App, Button } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { request } from '../../lib/request.ts';
import { mockAdapter, paramsOf } from '../../test/mock-adapter.ts';
import { formValuesOf, ListPage, queryOf, type ListDef, type ListFilter } from './ListPage.tsx';

const originalAdapter = request.defaults.adapter;
afterEach(() => {
  request.defaults.adapter = originalAdapter;
});

interface Door {
  id: number;
  sn: string;
  state: 'open' | 'shut';
  note: string | null;
}

const doors: Door[] = [
  { id: 1, sn: 'A-1', state: 'open', note: null },
  { id: 2, sn: 'B-2', state: 'shut', note: '大堂' },
];

const filters: Record<string, ListFilter> = {
  sn: { kind: 'text', label: '序列号' },
  state: { kind: 'choice', label: '状态', options: { open: '开', shut: '关' } },
  buildingId: { kind: 'reference', label: '楼宇', endpoint: '/api/building/list' },
  at: { kind: 'range', label: '时间', bounds: ['from', 'to'] },
};

const columns: ListDef<Door>['columns'] = [
  { title: '序列号', value: 'sn' },
  { title: '状态', render: (door) => (door.state === 'open' ? '开' : '关') },
  { title: '备注', value: 'note' },
];

/** Draws `element` on a route, the API answering `doors` as a page or as a whole list. */
function renderList(element: ReactNode, initialEntry = '/doors') {
  const adapter = mockAdapter((config) => ({
    status: 200,
    data: {
      code: 200,
      msg: '操作成功',
      data: config.url?.endsWith('/page')
        ? { records: doors, total: doors.length, current: 1, size: 10 }
        : config.url === '/api/building/list'
          ? [{ value: 3, label: '望京' }]
          : doors,
    },
  }));
  request.defaults.adapter = adapter;
  const router = createMemoryRouter([{ path: '/doors', element: <App>{element}</App> }], {
    initialEntries: [initialEntry],
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const calls = (url: string) => adapter.calls.filter((c) => c.url === url).map(paramsOf);
  return { router, calls };
}

// antd's form and table draw slowly on a busy machine.
describe('ListPage', { timeout: 30_000 }, () => {
  it('draws the filters and columns it is given, with the toolbar and row actions of the page', async () => {
    const paged: ListDef<Door> = {
      queryKey: ['doors'],
      source: { page: '/api/door/page' },
      formName: 'door-search',
      filters,
      columns,
    };
    renderList(
      <ListPage
        list={paged}
        toolbar={(inEffect) => <span>{`导出：${JSON.stringify(inEffect)}`}</span>}
        rowActions={(door) => <Button>{`开门 ${door.sn}`}</Button>}
      />,
      '/doors?sn=A&current=2',
    );
    const row = (await screen.findByText('B-2')).closest('tr');
    expect(row && within(row).getByText('大堂')).toBeTruthy();
    expect(row && within(row).getByText('关')).toBeTruthy();
    // An empty value shows as a dash.
    const first = screen.getByText('A-1').closest('tr');
    expect(first && within(first).getByText('—')).toBeTruthy();
    expect(screen.getByRole('button', { name: '开门 A-1' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '操作' })).toBeTruthy();
    // The toolbar gets the filters in effect, without the paging.
    expect(screen.getByText('导出：{"sn":"A"}')).toBeTruthy();
    const labels = [...document.querySelectorAll('form#door-search label')].map((l) => l.textContent);
    expect(labels).toEqual(['序列号', '状态', '楼宇', '时间']);
    // The search form shows the filters of the address.
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('序列号').value).toBe('A'));
  });

  it('searches with trimmed text from page 1, the filters in the address', async () => {
    const paged: ListDef<Door> = {
      queryKey: ['doors'],
      source: { page: '/api/door/page' },
      filters,
      columns,
    };
    const { router, calls } = renderList(<ListPage list={paged} />, '/doors?current=2');
    await screen.findByText('A-1');
    fireEvent.change(screen.getByLabelText('序列号'), { target: { value: '  B-2 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sn=B-2'));
    await waitFor(() =>
      expect(calls('/api/door/page').at(-1)).toEqual({ sn: 'B-2', current: '1', size: '10' }),
    );
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByLabelText<HTMLInputElement>('序列号').value).toBe('');
  });

  it('asks a whole list with the filters of the form, without paging', async () => {
    const whole: ListDef<Door> = {
      queryKey: ['door-list'],
      source: { list: '/api/door/list' },
      filters: { sn: { kind: 'text', label: '序列号' } },
      columns,
      emptyText: '暂无门',
    };
    const { router, calls } = renderList(<ListPage list={whole} />);
    await screen.findByText('A-1');
    expect(calls('/api/door/list')).toEqual([{}]);
    fireEvent.change(screen.getByLabelText('序列号'), { target: { value: 'A' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(calls('/api/door/list').at(-1)).toEqual({ sn: 'A' }));
    // Its filters are the screen's own, not the address's.
    expect(router.state.location.search).toBe('');
    expect(document.querySelector('.ant-pagination')).toBeNull();
  });
  it('keeps a list inside a drawer out of the address, with its fixed filters and picked rows', async () => {
    const inDrawer: ListDef<Door> = {
      queryKey: ['doors-of'],
      source: { page: '/api/door/page', inAddress: false },
      filters: { sn: { kind: 'text', label: '序列号' } },
      columns,
    };
    const picked: Door[][] = [];
    const { router, calls } = renderList(
      <ListPage
        list={inDrawer}
        fixedFilters={{ setId: 7 }}
        selection={{ keys: [], onChange: (rows) => picked.push(rows) }}
      />,
    );
    await screen.findByText('A-1');
    expect(calls('/api/door/page')[0]).toEqual({ setId: '7', current: '1', size: '10' });
    fireEvent.change(screen.getByLabelText('序列号'), { target: { value: 'B' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() =>
      expect(calls('/api/door/page').at(-1)).toEqual({ setId: '7', sn: 'B', current: '1', size: '10' }),
    );
    expect(router.state.location.search).toBe('');
    const boxes = screen.getAllByRole('checkbox');
    fireEvent.click(boxes[boxes.length - 1]);
    await waitFor(() => expect(picked.at(-1)?.map((door) => door.sn)).toEqual(['B-2']));
  });
});

describe('the query of a search form and back', () => {
  it('sends a range as its two bounds and reads ids back as numbers', () => {
    const query = queryOf(Object.entries(filters), {
      sn: ' A ',
      state: 'open',
      buildingId: 3,
      at: [dayjs('2026-11-01'), dayjs('2026-11-02')],
    });
    expect(query.sn).toBe('A');
    expect(query.state).toBe('open');
    expect(query.buildingId).toBe(3);
    expect(typeof query.from).toBe('string');
    expect(typeof query.to).toBe('string');
    expect(query).not.toHaveProperty('at');

    const values = formValuesOf(filters, {
      current: 1,
      size: 10,
      sn: 'A',
      buildingId: '3',
      from: '2026-11-01',
      to: '2026-11-02',
    });
    expect(values.sn).toBe('A');
    expect(values.buildingId).toBe(3);
    expect(Array.isArray(values.at)).toBe(true);
  });

  it('leaves a range out when it is empty, and names its bounds after its key by default', () => {
    const query = queryOf([['createdAt', { kind: 'range', label: '时间' }]], { createdAt: null });
    expect(query).toEqual({ createdAtFrom: undefined, createdAtTo: undefined });
  });
});
