/**
 * 工位: 办公区工位 and 大厅工位 as two tabs of one page, each the declared resource screen plus an
 * Excel import in the toolbar and a 套餐 row action: a drawer listing the seat's goods with
 * add/edit, an enable switch and delete with confirmation.
 */
import { useState } from 'react';
import {
  App,
  AutoComplete,
  Button,
  Drawer,
  Form,
  Modal,
  Popconfirm,
  Space,
  Switch,
  Table,
  Tabs,
  type TableColumnsType,
} from 'antd';
import { AppstoreOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { resourcePermissions, type Field } from '@cowork/contract';
import {
  seatGoodsFields,
  seatGoodsPaths,
  seatResources,
  type SeatGoods,
  type SeatResource,
} from '@cowork/contract/resources/seat';
import { ResourceExcelImport } from '../../components/ExcelImport.tsx';
import { usePermission } from '../../components/PermissionGate.tsx';
import { FieldCell, FieldInput, schemaRule } from '../../components/resource/field-input.tsx';
import { FloorSelect } from '../../components/FloorSelect.tsx';
import { ResourcePage, type ResourceRecord } from '../../components/resource/ResourcePage.tsx';
import { api, settled } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';

const goodsFields = Object.entries(seatGoodsFields) as [keyof typeof seatGoodsFields, Field][];

/** The goods form: the name suggests the names already in use. */
function GoodsForm({
  resource,
  editing,
  onClose,
  seatId,
}: {
  resource: SeatResource;
  editing: SeatGoods | 'new';
  seatId: number;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const paths = seatGoodsPaths(resource);
  const [form] = Form.useForm();
  const names = useQuery({
    queryKey: [resource.key, 'goods-names'],
    queryFn: () => api.get<string[]>(paths.name),
  });
  const save = useSubmit({
    mutationFn: (values: Record<string, unknown>) =>
      api.post<SeatGoods>(paths.save, {
        ...values,
        seatId,
        ...(editing === 'new' ? {} : { id: editing.id }),
      }),
    onSuccess: () => {
      message.success(editing === 'new' ? '套餐已新建' : '套餐已保存');
      void queryClient.invalidateQueries({ queryKey: [resource.key] });
      onClose();
    },
  });
  return (
    <Modal
      open
      title={editing === 'new' ? '新建套餐' : '编辑套餐'}
      okText="保存"
      cancelText="取消"
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        name={`${resource.key}-goods`}
        layout="vertical"
        initialValues={editing === 'new' ? { stock: 0, enabled: true } : editing}
        onFinish={(values: Record<string, unknown>) => save.mutate(values)}
      >
        {goodsFields.map(([key, f]) => (
          <Form.Item
            key={key}
            name={key}
            label={f.label}
            extra={f.help}
            required={!f.schema.safeParse(undefined).success}
            rules={[schemaRule(f)]}
          >
            {key === 'name' ? (
              <AutoComplete
                allowClear
                placeholder={`请输入${f.label}`}
                options={names.data?.map((name) => ({ value: name }))}
                filterOption={(input, option) => String(option?.value ?? '').includes(input)}
              />
            ) : (
              <FieldInput field={f} />
            )}
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}

/** The goods of one seat. */
function GoodsDrawer({
  resource,
  seat,
  onClose,
}: {
  resource: SeatResource;
  seat: ResourceRecord;
  onClose: () => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { can } = usePermission();
  const permissions = resourcePermissions(resource);
  const paths = seatGoodsPaths(resource);
  const [editing, setEditing] = useState<SeatGoods | 'new' | null>(null);
  const goods = useQuery({
    queryKey: [resource.key, 'goods', seat.id],
    queryFn: () => api.getById<SeatGoods[]>(paths.detail, seat.id),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: [resource.key] });
  const toggle = useMutation({
    mutationFn: (v: { id: number; enabled: boolean }) => api.put(paths.enabled, v),
    onSuccess: (_data, v) => {
      message.success(v.enabled ? '套餐已启用' : '套餐已停用');
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.deleteById(paths.remove, id),
    onSuccess: () => {
      message.success('套餐已删除');
      void refresh();
    },
  });

  const columns: TableColumnsType<SeatGoods> = [
    ...goodsFields
      .filter(([key]) => key !== 'enabled')
      .map(([key, f]) => ({
        key,
        title: f.label,
        dataIndex: key,
        render: (value: unknown) => <FieldCell field={f} value={value} />,
      })),
    {
      key: 'enabled',
      title: '启用',
      render: (_: unknown, record: SeatGoods) => (
        <Switch
          checked={record.enabled}
          disabled={!can([permissions.edit])}
          loading={toggle.isPending && toggle.variables?.id === record.id}
          checkedChildren="启用"
          unCheckedChildren="停用"
          aria-label={`启用套餐${record.name}`}
          onChange={(enabled) => toggle.mutate({ id: record.id, enabled })}
        />
      ),
    },
    {
      key: 'actions',
      title: '操作',
      render: (_: unknown, record: SeatGoods) => (
        <Space size={4}>
          {can([permissions.edit]) && (
            <Button type="link" size="small" onClick={() => setEditing(record)}>
              编辑
            </Button>
          )}
          {can([permissions.remove]) && (
            <Popconfirm
              title="确定删除该套餐吗？"
              description="删除后不可恢复。"
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => settled(remove.mutateAsync(record.id))}
            >
              <Button type="link" size="small" danger>
                删除
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Drawer
      title={`套餐：${String(seat.name)}（${String(seat.code)}）`}
      open
      size={760}
      destroyOnHidden
      onClose={onClose}
      extra={
        can([permissions.edit]) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            新建套餐
          </Button>
        )
      }
    >
      <Table<SeatGoods>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={goods.data ?? []}
        loading={goods.isFetching}
        pagination={false}
        locale={{ emptyText: '该工位还没有套餐' }}
      />
      {editing !== null && (
        <GoodsForm resource={resource} seatId={seat.id} editing={editing} onClose={() => setEditing(null)} />
      )}
    </Drawer>
  );
}

/** One tab: the seat screen with its import and goods. */
function SeatTab({ resource }: { resource: SeatResource }) {
  const [goodsOf, setGoodsOf] = useState<ResourceRecord | null>(null);
  return (
    <>
      <ResourcePage
        resource={resource}
        inputs={{ floor: <FloorSelect /> }}
        toolbar={<ResourceExcelImport resource={resource} />}
        rowActions={(record) => (
          <Button type="link" size="small" icon={<AppstoreOutlined />} onClick={() => setGoodsOf(record)}>
            套餐
          </Button>
        )}
      />
      {goodsOf && <GoodsDrawer resource={resource} seat={goodsOf} onClose={() => setGoodsOf(null)} />}
    </>
  );
}

export default function SeatPage() {
  return (
    <Tabs
      destroyOnHidden
      items={seatResources.map((resource) => ({
        key: resource.key,
        label: resource.label,
        children: <SeatTab resource={resource} />,
      }))}
    />
  );
}
