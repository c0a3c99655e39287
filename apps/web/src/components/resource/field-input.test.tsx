import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { field } from '@cowork/contract';
import { FieldInput } from './field-input.tsx';

function renderTags(value: string[]) {
  const onChange = vi.fn();
  render(
    <ConfigProvider locale={zhCN} theme={{ token: { motion: false } }}>
      <App>
        <FieldInput field={field.tags('楼层')} value={value} onChange={onChange} />
      </App>
    </ConfigProvider>,
  );
  const input = screen.getByRole('combobox');
  const type = (text: string) => {
    fireEvent.change(input, { target: { value: text } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13, which: 13 });
  };
  return { onChange, type };
}

describe('tags (楼层)', () => {
  it('adds a new tag', () => {
    const { onChange, type } = renderTags(['8F']);
    type('9F');
    expect(onChange).toHaveBeenLastCalledWith(['8F', '9F']);
  });

  it('keeps a tag typed again and says it is already there', async () => {
    const { onChange, type } = renderTags(['8F', '9F']);
    type('8F');
    expect(onChange).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByText('楼层“8F”已在列表中，无需重复添加')).toBeTruthy());
  });
});
