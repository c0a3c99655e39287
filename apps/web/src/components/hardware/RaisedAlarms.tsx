/**
 * The alarms a device still has raised (not cleared), in its 详情: each kind by its Chinese name,
 * since when and what the device said, and a link to 告警记录 for the device's whole history.
 */
import { Alert, Space, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { alarmKindLabels, alarmStateLabels, type RaisedAlarm } from '@cowork/contract';
import { formatTime } from '../../lib/format.ts';

export function RaisedAlarms({ alarms, sn }: { alarms: readonly RaisedAlarm[]; sn: string }) {
  const history = `/hardware/alarm?sn=${encodeURIComponent(sn)}`;
  if (alarms.length === 0)
    return (
      <Typography.Text type="secondary">
        当前没有未恢复的告警。<Link to={history}>查看告警记录</Link>
      </Typography.Text>
    );
  return (
    <Alert
      type="error"
      showIcon
      title={`未恢复的告警（${alarms.length}）`}
      description={
        <Space orientation="vertical" size={4}>
          {alarms.map((a) => (
            <span key={a.id}>
              <Tag color="volcano">{alarmKindLabels[a.kind]}</Tag>
              {formatTime(a.raisedAt)}
              {a.detail ? `：${a.detail}` : ''}
              {a.state === 'acknowledged' && (
                <Tag style={{ marginLeft: 8 }}>{alarmStateLabels.acknowledged}</Tag>
              )}
            </span>
          ))}
          <Link to={history}>查看告警记录</Link>
        </Space>
      }
    />
  );
}
