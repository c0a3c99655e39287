/**
 * 告警记录: the alarms door devices raised (门长时间未关, 强行开门, 设备防拆, 断电, 设备故障), newest
 * first, filtered by building, device, kind, state and days, and exported to Excel with the same
 * filters. Staff who may edit acknowledge an alarm with a note (确认); a cleared alarm stays 已恢复
 * and shows who acknowledged it. The page refreshes itself while open, so new alarms show within
 * seconds.
 */
import { useState } from 'react';
import { App, Button, Form, Input, Modal, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  ALARM_EDIT_PERMISSION,
  alarmAcknowledgeBody,
  alarmKindLabels,
  alarmStateLabels,
  deviceEndpoints,
  type AlarmRecord,
  type AlarmState,
} from '@cowork/contract';
import { ExportButton } from '../../components/ExportButton.tsx';
import { LinkBanner } from '../../components/hardware/LinkBanner.tsx';
import { BuildingSelect } from '../../components/hardware/PlaceSelects.tsx';
import { DEVICE_REFRESH_MS } from '../../components/hardware/WaitingList.tsx';
import { usePermission } from '../../components/PermissionGate.tsx';
import { contractRules } from '../../components/resource/contract-rules.ts';
import { ListPage, type ListDef } from '../../components/resource/ListPage.tsx';
import { formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';

const alarmKey = ['device', 'alarm'];

const stateColors: Record<AlarmState, string> = { open: 'red', acknowledged: 'orange', cleared: 'green' };

/** 未处理 / 已确认 / 已恢复, with 已确认 beside 已恢复 when staff acknowledged it before or after. */
function AlarmStateTag({ alarm }: { alarm: Pick<AlarmRecord, 'state' | 'acknowledgedAt'> }) {
  return (
    <>
      <Tag color={stateColors[alarm.state]}>{alarmStateLabels[alarm.state]}</Tag>
      {alarm.state === 'cleared' && alarm.acknowledgedAt && <Tag>{alarmStateLabels.acknowledged}</Tag>}
    </>
  );
}

const alarmList: ListDef<AlarmRecord> = {
  queryKey: alarmKey,
  source: { page: deviceEndpoints.alarmPage },
  refreshMs: DEVICE_REFRESH_MS,
  formName: 'alarm-search',
  filters: {
    buildingId: {
      kind: 'custom',
      label: '楼宇',
      numeric: true,
      input: <BuildingSelect placeholder="全部" style={{ width: 180 }} />,
    },
    sn: { kind: 'text', label: '设备序列号', placeholder: '序列号开头' },
    kind: { kind: 'choice', label: '告警类型', options: alarmKindLabels, width: 150 },
    state: { kind: 'choice', label: '状态', options: alarmStateLabels, width: 120 },
    at: { kind: 'range', label: '告警时间' },
  },
  columns: [
    { title: '告警时间', width: 170, render: (r) => formatTime(r.raisedAt) },
    { title: '类型', width: 130, render: (r) => <Tag color="volcano">{alarmKindLabels[r.kind]}</Tag> },
    { title: '状态', width: 140, render: (r) => <AlarmStateTag alarm={r} /> },
    { title: '设备', width: 150, render: (r) => r.deviceName ?? '（已注销）' },
    { title: '序列号', value: 'sn', width: 140 },
    { title: '楼宇', width: 140, render: (r) => r.buildingName ?? '—' },
    { title: '详情', value: 'detail', ellipsis: true },
    { title: '恢复时间', width: 170, render: (r) => (r.clearedAt ? formatTime(r.clearedAt) : '—') },
    {
      title: '确认',
      width: 220,
      render: (r) =>
        r.acknowledgedAt ? (
          <Typography.Text>
            {r.acknowledgedBy} {formatTime(r.acknowledgedAt)}：{r.note}
          </Typography.Text>
        ) : (
          '—'
        ),
    },
  ],
  scrollX: 1500,
  actionsWidth: 90,
};

/** 确认告警: a note is required (what was done); the audit log keeps it. */
function AcknowledgeModal({ alarm, onClose }: { alarm: AlarmRecord; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ note: string }>();
  const acknowledge = useSubmit({
    mutationFn: (note: string) => api.post(deviceEndpoints.alarmAcknowledge, { id: alarm.id, note }),
    onSuccess: () => {
      message.success(`告警“${alarmKindLabels[alarm.kind]}”已确认`);
      void queryClient.invalidateQueries({ queryKey: ['device'] });
      onClose();
    },
  });
  return (
    <Modal
      open
      title={`确认告警：${alarm.deviceName ?? alarm.sn} · ${alarmKindLabels[alarm.kind]}`}
      okText="确认"
      confirmLoading={acknowledge.isPending}
      onOk={() => void form.validateFields().then(({ note }) => acknowledge.mutate(note))}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">
        告警时间 {formatTime(alarm.raisedAt)}
        {alarm.detail ? `，${alarm.detail}` : ''}。
        {alarm.state === 'cleared' ? '设备已报告恢复，确认后仍显示为已恢复。' : ''}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" name="alarm-acknowledge">
        <Form.Item
          name="note"
          label="处理说明"
          {...contractRules('处理说明', alarmAcknowledgeBody.shape.note)}
        >
          <Input.TextArea rows={3} placeholder="例如：已派保安到现场关门" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function AlarmPage() {
  const { can } = usePermission();
  const canEdit = can([ALARM_EDIT_PERMISSION]);
  const [acknowledging, setAcknowledging] = useState<AlarmRecord>();
  return (
    <>
      <ListPage
        list={alarmList}
        header={<LinkBanner />}
        toolbar={(filters) => (
          <ExportButton path={deviceEndpoints.alarmExport} filters={filters} label="告警记录" />
        )}
        rowActions={
          canEdit
            ? (alarm) =>
                alarm.acknowledgedAt ? null : (
                  <Button type="link" size="small" onClick={() => setAcknowledging(alarm)}>
                    确认
                  </Button>
                )
            : undefined
        }
      />
      {acknowledging && (
        <AcknowledgeModal alarm={acknowledging} onClose={() => setAcknowledging(undefined)} />
      )}
    </>
  );
}
