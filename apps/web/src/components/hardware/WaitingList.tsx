/**
 * 待注册: the devices that connected with the enrolment key and said hello, waiting to be registered;
 * the tab's count and the list share one query, refreshed while the screen is open.
 */
import { Button, Space, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { DEVICE_EDIT_PERMISSION, deviceEndpoints, type WaitingDevice } from '@cowork/contract';
import { usePermission } from '../PermissionGate.tsx';
import { formatTime } from '../../lib/format.ts';
import { api } from '../../lib/request.ts';

/** How often the hardware screens ask again: a device's state and door events change by themselves. */
export const DEVICE_REFRESH_MS = 5_000;

export const useWaitingDevices = () =>
  useQuery({
    queryKey: ['device', 'waiting'],
    queryFn: () => api.get<WaitingDevice[]>(deviceEndpoints.unPulledList),
    refetchInterval: DEVICE_REFRESH_MS,
  });

const orDash = (value: string | null) => value ?? '—';

export function WaitingList({ onRegister }: { onRegister: (device: WaitingDevice) => void }) {
  const { can } = usePermission();
  const waiting = useWaitingDevices();
  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <Typography.Text type="secondary">
        设备用注册密钥（DEVICE_ENROL_KEY）连接并上报后出现在这里；注册后会生成设备密钥，只显示一次。
      </Typography.Text>
      <Table<WaitingDevice>
        rowKey="sn"
        size="middle"
        loading={waiting.isLoading}
        dataSource={waiting.data ?? []}
        pagination={false}
        locale={{ emptyText: '暂无待注册设备' }}
        columns={[
          { title: '序列号', dataIndex: 'sn' },
          { title: '型号', key: 'model', render: (_, row) => orDash(row.model) },
          { title: '厂商', key: 'vendor', render: (_, row) => orDash(row.vendor) },
          { title: '固件', key: 'firmware', render: (_, row) => orDash(row.firmware) },
          { title: '最后上报', key: 'lastSeenAt', render: (_, row) => formatTime(row.lastSeenAt) },
          {
            title: '操作',
            key: 'register',
            render: (_, row) =>
              can([DEVICE_EDIT_PERMISSION]) ? (
                <Button type="link" size="small" onClick={() => onRegister(row)}>
                  注册
                </Button>
              ) : null,
          },
        ]}
      />
    </Space>
  );
}
