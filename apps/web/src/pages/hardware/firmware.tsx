/**
 * 固件升级: rollouts (a firmware file sent to chosen devices of its model a batch at a time, each
 * followed until it says hello with the new version) and the firmware files they send. 上传固件 and
 * 新建升级 need hardware:firmware:edit; a rollout's detail shows each device's progress live.
 */
import { useState } from 'react';
import { Button, Card, Space, Tabs, Tag, Typography } from 'antd';
import {
  doorOperationEndpoints as fw,
  FIRMWARE_EDIT_PERMISSION,
  ROLLOUT_POLL_MS,
  rolloutStateLabels,
  type FirmwareRecord,
  type RolloutRecord,
} from '@cowork/contract';
import {
  firmwareKey,
  NewRolloutDialog,
  RolloutDrawer,
  rolloutStateColors,
  sizeText,
  UploadFirmwareDialog,
  useRolloutActions,
} from '../../components/hardware/FirmwareDialogs.tsx';
import { LinkBanner } from '../../components/hardware/LinkBanner.tsx';
import { usePermission } from '../../components/PermissionGate.tsx';
import { ListPage, type ListDef } from '../../components/resource/ListPage.tsx';
import { formatTime } from '../../lib/format.ts';

const rolloutList: ListDef<RolloutRecord> = {
  queryKey: [...firmwareKey, 'rollouts'],
  source: { page: fw.rolloutPage },
  // Counts move by themselves while a rollout runs.
  refreshMs: ROLLOUT_POLL_MS,
  formName: 'rollout-search',
  filters: { state: { kind: 'choice', label: '状态', options: rolloutStateLabels, width: 160 } },
  columns: [
    { title: '任务', width: 80, render: (r) => `#${r.id}` },
    {
      title: '状态',
      width: 150,
      render: (r) => <Tag color={rolloutStateColors[r.state]}>{rolloutStateLabels[r.state]}</Tag>,
    },
    { title: '固件', width: 180, render: (r) => `${r.model} ${r.version}` },
    { title: '进度', width: 200, render: (r) => `完成 ${r.done} / 失败 ${r.failed} / 共 ${r.total} 台` },
    { title: '每批 / 失败上限', width: 130, render: (r) => `${r.batchSize} / ${r.stopAfterFailures}` },
    { title: '创建人', value: 'createdBy', width: 120 },
    { title: '创建时间', width: 170, render: (r) => formatTime(r.createdAt) },
    { title: '原因', value: 'reason', ellipsis: true },
  ],
  scrollX: 1200,
  actionsWidth: 200,
};

const firmwareList: ListDef<FirmwareRecord> = {
  queryKey: [...firmwareKey, 'files'],
  source: { page: fw.firmwarePage, inAddress: false },
  formName: 'firmware-search',
  filters: { model: { kind: 'text', label: '设备型号' } },
  columns: [
    { title: '型号', value: 'model', width: 140 },
    { title: '版本', value: 'version', width: 110 },
    { title: '大小', width: 100, render: (f) => sizeText(f.size) },
    {
      title: 'SHA-256',
      width: 200,
      render: (f) => (
        <Typography.Text copyable={{ text: f.sha256 }} code style={{ fontSize: 12 }}>
          {`${f.sha256.slice(0, 12)}…`}
        </Typography.Text>
      ),
    },
    { title: '文件名', value: 'fileName', width: 180, ellipsis: true },
    { title: '备注', value: 'remark', ellipsis: true },
    { title: '上传人', value: 'createdBy', width: 120 },
    { title: '上传时间', width: 170, render: (f) => formatTime(f.createdAt) },
  ],
  scrollX: 1300,
  actionsWidth: 100,
};

type Dialog = { kind: 'upload' } | { kind: 'rollout'; firmwareId?: number } | { kind: 'detail'; id: number };

export default function FirmwarePage() {
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [tab, setTab] = useState('rollouts');
  const { can } = usePermission();
  const canEdit = can([FIRMWARE_EDIT_PERMISSION]);
  const rolloutActions = useRolloutActions();
  const close = () => setDialog(null);
  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <LinkBanner />
      <Card size="small">
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: 'rollouts',
              label: '升级任务',
              children: (
                <ListPage
                  list={rolloutList}
                  framed={false}
                  toolbar={
                    canEdit && (
                      <Button type="primary" onClick={() => setDialog({ kind: 'rollout' })}>
                        新建升级
                      </Button>
                    )
                  }
                  rowActions={(r) => (
                    <>
                      <Button
                        type="link"
                        size="small"
                        onClick={() => setDialog({ kind: 'detail', id: r.id })}
                      >
                        详情
                      </Button>
                      {rolloutActions(r)}
                    </>
                  )}
                />
              ),
            },
            {
              key: 'files',
              label: '固件文件',
              children: (
                <ListPage
                  list={firmwareList}
                  framed={false}
                  toolbar={
                    canEdit && (
                      <Button type="primary" onClick={() => setDialog({ kind: 'upload' })}>
                        上传固件
                      </Button>
                    )
                  }
                  rowActions={
                    canEdit
                      ? (f) => (
                          <Button
                            type="link"
                            size="small"
                            onClick={() => setDialog({ kind: 'rollout', firmwareId: f.id })}
                          >
                            升级
                          </Button>
                        )
                      : undefined
                  }
                />
              ),
            },
          ]}
        />
      </Card>
      {dialog?.kind === 'upload' && (
        <UploadFirmwareDialog
          onClose={() => {
            close();
            setTab('files');
          }}
        />
      )}
      {dialog?.kind === 'rollout' && (
        <NewRolloutDialog
          firmwareId={dialog.firmwareId}
          onClose={close}
          onStarted={(id) => {
            setTab('rollouts');
            setDialog({ kind: 'detail', id });
          }}
        />
      )}
      {dialog?.kind === 'detail' && <RolloutDrawer id={dialog.id} onClose={close} />}
    </Space>
  );
}
