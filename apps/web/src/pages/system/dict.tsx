/**
 * 数据字典: the dictionaries, and per dictionary a drawer listing its items (字典项) with create,
 * edit, delete and an enable switch. Selects elsewhere read the enabled items through dict/key.
 */
import { useState } from 'react';
import { App, Button, Drawer, Switch } from 'antd';
import { UnorderedListOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { resourcePaths, resourcePermissions, type ResourceDef } from '@cowork/contract';
import { dict } from '@cowork/contract/resources/dict';
import { dictItem } from '@cowork/contract/resources/dict-item';
import { usePermission } from '../../components/PermissionGate.tsx';
import { ResourcePage, type ResourceRecord } from '../../components/resource/ResourcePage.tsx';
import { api } from '../../lib/request.ts';

/** Items of one dict: its code is fixed by the drawer; 启用 is a switch column instead of a tag. */
const { dictCode: _dictCode, ...itemFields } = dictItem.fields;
const itemResource: ResourceDef = {
  ...dictItem,
  fields: { ...itemFields, enabled: { ...itemFields.enabled, list: false } },
};

function EnabledSwitch({ record }: { record: ResourceRecord }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { can } = usePermission();
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => api.put(resourcePaths(dictItem).edit, { id: record.id, enabled }),
    onSuccess: (_data, enabled) => {
      message.success(enabled ? '字典项已启用' : '字典项已停用');
      void queryClient.invalidateQueries({ queryKey: [dictItem.key] });
    },
  });
  return (
    <Switch
      checked={Boolean(record.enabled)}
      disabled={!can([resourcePermissions(dictItem).edit])}
      loading={toggle.isPending}
      checkedChildren="启用"
      unCheckedChildren="停用"
      aria-label={`启用字典项${String(record.label)}`}
      onChange={(enabled) => toggle.mutate(enabled)}
    />
  );
}

const enabledColumn = {
  key: 'enabled',
  title: '启用',
  render: (_: unknown, record: ResourceRecord) => <EnabledSwitch record={record} />,
};

export default function DictPage() {
  const [open, setOpen] = useState<ResourceRecord | null>(null);
  return (
    <>
      <ResourcePage
        resource={dict}
        rowActions={(record) => (
          <Button type="link" size="small" icon={<UnorderedListOutlined />} onClick={() => setOpen(record)}>
            字典项
          </Button>
        )}
      />
      <Drawer
        title={open ? `字典项：${String(open.name)}（${String(open.code)}）` : '字典项'}
        open={open !== null}
        size={880}
        destroyOnHidden
        onClose={() => setOpen(null)}
      >
        {open && (
          <ResourcePage
            key={String(open.code)}
            resource={itemResource}
            fixedFilters={{ dictCode: String(open.code) }}
            inAddress={false}
            extraColumns={[enabledColumn]}
          />
        )}
      </Drawer>
    </>
  );
}
