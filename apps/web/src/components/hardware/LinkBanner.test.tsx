/**
 * The hardware screens' banner: nothing while the link is up on a broker that checks devices; the
 * link-down reason; and the warning when the start-up check found that MQTT_URL's broker admits
 * clients without a device's credentials (`mqttBroker` of /api/health).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { deviceEndpoints, doorOperationEndpoints, endpoints, type DeviceLinkStatus } from '@cowork/contract';
import { request } from '../../lib/request.ts';
import { setTokens } from '../../lib/session.ts';
import { mockAdapter } from '../../test/mock-adapter.ts';
import { LinkBanner, UNAUTHENTICATED_BROKER_TEXT, UNAUTHENTICATED_BROKER_TITLE } from './LinkBanner.tsx';

const originalAdapter = request.defaults.adapter;
afterEach(() => {
  request.defaults.adapter = originalAdapter;
});

const up: DeviceLinkStatus = { up: true, mode: 'external', url: 'mqtt://broker:1883/', reason: null };
const broker = (unauthenticated: boolean) => ({
  status: 'up',
  mqtt: 'up',
  mqttBroker: {
    checked: true,
    unauthenticated,
    findings: unauthenticated ? ['an anonymous client may connect'] : [],
  },
});

function renderWith(link: DeviceLinkStatus, health: object) {
  setTokens('access', 'refresh');
  const adapter = mockAdapter((config) => {
    // Every call the banner makes is answered: a 404 would raise an error toast in antd's own root,
    // which renders after the test's cleanup (and after the environment is gone).
    const answers: Record<string, unknown> = {
      [deviceEndpoints.linkStatus]: link,
      [endpoints.health]: health,
      [doorOperationEndpoints.spaceModes]: [],
    };
    const data = answers[config.url ?? ''] ?? null;
    return data
      ? { status: 200, data: { code: 200, msg: '操作成功', data } }
      : { status: 404, data: { code: 404, msg: '不存在', data: null } };
  });
  request.defaults.adapter = adapter;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={client}>
      <LinkBanner />
    </QueryClientProvider>,
  );
  return { ...view, adapter };
}

describe('LinkBanner', () => {
  it('says that the broker does not check device identity and what to do', async () => {
    renderWith(up, broker(true));
    expect(await screen.findByText(UNAUTHENTICATED_BROKER_TITLE)).toBeTruthy();
    const text = screen.getByText(UNAUTHENTICATED_BROKER_TEXT).textContent ?? '';
    expect(text).toContain('为每台设备配置独立的用户名和密码');
    expect(text).toContain('docs/deploy.md');
    expect(screen.queryByText('设备通信服务未连接')).toBeNull();
  });

  it('shows nothing on a broker that checks devices while the link is up', async () => {
    const { adapter, container } = renderWith(up, broker(false));
    await waitFor(() => expect(adapter.calls.map((c) => c.url)).toContain(endpoints.health));
    await waitFor(() => expect(adapter.calls.map((c) => c.url)).toContain(deviceEndpoints.linkStatus));
    expect(container.textContent).toBe('');
  });

  it('shows the link-down reason, and both warnings when both hold', async () => {
    const { adapter } = renderWith({ ...up, up: false, reason: '无法连接 broker:1883' }, broker(true));
    expect(await screen.findByText('设备通信服务未连接')).toBeTruthy();
    await waitFor(() => expect(adapter.calls).toHaveLength(3));
    expect(screen.getByText(/无法连接 broker:1883/)).toBeTruthy();
    expect(await screen.findByText(UNAUTHENTICATED_BROKER_TITLE)).toBeTruthy();
  });
});
