/**
 * A form item checked by one schema of the contract (a field of a request body), as ResourcePage
 * checks a resource's fields: the asterisk when the schema needs a value, and the rule that says the
 * server's own sentence, so a message is written once, in the contract.
 *
 * @example <Form.Item name="name" label="设备名称" {...contractRules('设备名称', deviceRegisterBody.shape.name)}>
 */
import type { FormRule } from 'antd';
import type { Field } from '@cowork/contract';
import { schemaRule } from './field-input.tsx';

export function contractRules(
  label: string,
  schema: Field['schema'],
): { required: boolean; rules: FormRule[] } {
  return {
    required: !schema.safeParse(undefined).success,
    rules: [schemaRule({ label, kind: 'text', schema })],
  };
}
