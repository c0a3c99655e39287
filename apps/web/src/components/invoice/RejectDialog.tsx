import { App, Form, Input, Modal } from 'antd';
import { invoicePaths, type InvoiceResource } from '@cowork/contract/resources/invoice';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';

/**
 * 驳回 a pending request, or 作废 an issued invoice (after its red-letter invoice): one endpoint,
 * worded for what the staff member is doing.
 */
export function RejectDialog({
  resource,
  id,
  voiding,
  onClose,
  onDone,
}: {
  resource: InvoiceResource;
  id: number | null;
  voiding: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string }>();
  const verb = voiding ? '作废' : '驳回';
  const reject = useSubmit({
    mutationFn: (reason: string) => api.put(invoicePaths(resource).reject, { id, reason }),
    onSuccess: () => {
      message.success(
        voiding ? '发票已作废，所含订单可以退款或重新申请开票' : '开票申请已驳回，所含订单可重新申请开票',
      );
      onDone();
    },
  });
  if (id === null) return null;
  return (
    <Modal
      open
      title={voiding ? '作废发票' : '驳回开票申请'}
      okText={`确认${verb}`}
      cancelText="取消"
      okButtonProps={{ danger: true, loading: reject.isPending }}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(v) => reject.mutate(v.reason.trim())}>
        <Form.Item
          name="reason"
          label={`${verb}原因`}
          extra={voiding ? '请先在税务系统开具红字发票，再在这里作废。' : undefined}
          rules={[
            { required: true, whitespace: true, message: `请填写${verb}原因` },
            { max: 200, message: `${verb}原因最多 200 个字符，请删减后重试` },
          ]}
        >
          <Input.TextArea
            rows={3}
            placeholder={voiding ? '如：会员退款，已开红字发票' : '请填写驳回原因，会员可据此修改后重新申请'}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
