/** The banner every hardware screen shows while the device link (MQTT) is down, with why. */
import { Alert } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { deviceEndpoints, type DeviceLinkStatus } from '@cowork/contract';
import { api } from '../../lib/request.ts';

export function LinkBanner() {
  const link = useQuery({
    queryKey: ['device', 'link-status'],
    queryFn: () => api.get<DeviceLinkStatus>(deviceEndpoints.linkStatus),
    refetchInterval: 10_000,
  });
  if (!link.data || link.data.up) return null;
  return (
    <Alert
      type="error"
      showIcon
      title="设备通信服务未连接"
      description={`原因：${link.data.reason ?? '未知'}。在线状态可能不是最新的，开门等指令暂时无法发送；请联系管理员检查 MQTT_PORT / MQTT_URL 配置。`}
    />
  );
}
