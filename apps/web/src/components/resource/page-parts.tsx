/**
 * Pieces every list screen repeats: the 查询/重置 buttons closing a search form, the toolbar above
 * a table, and the edit drawer with 取消/保存. ResourcePage uses them, and so do the screens with
 * their own table (菜单配置, 操作日志), so all look and behave alike.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { App, Button, Drawer, Form, Space, type FormInstance } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import './resource.css';

/** The last item of a search form: 查询 submits it, 重置 calls `onReset`. */
export function SearchButtons({ onReset }: { onReset: () => void }) {
  return (
    <Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          查询
        </Button>
        <Button icon={<ReloadOutlined />} onClick={onReset}>
          重置
        </Button>
      </Space>
    </Form.Item>
  );
}

/** The row of buttons above a table (新建, 批量删除, …). */
export function Toolbar({ children }: { children: ReactNode }) {
  return <Space className="resource-toolbar">{children}</Space>;
}

/** Form values as comparable text: keys sorted, so the order fields registered in does not count. */
function valuesText(form: FormInstance): string {
  const values: Record<string, unknown> = form.getFieldsValue(true);
  return JSON.stringify(Object.fromEntries(Object.entries(values).sort(([a], [b]) => a.localeCompare(b))));
}

/**
 * Runs `run` once its siblings before it mounted: their effects ran first, so the fields of a form
 * placed before it have registered their defaults.
 */
function OnMount({ run }: { run: () => void }) {
  useEffect(() => run(), []); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

/**
 * The create/edit drawer: 保存 submits `form`; 取消, the close button, Esc and a click outside close
 * it, asking first when the form holds changes that were not saved. A change is a value that differs
 * from what the drawer opened with, not a touched field: a picker that re-emits the same moment on
 * blur, or a field touched and put back, is not a change.
 */
export function EditDrawer({
  title,
  open,
  saving,
  form,
  onClose,
  children,
}: {
  title: string;
  open: boolean;
  saving: boolean;
  form: FormInstance;
  onClose: () => void;
  children: ReactNode;
}) {
  const { modal } = App.useApp();
  const opened = useRef<string | null>(null);
  const close = () => {
    const changed = opened.current === null ? form.isFieldsTouched() : valuesText(form) !== opened.current;
    if (!changed) return onClose();
    modal.confirm({
      title: '放弃未保存的修改？',
      content: '表单中有尚未保存的修改，关闭后这些修改将丢失。',
      okText: '放弃修改',
      okButtonProps: { danger: true },
      cancelText: '继续编辑',
      onOk: onClose,
    });
  };
  return (
    <Drawer
      title={title}
      open={open}
      size={560}
      destroyOnHidden
      onClose={close}
      extra={
        <Space>
          <Button onClick={close}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => form.submit()}>
            保存
          </Button>
        </Space>
      }
    >
      {children}
      {/* Keyed by `open`: it mounts again each time the drawer opens, even during its closing motion. */}
      <OnMount
        key={String(open)}
        run={() => {
          opened.current = open ? valuesText(form) : null;
        }}
      />
    </Drawer>
  );
}
