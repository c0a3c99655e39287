/**
 * The banner every hardware screen shows while a space is not in 正常: which spaces are locked down
 * (封锁, red) or have every door released (全部常开, orange), why, and since when. Read every 10 s,
 * so a change made elsewhere shows without a reload.
 */
import { Alert, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { doorOperationEndpoints, spaceModeLabels, type SpaceModeRecord } from '@cowork/contract';
import { api } from '../../lib/request.ts';
import { formatTime } from '../../lib/format.ts';

/** The query key of the list: a mode change refreshes it at once. */
export const spaceModesKey = ['device', 'space-modes'];

/** The spaces not in 正常 now (none while it loads or cannot be read). */
export function useSpaceModes(): SpaceModeRecord[] {
  const modes = useQuery({
    queryKey: spaceModesKey,
    queryFn: () => api.get<SpaceModeRecord[]>(doorOperationEndpoints.spaceModes),
    refetchInterval: 10_000,
  });
  return modes.data ?? [];
}

/** 全部常开's orange (antd's orange-1 / orange-3 / orange-7): not the warning's gold. */
const releaseStyle = { background: '#fff7e6', borderColor: '#ffd591' };

const lineOf = (s: SpaceModeRecord) =>
  `${s.path}：${spaceModeLabels[s.mode]}（原因：${s.reason ?? '未说明'}${
    s.changedAt ? `；${s.changedBy ?? ''} 于 ${formatTime(s.changedAt)} 设置` : ''
  }）`;

export function ModeBanner({ modes }: { modes: SpaceModeRecord[] }) {
  const locked = modes.filter((s) => s.mode === 'lockdown');
  const released = modes.filter((s) => s.mode === 'release');
  if (locked.length === 0 && released.length === 0) return null;
  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }} className="mode-banner">
      {locked.length > 0 && (
        <Alert
          type="error"
          showIcon
          title={`紧急模式：${locked.length} 个空间已封锁，除管理员密码外一律不能开门，远程开门已停用`}
          description={locked.map((s) => (
            <div key={s.id}>{lineOf(s)}</div>
          ))}
        />
      )}
      {released.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={releaseStyle}
          title={`紧急模式：${released.length} 个空间全部常开，门保持打开直到恢复正常`}
          description={released.map((s) => (
            <div key={s.id}>{lineOf(s)}</div>
          ))}
        />
      )}
    </Space>
  );
}
