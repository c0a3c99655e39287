/**
 * A list screen that is not plain CRUD (设备管理, 开门记录, 门禁联动, 操作日志), built from a
 * declaration as ResourcePage is built from a resource: the search form from its `filters`, the table
 * from its `columns`, the rows from its page (or list) endpoint, refreshed every `refreshMs` when rows
 * change by themselves. A page adds what is its own through slots: row actions, toolbar buttons, a
 * banner above, a note above the table, an expanded row. It shares the search buttons, toolbar and
 * paging of ResourcePage (page-parts.tsx, use-paged-query.ts) and the options of reference inputs
 * (field-input.tsx). See docs/resources.md.
 *
 * @example
 *   const openLog: ListDef<OpenLogRecord> = {
 *     queryKey: ['device', 'open-log'], source: { page: deviceEndpoints.openLogPage },
 *     filters: { sn: { kind: 'text', label: '序列号' } },
 *     columns: [{ title: '序列号', value: 'sn' }],
 *   };
 *   <ListPage list={openLog} header={<LinkBanner />} />
 */
import { Fragment, useState, type Key, type ReactElement, type ReactNode } from 'react';
import {
  Card,
  DatePicker,
  Form,
  Grid,
  Input,
  Select,
  Space,
  Table,
  type FormInstance,
  type FormRule,
  type SelectProps,
  type TableColumnsType,
  type TablePaginationConfig,
} from 'antd';
import { useQuery } from '@tanstack/react-query';
import { cleanPayload, type Field, type Option } from '@cowork/contract';
import { dayRangeToIso } from '../../lib/format.ts';
import { isDayRange } from '../../lib/values.ts';
import { api } from '../../lib/request.ts';
import { rules } from '../../lib/rules.ts';
import { contractRules } from './contract-rules.ts';
import { useListOptions } from './field-input.tsx';
import { SearchButtons, Toolbar } from './page-parts.tsx';
import {
  dayRangeOf,
  numberOrKept,
  usePagedQuery,
  useSearchForm,
  type PagedQuery,
} from './use-paged-query.ts';
import './resource.css';

/** Choices of a filter: the contract's options, or its `{value: label}` labels of an enumeration. */
type Choices = readonly Option[] | Readonly<Record<string, string>>;

/** One input of a list's search form; its key in `filters` is the query parameter it sets. */
export type ListFilter =
  /** Free text, sent trimmed; `schema` (the contract's, for this parameter) checks it as the server would. */
  | { kind: 'text'; label: string; placeholder?: string; width?: number; schema?: Field['schema'] }
  /** One of fixed choices (an enumeration); `searchable` for long lists narrowed by typing. */
  | { kind: 'choice'; label: string; options: Choices; width?: number; searchable?: boolean }
  /** One record (an id) of a `GET …/list` endpoint answering `{value, label}`. */
  | { kind: 'reference'; label: string; endpoint: string; width?: number; searchable?: boolean }
  /** Days from–to, sent as the `bounds` parameters (default `{key}From`, `{key}To`) in business time. */
  | { kind: 'range'; label: string; bounds?: readonly [string, string] }
  /**
   * An input of the page's own (a select narrowed by another filter); the form gives it value and
   * onChange. `numeric`: its values are ids, read back from the address as numbers.
   */
  | { kind: 'custom'; label: string; input: ReactElement; numeric?: boolean };

export interface ListColumn<Row> {
  title: string;
  /** The row's property shown as text ('—' when empty); `render` shows anything else. */
  value?: keyof Row & string;
  render?: (row: Row) => ReactNode;
  width?: number;
  ellipsis?: boolean;
}

export interface ListDef<Row> {
  /** The cache key its queries start with: invalidating it refreshes the list. */
  queryKey: readonly unknown[];
  /**
   * `page`: a `GET …/page` endpoint, its filters, page and size kept in the address (`inAddress:
   * false` for a list inside a drawer: its own); `list`: a `GET …/list` answering every row (a few),
   * filtered on the screen's own state.
   */
  source: { page: string; inAddress?: false } | { list: string };
  /** The search form, in order. */
  filters?: Record<string, ListFilter>;
  columns: ListColumn<Row>[];
  /** ms between refreshes of the rows shown, for rows that change by themselves (states, door events). */
  refreshMs?: number;
  /** The search form's name (its id and its inputs' id prefix); `searchClassName` a class for it. */
  formName?: string;
  searchClassName?: string;
  /** A row's key: a property, or built from several (rows with no id of their own). */
  rowKey?: (keyof Row & string) | ((row: Row) => string);
  /** A `list` source's rows shown this many a page (a whole list can be long: everyone at a door). */
  pageSize?: number;
  /** `small` for a list inside a drawer. */
  size?: 'small' | 'middle';
  /** The table's width before it scrolls sideways. */
  scrollX?: number;
  emptyText?: string;
  actionsWidth?: number;
}

export interface ListPageProps<Row> {
  list: ListDef<Row>;
  /** Above the search form (a banner). */
  header?: ReactNode;
  /** Buttons above the table; a function gets the filters in effect (an export). */
  toolbar?: ReactNode | ((filters: Record<string, unknown>) => ReactNode);
  /** Shown between the toolbar and the table (what the list means). */
  beforeTable?: ReactNode;
  /** A row's buttons, in an 操作 column pinned right (not on a phone, where it would cover the row). */
  rowActions?: (row: Row) => ReactNode;
  /** What an expanded row shows (a change's before and after). */
  expandedRow?: (row: Row) => ReactNode;
  /** False inside another frame (a tab): no cards around the search form and the table. */
  framed?: boolean;
  /** Filters every request carries (the record a list inside a drawer belongs to). */
  fixedFilters?: Record<string, unknown>;
  /** Rows picked for a toolbar action: their keys, and the rows picked when they change. */
  selection?: { keys: readonly Key[]; onChange: (rows: Row[]) => void };
}

/** The rows of a list and how its search moves them, whichever its source. */
interface ListRows<Row> {
  rows: Row[];
  loading: boolean;
  pagination: TablePaginationConfig | false;
  /** The filters in effect, for the toolbar. */
  filters: Record<string, unknown>;
  search: (filters: Record<string, unknown>) => void;
  reset: () => void;
}

export function ListPage<Row extends object>(props: ListPageProps<Row>) {
  const { source } = props.list;
  return 'page' in source ? (
    <PagedList {...props} path={source.page} inAddress={source.inAddress ?? true} />
  ) : (
    <WholeList {...props} path={source.list} />
  );
}

/** A paged list: filters, page and size in the address, so links, reload and back show the same rows. */
function PagedList<Row extends object>(props: ListPageProps<Row> & { path: string; inAddress: boolean }) {
  const { list, path, inAddress, fixedFilters = {} } = props;
  const [form] = Form.useForm();
  const paged = usePagedQuery<Row>([...list.queryKey, fixedFilters], path, fixedFilters, {
    inAddress,
    refetchInterval: list.refreshMs,
  });
  const filters = list.filters ?? {};
  useSearchForm(form, paged, (query) => formValuesOf(filters, query));
  const { page, query } = paged;
  const { current: _current, size: _size, ...inEffect } = query;
  const rows: ListRows<Row> = {
    rows: page.data?.records ?? [],
    // A list refreshing itself shows no spinner for it: one every few seconds would hide the rows.
    loading: list.refreshMs ? page.isLoading || page.isPlaceholderData : page.isFetching,
    pagination: { ...paged.pagination, onChange: paged.turnPage },
    filters: inEffect,
    search: paged.search,
    reset: paged.reset,
  };
  return <ListView {...props} form={form} rows={rows} />;
}

/** A list answered whole (a few rows): its filters are the screen's own. */
function WholeList<Row extends object>(props: ListPageProps<Row> & { path: string }) {
  const { list, path } = props;
  const [form] = Form.useForm();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const asked = { ...filters, ...props.fixedFilters };
  const answer = useQuery({
    queryKey: [...list.queryKey, 'list', asked],
    queryFn: () => api.get<Row[]>(path, asked),
    refetchInterval: list.refreshMs,
  });
  const rows: ListRows<Row> = {
    rows: answer.data ?? [],
    loading: answer.isLoading,
    pagination: list.pageSize
      ? { pageSize: list.pageSize, hideOnSinglePage: true, showSizeChanger: false, showTotal: totalText }
      : false,
    filters,
    search: (next) => setFilters(cleanPayload(next)),
    reset: () => setFilters({}),
  };
  return <ListView {...props} form={form} rows={rows} />;
}

function ListView<Row extends object>({
  list,
  header,
  toolbar,
  beforeTable,
  rowActions,
  expandedRow,
  framed = true,
  selection,
  form,
  rows,
}: ListPageProps<Row> & { form: FormInstance; rows: ListRows<Row> }) {
  // A phone's screen is narrower than the actions: pinned right they would cover the first columns.
  const narrow = Grid.useBreakpoint().md === false;
  const Frame = framed ? FramedCard : Fragment;
  const filters = Object.entries(list.filters ?? {});
  const columns: TableColumnsType<Row> = list.columns.map((column) => ({
    key: column.value ?? column.title,
    title: column.title,
    width: column.width,
    ellipsis: column.ellipsis,
    render: (_: unknown, row: Row) => (column.render ? column.render(row) : textOf(column.value, row)),
  }));
  if (rowActions) {
    columns.push({
      key: 'actions',
      title: '操作',
      fixed: narrow ? undefined : 'right',
      width: list.actionsWidth ?? 160,
      render: (_: unknown, row: Row) => <Space size={0}>{rowActions(row)}</Space>,
    });
  }
  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      {header}
      {filters.length > 0 && (
        <Frame>
          <Form
            form={form}
            name={list.formName}
            layout="inline"
            className={['resource-search', list.searchClassName].filter(Boolean).join(' ')}
            onFinish={(values: Record<string, unknown>) => rows.search(queryOf(filters, values))}
          >
            {filters.map(([key, filter]) => (
              <Form.Item key={key} name={key} label={filter.label} rules={rulesOf(filter)}>
                {filterInput(filter)}
              </Form.Item>
            ))}
            <SearchButtons
              onReset={() => {
                form.resetFields();
                rows.reset();
              }}
            />
          </Form>
        </Frame>
      )}
      <Frame>
        {toolbar && <Toolbar>{typeof toolbar === 'function' ? toolbar(rows.filters) : toolbar}</Toolbar>}
        {beforeTable && <div style={{ marginBottom: 12 }}>{beforeTable}</div>}
        <Table<Row>
          rowKey={list.rowKey ?? 'id'}
          size={list.size ?? 'middle'}
          columns={columns}
          dataSource={rows.rows}
          loading={rows.loading}
          scroll={list.scrollX ? { x: list.scrollX } : undefined}
          expandable={expandedRow ? { expandedRowRender: expandedRow } : undefined}
          locale={list.emptyText ? { emptyText: list.emptyText } : undefined}
          pagination={rows.pagination}
          rowSelection={
            selection && {
              selectedRowKeys: [...selection.keys],
              onChange: (_keys, picked) => selection.onChange(picked),
            }
          }
        />
      </Frame>
    </Space>
  );
}

const totalText = (total: number) => `共 ${total} 条`;

function FramedCard({ children }: { children: ReactNode }) {
  return <Card size="small">{children}</Card>;
}

/** A property's value as a cell shows it: '—' when empty. */
function textOf<Row extends object>(key: (keyof Row & string) | undefined, row: Row): ReactNode {
  const value: unknown = key === undefined ? undefined : row[key];
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

const optionsOf = (choices: Choices) =>
  (isOptionList(choices) ? choices : Object.entries(choices).map(([value, label]) => ({ value, label }))).map(
    ({ value, label }) => ({ value, label }),
  );

const isOptionList = (choices: Choices): choices is readonly Option[] => Array.isArray(choices);

const widthOf = (width: number | undefined) => (width ? { width } : undefined);

/** The input of one filter (value and onChange come from its Form.Item). */
function filterInput(filter: ListFilter): ReactElement {
  switch (filter.kind) {
    case 'text':
      return <Input allowClear placeholder={filter.placeholder} style={widthOf(filter.width)} />;
    case 'choice':
      return (
        <Select
          allowClear
          showSearch={filter.searchable ? { optionFilterProp: 'label' } : undefined}
          placeholder="全部"
          style={widthOf(filter.width)}
          options={optionsOf(filter.options)}
        />
      );
    case 'reference':
      return (
        <ReferenceFilter
          endpoint={filter.endpoint}
          showSearch={filter.searchable ? { optionFilterProp: 'label' } : undefined}
          style={widthOf(filter.width)}
        />
      );
    case 'range':
      return <DatePicker.RangePicker allowClear />;
    case 'custom':
      return filter.input;
  }
}

/** A reference filter: the records of its list endpoint (cached with every select of that endpoint). */
function ReferenceFilter({ endpoint, ...props }: SelectProps & { endpoint: string }) {
  const options = useListOptions(endpoint);
  return (
    <Select
      {...props}
      allowClear
      placeholder="全部"
      loading={options.isFetching}
      options={options.data?.map(({ value, label }) => ({ value, label }))}
    />
  );
}

/** A range needs both ends; text the contract checks says what the server would. */
function rulesOf(filter: ListFilter): FormRule[] | undefined {
  if (filter.kind === 'range') return rules.dateRangeOptional;
  if (filter.kind === 'text' && filter.schema) return contractRules(filter.label, filter.schema).rules;
  return undefined;
}

const boundsOf = (key: string, filter: { bounds?: readonly [string, string] }) =>
  filter.bounds ?? [`${key}From`, `${key}To`];

/** The search form's values for a query (strings from the address): ids as numbers, ranges as days. */
export function formValuesOf(
  filters: Record<string, ListFilter>,
  query: PagedQuery,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, filter] of Object.entries(filters)) {
    if (filter.kind === 'range') {
      const [from, to] = boundsOf(key, filter);
      values[key] = dayRangeOf(query[from], query[to]);
    } else if (filter.kind === 'reference' || (filter.kind === 'custom' && filter.numeric)) {
      values[key] = numberOrKept(query[key]);
    } else values[key] = query[key];
  }
  return values;
}

/** The query a search form's values ask for: text trimmed, a range as its two bounds. */
export function queryOf(
  filters: [string, ListFilter][],
  values: Record<string, unknown>,
): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [key, filter] of filters) {
    const value = values[key];
    if (filter.kind === 'range') {
      const [from, to] = boundsOf(key, filter);
      const bounds = dayRangeToIso(isDayRange(value) ? value : null);
      Object.assign(query, { [from]: bounds.from, [to]: bounds.to });
    } else query[key] = typeof value === 'string' ? value.trim() : value;
  }
  return query;
}

export default ListPage;
