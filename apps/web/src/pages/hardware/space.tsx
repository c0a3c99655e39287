/**
 * 物理空间: a building's tree (building → floor → room / gate, loaded level by level from
 * `sub-space`, with each space's device count) above the list where spaces are created, edited and
 * removed (上级空间 offered as paths, only the chosen building's). The tree reloads whenever the
 * list changes. Staff holding hardware:emergency set a building's, floor's or room's 紧急模式 from its
 * row; 门禁权限 lists who can open the space's doors and why.
 */
import { useEffect, useState, type Key } from 'react';
import { Button, Card, Empty, Form, Select, Space, Tag, Tree, Typography, type TreeDataNode } from 'antd';
import { useQuery } from '@tanstack/react-query';
import {
  DEVICE_VIEW_PERMISSION,
  EMERGENCY_PERMISSION,
  prefixes,
  type ListOption,
  optionLabel,
} from '@cowork/contract';
import { space, spaceKindOptions, spaceSubSpacePath } from '@cowork/contract/resources/space';
import { WhoCanOpenDrawer, type AccessTarget } from '../../components/access/AccessViews.tsx';
import { useSpaceOptions } from '../../components/hardware/DevicePicker.tsx';
import { EmergencyModeModal } from '../../components/hardware/EmergencyModeDialog.tsx';
import { LinkBanner } from '../../components/hardware/LinkBanner.tsx';
import { usePermission } from '../../components/PermissionGate.tsx';
import { ResourcePage, type ResourceRecord } from '../../components/resource/ResourcePage.tsx';
import { api } from '../../lib/request.ts';

interface SubSpace {
  id: number;
  name: string;
  kind: (typeof spaceKindOptions)[number]['value'];
  hasChildren: boolean;
  deviceCount: number;
}

const kindLabel = (kind: SubSpace['kind']) => optionLabel(spaceKindOptions, kind);

const nodeOf = (s: SubSpace): TreeDataNode => ({
  key: s.id,
  isLeaf: !s.hasChildren,
  title: (
    <Space size={4}>
      <span>{s.name}</span>
      <Tag>{kindLabel(s.kind)}</Tag>
      {s.deviceCount > 0 && <Typography.Text type="secondary">{s.deviceCount} 台设备</Typography.Text>}
    </Space>
  ),
});

/** Puts `children` under the node `key` anywhere in the tree. */
const withChildren = (nodes: TreeDataNode[], key: Key, children: TreeDataNode[]): TreeDataNode[] =>
  nodes.map((n) =>
    n.key === key
      ? { ...n, children }
      : n.children
        ? { ...n, children: withChildren(n.children, key, children) }
        : n,
  );

function SpaceTree() {
  const buildings = useQuery({
    queryKey: ['list', `${prefixes.building}/building/list`],
    queryFn: () => api.get<ListOption[]>(`${prefixes.building}/building/list`),
  });
  const [buildingId, setBuildingId] = useState<number>();
  const chosen = buildingId ?? (buildings.data?.[0]?.value as number | undefined);
  // Under the list's query key: a save or delete in the list refetches it, and the tree starts over.
  const roots = useQuery({
    queryKey: [space.key, 'sub-space', chosen],
    queryFn: () => api.get<SubSpace[]>(spaceSubSpacePath, { buildingId: chosen }),
    enabled: chosen !== undefined,
  });
  const [tree, setTree] = useState<TreeDataNode[]>([]);
  useEffect(() => setTree((roots.data ?? []).map(nodeOf)), [roots.data]);

  const loadData = async (node: TreeDataNode) => {
    if (node.children) return;
    const children = await api.get<SubSpace[]>(spaceSubSpacePath, { buildingId: chosen, parentId: node.key });
    setTree((t) => withChildren(t, node.key, children.map(nodeOf)));
  };

  return (
    <Card
      size="small"
      title="空间结构"
      extra={
        <Select
          aria-label="楼宇"
          style={{ width: 220 }}
          placeholder="选择楼宇"
          value={chosen}
          onChange={setBuildingId}
          loading={buildings.isLoading}
          options={buildings.data ?? []}
        />
      }
    >
      {tree.length === 0 ? (
        <Empty description={roots.isLoading ? '加载中…' : '该楼宇还没有空间，请在下方列表中新建'} />
      ) : (
        <Tree key={`${chosen}-${roots.dataUpdatedAt}`} showLine treeData={tree} loadData={loadData} />
      )}
    </Card>
  );
}

/** 上级空间: the spaces of the building chosen in the same form, as `楼宇 / 上级空间 / 空间`. */
function ParentSpaceSelect(props: {
  id?: string;
  value?: number | null;
  onChange?: (v: number | null) => void;
}) {
  const buildingId = Form.useWatch<number | undefined>('buildingId', Form.useFormInstance());
  const spaces = useSpaceOptions(buildingId);
  const { value, onChange } = props;
  // A parent kept from another building would be refused on save: clear it instead.
  useEffect(() => {
    if (value && !spaces.fits(value, buildingId)) onChange?.(null);
  }, [spaces, value, buildingId, onChange]);
  return (
    <Select
      {...props}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={spaces.loading}
      disabled={!buildingId}
      placeholder={buildingId ? '不选则为楼宇下的顶层空间' : '请先选择所属楼宇'}
      options={spaces.options}
    />
  );
}

/** The kinds a mode is set on: a gate takes its floor's or building's. */
const modeKinds: readonly unknown[] = ['building', 'floor', 'room'];

export default function SpacePage() {
  const { can } = usePermission();
  const [emergency, setEmergency] = useState<{ id: number; name: string }>();
  const [access, setAccess] = useState<AccessTarget>();
  // Each action only for staff holding its code (the server checks them too).
  const mayEmergency = can([EMERGENCY_PERMISSION]);
  const mayViewAccess = can([DEVICE_VIEW_PERMISSION]);
  const rowActions =
    mayEmergency || mayViewAccess
      ? (record: ResourceRecord) => (
          <>
            {mayViewAccess && (
              <Button
                type="link"
                size="small"
                onClick={() => setAccess({ kind: 'space', id: record.id, name: String(record.name) })}
              >
                门禁权限
              </Button>
            )}
            {mayEmergency && modeKinds.includes(record.kind) && (
              <Button
                type="link"
                size="small"
                danger
                onClick={() => setEmergency({ id: record.id, name: String(record.name) })}
              >
                紧急模式
              </Button>
            )}
          </>
        )
      : undefined;
  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <LinkBanner />
      <SpaceTree />
      <ResourcePage resource={space} inputs={{ parentId: <ParentSpaceSelect /> }} rowActions={rowActions} />
      {emergency && <EmergencyModeModal space={emergency} onClose={() => setEmergency(undefined)} />}
      {access && <WhoCanOpenDrawer target={access} onClose={() => setAccess(undefined)} />}
    </Space>
  );
}
