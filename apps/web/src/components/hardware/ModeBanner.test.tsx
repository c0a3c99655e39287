/**
 * The hardware screens' 紧急模式 banner, through LinkBanner as the screens show it: nothing while
 * every space is 正常; the spaces locked down in red and those released in orange, each with its
 * path and reason.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  deviceEndpoints,
  doorOperationEndpoints,
  type DeviceLinkStatus,
  type SpaceModeRecord,
} from '@cowork/contract';
import { request } from '../../lib/request.ts';
import { setTokens } from '../../lib/session.ts';
import { mockAdapter } from '../../test/mock-adapter.ts';
import { LinkBanner } from './LinkBanner.tsx';

const originalAdapter = request.defaults.adapter;
afterEach(() => {
  request.defaults.adapter = originalAdapter;
});

const up: DeviceLinkStatus = { up: true, mode: 'embedded', url: 'mqtt://127.0.0.1:1883/', reason: null };

function renderWith(modes: SpaceModeRecord[]) {
  setTokens('access', 'refresh');
  const adapter = mockAdapter((config) => {
    const data =
      config.url === deviceEndpoints.linkStatus
        ? up
        : config.url === doorOperationEndpoints.spaceModes
          ? modes
          : null;
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

const space = (id: number, path: string, mode: SpaceModeRecord['mode'], reason: string): SpaceModeRecord => ({
  id,
  name: path.split(' / ').at(-1) ?? path,
  path,
  mode,
  reason,
  changedAt: '2026-11-27T08:00:00.000Z',
  changedBy: '超级管理员',
});

describe('ModeBanner', () => {
  it('shows nothing while every space is normal', async () => {
    const { adapter, container } = renderWith([]);
    await waitFor(() => expect(adapter.calls.map((c) => c.url)).toContain(doorOperationEndpoints.spaceModes));
    expect(container.textContent).toBe('');
  });

  it('names the spaces locked down in red and those released in orange, with why', async () => {
    const { container } = renderWith([
      space(1, '望京SOHO / A 座', 'lockdown', '发现可疑人员'),
      space(2, '望京SOHO / B 座 / 3F', 'release', '火警疏散'),
    ]);
    expect(await screen.findByText(/1 个空间已封锁/)).toBeTruthy();
    const locked = container.querySelector('.ant-alert-error');
    expect(locked?.textContent).toContain(
      '望京SOHO / A 座：封锁（原因：发现可疑人员；超级管理员 于 2026-11-27',
    );
    const released = container.querySelector('.ant-alert-warning');
    expect(released?.textContent).toContain('1 个空间全部常开');
    expect(released?.textContent).toContain('望京SOHO / B 座 / 3F：全部常开（原因：火警疏散');
    expect(locked?.textContent).not.toContain('B 座');
  });
});
