/**
 * A secret the server answers once (a webhook's signing secret, an API key): shown with a copy
 * button and what to do with it, then gone. Closed only by its button, so it is not lost to a
 * click beside it.
 */
import type { ReactNode } from 'react';
import { Alert, Button, Modal, Space, Typography } from 'antd';
import { WEBHOOK_HEADERS, WEBHOOK_SIGNATURE_TOLERANCE_S } from '@cowork/contract/resources/webhook';

export function ShownOnceModal({
  title,
  what,
  value,
  children,
  onClose,
}: {
  title: string;
  /** What it is, as the warning names it (签名密钥, 接口密钥). */
  what: string;
  value: string;
  /** How it is used, below the value. */
  children?: ReactNode;
  onClose: () => void;
}) {
  return (
    <Modal
      open
      title={title}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          我已保存{what}
        </Button>
      }
    >
      <Space orientation="vertical" style={{ display: 'flex' }}>
        <Alert
          type="warning"
          showIcon
          title={`${what}只显示这一次`}
          description={`请立即复制并妥善保存。关闭后无法再次查看，遗失时只能重新生成。`}
        />
        <Typography.Paragraph
          copyable={{ text: value, tooltips: [`复制${what}`, '已复制'] }}
          code
          data-testid="shown-once-value"
          style={{ wordBreak: 'break-all' }}
        >
          {value}
        </Typography.Paragraph>
        {children}
      </Space>
    </Modal>
  );
}

/** How a receiver checks a webhook's signature with the secret, in words (docs/webhooks.md in full). */
export function SignatureHowTo() {
  return (
    <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
      接收方用此密钥校验每次推送：取请求头 {WEBHOOK_HEADERS.signature} 中的 t（时间戳）和
      v1（签名），以密钥对「t + "." + 请求体原文」计算 HMAC-SHA256 十六进制值，与任一 v1 相同即为真；t
      与当前时间相差超过 {WEBHOOK_SIGNATURE_TOLERANCE_S / 60} 分钟的请求应拒绝，并按 {WEBHOOK_HEADERS.eventId}{' '}
      去重。Node 与 Java 的校验示例见项目文档 docs/webhooks.md。
    </Typography.Paragraph>
  );
}
