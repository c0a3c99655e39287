/**
 * 告警通知: the header's bell with the unread count; its panel lists the alerts (open ones and those
 * closed within a day, newest first), marks them read one by one or all at once, and opens what an
 * alert is about. The list is asked for every ALERT_POLL_MS, so a new alert shows within seconds
 * without a reload. Staff whose permissions cover no kind of alert have no bell.
 */
import { useState } from 'react';
import { Badge, Button, Empty, Popover, Tag } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  ALERT_POLL_MS,
  alertEndpoints,
  alertKindLabels,
  alertKindsFor,
  type AlertList,
  type AlertRecord,
} from '@cowork/contract';
import { formatTime } from '../lib/format.ts';
import { api } from '../lib/request.ts';
import { useUserInfo } from '../lib/user.ts';
import './alert-bell.css';

export const alertQueryKey = ['alert', 'list'] as const;

function AlertItem({ alert, onOpen }: { alert: AlertRecord; onOpen: (alert: AlertRecord) => void }) {
  return (
    <li>
      <button
        type="button"
        className={`alert-item${alert.read ? '' : ' alert-item-unread'}`}
        data-testid="alert-item"
        onClick={() => onOpen(alert)}
      >
        <span className="alert-item-head">
          {!alert.read && <Badge status="error" aria-label="未读" />}
          <Tag color={alert.closedAt ? 'default' : 'red'}>{alertKindLabels[alert.kind]}</Tag>
          <span className="alert-item-state">{alert.closedAt ? '已恢复' : '未恢复'}</span>
          <span className="alert-item-time">{formatTime(alert.raisedAt)}</span>
        </span>
        <span className="alert-item-title">{alert.title}</span>
        {alert.detail && <span className="alert-item-detail">{alert.detail}</span>}
      </button>
    </li>
  );
}

export function AlertBell() {
  const { user } = useUserInfo();
  const shown = alertKindsFor(user.permissions ?? []).length > 0;
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: alertQueryKey,
    queryFn: () => api.get<AlertList>(alertEndpoints.list, undefined, { background: true }),
    enabled: shown,
    refetchInterval: ALERT_POLL_MS,
    staleTime: 0,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: alertQueryKey });
  const readOne = useMutation({
    mutationFn: (id: number) => api.post(alertEndpoints.read, { id }),
    onSettled: refresh,
  });
  const readAll = useMutation({
    mutationFn: () => api.post(alertEndpoints.readAll),
    onSettled: refresh,
  });
  if (!shown) return null;

  const records = list.data?.records ?? [];
  const unread = list.data?.unread ?? 0;
  const onOpen = (alert: AlertRecord) => {
    if (!alert.read) readOne.mutate(alert.id);
    setOpen(false);
    if (alert.link) void navigate(alert.link);
  };

  const panel = (
    <div className="alert-panel" data-testid="alert-panel">
      <div className="alert-panel-head">
        {/* Not Typography.Text: its editable mode brings antd's Input and Form to every first screen. */}
        <strong className="alert-panel-title">告警通知</strong>
        <Button
          type="link"
          size="small"
          disabled={unread === 0}
          loading={readAll.isPending}
          onClick={() => readAll.mutate()}
        >
          全部已读
        </Button>
      </div>
      {records.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无告警通知，设备一切正常" />
      ) : (
        <ul className="alert-list">
          {records.map((alert) => (
            <AlertItem key={alert.id} alert={alert} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </div>
  );

  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      content={panel}
      arrow={false}
    >
      <button
        type="button"
        className="alert-bell"
        data-testid="alert-bell"
        aria-label={unread > 0 ? `告警通知，${unread} 条未读` : '告警通知'}
      >
        <Badge count={unread} size="small" overflowCount={99}>
          <BellOutlined className="alert-bell-icon" />
        </Badge>
      </button>
    </Popover>
  );
}
