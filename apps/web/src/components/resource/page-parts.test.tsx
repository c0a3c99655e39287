import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { App, Form, Input } from 'antd';
import { useState } from 'react';
import { EditDrawer } from './page-parts.tsx';

/** An edit drawer with one field that has a default, opened at once. */
function Editor({ onClose }: { onClose: () => void }) {
  const [form] = Form.useForm();
  const [open, setOpen] = useState(true);
  return (
    <App>
      <EditDrawer
        title="编辑会议室"
        open={open}
        saving={false}
        form={form}
        onClose={() => {
          onClose();
          setOpen(false);
        }}
      >
        <Form form={form}>
          <Form.Item name="name" label="名称" initialValue="大会议室">
            <Input />
          </Form.Item>
        </Form>
      </EditDrawer>
    </App>
  );
}

const cancel = () => fireEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
const nameInput = () => screen.getByLabelText('名称');

afterEach(cleanup);

describe('EditDrawer', () => {
  it('closes at once when nothing differs from what it opened with, defaults included', () => {
    const onClose = vi.fn();
    render(<Editor onClose={onClose} />);
    cancel();
    expect(onClose).toHaveBeenCalledOnce();
    expect(screen.queryByText('放弃未保存的修改？')).toBeNull();
  });

  it('closes at once when a field was changed and put back', () => {
    const onClose = vi.fn();
    render(<Editor onClose={onClose} />);
    fireEvent.change(nameInput(), { target: { value: '小会议室' } });
    fireEvent.change(nameInput(), { target: { value: '大会议室' } });
    cancel();
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('asks before dropping a change, and keeps editing when told to', async () => {
    const onClose = vi.fn();
    render(<Editor onClose={onClose} />);
    fireEvent.change(nameInput(), { target: { value: '小会议室' } });
    cancel();
    expect((await screen.findAllByText('放弃未保存的修改？')).length).toBeGreaterThan(0);
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: '继续编辑' }));
    expect(onClose).not.toHaveBeenCalled();
    expect(nameInput()).toHaveProperty('value', '小会议室');
  });
});
