import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { mockAdapter, type Handler } from '../test/mock-adapter.ts';
import { request, setToast } from '../lib/request.ts';
import { ExcelImport, importErrorsCsv } from './ExcelImport.tsx';

const originalAdapter = request.defaults.adapter;
const toast = vi.fn();

function renderImport(handler: Handler) {
  const adapter = mockAdapter(handler);
  request.defaults.adapter = adapter;
  const onDone = vi.fn();
  render(
    <ConfigProvider locale={zhCN} theme={{ token: { motion: false } }}>
      <App>
        <ExcelImport templateUrl="/t" importUrl="/i" title="导入工位" onDone={onDone} />
      </App>
    </ConfigProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: /Excel 导入/ }));
  return { adapter, onDone };
}

const choose = (name: string, bytes = 10) => {
  const input = document.querySelector('input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File([new Uint8Array(bytes)], name)] } });
};

beforeEach(() => setToast(toast));
afterEach(() => {
  request.defaults.adapter = originalAdapter;
  toast.mockReset();
});

describe('ExcelImport', () => {
  it('builds a CSV error report Excel opens in Chinese, quoting what needs it', () => {
    expect(
      importErrorsCsv([
        { row: 3, column: '楼宇名称', message: '找不到名为“A,B”的楼宇' },
        { row: 4, column: '工位名称', message: '请填写"工位名称"' },
      ]),
    ).toBe('\uFEFF行号,列,问题\r\n3,楼宇名称,"找不到名为“A,B”的楼宇"\r\n4,工位名称,"请填写""工位名称"""\r\n');
  });

  it('uploads the file as field `file` and reports the count on success', async () => {
    const { adapter, onDone } = renderImport(() => ({
      status: 200,
      data: { code: 200, msg: '已导入 2 条数据', data: { imported: 2 } },
    }));
    choose('seats.xlsx');
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(2));
    expect(((adapter.calls[0].data as FormData).get('file') as File).name).toBe('seats.xlsx');
    expect(await screen.findAllByText('已导入 2 条数据')).not.toHaveLength(0);
  });

  it('says which rows were skipped as the template’s example', async () => {
    const { onDone } = renderImport(() => ({
      status: 200,
      data: { code: 200, msg: '', data: { imported: 1, skippedRows: [2] } },
    }));
    choose('old-template.xlsx');
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(1));
    expect(await screen.findAllByText('已导入 1 条数据；第 2 行是模板的示例，未导入')).not.toHaveLength(0);
  });

  it('shows every bad row of a refused file in the error report', async () => {
    const { onDone } = renderImport(() => ({
      status: 400,
      data: {
        code: 400,
        msg: '有 2 行数据有误，未导入任何数据；请按错误报告修改后重新导入',
        data: {
          errors: [
            { row: 3, column: '楼宇名称', message: '找不到名为“X”的楼宇' },
            { row: 5, column: '工位编号', message: '工位编号与第 2 行重复' },
          ],
        },
      },
    }));
    choose('bad.xlsx');
    const report = await screen.findByRole('table');
    expect(within(report).getByText('楼宇名称')).toBeTruthy();
    expect(within(report).getByText('5')).toBeTruthy();
    expect(within(report).getByText('工位编号与第 2 行重复')).toBeTruthy();
    expect(screen.getByRole('button', { name: /下载错误报告/ })).toBeTruthy();
    expect(onDone).not.toHaveBeenCalled();
  });

  it('refuses a file that is not .xlsx without sending it', async () => {
    const { adapter } = renderImport(() => ({ status: 500 }));
    choose('seats.csv');
    expect(await screen.findByText(/只能导入 \.xlsx/)).toBeTruthy();
    expect(adapter.calls).toHaveLength(0);
  });
});
