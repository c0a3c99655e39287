/**
 * Pieces every list screen repeats: the 查询/重置 buttons closing a search form, the toolbar above
 * a table, and the edit drawer with 取消/保存. ResourcePage uses them, and so do the screens with
 * their own table (菜单配置, 操作日志), so all look and behave alike.
 */
import type { ReactNode } from 'react';
import { Button, Drawer, Form, Space } from 'antd';
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

/** The create/edit drawer: 取消 closes it, 保存 calls `onSave` (usually the form's submit). */
export function EditDrawer({
  title,
  open,
  saving,
  onClose,
  onSave,
  children,
}: {
  title: string;
  open: boolean;
  saving: boolean;
  onClose: () => void;
  onSave: () => void;
  children: ReactNode;
}) {
  return (
    <Drawer
      title={title}
      open={open}
      size={560}
      destroyOnHidden
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={onSave}>
            保存
          </Button>
        </Space>
      }
    >
      {children}
    </Drawer>
  );
}
