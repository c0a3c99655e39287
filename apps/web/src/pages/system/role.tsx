/**
 * 角色权限: roles on the shared ResourcePage, with the grant tree in the edit drawer (menus:
 * groups → pages → actions; a checked action brings its permission code), role groups in a modal
 * and the read-only API catalogue (sso-resources) in a drawer.
 */
import { useMemo, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Drawer,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Spin,
  Table,
  Tag,
  Tree,
  Typography,
  type TreeDataNode,
} from 'antd';
import { ApiOutlined, ApartmentOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ALL_PERMISSIONS, cleanPayload, resourcePermissions, type Page } from '@cowork/contract';
import { menuEndpoints, type MenuNode } from '@cowork/contract/resources/sso-menu';
import {
  role,
  roleEndpoints,
  SUPER_ADMIN_ROLE,
  type ApiResource,
  type RoleGroupRecord,
} from '@cowork/contract/resources/sso-role';
import { usePermission } from '../../components/PermissionGate.tsx';
import { ResourcePage } from '../../components/resource/ResourcePage.tsx';
import { api, settled } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { numberOf, numbersOf, textOf, textsOf } from '../../lib/values.ts';

const permissions = resourcePermissions(role);

const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

const toTreeData = (nodes: MenuNode[]): TreeDataNode[] =>
  nodes.map((n) => ({
    key: n.id,
    title: (
      <span>
        {n.name}
        {n.permission && (
          <Typography.Text type="secondary" style={{ marginLeft: 8, fontSize: 12 }}>
            {n.permission}
          </Typography.Text>
        )}
        {!n.visible && n.type !== 'action' && (
          <Tag style={{ marginLeft: 8 }} bordered={false}>
            隐藏
          </Tag>
        )}
      </span>
    ),
    children: n.children.length ? toTreeData(n.children) : undefined,
  }));

/**
 * The grant tree, the input of `menuIds`: checking an entry grants it with its parents, and the
 * codes of the checked actions replace the menu-carried codes in `permissions` (codes no menu
 * carries, such as an unbuilt screen's, stay).
 */
function GrantTree({ value = [], onChange }: { value?: number[]; onChange?: (ids: number[]) => void }) {
  const form = Form.useFormInstance();
  const menus = useQuery({
    queryKey: ['sso-menu', 'menus'],
    queryFn: () => api.get<MenuNode[]>(menuEndpoints.menus),
  });
  const all = useMemo(() => flatten(menus.data ?? []), [menus.data]);
  const treeData = useMemo(() => toTreeData(menus.data ?? []), [menus.data]);
  // Antd derives a parent's state from its children: only childless entries are set as checked.
  const checked = value.filter((id) => all.some((n) => n.id === id && n.children.length === 0));

  if (menus.isPending) return <Spin />;
  if (!all.length) return <Empty description="还没有菜单，请先在菜单配置中添加" />;
  return (
    <Tree
      checkable
      selectable={false}
      defaultExpandAll
      treeData={treeData}
      checkedKeys={checked}
      onCheck={(keys, info) => {
        const ids = [...numbersOf(keys), ...numbersOf(info.halfCheckedKeys)];
        const idSet = new Set(ids);
        const carried = new Set(all.filter((n) => n.permission).map((n) => n.permission!));
        const kept = textsOf(form.getFieldValue('permissions')).filter((c) => !carried.has(c));
        const granted = all.filter((n) => idSet.has(n.id) && n.type === 'action' && n.permission);
        form.setFieldValue(
          'permissions',
          [...new Set([...kept, ...granted.map((n) => n.permission!)])].sort(),
        );
        onChange?.(ids.sort((a, b) => a - b));
      }}
    />
  );
}

function CodeTags({ value = [] }: { value?: string[] }) {
  if (!value.length) return <Typography.Text type="secondary">未授予任何权限</Typography.Text>;
  return (
    <Space size={[4, 4]} wrap data-testid="granted-codes">
      {value.map((c) => (
        <Tag key={c}>{c}</Tag>
      ))}
    </Space>
  );
}

function Grants() {
  const form = Form.useFormInstance();
  const code = textOf(Form.useWatch('code', form));
  const id = numberOf(Form.useWatch('id', { form, preserve: true }));
  if (code === SUPER_ADMIN_ROLE && id !== undefined) {
    return <Alert type="info" showIcon title="超级管理员拥有全部菜单与权限，无需也不能修改授权。" />;
  }
  return (
    <>
      <Form.Item name="menuIds" label="授权菜单" extra="勾选操作即授予其权限编码；页面与分组随之授权">
        <GrantTree />
      </Form.Item>
      <Form.Item name="permissions" label="权限编码">
        <CodeTags />
      </Form.Item>
      <Form.Item name="id" hidden />
    </>
  );
}

/** 角色分组: add, rename, re-sort and remove (only when empty). */
function RoleGroups({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { can } = usePermission();
  const [form] = Form.useForm<{ id?: number; name: string; sort: number }>();
  const groups = useQuery({
    queryKey: ['list', roleEndpoints.roleGroupList],
    queryFn: () => api.get<RoleGroupRecord[]>(roleEndpoints.roleGroupList),
    enabled: open,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['list', roleEndpoints.roleGroupList] });
  const save = useSubmit({
    mutationFn: (v: { id?: number; name: string; sort: number }) => api.post(roleEndpoints.saveRoleGroup, v),
    onSuccess: (_d, v) => {
      message.success(v.id ? '角色分组已保存' : '角色分组已新建');
      form.resetFields();
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.deleteById(roleEndpoints.removeRoleGroup, id),
    onSuccess: () => {
      message.success('角色分组已删除');
      void refresh();
    },
  });
  const editingId = Form.useWatch('id', form);
  return (
    <Modal title="角色分组" open={open} onCancel={onClose} footer={null} width={640} destroyOnHidden>
      {can([permissions.edit]) && (
        <Form
          form={form}
          name="role-group"
          layout="inline"
          onFinish={({ id, name, sort }) => save.mutate({ id: id || undefined, name, sort })}
          style={{ marginBottom: 16 }}
        >
          <Form.Item name="id" hidden />
          <Form.Item name="name" label="分组名称" rules={[{ required: true, message: '请填写分组名称' }]}>
            <Input maxLength={50} placeholder="请输入分组名称" />
          </Form.Item>
          <Form.Item name="sort" label="排序" initialValue={0}>
            <InputNumber min={0} precision={0} style={{ width: 80 }} />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {editingId ? '保存分组' : '添加分组'}
            </Button>
            {editingId && <Button onClick={() => form.resetFields()}>取消修改</Button>}
          </Space>
        </Form>
      )}
      <Table<RoleGroupRecord>
        rowKey="id"
        size="small"
        loading={groups.isFetching}
        dataSource={groups.data ?? []}
        pagination={false}
        columns={[
          { key: 'name', title: '分组名称', dataIndex: 'name' },
          { key: 'sort', title: '排序', dataIndex: 'sort', width: 80 },
          { key: 'roleCount', title: '角色数', dataIndex: 'roleCount', width: 80 },
          {
            key: 'actions',
            title: '操作',
            width: 140,
            render: (_: unknown, g: RoleGroupRecord) => (
              <Space size={4}>
                {can([permissions.edit]) && (
                  <Button type="link" size="small" onClick={() => form.setFieldsValue(g)}>
                    编辑
                  </Button>
                )}
                {can([permissions.remove]) && (
                  <Popconfirm
                    title={`确定删除角色分组“${g.name}”吗？`}
                    okText="删除"
                    cancelText="取消"
                    okButtonProps={{ danger: true }}
                    onConfirm={() => settled(remove.mutateAsync(g.id))}
                  >
                    <Button type="link" size="small" danger>
                      删除
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
    </Modal>
  );
}

const accessLabel: Record<ApiResource['access'], string> = {
  public: '公开',
  auth: '登录即可',
  permission: '需权限',
};

/** 接口目录: every API route with its method, path and permission code, searchable. */
function ApiCatalogue({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [query, setQuery] = useState<{ current: number; size: number; keyword?: string; method?: string }>({
    current: 1,
    size: 20,
  });
  const page = useQuery({
    queryKey: ['sso-resources', query],
    queryFn: () => api.get<Page<ApiResource>>(roleEndpoints.resourcesPage, cleanPayload(query)),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  return (
    <Drawer title="接口目录" open={open} onClose={onClose} size={960}>
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          allowClear
          placeholder="按权限编码、路径或名称搜索"
          aria-label="搜索接口"
          style={{ width: 320 }}
          onSearch={(keyword) =>
            setQuery((q) => ({ ...q, current: 1, keyword: keyword.trim() || undefined }))
          }
        />
        <Select
          allowClear
          placeholder="请求方法"
          style={{ width: 140 }}
          options={['GET', 'POST', 'PUT', 'DELETE'].map((m) => ({ value: m, label: m }))}
          onChange={(method?: string) => setQuery((q) => ({ ...q, current: 1, method }))}
        />
      </Space>
      <Table<ApiResource>
        rowKey={(r) => `${r.method} ${r.path}`}
        size="small"
        loading={page.isFetching}
        dataSource={page.data?.records ?? []}
        columns={[
          {
            key: 'method',
            title: '方法',
            dataIndex: 'method',
            width: 80,
            render: (m: string) => <Tag>{m}</Tag>,
          },
          { key: 'path', title: '路径', dataIndex: 'path', render: (p: string) => <code>{p}</code> },
          {
            key: 'code',
            title: '权限编码',
            dataIndex: 'codes',
            // Several codes: any one of them opens the call.
            render: (codes: string[], r) =>
              codes.length ? (
                <Space size={[4, 4]} wrap>
                  {codes.map((c, i) => (
                    <span key={c}>
                      {i > 0 && '或 '}
                      <code>{c}</code>
                    </span>
                  ))}
                </Space>
              ) : (
                accessLabel[r.access]
              ),
          },
          { key: 'name', title: '名称', dataIndex: 'name' },
        ]}
        pagination={{
          current: page.data?.current ?? query.current,
          pageSize: page.data?.size ?? query.size,
          total: page.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => `共 ${total} 个接口`,
          onChange: (current, size) =>
            setQuery((q) => ({ ...q, current: size === q.size ? current : 1, size })),
        }}
      />
    </Drawer>
  );
}

export default function RolePage() {
  const [groupsOpen, setGroupsOpen] = useState(false);
  const [apisOpen, setApisOpen] = useState(false);
  const { can } = usePermission();
  return (
    <>
      <ResourcePage
        resource={role}
        hiddenFields={['menuIds', 'permissions']}
        formExtra={<Grants />}
        extraColumns={[
          {
            key: 'grants',
            title: '权限',
            render: (_: unknown, r) => {
              const codes = textsOf(r.permissions);
              return codes.includes(ALL_PERMISSIONS) ? (
                <Tag color="gold">全部权限</Tag>
              ) : (
                `${numbersOf(r.menuIds).length} 个菜单，${codes.length} 个权限编码`
              );
            },
          },
        ]}
        toolbar={
          <>
            <Button icon={<ApartmentOutlined />} onClick={() => setGroupsOpen(true)}>
              角色分组
            </Button>
            {can([permissions.view]) && (
              <Button icon={<ApiOutlined />} onClick={() => setApisOpen(true)}>
                接口目录
              </Button>
            )}
          </>
        }
      />
      <RoleGroups open={groupsOpen} onClose={() => setGroupsOpen(false)} />
      <ApiCatalogue open={apisOpen} onClose={() => setApisOpen(false)} />
    </>
  );
}
