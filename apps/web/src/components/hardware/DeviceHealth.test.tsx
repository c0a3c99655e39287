/**
 * A door's state as 设备管理 shows it: the versions held against the current one, since when, the
 * mode only when not 正常, the lease only for v1.1 devices (in the warning colour when short), and
 * open alarms linking to 告警记录 of the device.
 */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { DeviceRecord } from '@cowork/contract';
import { ago, AlarmBadge, LeaseText, ModeTag, SyncStateTag } from './DeviceHealth.tsx';

const now = Date.now();
const minutesAgo = (m: number) => new Date(now - m * 60_000).toISOString();
const inHours = (h: number) => new Date(now + h * 3_600_000).toISOString();

describe('DeviceHealth', () => {
  it('says how long ago in minutes, hours or days', () => {
    expect(ago(minutesAgo(0.5), now)).toBe('刚刚');
    expect(ago(minutesAgo(5), now)).toBe('5 分钟前');
    expect(ago(minutesAgo(180), now)).toBe('3 小时前');
    expect(ago(minutesAgo(3 * 24 * 60), now)).toBe('3 天前');
  });

  it('shows 已同步 with the current version, or what is held → the current one', () => {
    const base = { syncedVersion: 12, currentVersion: 12, syncSince: minutesAgo(5) };
    const { rerender } = render(<SyncStateTag device={{ ...base, syncState: 'synced' }} />);
    expect(screen.getByTestId('device-sync').textContent).toBe('已同步 v125 分钟前');
    rerender(<SyncStateTag device={{ ...base, syncedVersion: 10, syncState: 'unsynced' }} />);
    expect(screen.getByTestId('device-sync').textContent).toContain('未同步 v10 → v12');
    rerender(<SyncStateTag device={{ ...base, syncedVersion: null, syncState: 'syncing' }} />);
    expect(screen.getByTestId('device-sync').textContent).toContain('同步中 v— → v12');
  });

  it('shows a mode only when not 正常', () => {
    const { container, rerender } = render(<ModeTag mode="normal" />);
    expect(container.textContent).toBe('');
    rerender(<ModeTag mode="lockdown" />);
    expect(screen.getByText('封锁')).toBeTruthy();
    rerender(<ModeTag mode="release" />);
    expect(screen.getByText('全部常开')).toBeTruthy();
  });

  it('shows the lease for v1.1 devices only, warning under 2 hours and past it', () => {
    const lease = (device: Pick<DeviceRecord, 'protocol' | 'leaseUntil' | 'leaseHours'>, withHours = false) =>
      render(<LeaseText device={device} withHours={withHours} />);
    expect(lease({ protocol: '1', leaseUntil: null, leaseHours: 24 }).container.textContent).toBe('');
    const long = lease({ protocol: '1.1', leaseUntil: inHours(20), leaseHours: 24 }, true);
    const text = long.getByTestId('device-lease');
    expect(text.textContent).toMatch(/^离线授权至 .*（楼宇设定 24 小时）$/);
    expect(text.className).not.toContain('warning');
    long.unmount();
    const short = lease({ protocol: '1.1', leaseUntil: inHours(1), leaseHours: 24 });
    expect(short.getByTestId('device-lease').className).toContain('warning');
    short.unmount();
    const past = lease({ protocol: '1.1', leaseUntil: inHours(-1), leaseHours: 24 });
    expect(past.getByTestId('device-lease').textContent).toContain('离线授权已过期');
  });

  it('links open alarms to 告警记录 of the device, and shows nothing without any', () => {
    const { container, rerender } = render(
      <MemoryRouter>
        <AlarmBadge device={{ id: 7, openAlarms: 0 }} />
      </MemoryRouter>,
    );
    expect(container.textContent).toBe('');
    rerender(
      <MemoryRouter>
        <AlarmBadge device={{ id: 7, openAlarms: 3 }} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link').getAttribute('href')).toBe('/hardware/alarm?deviceId=7&state=open');
    expect(screen.getByRole('link').textContent).toContain('3');
  });
});
