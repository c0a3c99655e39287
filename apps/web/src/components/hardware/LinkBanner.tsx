/**
 * The banner every hardware screen shows while the device link (MQTT) is down, with why; and, when
 * the external broker (MQTT_URL) admitted clients without a device's credentials at the start-up
 * check (`mqttBroker` of /api/health), a warning that anyone may pose as a door device. Above them,
 * the spaces in 紧急模式 (ModeBanner).
 */
import { Alert, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { deviceEndpoints, endpoints, type DeviceLinkStatus } from '@cowork/contract';
import { api } from '../../lib/request.ts';
import { ModeBanner, useSpaceModes } from './ModeBanner.tsx';

/** The part of /api/health this banner reads (modules/health/routes.ts). */
interface Health {
  mqttBroker?: { checked: boolean; unauthenticated: boolean; findings: string[] };
}

export const UNAUTHENTICATED_BROKER_TITLE = '代理服务器未校验设备身份';
export const UNAUTHENTICATED_BROKER_TEXT =
  '代理服务器未校验设备身份：任何能连上 MQTT 代理服务器的人都可以冒充门禁设备，把门禁显示为离线或读取下发给设备的开门权限。请联系系统管理员在代理服务器上为每台设备配置独立的用户名和密码，并限定每台设备只能使用自己的主题（见 docs/deploy.md 的 Mosquitto / EMQX 配置），然后重启控制台。';

export function LinkBanner() {
  const link = useQuery({
    queryKey: ['device', 'link-status'],
    queryFn: () => api.get<DeviceLinkStatus>(deviceEndpoints.linkStatus),
    refetchInterval: 10_000,
  });
  // The check runs at start (and again while the broker is away): a minute is soon enough.
  const health = useQuery({
    queryKey: ['health'],
    queryFn: () => api.get<Health>(endpoints.health),
    refetchInterval: 60_000,
  });
  const modes = useSpaceModes();
  const down = link.data && !link.data.up;
  const unauthenticated = health.data?.mqttBroker?.unauthenticated === true;
  if (!down && !unauthenticated && modes.length === 0) return null;
  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      {modes.length > 0 && <ModeBanner modes={modes} />}
      {down && (
        <Alert
          type="error"
          showIcon
          title="设备通信服务未连接"
          description={`原因：${link.data.reason ?? '未知'}。在线状态可能不是最新的，开门等指令暂时无法发送；请联系管理员检查 MQTT_PORT / MQTT_URL 配置。`}
        />
      )}
      {unauthenticated && (
        <Alert
          type="error"
          showIcon
          title={UNAUTHENTICATED_BROKER_TITLE}
          description={UNAUTHENTICATED_BROKER_TEXT}
        />
      )}
    </Space>
  );
}
