/**
 * 菜单配置: the whole menu tree (groups → pages → actions, hidden ones included) as a tree table.
 * Create, edit and remove in a drawer, move up and down within a parent, show or hide with a
 * switch. After every change the side menu reloads (changeMenu) without reloading the page.
 */
import { useMemo, useState, type ReactNode } from 'react';
import {
  App,
  Button,
  Card,
  Form,
  Popconfirm,
  Space,
  Switch,
  Table,
  Tag,
  TreeSelect,
  type TableColumnsType,
} from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { resourcePaths, resourcePermissions } from '@cowork/contract';
import {
  menu,
  menuEndpoints,
  menuTypeOptions,
  type MenuKind,
  type MenuNode,
} from '@cowork/contract/resources/sso-menu';
import { usePermission } from '../../components/PermissionGate.tsx';
import { FieldInput, schemaRule } from '../../components/resource/field-input.tsx';
import { useKeptForm } from '../../lib/use-kept-form.ts';
import { EditDrawer, Toolbar } from '../../components/resource/page-parts.tsx';
import { Upload } from '../../components/Upload.tsx';
import { events } from '../../lib/events.ts';
import { api, settled } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { numbersOf } from '../../lib/values.ts';

const paths = resourcePaths(menu);
const permissions = resourcePermissions(menu);
const fields = menu.fields;
const typeLabel = (kind: MenuKind) => menuTypeOptions.find((o) => o.value === kind)?.label;
const typeColor: Record<MenuKind, string> = { group: 'blue', page: 'green', action: 'default' };
/** The parent type each type sits under (null: top level only). */
const parentTypeOf: Record<MenuKind, MenuKind | null> = { group: null, page: 'group', action: 'page' };

type Row = Omit<MenuNode, 'children'> & { children?: Row[] };
type Editing = { mode: 'new'; parent?: MenuNode } | { mode: 'edit'; node: MenuNode } | null;

/** A drawer kept across a reload: a new menu (under a parent or not) or the edit of one. */
const isEditing = (value: unknown): value is Exclude<Editing, null> =>
  typeof value === 'object' &&
  value !== null &&
  'mode' in value &&
  (value.mode === 'new' || (value.mode === 'edit' && 'node' in value));
const menuKindOf = (value: unknown) => menuTypeOptions.find((o) => o.value === value)?.value;

/** antd shows an expander for any `children` array: leaves get none. */
const toRows = (nodes: MenuNode[]): Row[] =>
  nodes.map(({ children, ...rest }) => ({
    ...rest,
    children: children.length ? toRows(children) : undefined,
  }));

const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

const menuQueryKey = ['sso-menu', 'menus'] as const;

/** What a menu is: its name, type, route, code and icons (the switches and buttons follow). */
const describingColumns: TableColumnsType<Row> = [
  { key: 'name', title: '菜单名称', dataIndex: 'name', width: 260 },
  {
    key: 'type',
    title: '类型',
    dataIndex: 'type',
    width: 80,
    render: (v: MenuKind) => <Tag color={typeColor[v]}>{typeLabel(v)}</Tag>,
  },
  { key: 'url', title: '路由地址', dataIndex: 'url', render: (v: string) => v || '—' },
  {
    key: 'permission',
    title: '权限编码',
    dataIndex: 'permission',
    render: (v: string | null) => (v ? <code>{v}</code> : '—'),
  },
  {
    key: 'icon',
    title: '图标',
    width: 90,
    render: (_: unknown, r: Row) =>
      r.iconUrl || r.iconBrightUrl ? (
        <Space size={4}>
          {r.iconUrl && <img src={r.iconUrl} alt="图标" width={18} height={18} />}
          {r.iconBrightUrl && <img src={r.iconBrightUrl} alt="高亮图标" width={18} height={18} />}
        </Space>
      ) : (
        '—'
      ),
  },
];

export default function MenuPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { can } = usePermission();
  const canEdit = can([permissions.edit]);
  const canRemove = can([permissions.remove]);
  const [form] = Form.useForm();
  const [editing, setEditing] = useState<Editing>(null);
  const [expanded, setExpanded] = useState<number[] | null>(null);
  const type = menuKindOf(Form.useWatch('type', form));

  const menus = useQuery({
    queryKey: menuQueryKey,
    queryFn: () => api.get<MenuNode[]>(menuEndpoints.menus),
  });
  const all = useMemo(() => flatten(menus.data ?? []), [menus.data]);
  const rows = useMemo(() => toRows(menus.data ?? []), [menus.data]);
  const expandedKeys = expanded ?? all.filter((n) => n.type === 'group').map((n) => n.id);

  /** After any change: this tree, the role grant tree and the side menu reload. */
  const changed = async (text: string) => {
    message.success(text);
    await queryClient.invalidateQueries({ queryKey: ['sso-menu'] });
    events.emit('changeMenu');
  };

  const save = useSubmit({
    mutationFn: (values: Record<string, unknown>) =>
      editing?.mode === 'edit'
        ? api.put(paths.edit, { ...values, id: editing.node.id })
        : api.post(paths.save, values),
    onSuccess: async () => {
      const text = editing?.mode === 'edit' ? '菜单已保存' : '菜单已新建';
      setEditing(null);
      await changed(text);
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.deleteById(paths.remove, id),
    onSuccess: () => changed('菜单已删除'),
  });
  const toggle = useMutation({
    mutationFn: (v: { id: number; visible: boolean }) => api.put(paths.edit, v),
    onSuccess: (_d, v) => changed(v.visible ? '菜单已显示' : '菜单已隐藏'),
  });
  const sort = useMutation({
    mutationFn: (v: { parentId: number | null; ids: number[] }) => api.put(menuEndpoints.sort, v),
    onSuccess: () => changed('排序已保存'),
  });

  const siblingsOf = (node: Pick<MenuNode, 'parentId'>) =>
    node.parentId === null ? (menus.data ?? []) : (all.find((n) => n.id === node.parentId)?.children ?? []);

  const move = (node: Row, step: -1 | 1) => {
    const ids = siblingsOf(node).map((n) => n.id);
    const at = ids.indexOf(node.id);
    const to = at + step;
    if (at < 0 || to < 0 || to >= ids.length) return;
    [ids[at], ids[to]] = [ids[to], ids[at]];
    sort.mutate({ parentId: node.parentId, ids });
  };

  const open = (next: Exclude<Editing, null>) => {
    form.resetFields();
    if (next.mode === 'edit') {
      const { children: _children, ...values } = next.node;
      form.setFieldsValue(values);
    } else {
      const parent = next.parent;
      const childType: MenuKind = !parent ? 'group' : parent.type === 'group' ? 'page' : 'action';
      form.setFieldsValue({
        type: childType,
        parentId: parent?.id ?? null,
        sort: (parent ? parent.children.length : (menus.data?.length ?? 0)) + 1,
        visible: childType !== 'action',
      });
    }
    setEditing(next);
  };
  // An expired session reloads the page: the open drawer comes back with what was typed in it.
  useKeptForm(
    'sso-menu',
    editing !== null,
    () => ({ context: editing, values: form.getFieldsValue(true) }),
    ({ context, values }) => {
      form.resetFields();
      form.setFieldsValue(values);
      setEditing(isEditing(context) ? context : null);
    },
  );

  /** Parents a menu of the chosen type may sit under (never itself). */
  const parentOptions = useMemo(() => {
    const wanted = type ? parentTypeOf[type] : null;
    const editingId = editing?.mode === 'edit' ? editing.node.id : undefined;
    const build = (nodes: MenuNode[]): object[] =>
      nodes
        .filter((n) => n.type !== 'action' && n.id !== editingId)
        .map((n) => ({
          value: n.id,
          title: `${n.name}（${typeLabel(n.type)}）`,
          disabled: n.type !== wanted,
          children: n.type === 'group' && wanted === 'page' ? [] : build(n.children),
        }));
    return build(menus.data ?? []);
  }, [menus.data, type, editing]);

  const columns: TableColumnsType<Row> = [
    ...describingColumns,
    {
      key: 'visible',
      title: '显示',
      dataIndex: 'visible',
      width: 90,
      render: (v: boolean, r: Row) => (
        <Switch
          size="small"
          checked={v}
          disabled={!canEdit}
          aria-label={`显示菜单${r.name}`}
          loading={toggle.isPending && toggle.variables?.id === r.id}
          onChange={(visible) => toggle.mutate({ id: r.id, visible })}
        />
      ),
    },
    {
      key: 'sort',
      title: '排序',
      width: 100,
      render: (_: unknown, r: Row) => {
        const ids = siblingsOf(r).map((n) => n.id);
        const at = ids.indexOf(r.id);
        return (
          <Space size={0}>
            <Button
              type="text"
              size="small"
              icon={<ArrowUpOutlined />}
              aria-label={`上移${r.name}`}
              disabled={!canEdit || at <= 0 || sort.isPending}
              onClick={() => move(r, -1)}
            />
            <Button
              type="text"
              size="small"
              icon={<ArrowDownOutlined />}
              aria-label={`下移${r.name}`}
              disabled={!canEdit || at < 0 || at >= ids.length - 1 || sort.isPending}
              onClick={() => move(r, 1)}
            />
          </Space>
        );
      },
    },
    {
      key: 'actions',
      title: '操作',
      width: 200,
      fixed: 'right',
      render: (_: unknown, r: Row) => {
        const node = all.find((n) => n.id === r.id)!;
        return (
          <Space size={4}>
            {canEdit && r.type !== 'action' && (
              <Button type="link" size="small" onClick={() => open({ mode: 'new', parent: node })}>
                新建下级
              </Button>
            )}
            {canEdit && (
              <Button type="link" size="small" onClick={() => open({ mode: 'edit', node })}>
                编辑
              </Button>
            )}
            {canRemove && (
              <Popconfirm
                title={`确定删除菜单“${r.name}”吗？`}
                description="已授予角色的该菜单会一并收回，删除后不可恢复。"
                okText="删除"
                cancelText="取消"
                okButtonProps={{ danger: true }}
                onConfirm={() => settled(remove.mutateAsync(r.id))}
              >
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>
            )}
          </Space>
        );
      },
    },
  ];

  const item = (key: keyof typeof fields, input?: ReactNode) => (
    <Form.Item
      name={key}
      label={fields[key].label}
      extra={fields[key].help}
      rules={[schemaRule(fields[key])]}
      required={key === 'name' || key === 'type'}
    >
      {input ?? <FieldInput field={fields[key]} />}
    </Form.Item>
  );

  return (
    <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
      <Card size="small">
        <Toolbar>
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open({ mode: 'new' })}>
              新建菜单
            </Button>
          )}
          <Button icon={<ReloadOutlined />} onClick={() => void menus.refetch()}>
            刷新
          </Button>
          <Button onClick={() => setExpanded(all.filter((n) => n.children.length).map((n) => n.id))}>
            全部展开
          </Button>
          <Button onClick={() => setExpanded([])}>全部收起</Button>
        </Toolbar>
        <Table<Row>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={menus.isFetching}
          pagination={false}
          scroll={{ x: 'max-content' }}
          expandable={{
            expandedRowKeys: expandedKeys,
            onExpandedRowsChange: (keys) => setExpanded(numbersOf(keys)),
          }}
        />
      </Card>
      <EditDrawer
        title={editing?.mode === 'edit' ? '编辑菜单' : '新建菜单'}
        open={editing !== null}
        saving={save.isPending}
        onClose={() => setEditing(null)}
        form={form}
      >
        <Form
          form={form}
          name="sso-menu-edit"
          layout="vertical"
          onFinish={(values: Record<string, unknown>) =>
            save.mutate({
              ...values,
              parentId: values.parentId ?? null,
              url: values.type === 'action' ? null : values.url,
              permission: values.type === 'action' ? values.permission : null,
            })
          }
        >
          {item('name')}
          {item('type')}
          {item(
            'parentId',
            <TreeSelect
              allowClear
              treeDefaultExpandAll
              placeholder={type === 'group' ? '分组是一级菜单' : '请选择上级菜单'}
              disabled={type === 'group'}
              treeData={parentOptions}
            />,
          )}
          {type !== 'action' && item('url')}
          {type === 'action' && item('permission')}
          {item(
            'iconUrl',
            <Upload accept={fields.iconUrl.upload?.accept} maxSizeKb={fields.iconUrl.upload?.maxSizeKb} />,
          )}
          {item(
            'iconBrightUrl',
            <Upload
              accept={fields.iconBrightUrl.upload?.accept}
              maxSizeKb={fields.iconBrightUrl.upload?.maxSizeKb}
            />,
          )}
          {item('sort')}
          {item('visible')}
        </Form>
      </EditDrawer>
    </Space>
  );
}
