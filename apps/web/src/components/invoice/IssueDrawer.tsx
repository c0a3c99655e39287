import { App, Form, Input } from 'antd';
import { INVOICE_NO_PATTERN, invoicePaths, type InvoiceResource } from '@cowork/contract/resources/invoice';
import { EditDrawer } from '../resource/page-parts.tsx';
import { Upload } from '../Upload.tsx';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';

/** 开票: the invoice number and the PDF of the issued invoice. */
export function IssueDrawer({
  resource,
  id,
  onClose,
  onDone,
}: {
  resource: InvoiceResource;
  id: number | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const issue = useSubmit({
    mutationFn: (values: Record<string, unknown>) => api.put(invoicePaths(resource).issue, { ...values, id }),
    onSuccess: () => {
      message.success('已开票，发票号码与文件已保存');
      onDone();
    },
  });
  return (
    <EditDrawer title="开票" open={id !== null} saving={issue.isPending} onClose={onClose} form={form}>
      <Form
        form={form}
        name={`${resource.key}-issue`}
        layout="vertical"
        preserve={false}
        onFinish={(v) => issue.mutate(v)}
      >
        <Form.Item
          name="invoiceNo"
          label="发票号码"
          rules={[
            { required: true, whitespace: true, message: '请填写发票号码' },
            { pattern: INVOICE_NO_PATTERN, message: '发票号码须为 8–20 位数字或字母，请核对后重试' },
          ]}
        >
          <Input allowClear maxLength={20} placeholder="请输入发票号码" />
        </Form.Item>
        <Form.Item
          name="fileUrl"
          label="发票文件"
          rules={[{ required: true, message: '请上传发票 PDF 文件' }]}
          extra="仅支持 PDF 文件"
        >
          <Upload accept={['pdf']} />
        </Form.Item>
      </Form>
    </EditDrawer>
  );
}
