/**
 * 导出Excel: every row of a list's current filter, from its `export` endpoint, saved under the
 * name the server gives (order lists, 开门记录).
 */
import { App, Button } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { cleanPayload } from '@cowork/contract';
import { api, saveFile } from '../lib/request.ts';

export function ExportButton({
  path,
  filters,
  label,
}: {
  path: string;
  filters: Record<string, unknown>;
  /** What the list is called (the fallback file name and the message). */
  label: string;
}) {
  const { message } = App.useApp();
  const download = useMutation({
    mutationFn: () => api.downloadFile(path, cleanPayload(filters)),
    onSuccess: ({ blob, fileName }) => {
      saveFile(blob, fileName ?? `${label}.xlsx`);
      message.success(`${label}已导出，请在浏览器的下载中查看文件`);
    },
  });
  return (
    <Button icon={<DownloadOutlined />} loading={download.isPending} onClick={() => download.mutate()}>
      导出Excel
    </Button>
  );
}
