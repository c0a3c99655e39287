import { Form, Input } from 'antd';
import { requiredReason } from '@cowork/contract';
import { contractRules } from '../resource/contract-rules.ts';

/** 操作原因: asked before clear, reset-config and admin-password changes; the audit log keeps it. */
export function ReasonField({ placeholder }: { placeholder: string }) {
  return (
    <Form.Item name="reason" label="操作原因" {...contractRules('操作原因', requiredReason)}>
      <Input.TextArea rows={2} placeholder={placeholder} />
    </Form.Item>
  );
}
