/**
 * The file upload control (optional allowed extensions, optional maximum size in KB,
 * single or multiple), usable as an antd Form input: its value is the served URL (single) or a list
 * of them (multiple). A chosen file is checked with the contract's `checkUpload` before it is sent;
 * the server checks it again, content included, and its message is shown by the request layer.
 *
 * Removing a file this control uploaded also removes it from the server. A file that came in
 * through `value` (the saved record's) is only taken out of the value: the record still points at
 * it until it is saved, and a cancelled edit must not leave it pointing at nothing.
 *
 * @example
 * <Form.Item name="logoUrl" label="商户 Logo"><Upload accept={['png', 'jpg']} maxSizeKb={500} /></Form.Item>
 * <Form.Item name="attachments" label="附件"><Upload accept={['pdf', 'xlsx']} multiple /></Form.Item>
 */
import { useRef, useState } from 'react';
import {
  App,
  Button,
  Modal,
  Upload as AntUpload,
  message as staticMessage,
  type UploadProps as AntUploadProps,
} from 'antd';
import type { UploadFile } from 'antd';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import {
  checkUpload,
  IMAGE_EXTENSIONS,
  UPLOAD_EXTENSIONS,
  UPLOAD_MAX_SIZE_KB,
  uploadEndpoints,
  type UploadedFileInfo,
} from '@cowork/contract';
import { api, RequestError } from '../lib/request.ts';

export interface UploadProps {
  /** The served URL (single) or URLs (multiple); Form.Item passes it. */
  value?: string | string[] | null;
  /** Called with the URL, or undefined once removed (single), or the list of URLs (multiple). */
  onChange?: (value: string | string[] | undefined) => void;
  /** Allowed extensions without dot, e.g. `['png', 'jpg']`; default every extension the server takes. */
  accept?: string[];
  /** Largest file in KB; never above the server's limit. */
  maxSizeKb?: number;
  /** Several files; the value is then a list. */
  multiple?: boolean;
  /** Most files kept when multiple. */
  maxCount?: number;
  /** Default: picture cards when only images are accepted, else a plain list. */
  listType?: 'text' | 'picture' | 'picture-card';
  disabled?: boolean;
  /** Set by Form.Item so the label points at the file input. */
  id?: string;
}

type Item = UploadFile<UploadedFileInfo>;

const extensionOf = (name: string) =>
  name.includes('.') ? name.split(/[?#]/)[0].split('.').pop()!.toLowerCase() : '';

const isImage = (file: Pick<Item, 'name' | 'url'>) =>
  IMAGE_EXTENSIONS.includes(extensionOf(file.url ?? '')) || IMAGE_EXTENSIONS.includes(extensionOf(file.name));

const urlsOf = (value: UploadProps['value']): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).filter((u) => typeof u === 'string' && u !== '');

const doneUrls = (list: Item[]) => list.filter((f) => f.status === 'done' && f.url).map((f) => f.url!);

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((u, i) => u === b[i]);

/** List entries for URLs, keeping the entries already shown for them and any upload under way. */
function itemsFor(urls: string[], current: Item[]): Item[] {
  const done = urls.map(
    (url, i): Item =>
      current.find((f) => f.status === 'done' && f.url === url) ?? {
        uid: `value-${i}-${url}`,
        name: decodeURIComponent(url.split('/').pop() ?? url),
        status: 'done',
        url,
      },
  );
  return [...done, ...current.filter((f) => f.status === 'uploading')];
}

export function Upload({
  value,
  onChange,
  accept,
  maxSizeKb,
  multiple = false,
  maxCount,
  listType,
  disabled,
  id,
}: UploadProps) {
  // Outside antd's <App> the context holds an empty object: the static message API stands in.
  const { message: appMessage } = App.useApp();
  const message = 'error' in appMessage ? appMessage : staticMessage;

  const [fileList, setFileList] = useState<Item[]>(() => itemsFor(urlsOf(value), []));
  // A new value from outside (the form loaded a record, or was reset) replaces what is shown; the
  // echo of what this control emitted changes nothing. Without a value prop the control keeps its own.
  const [previousValue, setPreviousValue] = useState(value);
  if (value !== previousValue) {
    setPreviousValue(value);
    if (!sameList(urlsOf(value), doneUrls(fileList))) setFileList(itemsFor(urlsOf(value), fileList));
  }

  /** URLs uploaded by this control: removing one of them removes the file on the server too. */
  const uploadedHere = useRef(new Set<string>());
  const limit = Math.min(maxSizeKb ?? UPLOAD_MAX_SIZE_KB, UPLOAD_MAX_SIZE_KB);
  const extensions = accept?.length
    ? accept.map((a) => a.replace(/^\./, '').toLowerCase())
    : [...UPLOAD_EXTENSIONS];
  const capacity = multiple ? (maxCount ?? Infinity) : 1;
  const kind = listType ?? (extensions.every((e) => IMAGE_EXTENSIONS.includes(e)) ? 'picture-card' : 'text');
  const [preview, setPreview] = useState<Item>();

  const emit = (list: Item[]) => {
    const urls = doneUrls(list);
    onChange?.(multiple ? urls : urls[0]);
  };

  const removeStored = (url: string) =>
    api.delete<null>(uploadEndpoints.remove, { url }).then(
      () => {
        uploadedHere.current.delete(url);
      },
      (error: unknown) => {
        // Already gone is as good as removed; anything else keeps the file (the toast said why).
        if (error instanceof RequestError && error.code === 404) return;
        throw error;
      },
    );

  const beforeUpload: AntUploadProps['beforeUpload'] = (file, batch) => {
    const problem =
      checkUpload(file, { accept: extensions, maxSizeKb: limit }) ??
      (fileList.length + batch.indexOf(file) >= capacity ? `最多上传 ${capacity} 个文件` : undefined);
    if (problem) {
      void message.error(problem);
      return AntUpload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: AntUploadProps<UploadedFileInfo>['customRequest'] = ({
    file,
    onProgress,
    onSuccess,
    onError,
  }) => {
    const form = new FormData();
    form.append('accept', extensions.join(','));
    form.append('maxSizeKb', String(Math.ceil(limit)));
    form.append('file', file as Blob, (file as File).name);
    let cancelled = false;
    api
      .post<UploadedFileInfo>(uploadEndpoints.upload, form, {
        onUploadProgress: (event) => {
          if (!cancelled && event.total)
            onProgress?.({ percent: Math.round((event.loaded / event.total) * 100) });
        },
      })
      .then(
        (info) => {
          // Removed while it was being sent: what arrived is not wanted.
          if (cancelled) return void removeStored(info.url).catch(() => undefined);
          uploadedHere.current.add(info.url);
          onSuccess?.(info);
        },
        (error: Error) => {
          if (!cancelled) onError?.(error);
        },
      );
    // Letting the request finish (and removing its file) rather than aborting it: an aborted call
    // would be reported as a failure by the request layer.
    return {
      abort: () => {
        cancelled = true;
      },
    };
  };

  const handleChange: AntUploadProps<UploadedFileInfo>['onChange'] = ({ file, fileList: next }) => {
    const list = next
      // A failed upload leaves nothing behind: the request layer has shown why.
      .filter((f) => f.status !== 'error')
      .map((f) =>
        f.uid === file.uid && f.status === 'done' && f.response
          ? { ...f, url: f.response.url, thumbUrl: undefined }
          : f,
      );
    setFileList(list);
    if (file.status === 'done' || file.status === 'removed') emit(list);
  };

  const handleRemove = async (file: Item) => {
    if (file.status === 'done' && file.url && uploadedHere.current.has(file.url)) {
      try {
        await removeStored(file.url);
      } catch {
        return false;
      }
    }
    return true;
  };

  const handlePreview = (file: Item) => {
    if (isImage(file) && (file.url || file.thumbUrl)) setPreview(file);
    else if (file.url) window.open(file.url, '_blank', 'noopener,noreferrer');
  };

  const full = fileList.length >= capacity;
  const trigger =
    kind === 'picture-card' ? (
      full ? null : (
        <button
          type="button"
          className="upload-card-trigger"
          disabled={disabled}
          style={{ border: 0, background: 'none' }}
        >
          <PlusOutlined />
          <div style={{ marginTop: 8 }}>上传</div>
        </button>
      )
    ) : (
      <Button icon={<UploadOutlined />} disabled={disabled || full}>
        上传文件
      </Button>
    );

  return (
    <>
      <AntUpload<UploadedFileInfo>
        id={id}
        name="file"
        accept={extensions.map((e) => `.${e}`).join(',')}
        multiple={multiple}
        listType={kind}
        fileList={fileList}
        disabled={disabled}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        onChange={handleChange}
        onRemove={handleRemove}
        onPreview={handlePreview}
        isImageUrl={isImage}
        showUploadList={{ showPreviewIcon: (file) => Boolean(file.url) }}
      >
        {trigger}
      </AntUpload>
      <Modal
        open={Boolean(preview)}
        title={preview?.name}
        footer={null}
        onCancel={() => setPreview(undefined)}
      >
        {preview ? (
          <img alt={preview.name} src={preview.url ?? preview.thumbUrl} style={{ width: '100%' }} />
        ) : null}
      </Modal>
    </>
  );
}

export default Upload;
