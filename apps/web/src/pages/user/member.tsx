/**
 * 会员: members come from the member app, so staff search, read and correct them here (no create
 * or delete). Lists mask ID numbers; 详情 and the edit form load the detail, which carries the full
 * number only for staff who may edit members. 详情 also lists 可开的门: every door the member can
 * open, why, until when and whether the device holds it yet.
 */
import { useMemo, useState } from 'react';
import { Avatar, Button, Descriptions, Drawer, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { resourcePaths } from '@cowork/contract';
import { member } from '@cowork/contract/resources/member';
import { DoorList } from '../../components/access/AccessViews.tsx';
import { ResourcePage, type ResourceRecord } from '../../components/resource/ResourcePage.tsx';
import { FieldCell, useListOptions } from '../../components/resource/field-input.tsx';
import { formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { textOf } from '../../lib/values.ts';

const paths = resourcePaths(member);

function MemberDetail({ id, onClose }: { id: number | null; onClose: () => void }) {
  const detail = useQuery({
    queryKey: [member.key, 'detail', id],
    queryFn: () => api.getById<ResourceRecord>(paths.detail, id!),
    enabled: id !== null,
  });
  const sources = useListOptions(member.fields.sourceId.listEndpoint);
  const sourceLabels = useMemo(() => new Map(sources.data?.map((o) => [o.value, o.label])), [sources.data]);
  const record = detail.data;
  const cell = (key: keyof typeof member.fields) => (
    <FieldCell
      field={member.fields[key]}
      value={record?.[key]}
      labels={key === 'sourceId' ? sourceLabels : undefined}
    />
  );
  return (
    <Drawer title="会员详情" open={id !== null} size={960} onClose={onClose} destroyOnHidden>
      {detail.isLoading || !record ? (
        <Spin />
      ) : (
        <>
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label="头像">
              <Avatar src={textOf(record.avatar)}>{String(record.nickname ?? '').slice(0, 1)}</Avatar>
            </Descriptions.Item>
            <Descriptions.Item label="昵称">{cell('nickname')}</Descriptions.Item>
            <Descriptions.Item label="手机号">{cell('phone')}</Descriptions.Item>
            <Descriptions.Item label="真实姓名">{cell('realName')}</Descriptions.Item>
            <Descriptions.Item label="身份证号">{cell('idCardNo')}</Descriptions.Item>
            <Descriptions.Item label="公司名称">{cell('companyName')}</Descriptions.Item>
            <Descriptions.Item label="来源">{cell('sourceId')}</Descriptions.Item>
            <Descriptions.Item label="状态">{cell('status')}</Descriptions.Item>
            <Descriptions.Item label="注册时间">{cell('registeredAt')}</Descriptions.Item>
            <Descriptions.Item label="最后更新">{formatTime(record.updatedAt)}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            可开的门
          </Typography.Title>
          <DoorList memberId={record.id} />
        </>
      )}
    </Drawer>
  );
}

export default function MemberPage() {
  const [viewing, setViewing] = useState<number | null>(null);
  return (
    <>
      <ResourcePage
        resource={member}
        editFromDetail
        rowActions={(record) => (
          <Button type="link" size="small" onClick={() => setViewing(record.id)}>
            详情
          </Button>
        )}
      />
      <MemberDetail id={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
