/**
 * 详情 of a device: where it is, its state and what it dropped, the alarms it still has raised, and
 * its last commands with their fate.
 */
import { Descriptions, Drawer, Space, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import {
  deviceCommandLabels,
  deviceCommandStateLabels,
  deviceEndpoints,
  type DeviceDetail,
  type DeviceRecord,
} from '@cowork/contract';
import { formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';
import { AlarmBadge, LeaseText, ModeTag, RebootButton, SyncStateTag } from './DeviceHealth.tsx';
import { placeOf, StatusBadge } from './DevicePicker.tsx';
import { RaisedAlarms } from './RaisedAlarms.tsx';
import { DEVICE_REFRESH_MS } from './WaitingList.tsx';

type CommandRow = DeviceDetail['commands'][number];

const stateColor = (state: CommandRow['state']) =>
  state === 'acked' ? 'green' : state === 'sent' ? 'blue' : 'red';

export function DeviceDetailDrawer({ device, onClose }: { device: DeviceRecord; onClose: () => void }) {
  const detail = useQuery({
    queryKey: ['device', 'detail', device.id],
    queryFn: () => api.get<DeviceDetail>(`${deviceEndpoints.detail}/${device.id}`),
    refetchInterval: DEVICE_REFRESH_MS,
  });
  const d = detail.data;
  return (
    <Drawer
      open
      title={`设备详情：${device.name}`}
      size={640}
      onClose={onClose}
      extra={<RebootButton device={device} />}
    >
      {d && (
        <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
          <Descriptions column={2} size="small" bordered>
            <Descriptions.Item label="序列号">{d.sn}</Descriptions.Item>
            <Descriptions.Item label="状态">
              <StatusBadge device={d} />
            </Descriptions.Item>
            <Descriptions.Item label="位置">{placeOf(d)}</Descriptions.Item>
            <Descriptions.Item label="最后在线">{formatTime(d.lastSeenAt)}</Descriptions.Item>
            <Descriptions.Item label="型号">{d.model ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="固件">{d.firmware ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="权限同步">
              <SyncStateTag device={d} />
            </Descriptions.Item>
            <Descriptions.Item label="模式 / 告警">
              <Space size={6}>
                {d.mode === 'normal' ? '正常' : <ModeTag mode={d.mode} />}
                <AlarmBadge device={d} />
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="离线授权" span={2}>
              <LeaseText device={d} withHours />
            </Descriptions.Item>
            <Descriptions.Item label="丢弃的消息">
              {d.droppedCount}
              {d.lastDropReason ? `（最近：${d.lastDropReason}）` : ''}
            </Descriptions.Item>
          </Descriptions>
          <RaisedAlarms alarms={d.raisedAlarms} sn={d.sn} />
          <Typography.Title level={5}>最近指令</Typography.Title>
          <Table<CommandRow>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={d.commands}
            locale={{ emptyText: '暂无指令' }}
            columns={[
              { title: '时间', key: 'sentAt', render: (_, c) => formatTime(c.sentAt) },
              { title: '指令', key: 'type', render: (_, c) => deviceCommandLabels[c.type] ?? c.type },
              { title: '操作人', key: 'byName', render: (_, c) => c.byName ?? '—' },
              {
                title: '结果',
                key: 'state',
                render: (_, c) => (
                  <Tag color={stateColor(c.state)} title={c.error ?? undefined}>
                    {deviceCommandStateLabels[c.state]}
                  </Tag>
                ),
              },
              { title: '原因 / 错误', key: 'reason', render: (_, c) => c.reason ?? c.error ?? '—' },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}
