/**
 * 新建 / 编辑推送地址 in the shared edit drawer: name, kind (fixed once saved), URL, the events wanted,
 * the robot's own signing secret (钉钉 加签, 飞书 签名校验; blank on edit keeps the one stored),
 * enabled and a remark; every rule is the contract's, so the form says what the server would. A new
 * webhook's signing secret comes back in the answer and is handed to `onSecret` to be shown once.
 * An edit starts from the URL as the list shows it (secrets as ***): sent back unchanged, the server
 * keeps the stored URL, so staff retype an address only to replace it.
 */
import { App, Form, Input, Select, Switch } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  robotSecretKinds,
  WEBHOOK_URL_HIDDEN,
  webhookApi,
  webhookKindLabels,
  webhookKinds,
  webhookSave,
  type WebhookKind,
  type WebhookRecord,
  type WebhookSaved,
} from '@cowork/contract/resources/webhook';
import { api } from '../../lib/request.ts';
import { useSubmit } from '../../lib/use-submit.ts';
import { contractRules } from '../resource/contract-rules.ts';
import { EditDrawer } from '../resource/page-parts.tsx';
import { EventPicker } from './EventPicker.tsx';

export const webhookKey = ['webhook'] as const;

interface EndpointForm {
  name: string;
  kind: WebhookKind;
  url: string;
  events: string[];
  secret?: string;
  enabled: boolean;
  remark?: string | null;
}

/** Where each kind's address comes from, under the URL input. */
const urlHelp: Record<WebhookKind, string> = {
  webhook: '接收方的 http(s) 地址；每次推送带签名，收到后请返回 2xx 状态码',
  wecom: '企业微信群 → 群机器人 → 复制 Webhook 地址',
  dingtalk: '钉钉群 → 智能群助手 → 自定义机器人 → 复制 Webhook 地址',
  feishu: '飞书群 → 设置 → 群机器人 → 自定义机器人 → 复制 Webhook 地址',
};

const shape = webhookSave.shape;

/** The robot's own secret, as its app names it. */
const robotSecretLabels: Partial<Record<WebhookKind, { label: string; help: string }>> = {
  dingtalk: {
    label: '加签密钥',
    help: '机器人安全设置选择“加签”时填写（SEC 开头）；选择自定义关键词或 IP 地址段时留空',
  },
  feishu: { label: '签名校验密钥', help: '机器人安全设置开启“签名校验”时填写；否则留空' },
};

export function EndpointDrawer({
  editing,
  onClose,
  onSecret,
}: {
  /** The endpoint edited, or 'new'. */
  editing: WebhookRecord | 'new';
  onClose: () => void;
  onSecret: (name: string, secret: string) => void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<EndpointForm>();
  const kind = Form.useWatch('kind', form) ?? (editing === 'new' ? undefined : editing.kind);
  const isNew = editing === 'new';
  const robotSecret = kind && robotSecretKinds.includes(kind) ? robotSecretLabels[kind] : undefined;
  const save = useSubmit({
    mutationFn: ({ kind: chosen, secret, ...values }: EndpointForm) => {
      // Only 钉钉 and 飞书 robots have a secret of their own; blank sends none (on edit: keeps the one stored).
      const robotSecret = robotSecretKinds.includes(chosen) && secret?.trim() ? secret.trim() : undefined;
      return isNew
        ? api.post<WebhookSaved>(webhookApi.save, { ...values, kind: chosen, secret: robotSecret })
        : api.put<null>(webhookApi.edit, { ...values, id: editing.id, secret: robotSecret });
    },
    onSuccess: (answer, values) => {
      message.success(isNew ? `推送地址“${values.name}”已新建` : `推送地址“${values.name}”已保存`);
      void queryClient.invalidateQueries({ queryKey: webhookKey });
      onClose();
      if (answer?.secret) onSecret(values.name, answer.secret);
    },
  });
  const initial: Partial<EndpointForm> = isNew
    ? { kind: 'webhook', enabled: true, events: [] }
    : {
        name: editing.name,
        kind: editing.kind,
        url: editing.url,
        events: editing.events,
        enabled: editing.enabled,
        remark: editing.remark,
      };
  return (
    <EditDrawer
      title={isNew ? '新建推送地址' : `编辑推送地址：${editing.name}`}
      open
      saving={save.isPending}
      form={form}
      onClose={onClose}
    >
      <Form<EndpointForm>
        form={form}
        name="webhook-edit"
        layout="vertical"
        initialValues={initial}
        onFinish={(values) => save.mutate(values)}
      >
        <Form.Item name="name" label="名称" {...contractRules('名称', shape.name)}>
          <Input placeholder="如：财务系统、运营群" maxLength={50} />
        </Form.Item>
        <Form.Item
          name="kind"
          label="类型"
          {...contractRules('类型', shape.kind)}
          extra={isNew ? undefined : '类型保存后不能修改；如需其他类型，请新建推送地址'}
        >
          <Select
            disabled={!isNew}
            options={webhookKinds.map((value) => ({ value, label: webhookKindLabels[value] }))}
          />
        </Form.Item>
        <Form.Item
          name="url"
          label="地址"
          {...contractRules('地址', shape.url)}
          extra={
            isNew || !editing.url.includes(WEBHOOK_URL_HIDDEN)
              ? kind && urlHelp[kind]
              : `地址中的 ${WEBHOOK_URL_HIDDEN} 是隐藏的密钥部分：地址不改则原样保留；如需更换地址，请粘贴完整的新地址`
          }
        >
          <Input placeholder="https://" />
        </Form.Item>
        {robotSecret && (
          <Form.Item
            name="secret"
            label={robotSecret.label}
            {...contractRules(robotSecret.label, shape.secret)}
            extra={isNew ? robotSecret.help : `留空则保留原${robotSecret.label}；填写则替换`}
          >
            <Input.Password autoComplete="off" />
          </Form.Item>
        )}
        <Form.Item name="events" label="推送事件" {...contractRules('推送事件', shape.events)}>
          <EventPicker />
        </Form.Item>
        <Form.Item
          name="enabled"
          label="启用"
          valuePropName="checked"
          extra="停用期间不推送；重新启用后，仍在队列中的事件会继续推送"
        >
          <Switch checkedChildren="启用" unCheckedChildren="停用" />
        </Form.Item>
        <Form.Item name="remark" label="备注" {...contractRules('备注', shape.remark)}>
          <Input.TextArea rows={3} maxLength={200} placeholder="如：对接人、用途" />
        </Form.Item>
      </Form>
    </EditDrawer>
  );
}
