/**
 * One screen for a kind of lead (定制场地 / 物业合作): the declaration's search form, table and edit
 * form (ResourcePage) with the city picked on the area cascader and the status as a coloured tag,
 * and a detail drawer showing the lead, its follow-up records (newest first) and, for staff who may
 * edit leads, a 跟进记录 form that calls save-record (a 新线索 becomes 跟进中).
 *
 * @example export default function PlacePage() { return <LeadPage resource={csrCapitalSite} />; }
 */
import { useState } from 'react';
import { App, Button, DatePicker, Empty, Form, Input, Timeline } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import { resourcePaths, resourcePermissions } from '@cowork/contract';
import { saveRecordPath, type LeadRecord, type LeadResource } from '@cowork/contract/resources/lead';
import { formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { AreaCascader } from '../AreaCascader.tsx';
import { usePermission } from '../PermissionGate.tsx';
import { ResourcePage, type ResourceRecord } from '../resource/ResourcePage.tsx';
import { ResourceShow } from '../resource/ResourceShow.tsx';
import '../order/order.css';
import { useSubmit } from '../../lib/use-submit.ts';

/** The province of a city code: 310100 → 310000. */
const provinceOf = (cityCode: string) => `${cityCode.slice(0, 2)}0000`;

/** 城市 on the area cascader, two levels deep: clicking a city chooses it. */
function CityInput({
  value,
  onChange,
  id,
}: {
  value?: string | null;
  onChange?: (cityCode: string | null) => void;
  id?: string;
}) {
  return (
    <AreaCascader
      id={id}
      value={value ? [provinceOf(value), value] : undefined}
      onChange={(path) => onChange?.(path?.[1] ?? null)}
      depth="city"
      placeholder="请选择省/市"
    />
  );
}

/** A field's value in the drawer, references by name. */

type LeadDetail = ResourceRecord & { status: string; records: LeadRecord[] };

/** 跟进记录: content and the next follow-up time, saved through save-record. */
function RecordForm({ resource, id, onSaved }: { resource: LeadResource; id: number; onSaved: () => void }) {
  const [form] = Form.useForm<{ content: string; nextFollowAt?: Dayjs | null }>();
  const { message } = App.useApp();
  const save = useSubmit({
    mutationFn: (values: { content: string; nextFollowAt?: Dayjs | null }) =>
      api.post<LeadRecord>(saveRecordPath(resource), {
        id,
        content: values.content,
        nextFollowAt: values.nextFollowAt ? values.nextFollowAt.toISOString() : null,
      }),
    onSuccess: () => {
      message.success('跟进记录已保存');
      form.resetFields();
      onSaved();
    },
  });
  return (
    <Form form={form} layout="vertical" aria-label="跟进记录" onFinish={(values) => save.mutate(values)}>
      <Form.Item
        name="content"
        label="跟进内容"
        rules={[
          { required: true, whitespace: true, message: '请填写跟进内容' },
          { max: 500, message: '跟进内容最多 500 个字符，请删减后重试' },
        ]}
      >
        <Input.TextArea rows={3} maxLength={500} showCount placeholder="如：电话沟通，客户下周来看场地" />
      </Form.Item>
      <Form.Item name="nextFollowAt" label="下次跟进时间">
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        添加跟进记录
      </Button>
    </Form>
  );
}

function LeadDrawer({
  resource,
  id,
  onClose,
}: {
  resource: LeadResource;
  id: number | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const { can } = usePermission();
  const canEdit = can([resourcePermissions(resource).edit]);
  return (
    <ResourceShow<LeadDetail>
      resource={resource}
      detailPath={resourcePaths(resource).detail}
      id={id}
      onClose={onClose}
      fieldsTitle="线索信息"
      // The city's code is left out: its name is shown.
      omit={['cityCode']}
    >
      {(lead) => (
        <>
          {canEdit && (
            <RecordForm
              resource={resource}
              id={lead.id}
              onSaved={() => void queryClient.invalidateQueries({ queryKey: [resource.key] })}
            />
          )}
          <div>
            <h4 className="order-timeline-title">跟进记录</h4>
            {lead.records.length === 0 ? (
              <Empty description="暂无跟进记录" />
            ) : (
              <Timeline
                aria-label="跟进记录"
                items={lead.records.map((record) => ({
                  key: record.id,
                  content: (
                    <div>
                      <div>{record.content}</div>
                      <div className="order-timeline-meta">
                        {formatTime(record.at)} · {record.by ?? '已删除的用户'}
                        {record.nextFollowAt ? ` · 下次跟进：${formatTime(record.nextFollowAt)}` : ''}
                      </div>
                    </div>
                  ),
                }))}
              />
            )}
          </div>
        </>
      )}
    </ResourceShow>
  );
}

export function LeadPage({ resource }: { resource: LeadResource }) {
  const [viewing, setViewing] = useState<number | null>(null);
  return (
    <>
      <ResourcePage
        resource={resource}
        inputs={{ cityCode: <CityInput /> }}
        rowActions={(record) => (
          <Button type="link" size="small" onClick={() => setViewing(record.id)}>
            详情
          </Button>
        )}
      />
      <LeadDrawer resource={resource} id={viewing} onClose={() => setViewing(null)} />
    </>
  );
}

export default LeadPage;
