/**
 * The audit log as a list: every write recorded by the server, newest first, searched by who, what
 * and when; an expanded row shows the change field by field, labelled as the resource's screen labels
 * them. 操作日志 shows all of it; a company's 操作记录 (企业 详情) the entries of the company, its
 * staff, groups and cards.
 */
import { Table, Tag, Typography } from 'antd';
import {
  actorLabel,
  endpoints,
  formatPercent,
  formatYuan,
  type AuditLogRecord,
  type Field,
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
import { ListPage, type ListDef } from '../resource/ListPage.tsx';
import { formatTime } from '../../lib/format.ts';
import './audit-log.css';

const resourceOptions = Object.entries(auditResourceLabels)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label, 'zh-CN'));
// Several actions share a label (修改 for edit and edit-published): each label is offered once.
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

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asObject = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

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
    const field: Field | undefined = Object.hasOwn(fields, key) ? fields[key] : undefined;
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

const auditLogList = (inAddress: boolean): ListDef<AuditLogRecord> => ({
  queryKey: ['auditLogPage'],
  source: inAddress ? { page: endpoints.auditLogPage } : { page: endpoints.auditLogPage, inAddress: false },
  searchClassName: 'audit-search',
  filters: {
    actorId: {
      kind: 'reference',
      label: '操作人',
      endpoint: endpoints.auditLogActors,
      searchable: true,
      width: 200,
    },
    resource: { kind: 'choice', label: '资源', options: resourceOptions, searchable: true, width: 180 },
    action: { kind: 'choice', label: '操作', options: actionOptions, searchable: true, width: 160 },
    at: { kind: 'range', label: '时间', bounds: ['from', 'to'] },
  },
  columns: [
    { title: '时间', width: 180, render: (entry) => formatTime(entry.at) },
    {
      title: '操作人',
      width: 180,
      render: (entry) => actorLabel(entry.actorName, entry.actorUsername),
    },
    {
      title: '操作',
      width: 140,
      render: (entry) => <Tag title={entry.action}>{auditActionLabel(entry.action)}</Tag>,
    },
    {
      title: '资源',
      ellipsis: true,
      render: (entry) => <span title={entry.resource}>{auditResourceLabel(entry.resource)}</span>,
    },
    { title: '资源ID', value: 'resourceId', width: 120 },
    { title: 'IP', value: 'ip', width: 150 },
  ],
  scrollX: 900,
});

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

const pageList = auditLogList(true);
const ownList = auditLogList(false);

/**
 * The log, its search in the address (操作日志); with `fixedFilters` (a company's entries), a list of
 * its own inside another frame.
 */
export function AuditLog({ fixedFilters }: { fixedFilters?: Record<string, unknown> }) {
  return fixedFilters ? (
    <ListPage
      list={ownList}
      framed={false}
      fixedFilters={fixedFilters}
      expandedRow={(entry) => <Change record={entry} />}
    />
  ) : (
    <ListPage list={pageList} expandedRow={(entry) => <Change record={entry} />} />
  );
}
