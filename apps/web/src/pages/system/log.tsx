import { Card, DatePicker, Form, Input, Select, Space, Table, Tag, Typography, type TableProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import { actorLabel, endpoints, type AuditLogRecord, type ListOption } from '@cowork/contract';
import { SearchButtons } from '../../components/resource/page-parts.tsx';
import { usePagedQuery } from '../../components/resource/use-paged-query.ts';
import { dayRangeToIso, formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import './log.css';

interface SearchForm {
  actorId?: number;
  resource?: string;
  action?: string;
  range?: [Dayjs, Dayjs] | null;
}

/** Chinese names of the common actions; anything else is shown as recorded. */
const actionNames: Record<string, string> = {
  'sign-in': '登录',
  login: '登录',
  logout: '退出登录',
  'refresh-reuse': '刷新令牌被重复使用',
  'create-administrator': '创建管理员',
  create: '新增',
  save: '新增',
  update: '修改',
  edit: '修改',
  remove: '删除',
  delete: '删除',
  'edit-published': '上下架',
  'edit-password': '修改密码',
  'edit-account-status': '启用/停用账号',
  'save-record': '添加跟进记录',
  import: '导入',
  export: '导出',
};

const actionLabel = (action: string) => actionNames[action] ?? action;

const json = (value: unknown) =>
  value === null || value === undefined ? '（无）' : JSON.stringify(value, null, 2);

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
    render: (action: string) => <Tag title={action}>{actionLabel(action)}</Tag>,
  },
  { title: '资源', dataIndex: 'resource', ellipsis: true },
  { title: '资源ID', dataIndex: 'resourceId', width: 120, render: (id: string | null) => id ?? '—' },
  { title: 'IP', dataIndex: 'ip', width: 150, render: (ip: string | null) => ip ?? '—' },
];

function Change({ record }: { record: AuditLogRecord }) {
  return (
    <div className="audit-change">
      <div>
        <Typography.Text type="secondary">变更前</Typography.Text>
        <pre>{json(record.before)}</pre>
      </div>
      <div>
        <Typography.Text type="secondary">变更后</Typography.Text>
        <pre>{json(record.after)}</pre>
      </div>
    </div>
  );
}

/** 操作日志: every write recorded by the server, newest first, with its before and after. */
export default function AuditLogPage() {
  const [form] = Form.useForm<SearchForm>();
  const { page, search, reset, turnPage, pagination } = usePagedQuery<AuditLogRecord>(
    ['auditLogPage'],
    endpoints.auditLogPage,
  );
  const actors = useQuery({
    queryKey: ['auditLogActors'],
    queryFn: () => api.get<ListOption[]>(endpoints.auditLogActors),
  });

  const onSearch = ({ actorId, resource, action, range }: SearchForm) =>
    search({ actorId, resource: resource?.trim(), action: action?.trim(), ...dayRangeToIso(range) });

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
            <Input placeholder="如 sso-user" allowClear />
          </Form.Item>
          <Form.Item name="action" label="操作">
            <Input placeholder="如 edit" allowClear />
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
