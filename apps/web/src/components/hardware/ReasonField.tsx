import { Form, Input } from 'antd';
import { deviceMessages } from '@cowork/contract';

/** 操作原因: asked before clear, reset-config and admin-password changes; the audit log keeps it. */
export function ReasonField({ placeholder }: { placeholder: string }) {
  return (
    <Form.Item
      name="reason"
      label="操作原因"
      rules={[
        { required: true, whitespace: true, message: deviceMessages.reasonRequired },
        { max: 200, message: deviceMessages.reasonTooLong },
      ]}
    >
      <Input.TextArea rows={2} placeholder={placeholder} />
    </Form.Item>
  );
}
