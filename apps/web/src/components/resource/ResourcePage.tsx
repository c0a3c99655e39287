/**
 * A whole CRUD screen built from a resource declaration of the contract: search form, table with
 * paging and sorting, create/edit drawer with the same validation as the server, publish switch,
 * delete with confirmation, buttons shown by permission. A page adds only what is special.
 *
 * @example export default function SourcePage() { return <ResourcePage resource={source} />; }
 */
import { Fragment, useState, type ReactElement, type ReactNode } from 'react';
import {
  App,
  Button,
  Card,
  DatePicker,
  Form,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  type TableProps,
} from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  resourcePaths,
  resourcePermissions,
  type Field,
  type Fields,
  type ResourceDef,
} from '@cowork/contract';
import { dayRangeToIso } from '../../lib/format.ts';
import { isDayRange } from '../../lib/values.ts';
import { api, settled } from '../../lib/request.ts';
import { usePermission } from '../PermissionGate.tsx';
import { FieldCell, FieldInput, ReferenceCell, schemaRule } from './field-input.tsx';
import { useKeptForm } from '../../lib/use-kept-form.ts';
import { EditDrawer, SearchButtons, Toolbar } from './page-parts.tsx';
import {
  dayRangeOf,
  numberOrKept,
  pageMoved,
  usePagedQuery,
  useSearchForm,
  type PagedQuery,
} from './use-paged-query.ts';
import './resource.css';
import { useSubmit } from '../../lib/use-submit.ts';

export type ResourceRecord = { id: number; createdAt: string; updatedAt: string } & Record<string, unknown>;

/** A record an open drawer kept across a reload: the edit goes on for the same id. */
const isResourceRecord = (value: unknown): value is ResourceRecord =>
  typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'number';

/** A range picker's value: its two days, or null once cleared. */
const pickedRange = (value: unknown) => (value === null || isDayRange(value) ? value : undefined);

export interface ResourcePageProps<F extends Fields> {
  resource: ResourceDef<F>;
  /**
   * Filters every request carries (e.g. `{type: 'news'}` for one page serving two menus); new
   * records get these values, and their fields are left out of the search form, table and form.
   */
  fixedFilters?: Record<string, string>;
  /** False for a list inside a drawer (字典项): its filters and page are its own, not the address's. */
  inAddress?: boolean;
  /** Fields left out of the search form, table and form on this page (e.g. a news-only article). */
  hiddenFields?: string[];
  /** Extra columns before the actions column. */
  extraColumns?: TableColumnsType<ResourceRecord>;
  /** Extra buttons in a row's actions. */
  rowActions?: (record: ResourceRecord) => ReactNode;
  /** Extra buttons in the toolbar; a function gets the filters in effect (e.g. for an export). */
  toolbar?: ReactNode | ((filters: Record<string, unknown>) => ReactNode);
  /** Extra form items at the end of the edit drawer. */
  formExtra?: ReactNode;
  /**
   * Inputs replacing the standard one of a field in the edit form (a select whose options depend
   * on another field, say); Form.Item gives each its value and onChange.
   */
  inputs?: Record<string, ReactElement>;
  /** Fill the edit form from `detail` rather than the table row (rows show masked values). */
  editFromDetail?: boolean;
  /**
   * Form items that replace a field's own, in its place (several fields entered with one input,
   * e.g. one area cascader for provinceCode, cityCode and regionCode); null leaves a field's item out.
   */
  formItems?: Record<string, ReactNode>;
  /** Search inputs that replace a field's own (value and onChange come from the search form). */
  searchInputs?: Record<string, ReactElement>;
  /** Table cells that replace a field's own (a status shown as a coloured tag, say). */
  cells?: Record<string, (value: unknown, record: ResourceRecord) => ReactNode>;
  /**
   * Shown above the table with the filters of the current search (paging and sorting left out),
   * e.g. totals over the same filters.
   */
  summary?: (filters: Record<string, unknown>) => ReactNode;
  /**
   * The sentence shown after a removal, from the server's answer and the rows removed (what a
   * company's staff lost on leaving it), instead of 已删除 N 条.
   */
  removedMessage?: (answer: unknown, removed: ResourceRecord[]) => string;
  /** After a save or an edit: the server's answer (a key shown once, say), whether it created, the values sent. */
  onSaved?: (answer: unknown, created: boolean, values: Record<string, unknown>) => void;
}

const isListed = (f: Field) =>
  !f.writeOnly && (f.list ?? !['textarea', 'richtext', 'images'].includes(f.kind));

/** The search input of one field. */
function SearchInput({
  field,
  ...props
}: {
  field: Field;
  id?: string;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  if (field.kind === 'boolean') {
    return (
      <Select
        {...props}
        allowClear
        placeholder="全部"
        style={{ width: 120 }}
        options={[
          { value: 'true', label: field.label === '发布状态' ? '已发布' : '是' },
          { value: 'false', label: field.label === '发布状态' ? '未发布' : '否' },
        ]}
      />
    );
  }
  if (field.search === 'range') {
    const { value, onChange, ...passed } = props;
    return <DatePicker.RangePicker {...passed} value={pickedRange(value)} onChange={onChange} />;
  }
  // A record holding several (roles) is searched by one of them.
  if (field.kind === 'references') {
    return (
      <div style={{ minWidth: 180 }}>
        <FieldInput field={{ ...field, kind: 'reference' }} {...props} />
      </div>
    );
  }
  return (
    <div style={{ minWidth: 180 }}>
      <FieldInput field={field} {...props} />
    </div>
  );
}

/** The filters of a page query without its paging and sorting, with the page's fixed filters. */
const filtersOf = (query: Record<string, unknown>, fixed: Record<string, unknown> = {}) => {
  const { current: _current, size: _size, sortField: _sortField, sortOrder: _sortOrder, ...filters } = query;
  return { ...filters, ...fixed };
};

export function ResourcePage<F extends Fields>({
  resource,
  fixedFilters = {},
  inAddress = true,
  hiddenFields = [],
  extraColumns = [],
  rowActions,
  toolbar,
  formExtra,
  inputs = {},
  editFromDetail = false,
  formItems = {},
  searchInputs = {},
  cells = {},
  summary,
  removedMessage,
  onSaved,
}: ResourcePageProps<F>) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const paths = resourcePaths(resource);
  const permissions = resourcePermissions(resource);
  const { can } = usePermission();
  const canEdit = can([permissions.edit]);
  const canRemove = can([permissions.remove]);
  const has = (action: ResourceDef['actions'][number]) => resource.actions.includes(action);
  const declared: Fields = resource.fields;
  const fields = Object.entries(declared).filter(
    ([key]) => !(key in fixedFilters) && !hiddenFields.includes(key),
  );

  const [searchForm] = Form.useForm();
  const [editForm] = Form.useForm();
  const [editing, setEditing] = useState<ResourceRecord | 'new' | null>(null);
  const [selected, setSelected] = useState<number[]>([]);

  const paged = usePagedQuery<ResourceRecord>(
    [resource.key, 'page', fixedFilters],
    paths.page,
    fixedFilters,
    {
      inAddress,
    },
  );
  const { query, setQuery, page, search: searchBy, reset, pagination } = paged;
  useSearchForm(searchForm, paged, (q) => searchValuesOf(fields, q));
  const refresh = () => queryClient.invalidateQueries({ queryKey: [resource.key] });
  const refreshLists = () => queryClient.invalidateQueries({ queryKey: ['list', paths.list] });

  const save = useSubmit({
    mutationFn: (values: Record<string, unknown>) =>
      editing === 'new' || editing === null
        ? api.post<ResourceRecord>(paths.save, { ...values, ...fixedFilters })
        : api.put<ResourceRecord>(paths.edit, { ...values, id: editing.id }),
    onSuccess: (answer, values) => {
      message.success(editing === 'new' ? `${resource.label}已新建` : `${resource.label}已保存`);
      onSaved?.(answer, editing === 'new', values);
      setEditing(null);
      void refresh();
      void refreshLists();
    },
  });
  const publish = useMutation({
    mutationFn: (v: { id: number; published: boolean }) => api.put(paths.editPublished, v),
    onSuccess: (_data, v) => {
      message.success(v.published ? `${resource.label}已发布` : `${resource.label}已下架`);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (ids: number[]) =>
      ids.length === 1 ? api.deleteById(paths.remove, ids[0]) : api.delete(paths.remove, { ids }),
    onSuccess: (answer, ids) => {
      const removed = (page.data?.records ?? []).filter((r) => ids.includes(r.id));
      message.success(removedMessage?.(answer, removed) ?? `已删除 ${ids.length} 条${resource.label}`);
      setSelected([]);
      void refresh();
      void refreshLists();
    },
  });

  const search = (values: Record<string, unknown>) => {
    const filters: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      const field = resource.fields[key];
      if (field?.search === 'range') {
        const { from, to } = dayRangeToIso(pickedRange(value));
        Object.assign(filters, { [`${key}From`]: from, [`${key}To`]: to });
      } else filters[key] = typeof value === 'string' ? value.trim() : value;
    }
    searchBy(filters);
  };

  // An expired session reloads the page: the open drawer comes back with what was typed in it.
  useKeptForm(
    `resource:${resource.key}`,
    editing !== null,
    () => ({ context: editing, values: editForm.getFieldsValue(true) }),
    ({ context, values }) => {
      editForm.resetFields();
      editForm.setFieldsValue(values);
      setEditing(isResourceRecord(context) ? context : 'new');
    },
  );

  const openEditor = async (record: ResourceRecord | 'new') => {
    editForm.resetFields();
    const values =
      record !== 'new' && editFromDetail
        ? await api.getById<ResourceRecord>(paths.detail, record.id)
        : record;
    if (values !== 'new') editForm.setFieldsValue(values);
    setEditing(values);
  };

  const columns: TableColumnsType<ResourceRecord> = [
    ...fields
      .filter(([, f]) => isListed(f))
      .map(([key, f]) => ({
        key,
        title: f.label,
        dataIndex: key,
        sorter: f.sortable,
        render: (value: unknown, record: ResourceRecord) =>
          cells[key] ? (
            cells[key](value, record)
          ) : key === 'published' && has('editPublished') ? (
            <Switch
              checked={Boolean(value)}
              disabled={!canEdit}
              loading={publish.isPending && publish.variables?.id === record.id}
              checkedChildren="已发布"
              unCheckedChildren="未发布"
              aria-label={`发布${resource.label}`}
              onChange={(published) => publish.mutate({ id: record.id, published })}
            />
          ) : f.kind === 'reference' || f.kind === 'references' ? (
            <ReferenceCell field={f} value={value} />
          ) : (
            <FieldCell field={f} value={value} />
          ),
      })),
    ...extraColumns,
  ];
  // A screen whose rows the caller can neither change nor act on (a report) has no actions column.
  if (rowActions || (canEdit && has('edit')) || (canRemove && has('remove'))) {
    columns.push({
      key: 'actions',
      title: '操作',
      fixed: 'right',
      width: 160,
      render: (_: unknown, record: ResourceRecord) => (
        <Space size={4}>
          {canEdit && has('edit') && (
            <Button type="link" size="small" onClick={() => openEditor(record).catch(() => undefined)}>
              编辑
            </Button>
          )}
          {rowActions?.(record)}
          {canRemove && has('remove') && (
            <Popconfirm
              title={`确定删除该${resource.label}吗？`}
              description="删除后不可恢复。"
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => settled(remove.mutateAsync([record.id]))}
            >
              <Button type="link" size="small" danger>
                删除
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    });
  }

  const onTableChange: TableProps<ResourceRecord>['onChange'] = (pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    setQuery((q) => ({
      ...pageMoved(q, pagination.current, pagination.pageSize),
      sortField: s?.order ? String(s.columnKey) : undefined,
      sortOrder: s?.order ?? undefined,
    }));
  };

  const searchable = fields.filter(([, f]) => f.search);
  const writable = fields.filter(([, f]) => f.form !== false && !(f.createOnly && editing !== 'new'));

  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      {searchable.length > 0 && (
        <Card size="small">
          <Form
            form={searchForm}
            name={`${resource.key}-search`}
            layout="inline"
            onFinish={search}
            className="resource-search"
          >
            {searchable.map(([key, f]) => (
              <Form.Item key={key} name={key} label={f.label}>
                {searchInputs[key] ?? <SearchInput field={f} />}
              </Form.Item>
            ))}
            <SearchButtons
              onReset={() => {
                searchForm.resetFields();
                reset();
              }}
            />
          </Form>
        </Card>
      )}
      <Card size="small">
        <Toolbar>
          {canEdit && has('save') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => void openEditor('new')}>
              新建{resource.label}
            </Button>
          )}
          {canRemove && has('remove') && (
            <Popconfirm
              title={`确定删除选中的 ${selected.length} 条${resource.label}吗？`}
              description="删除后不可恢复。"
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              disabled={selected.length === 0}
              onConfirm={() => settled(remove.mutateAsync(selected))}
            >
              <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0}>
                批量删除
              </Button>
            </Popconfirm>
          )}
          {typeof toolbar === 'function' ? toolbar(filtersOf(query, fixedFilters)) : toolbar}
        </Toolbar>
        {summary?.(filtersOf(query, fixedFilters))}
        <Table<ResourceRecord>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={page.data?.records ?? []}
          loading={page.isFetching}
          scroll={{ x: 'max-content' }}
          onChange={onTableChange}
          rowSelection={
            canRemove && has('remove')
              ? {
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys.filter((key) => typeof key === 'number')),
                }
              : undefined
          }
          pagination={pagination}
        />
      </Card>
      <EditDrawer
        title={editing === 'new' ? `新建${resource.label}` : `编辑${resource.label}`}
        open={editing !== null}
        saving={save.isPending}
        onClose={() => setEditing(null)}
        form={editForm}
      >
        <Form
          form={editForm}
          name={`${resource.key}-edit`}
          layout="vertical"
          onFinish={(values: Record<string, unknown>) => save.mutate(withHiddenCleared(writable, values))}
          preserve={false}
        >
          {writable.map(([key, f]) =>
            key in formItems ? (
              <Fragment key={key}>{formItems[key]}</Fragment>
            ) : (
              <ShownWhen key={key} field={f}>
                <Form.Item
                  name={key}
                  label={f.label}
                  extra={f.help}
                  required={!f.schema.safeParse(undefined).success}
                  rules={[schemaRule(f)]}
                  initialValue={editing === 'new' ? defaultOf(f) : undefined}
                >
                  {inputs[key] ?? <FieldInput field={f} />}
                </Form.Item>
              </ShownWhen>
            ),
          )}
          {formExtra}
        </Form>
      </EditDrawer>
    </Space>
  );
}

/** A field with `shownWhen` renders only while the other field holds one of the listed values. */
function ShownWhen({ field, children }: { field: Field; children: ReactElement }) {
  const when = field.shownWhen;
  if (!when) return children;
  return (
    <Form.Item noStyle dependencies={[when.field]}>
      {({ getFieldValue }) => (holds(when, getFieldValue(when.field)) ? children : null)}
    </Form.Item>
  );
}

/** Whether the other field of a `shownWhen` holds one of the values that show the field. */
const holds = (when: NonNullable<Field['shownWhen']>, value: unknown) =>
  when.in.some((shown) => shown === value);

/** Hidden `shownWhen` fields are sent as null, so a value they held before is cleared. */
function withHiddenCleared(writable: [string, Field][], values: Record<string, unknown>) {
  const cleared = { ...values };
  for (const [key, f] of writable) {
    const when = f.shownWhen;
    if (when && !holds(when, values[when.field])) cleared[key] = null;
  }
  return cleared;
}

/** The search form's values for the filters of a query: a date range's bounds as its two days. */
function searchValuesOf(fields: [string, Field][], query: PagedQuery): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, f] of fields) {
    if (f.search === 'range') {
      values[key] = dayRangeOf(query[`${key}From`], query[`${key}To`]);
    } else if (f.search && query[key] !== undefined) {
      const numeric = f.kind === 'reference' || f.kind === 'references' || f.kind === 'integer';
      const raw = query[key];
      values[key] = numeric
        ? numberOrKept(raw)
        : f.kind === 'boolean' && (raw === 'true' || raw === 'false')
          ? raw === 'true'
          : raw;
    }
  }
  return values;
}

/** The schema's default (e.g. sort 0, published false) for a new record. */
function defaultOf(field: Field): unknown {
  const result = field.schema.safeParse(undefined);
  return result.success ? (result.data ?? undefined) : undefined;
}

export default ResourcePage;
