import { Card, DatePicker, Form, Select, Space, Table, Tag, Typography, type TableProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import {
  actorLabel,
  endpoints,
  formatPercent,
  formatYuan,
  type AuditLogRecord,
  type Field,
  type ListOption,
  optionLabel,
} from '@cowork/contract';
import {
  auditActionLabel,
  auditActionLabels,
  auditCommonFieldLabels,
  auditFieldsOf,
  auditResourceLabel,
  auditResourceLabels,
} from '@cowork/contract/resources/audit-vocabulary';
import { SearchButtons } from '../../components/resource/page-parts.tsx';
import {
  dayRangeOf,
  numberOrKept,
  usePagedQuery,
  useSearchForm,
} from '../../components/resource/use-paged-query.ts';
import { dayRangeToIso, formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import './log.css';

interface SearchForm {
  actorId?: number;
  resource?: string;
  action?: string;
  range?: [Dayjs, Dayjs] | null;
}

const resourceOptions = Object.entries(auditResourceLabels)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label, 'zh-CN'));
const actionOptions = [
  ...new Map(Object.entries(auditActionLabels).map(([value, label]) => [label, value])),
].map(([label, value]) => ({ value, label }));

/** A recorded value as staff read it: money in yuan, times in Beijing time, options by name. */
function shownValue(field: Field | undefined, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field?.kind === 'money' && typeof value === 'number') return formatYuan(value);
  if (field?.kind === 'percent' && typeof value === 'number') return formatPercent(value);
  if (field?.kind === 'enum') return optionLabel(field.options ?? [], String(value));
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return formatTime(value);
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join('、') || '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const asObject = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

interface DiffRow {
  key: string;
  label: string;
  before: string;
  after: string;
  changed: boolean;
}

/** The entry's before and after, field by field, labelled as the resource's screen labels them. */
export function diffOf(record: Pick<AuditLogRecord, 'resource' | 'before' | 'after'>): DiffRow[] {
  const fields = auditFieldsOf(record.resource);
  const [before, after] = [asObject(record.before), asObject(record.after)];
  const keys = [...new Set([...Object.keys(fields), ...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => key in before || key in after,
  );
  return keys.map((key) => {
    const field = fields[key] as Field | undefined;
    return {
      key,
      label: field?.label ?? auditCommonFieldLabels[key] ?? key,
      before: key in before ? shownValue(field, before[key]) : '—',
      after: key in after ? shownValue(field, after[key]) : '—',
      changed:
        record.before != null &&
        record.after != null &&
        JSON.stringify(before[key]) !== JSON.stringify(after[key]),
    };
  });
}

const columns: TableProps<AuditLogRecord>['columns'] = [
  { title: '时间', dataIndex: 'at', width: 180, render: (at: string) => formatTime(at) },
  {
    title: '操作人',
    dataIndex: 'actorName',
    width: 180,
    render: (_: unknown, { actorName, actorUsername }: AuditLogRecord) =>
      actorLabel(actorName, actorUsername),
  },
  {
    title: '操作',
    dataIndex: 'action',
    width: 140,
    render: (action: string) => <Tag title={action}>{auditActionLabel(action)}</Tag>,
  },
  {
    title: '资源',
    dataIndex: 'resource',
    ellipsis: true,
    render: (resource: string) => <span title={resource}>{auditResourceLabel(resource)}</span>,
  },
  { title: '资源ID', dataIndex: 'resourceId', width: 120, render: (id: string | null) => id ?? '—' },
  { title: 'IP', dataIndex: 'ip', width: 150, render: (ip: string | null) => ip ?? '—' },
];

function Change({ record }: { record: AuditLogRecord }) {
  const rows = diffOf(record);
  if (rows.length === 0) return <Typography.Text type="secondary">没有记录变更内容</Typography.Text>;
  const both = record.before != null && record.after != null;
  return (
    <Table<DiffRow>
      className="audit-change"
      rowKey="key"
      size="small"
      pagination={false}
      dataSource={rows}
      rowClassName={(row) => (row.changed ? 'audit-changed' : '')}
      columns={[
        { title: '字段', dataIndex: 'label', width: 160 },
        ...(record.before != null ? [{ title: '变更前', dataIndex: 'before' }] : []),
        ...(record.after != null ? [{ title: both ? '变更后' : '内容', dataIndex: 'after' }] : []),
      ]}
    />
  );
}

/** 操作日志: every write recorded by the server, newest first, with its before and after. */
export default function AuditLogPage() {
  const [form] = Form.useForm<SearchForm>();
  const paged = usePagedQuery<AuditLogRecord>(['auditLogPage'], endpoints.auditLogPage);
  const { page, search, reset, turnPage, pagination } = paged;
  useSearchForm(form, paged, (q) => ({
    actorId: numberOrKept(q.actorId),
    resource: q.resource,
    action: q.action,
    range: dayRangeOf(q.from, q.to),
  }));
  const actors = useQuery({
    queryKey: ['auditLogActors'],
    queryFn: () => api.get<ListOption[]>(endpoints.auditLogActors),
  });

  const onSearch = ({ actorId, resource, action, range }: SearchForm) =>
    search({ actorId, resource, action, ...dayRangeToIso(range) });

  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <Card size="small">
        <Form<SearchForm> form={form} layout="inline" onFinish={onSearch} className="audit-search">
          <Form.Item name="actorId" label="操作人">
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="全部"
              style={{ width: 200 }}
              loading={actors.isFetching}
              options={actors.data ?? []}
            />
          </Form.Item>
          <Form.Item name="resource" label="资源">
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="全部"
              style={{ width: 180 }}
              options={resourceOptions}
            />
          </Form.Item>
          <Form.Item name="action" label="操作">
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="全部"
              style={{ width: 160 }}
              options={actionOptions}
            />
          </Form.Item>
          <Form.Item name="range" label="时间">
            <DatePicker.RangePicker allowClear />
          </Form.Item>
          <SearchButtons
            onReset={() => {
              form.resetFields();
              reset();
            }}
          />
        </Form>
      </Card>
      <Card size="small">
        <Table<AuditLogRecord>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={page.data?.records ?? []}
          loading={page.isFetching}
          scroll={{ x: 900 }}
          expandable={{ expandedRowRender: (record) => <Change record={record} /> }}
          pagination={{ ...pagination, onChange: turnPage }}
        />
      </Card>
    </Space>
  );
}
