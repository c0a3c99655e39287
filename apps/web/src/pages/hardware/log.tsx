/**
 * 开门记录: every door event the devices reported, newest first, with who opened and how; filtered
 * by device, building or space (spaces under it included, offered as 楼宇 / 空间 paths of the
 * building chosen), method, result, member phone and days, and exported to Excel with the same
 * filters. The page shown refreshes itself while open, keeping its page and filters.
 */
import { Card, DatePicker, Form, Input, Select, Space, Table, Tag, type TableProps } from 'antd';
import type { Dayjs } from 'dayjs';
import { deviceEndpoints, openMethodLabels, openResultLabels, type OpenLogRecord } from '@cowork/contract';
import { ExportButton } from '../../components/ExportButton.tsx';
import { useBuildingOptions, useSpaceOptions } from '../../components/hardware/DevicePicker.tsx';
import { LinkBanner } from '../../components/hardware/LinkBanner.tsx';
import { SearchButtons } from '../../components/resource/page-parts.tsx';
import {
  dayRangeOf,
  numberOrKept,
  usePagedQuery,
  useSearchForm,
} from '../../components/resource/use-paged-query.ts';
import { dayRangeToIso, formatTime } from '../../lib/format.ts';
import { rules } from '../../lib/rules.ts';

const REFRESH_MS = 5_000;

interface SearchForm {
  sn?: string;
  buildingId?: number;
  spaceId?: number;
  phone?: string;
  method?: string;
  result?: string;
  range?: [Dayjs, Dayjs] | null;
}

const optionsOf = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

const columns: TableProps<OpenLogRecord>['columns'] = [
  { title: '时间', dataIndex: 'at', width: 180, render: (at: string) => formatTime(at) },
  { title: '设备', dataIndex: 'deviceName', width: 160, render: (v: string | null) => v ?? '（已注销）' },
  {
    title: '位置（楼宇 / 空间）',
    dataIndex: 'spacePath',
    width: 220,
    render: (v: string | null, r) => v ?? (r.deviceName ? '未分配空间' : '—'),
  },
  { title: '序列号', dataIndex: 'sn', width: 150 },
  {
    title: '方式',
    dataIndex: 'method',
    width: 100,
    render: (m: OpenLogRecord['method']) => openMethodLabels[m],
  },
  {
    title: '凭证',
    dataIndex: 'credential',
    width: 100,
    render: (v: string | null) => (v ? `****${v}` : '—'),
  },
  {
    title: '结果',
    dataIndex: 'result',
    width: 80,
    render: (r: OpenLogRecord['result']) => (
      <Tag color={r === 'success' ? 'green' : 'red'}>{openResultLabels[r]}</Tag>
    ),
  },
  { title: '原因', dataIndex: 'reason', render: (v: string | null) => v ?? '—' },
  { title: '开门人', dataIndex: 'who', width: 140, render: (v: string | null) => v ?? '—' },
];

export default function OpenLogPage() {
  const [form] = Form.useForm<SearchForm>();
  // New door events show within REFRESH_MS while the log is open, on the page and filters shown.
  const paged = usePagedQuery<OpenLogRecord>(
    ['device', 'open-log'],
    deviceEndpoints.openLogPage,
    {},
    { refetchInterval: REFRESH_MS },
  );
  const { query, page, search, reset, turnPage, pagination } = paged;
  useSearchForm(form, paged, (q) => ({
    sn: q.sn,
    buildingId: numberOrKept(q.buildingId),
    spaceId: numberOrKept(q.spaceId),
    phone: q.phone,
    method: q.method,
    result: q.result,
    range: dayRangeOf(q.atFrom, q.atTo),
  }));
  const buildings = useBuildingOptions();
  const spaces = useSpaceOptions(Form.useWatch('buildingId', form));
  const onSearch = ({ range, sn, phone, ...rest }: SearchForm) => {
    const { from, to } = dayRangeToIso(range);
    search({ ...rest, sn: sn?.trim(), phone: phone?.trim(), atFrom: from, atTo: to });
  };
  const { current: _current, size: _size, ...filters } = query;
  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <LinkBanner />
      <Card size="small">
        <Form<SearchForm> form={form} name="open-log-search" layout="inline" onFinish={onSearch}>
          <Form.Item name="sn" label="序列号">
            <Input allowClear placeholder="序列号开头" />
          </Form.Item>
          <Form.Item name="buildingId" label="楼宇">
            <Select
              allowClear
              placeholder="全部"
              style={{ width: 180 }}
              options={buildings.data ?? []}
              onChange={(id?: number) => {
                // A space of another building would find nothing: it goes with the building.
                if (!spaces.fits(form.getFieldValue('spaceId'), id)) form.setFieldValue('spaceId', undefined);
              }}
            />
          </Form.Item>
          <Form.Item name="spaceId" label="空间">
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="全部"
              style={{ width: 260 }}
              popupMatchSelectWidth={false}
              options={spaces.options}
            />
          </Form.Item>
          <Form.Item
            name="phone"
            label="会员手机号"
            rules={[{ pattern: /^\d{0,11}$/, message: '手机号只能是数字，最多 11 位' }]}
          >
            <Input allowClear placeholder="完整手机号或后四位" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="method" label="方式">
            <Select
              allowClear
              placeholder="全部"
              style={{ width: 120 }}
              options={optionsOf(openMethodLabels)}
            />
          </Form.Item>
          <Form.Item name="result" label="结果">
            <Select
              allowClear
              placeholder="全部"
              style={{ width: 100 }}
              options={optionsOf(openResultLabels)}
            />
          </Form.Item>
          <Form.Item name="range" label="时间" rules={rules.dateRangeOptional}>
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
      <Card
        size="small"
        extra={<ExportButton path={deviceEndpoints.openLogExport} filters={filters} label="开门记录" />}
      >
        <Table<OpenLogRecord>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={page.data?.records ?? []}
          // Not while it refreshes itself: a spinner every few seconds would hide the rows.
          loading={page.isLoading || page.isPlaceholderData}
          scroll={{ x: 1320 }}
          pagination={{ ...pagination, onChange: turnPage }}
        />
      </Card>
    </Space>
  );
}
