/**
 * 开门记录: every door event the devices reported, newest first, with who opened and how; filtered
 * by device, building or space (spaces under it included, offered as 楼宇 / 空间 paths of the
 * building chosen), method, result, a member by what staff know (name, phone or company) and days, and exported to Excel with the same
 * filters. The page shown refreshes itself while open, keeping its page and filters.
 */
import { Tag } from 'antd';
import {
  deviceEndpoints,
  openLogQuery,
  openMethodLabels,
  openResultLabels,
  type OpenLogRecord,
} from '@cowork/contract';
import { ExportButton } from '../../components/ExportButton.tsx';
import { LinkBanner } from '../../components/hardware/LinkBanner.tsx';
import { BuildingSelect, SpaceSelect } from '../../components/hardware/PlaceSelects.tsx';
import { DEVICE_REFRESH_MS } from '../../components/hardware/WaitingList.tsx';
import { ListPage, type ListDef } from '../../components/resource/ListPage.tsx';
import { formatTime } from '../../lib/format.ts';

const openLogList: ListDef<OpenLogRecord> = {
  queryKey: ['device', 'open-log'],
  source: { page: deviceEndpoints.openLogPage },
  // New door events show within seconds while the log is open, on the page and filters shown.
  refreshMs: DEVICE_REFRESH_MS,
  formName: 'open-log-search',
  filters: {
    sn: { kind: 'text', label: '序列号', placeholder: '序列号开头' },
    buildingId: {
      kind: 'custom',
      label: '楼宇',
      numeric: true,
      input: <BuildingSelect placeholder="全部" style={{ width: 180 }} />,
    },
    spaceId: {
      kind: 'custom',
      label: '空间',
      numeric: true,
      input: <SpaceSelect placeholder="全部" style={{ width: 260 }} popupMatchSelectWidth={false} />,
    },
    keyword: {
      kind: 'text',
      label: '会员',
      placeholder: '姓名、手机号或企业',
      width: 180,
      schema: openLogQuery.shape.keyword,
    },
    method: { kind: 'choice', label: '方式', options: openMethodLabels, width: 120 },
    result: { kind: 'choice', label: '结果', options: openResultLabels, width: 100 },
    at: { kind: 'range', label: '时间' },
  },
  columns: [
    { title: '时间', width: 180, render: (r) => formatTime(r.at) },
    { title: '设备', width: 160, render: (r) => r.deviceName ?? '（已注销）' },
    {
      title: '位置（楼宇 / 空间）',
      width: 220,
      render: (r) => r.spacePath ?? (r.deviceName ? '未分配空间' : '—'),
    },
    { title: '序列号', value: 'sn', width: 150 },
    { title: '方式', width: 100, render: (r) => openMethodLabels[r.method] },
    { title: '凭证', width: 100, render: (r) => (r.credential ? `****${r.credential}` : '—') },
    {
      title: '结果',
      width: 80,
      render: (r) => <Tag color={r.result === 'success' ? 'green' : 'red'}>{openResultLabels[r.result]}</Tag>,
    },
    { title: '原因', value: 'reason' },
    { title: '开门人', value: 'who', width: 140 },
  ],
  scrollX: 1320,
};

export default function OpenLogPage() {
  return (
    <ListPage
      list={openLogList}
      header={<LinkBanner />}
      toolbar={(filters) => (
        <ExportButton path={deviceEndpoints.openLogExport} filters={filters} label="开门记录" />
      )}
    />
  );
}
