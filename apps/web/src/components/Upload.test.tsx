import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App, Button, ConfigProvider, Form } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { InternalAxiosRequestConfig } from 'axios';
import { messages, uploadEndpoints, type UploadedFileInfo } from '@cowork/contract';
import { mockAdapter, type Handler, type Reply } from '../test/mock-adapter.ts';
import { request, setToast } from '../lib/request.ts';
import { setTokens } from '../lib/session.ts';
import { Upload, type UploadProps } from './Upload.tsx';

const toast = vi.fn();
const originalAdapter = request.defaults.adapter;
const ok = (data: unknown): Reply => ({ status: 200, data: { code: 200, msg: '操作成功', data } });

function serve(handler: Handler) {
  const adapter = mockAdapter(handler);
  request.defaults.adapter = adapter;
  return adapter;
}

let sequence = 0;
/** The server's answer to an upload: a fresh key per file. */
function stored(config: InternalAxiosRequestConfig): Reply {
  const file = (config.data as FormData).get('file') as File;
  const key = `20250101/${String(++sequence).padStart(32, '0')}.${file.name.split('.').pop()}`;
  const info: UploadedFileInfo = {
    url: `/file/uploads/${key}`,
    key,
    name: file.name,
    size: file.size,
    contentType: file.type,
  };
  return ok(info);
}

const uploads = (adapter: ReturnType<typeof mockAdapter>) =>
  adapter.calls.filter((c) => c.url === uploadEndpoints.upload);
const removals = (adapter: ReturnType<typeof mockAdapter>) =>
  adapter.calls.filter((c) => c.url === uploadEndpoints.remove);

const png = (name = 'logo.png', bytes = 1024) =>
  new File([new Uint8Array(bytes)], name, { type: 'image/png' });

/** A form holding one Upload field; submitting shows the values. */
function renderForm(props: UploadProps, initial?: unknown) {
  const onChange = vi.fn();
  const onFinish = vi.fn();
  render(
    <ConfigProvider locale={zhCN} theme={{ token: { motion: false } }}>
      <App>
        <Form initialValues={{ files: initial }} onFinish={onFinish}>
          <Form.Item name="files" label="附件">
            <Upload {...props} onChange={onChange} />
          </Form.Item>
          <Button htmlType="submit">提交</Button>
        </Form>
      </App>
    </ConfigProvider>,
  );
  return { onChange, onFinish };
}

const input = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

function choose(...files: File[]) {
  fireEvent.change(input(), { target: { files } });
}

async function submitted(onFinish: ReturnType<typeof vi.fn>) {
  fireEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
  await waitFor(() => expect(onFinish).toHaveBeenCalled());
  return onFinish.mock.lastCall![0] as { files: unknown };
}

beforeEach(() => {
  toast.mockReset();
  setToast(toast);
  setTokens('the-access-token', 'the-refresh-token');
  sequence = 0;
});

afterEach(() => {
  request.defaults.adapter = originalAdapter;
});

describe('Upload', () => {
  it('sends the file with the bearer token and the limits, then holds the served URL', async () => {
    const adapter = serve(stored);
    const { onChange, onFinish } = renderForm({ accept: ['png', 'jpg'], maxSizeKb: 500 });
    expect(input().accept).toBe('.png,.jpg');
    choose(png());
    await waitFor(() =>
      expect(onChange).toHaveBeenCalledWith(`/file/uploads/20250101/${'1'.padStart(32, '0')}.png`),
    );

    const [call] = uploads(adapter);
    expect(call.method).toBe('post');
    expect(call.headers.get('Authorization')).toBe('Bearer the-access-token');
    const form = call.data as FormData;
    expect((form.get('file') as File).name).toBe('logo.png');
    expect(form.get('accept')).toBe('png,jpg');
    expect(form.get('maxSizeKb')).toBe('500');

    // Images get picture cards, with the stored file as the thumbnail.
    const card = await waitFor(() => {
      const img = document.querySelector<HTMLImageElement>('.ant-upload-list-picture-card img');
      expect(img?.getAttribute('src')).toBe(`/file/uploads/20250101/${'1'.padStart(32, '0')}.png`);
      return img!;
    });
    expect(card).toBeTruthy();
    expect((await submitted(onFinish)).files).toBe(`/file/uploads/20250101/${'1'.padStart(32, '0')}.png`);
  });

  it('refuses a file checkUpload refuses, with its Chinese message, before sending', async () => {
    const adapter = serve(stored);
    const { onChange } = renderForm({ accept: ['png'], maxSizeKb: 100 });
    choose(new File(['MZ'], 'tool.exe', { type: 'application/octet-stream' }));
    expect(await screen.findByText(`${messages.uploadBadType}png`)).toBeTruthy();
    choose(png('big.png', 101 * 1024));
    expect(await screen.findByText(messages.uploadTooLarge.replace('{max}', '100'))).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(uploads(adapter)).toHaveLength(0);
    expect(onChange).not.toHaveBeenCalled();
    expect(document.querySelectorAll('.ant-upload-list-item')).toHaveLength(0);
  });

  it('without limits it still keeps to what the server accepts', async () => {
    const adapter = serve(stored);
    renderForm({});
    choose(new File(['x'], 'page.html', { type: 'text/html' }));
    expect(await screen.findByText(/文件类型不支持/)).toBeTruthy();
    choose(new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText(messages.uploadTooLarge.replace('{max}', '10240'))).toBeTruthy();
    expect(uploads(adapter)).toHaveLength(0);
  });

  it('shows the progress of a file being sent', async () => {
    let finish: (reply: Reply) => void = () => {};
    let sending: InternalAxiosRequestConfig | undefined;
    serve((config) => {
      sending = config;
      return new Promise<Reply>((resolve) => {
        finish = resolve;
      });
    });
    const { onChange } = renderForm({ accept: ['pdf'] });
    choose(new File(['%PDF-1.4'], '合同.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(sending).toBeDefined());
    act(() => sending!.onUploadProgress!({ loaded: 40, total: 100, bytes: 40, lengthComputable: true }));
    const bar = await screen.findByRole('progressbar');
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('40'));
    expect(onChange).not.toHaveBeenCalled();

    act(() => finish(stored(sending!)));
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    // Documents are listed by name, not as picture cards.
    expect(screen.getByText('合同.pdf')).toBeTruthy();
    expect(document.querySelector('.ant-upload-list-picture-card')).toBeNull();
  });

  it('multiple: adds to the value, a list of URLs', async () => {
    const adapter = serve(stored);
    const { onChange, onFinish } = renderForm({ multiple: true, accept: ['png'] }, [
      '/file/uploads/old/a.png',
    ]);
    expect(input().multiple).toBe(true);
    choose(png('b.png'), png('c.png'));
    await waitFor(() => expect(uploads(adapter)).toHaveLength(2));
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith([
        '/file/uploads/old/a.png',
        `/file/uploads/20250101/${'1'.padStart(32, '0')}.png`,
        `/file/uploads/20250101/${'2'.padStart(32, '0')}.png`,
      ]),
    );
    expect((await submitted(onFinish)).files).toHaveLength(3);
  });

  it('multiple with maxCount: files beyond it are refused', async () => {
    const adapter = serve(stored);
    renderForm({ multiple: true, maxCount: 2, accept: ['png'] });
    choose(png('a.png'), png('b.png'), png('c.png'));
    expect(await screen.findByText('最多上传 2 个文件')).toBeTruthy();
    await waitFor(() => expect(uploads(adapter)).toHaveLength(2));
  });

  it('removing a file it uploaded removes it on the server too', async () => {
    const adapter = serve((config) => (config.url === uploadEndpoints.remove ? ok(null) : stored(config)));
    const { onChange, onFinish } = renderForm({ accept: ['png'] });
    choose(png());
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    const url = onChange.mock.lastCall![0] as string;
    // Single: the trigger is gone while a file is held.
    expect(screen.queryByText('上传')).toBeNull();

    // The item leaves its uploading state a render after onChange: wait for its delete button.
    fireEvent.click(await screen.findByRole('button', { name: '删除文件' }));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(undefined));
    const [call] = removals(adapter);
    expect(call.method).toBe('delete');
    expect(JSON.parse(String(call.data))).toEqual({ url });
    expect(call.headers.get('Authorization')).toBe('Bearer the-access-token');
    expect(await screen.findByText('上传')).toBeTruthy();
    expect((await submitted(onFinish)).files).toBeUndefined();
  });

  it('a file of the saved value is only taken out of the value, not deleted', async () => {
    const adapter = serve(() => ok(null));
    const { onChange } = renderForm({ accept: ['png'] }, '/file/uploads/20240101/saved.png');
    const img = document.querySelector<HTMLImageElement>('.ant-upload-list-picture-card img');
    expect(img?.getAttribute('src')).toBe('/file/uploads/20240101/saved.png');
    fireEvent.click(screen.getByRole('button', { name: '删除文件' }));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(undefined));
    expect(removals(adapter)).toHaveLength(0);
  });

  it('keeps the file when the server refuses to remove it', async () => {
    serve((config) =>
      config.url === uploadEndpoints.remove
        ? { status: 403, data: { code: 403, msg: messages.noPermission, data: null } }
        : stored(config),
    );
    const { onChange } = renderForm({ accept: ['png'] });
    choose(png());
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    // As above: the delete button appears a render after onChange.
    fireEvent.click(await screen.findByRole('button', { name: '删除文件' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith(messages.noPermission, 3));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(document.querySelectorAll('.ant-upload-list-item')).toHaveLength(1);
  });

  it("a refused upload shows the server's message and leaves nothing in the list", async () => {
    const refusal = '文件「fake.png」：内容与扩展名 .png 不符，请上传真实的 png 文件';
    serve(() => ({ status: 400, data: { code: 400, msg: refusal, data: null } }));
    const { onChange } = renderForm({ accept: ['png'] });
    choose(png('fake.png'));
    await waitFor(() => expect(toast).toHaveBeenCalledWith(refusal, 3));
    await waitFor(() => expect(document.querySelectorAll('.ant-upload-list-item')).toHaveLength(0));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText('上传')).toBeTruthy();
  });

  it('previews an image in a dialog', async () => {
    serve(stored);
    renderForm({ accept: ['png'] }, '/file/uploads/20240101/saved.png');
    fireEvent.click(screen.getByRole('link', { name: '预览文件' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('img', { name: 'saved.png' }).getAttribute('src')).toBe(
      '/file/uploads/20240101/saved.png',
    );
  });

  it('follows a value set from outside (a record loaded, the form reset)', async () => {
    serve(stored);
    function Harness() {
      const [form] = Form.useForm();
      return (
        <App>
          <Form form={form}>
            <Form.Item name="logo" label="Logo">
              <Upload accept={['png']} />
            </Form.Item>
            <Button onClick={() => form.setFieldsValue({ logo: '/file/uploads/20240101/loaded.png' })}>
              载入
            </Button>
            <Button onClick={() => form.resetFields()}>重置</Button>
          </Form>
        </App>
      );
    }
    render(<Harness />);
    expect(document.querySelectorAll('.ant-upload-list-item')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: /载\s*入/ }));
    await waitFor(() =>
      expect(document.querySelector('.ant-upload-list-picture-card img')?.getAttribute('src')).toBe(
        '/file/uploads/20240101/loaded.png',
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(document.querySelectorAll('.ant-upload-list-item')).toHaveLength(0));
  });
});
