/**
 * Excel import of any resource (server: apps/server/src/lib/excel-import.ts): a toolbar button
 * opening a dialog with 下载模板, the choice of an .xlsx file, the upload progress, then 校验中
 * until the server answers: the number imported, or the bad rows (行号 / 列 / 问题), which can
 * also be downloaded as a CSV. Nothing is imported when any row is bad.
 *
 * @example
 *   <ExcelImport templateUrl={importPaths(officeSeat).template} importUrl={importPaths(officeSeat).excel}
 *     title="导入办公区工位" onDone={() => refresh()} />
 *   // The same for a declared resource, shown only to those who may edit it:
 *   <ResourceExcelImport resource={officeSeat} />
 */
import { useState } from 'react';
import { Alert, App, Button, Modal, Progress, Space, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, ImportOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_CELL_CHARS,
  IMPORT_MAX_ROWS,
  importMessages,
  importPaths,
  resourcePermissions,
  type ImportRejection,
  type ImportResult,
  type ImportRowError,
  type ResourceDef,
} from '@cowork/contract';
import { api, RequestError, saveFile, withContentType } from '../lib/request.ts';
import { usePermission } from './PermissionGate.tsx';

export interface ExcelImportProps {
  /** GET: the .xlsx template. */
  templateUrl: string;
  /** POST multipart (field `file`): the import. */
  importUrl: string;
  /** Title of the dialog and name of the downloaded files, e.g. 导入办公区工位. */
  title: string;
  /** Called with the number of records imported. */
  onDone?: (imported: number) => void;
}

type State =
  | { step: 'idle' }
  | { step: 'uploading'; percent: number; name: string }
  | { step: 'checking'; name: string }
  | { step: 'done'; name: string; imported: number; text: string }
  | { step: 'rejected'; name: string; text: string; errors: ImportRowError[] }
  | { step: 'failed'; name: string; text: string };

/** The error report as CSV (UTF-8 with BOM, so Excel shows the Chinese). */
export function importErrorsCsv(errors: ImportRowError[]): string {
  const quote = (value: string | number) => {
    const text = String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = [['行号', '列', '问题'], ...errors.map((e) => [e.row, e.column, e.message])];
  return `\uFEFF${lines.map((line) => line.map(quote).join(',')).join('\r\n')}\r\n`;
}

const errorColumns = [
  { key: 'row', title: '行号', dataIndex: 'row', width: 80 },
  { key: 'column', title: '列', dataIndex: 'column', width: 140 },
  { key: 'message', title: '问题', dataIndex: 'message' },
];

export function ExcelImport({ templateUrl, importUrl, title, onDone }: ExcelImportProps) {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [state, setState] = useState<State>({ step: 'idle' });
  const busy = state.step === 'uploading' || state.step === 'checking';

  const downloadTemplate = async () => {
    setDownloading(true);
    try {
      saveFile(await api.download(templateUrl), `${title}模板.xlsx`);
    } catch {
      // The request layer has shown why.
    } finally {
      setDownloading(false);
    }
  };

  const send = async (file: File) => {
    if (!file.name.toLowerCase().endsWith('.xlsx')) {
      setState({ step: 'failed', name: file.name, text: importMessages.notXlsx });
      return;
    }
    if (file.size > IMPORT_MAX_BYTES) {
      setState({ step: 'failed', name: file.name, text: importMessages.tooLarge });
      return;
    }
    const form = new FormData();
    form.append('file', file);
    setState({ step: 'uploading', percent: 0, name: file.name });
    try {
      const { imported, skippedRows } = await api.post<ImportResult>(importUrl, form, {
        ...withContentType('multipart/form-data'),
        onUploadProgress: (event) => {
          const percent = event.total ? Math.round((event.loaded / event.total) * 100) : 0;
          // Once every byte is sent the server reads and checks the rows.
          setState(
            percent >= 100
              ? { step: 'checking', name: file.name }
              : { step: 'uploading', percent, name: file.name },
          );
        },
      });
      const text = importMessages.imported(imported, skippedRows);
      setState({ step: 'done', name: file.name, imported, text });
      message.success(text);
      onDone?.(imported);
    } catch (error) {
      const text = error instanceof Error ? error.message : importMessages.unreadable;
      const errors =
        error instanceof RequestError ? (error.data as ImportRejection | null)?.errors : undefined;
      setState(
        errors?.length
          ? { step: 'rejected', name: file.name, text, errors }
          : { step: 'failed', name: file.name, text },
      );
    }
  };

  const percent = state.step === 'uploading' ? state.percent : state.step === 'idle' ? 0 : 100;
  const progressStatus =
    state.step === 'done'
      ? 'success'
      : state.step === 'rejected' || state.step === 'failed'
        ? 'exception'
        : 'active';

  return (
    <>
      <Button icon={<ImportOutlined />} onClick={() => setOpen(true)}>
        Excel 导入
      </Button>
      <Modal
        title={title}
        open={open}
        width={720}
        footer={null}
        destroyOnHidden
        mask={{ closable: !busy }}
        closable={!busy}
        onCancel={() => {
          setOpen(false);
          setState({ step: 'idle' });
        }}
      >
        <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            请先下载模板，从第 2
            行起填写（模板不含示例行，各列的示例和填法见“说明”工作表）后上传（.xlsx，不超过{' '}
            {IMPORT_MAX_BYTES / 1024 / 1024} MB、
            {IMPORT_MAX_ROWS} 行，每个单元格不超过 {IMPORT_MAX_CELL_CHARS}{' '}
            个字符）。任何一行有误时不会导入任何数据。
          </Typography.Paragraph>
          <Space>
            <Button icon={<DownloadOutlined />} loading={downloading} onClick={() => void downloadTemplate()}>
              下载模板
            </Button>
            <Upload
              accept=".xlsx"
              maxCount={1}
              showUploadList={false}
              disabled={busy}
              beforeUpload={(file) => {
                void send(file);
                return false;
              }}
            >
              <Button type="primary" icon={<UploadOutlined />} loading={busy}>
                选择文件并导入
              </Button>
            </Upload>
          </Space>
          {state.step !== 'idle' && (
            <div>
              <Typography.Text>{state.name}</Typography.Text>
              <Progress percent={percent} status={progressStatus} aria-label="上传进度" />
              {state.step === 'checking' && <Typography.Text type="secondary">校验中…</Typography.Text>}
            </div>
          )}
          {state.step === 'done' && <Alert type="success" showIcon title={state.text} />}
          {state.step === 'failed' && <Alert type="error" showIcon title={state.text} />}
          {state.step === 'rejected' && (
            <>
              <Alert
                type="error"
                showIcon
                title={state.text}
                action={
                  <Button
                    size="small"
                    icon={<DownloadOutlined />}
                    onClick={() =>
                      saveFile(
                        new Blob([importErrorsCsv(state.errors)], { type: 'text/csv;charset=utf-8' }),
                        `${title}错误报告.csv`,
                      )
                    }
                  >
                    下载错误报告
                  </Button>
                }
              />
              <Table<ImportRowError>
                size="small"
                rowKey={(e) => `${e.row}-${e.column}-${e.message}`}
                columns={errorColumns}
                dataSource={state.errors}
                pagination={{ pageSize: 10, hideOnSinglePage: true }}
                aria-label="错误报告"
              />
            </>
          )}
        </Space>
      </Modal>
    </>
  );
}

/**
 * The import of a declared resource for a ResourcePage toolbar: shown with the resource's edit
 * permission (which the server asks), refreshing its table once rows are imported.
 */
export function ResourceExcelImport({
  resource,
  query,
}: {
  resource: Pick<ResourceDef, 'key' | 'base' | 'label' | 'permission'>;
  /** Sent with the template and the import (the access group members are imported into). */
  query?: Record<string, string | number>;
}) {
  const queryClient = useQueryClient();
  const { can } = usePermission();
  if (!can([resourcePermissions(resource).edit])) return null;
  const paths = importPaths(resource);
  const search = query
    ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`
    : '';
  return (
    <ExcelImport
      templateUrl={paths.template + search}
      importUrl={paths.excel + search}
      title={`导入${resource.label}`}
      onDone={() => void queryClient.invalidateQueries({ queryKey: [resource.key] })}
    />
  );
}

export default ExcelImport;
