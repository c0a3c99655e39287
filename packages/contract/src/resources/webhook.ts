/**
 * 开放平台 → 推送地址 (route /system/open): webhooks signed with a secret of their own and 企业微信,
 * 钉钉 and 飞书 group robots, the events each wants, and the log of every delivery with 重新发送.
 * What each call sends and answers, the delivery rules (timeout, retries, give-up, secret overlap)
 * and every sentence the server answers about them. The events themselves: webhook-events.ts.
 */
import { z } from 'zod';
import { timeBound } from '../devices/open-log.ts';
import { prefixes } from '../endpoints.ts';
import { pageParams } from '../paging.ts';
import { idOf, keysOf } from '../validators.ts';
import { webhookEventLabels, webhookEventTypes, type WebhookEventType } from '../webhook-events.ts';

const base = `${prefixes.basic}/webhook`;

/** The console API of 推送地址, as issue 29 fixes it (envelope `{code, msg, data}`). */
export const webhookApi = {
  /**
   * POST `webhookSave` → `{id, secret}`: our signing secret, the only time it is shown (null for
   * robots; their `secret` in the body is the robot's own, 钉钉's 加签 or 飞书's 签名校验).
   */
  save: `${base}/save`,
  /** PUT `webhookEdit`; enabling again clears why it was turned off and sends what is still queued. */
  edit: `${base}/edit`,
  /** GET `webhookPageQuery` → a page of `webhookRecord`. */
  page: `${base}/page`,
  /** DELETE `remove/{id}`: the endpoint and its delivery log. */
  remove: `${base}/remove`,
  /** POST `{id}` → `{secret}`: a new signing secret; the old one keeps signing for 24 h beside it. */
  rotateSecret: `${base}/rotate-secret`,
  /** POST `{id}` → `{eventId}`: a `webhook.test` event for this endpoint only. */
  test: `${base}/test`,
  /** GET `webhookDeliveryPageQuery` → a page of `webhookDeliveryRecord`, newest first. */
  deliveryPage: `${base}/delivery/page`,
  /** POST `{ids}` or `{endpointId, atFrom, atTo}` → `{queued}`: sent again now. */
  deliveryResend: `${base}/delivery/resend`,
} as const;

export const WEBHOOK_VIEW_PERMISSION = 'system:open:view';
export const WEBHOOK_EDIT_PERMISSION = 'system:open:edit';
export const WEBHOOK_REMOVE_PERMISSION = 'system:open:remove';

/** One attempt gives up after this (the answer included). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** The waits after the 1st, 2nd, … failed attempt (each ±10 % jitter), then WEBHOOK_RETRY_EVERY_MS. */
export const WEBHOOK_RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
] as const;
export const WEBHOOK_RETRY_EVERY_MS = 12 * 3_600_000;
/** A delivery is failed this long after its first attempt; an endpoint failing this long is turned off. */
export const WEBHOOK_GIVE_UP_MS = 3 * 24 * 3_600_000;
/** After a rotation the old secret signs beside the new one this long (two `v1=` in the header). */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3_600_000;
/** The start of a receiver's answer kept in the log. */
export const WEBHOOK_ANSWER_MAX_BYTES = 2_048;
/** What a receiver should allow between `t` and its clock (docs/webhooks.md). */
export const WEBHOOK_SIGNATURE_TOLERANCE_S = 300;
/** The headers of a webhook delivery. */
export const WEBHOOK_HEADERS = {
  signature: 'Cowork-Signature',
  eventId: 'Cowork-Event-Id',
  eventType: 'Cowork-Event-Type',
} as const;
/** Our signing secrets: `whsec_` and 32 random bytes in base64url. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_URL_MAX = 2_000;
/**
 * What the list shows in place of a URL's credentials and secret values; an edit that sends the
 * shown URL back unchanged keeps the stored one.
 */
export const WEBHOOK_URL_HIDDEN = '***';
/** Deliveries one `resend` by ids names at most. */
export const WEBHOOK_RESEND_MAX_IDS = 500;

/** The kinds of endpoint, each declared once with its label (the kinds are the labels' keys, in order). */
export const webhookKindLabels = {
  webhook: 'Webhook（签名推送）',
  wecom: '企业微信群机器人',
  dingtalk: '钉钉群机器人',
  feishu: '飞书群机器人',
} as const;
export type WebhookKind = keyof typeof webhookKindLabels;
export const webhookKinds = keysOf(webhookKindLabels);

/** The robots whose messages are signed with a secret of theirs (the save's `secret`). */
export const robotSecretKinds: readonly WebhookKind[] = ['dingtalk', 'feishu'];

export const webhookDeliveryStatusLabels = {
  pending: '待发送',
  delivered: '已送达',
  failed: '已放弃',
} as const;
export type WebhookDeliveryStatus = keyof typeof webhookDeliveryStatusLabels;
export const webhookDeliveryStatuses = keysOf(webhookDeliveryStatusLabels);

/** The events an endpoint may ask for: all but `webhook.test`, which goes to the endpoint tested only. */
export const subscribableEventTypes = webhookEventTypes.filter(
  (type): type is Exclude<WebhookEventType, 'webhook.test'> => type !== 'webhook.test',
);

export const webhookMessages = {
  notFound: '该推送地址不存在或已被删除，请刷新列表后重试',
  nameRequired: '请填写推送地址的名称',
  nameTooLong: '名称最多 50 个字符，请删减后重试',
  urlRequired: '请填写推送地址（以 http:// 或 https:// 开头）',
  urlInvalid: '推送地址不是有效的网址，请填写以 http:// 或 https:// 开头的完整地址',
  urlTooLong: `推送地址最多 ${WEBHOOK_URL_MAX} 个字符`,
  urlMasked: `地址中的 ${WEBHOOK_URL_HIDDEN} 是隐藏的密钥部分，只能随原地址原样保留；如需修改地址，请粘贴完整的新地址`,
  urlUnreadable: '原地址无法解密（服务器的 SECRET_KEY 可能已更换），请粘贴完整的地址后保存',
  kindInvalid: '类型只能是 Webhook、企业微信、钉钉或飞书群机器人',
  eventsRequired: '请至少选择一个要推送的事件',
  eventInvalid: '事件类型不正确，请从列表中选择',
  eventsRepeated: '所选事件有重复，请检查后重试',
  testNotSubscribable: '测试事件无需订阅：点击「发送测试」即会推送到该地址',
  enabledInvalid: '启用必须是 true 或 false',
  remarkTooLong: '备注最多 200 个字符，请删减后重试',
  robotSecretTooLong: '机器人签名密钥最多 200 个字符',
  robotSecretNotUsed: '只有钉钉（加签）和飞书（签名校验）群机器人需要填写签名密钥，请清空该项',
  kindUnchangeable: '推送地址的类型不能修改；如需改为其他类型，请新建一个推送地址',
  robotNoSecret: '群机器人的消息不由控制台签名，无需更换密钥；钉钉、飞书的签名密钥请在编辑中修改',
  testDisabled: '该推送地址已停用，请先启用后再发送测试',
  resendTarget: '请选择要重新发送的记录，或选择推送地址和时间范围',
  resendRange: '按时间范围重新发送时，请同时选择推送地址、开始时间和结束时间',
  resendTooMany: `一次最多重新发送 ${WEBHOOK_RESEND_MAX_IDS} 条记录，请缩小范围`,
  rangeReversed: '开始时间不能晚于结束时间',
  /** Why the console turned an endpoint off (shown on the list and in the alert). */
  disabledAfterFailures: (since: string) =>
    `自 ${since} 起推送持续失败已满 3 天，系统已自动停用。请检查接收方是否正常、地址是否正确，修复后在开放平台重新启用，积压的事件会继续推送。`,
  testMessage: '这是一条来自控制台开放平台的测试事件，收到即说明推送地址配置正确。',
} as const;

export const webhookFieldLabels: Record<string, string> = {
  id: '推送地址编号',
  name: '名称',
  url: '推送地址',
  kind: '类型',
  events: '推送事件',
  enabled: '启用',
  remark: '备注',
  secret: '机器人签名密钥',
  ids: '推送记录',
  endpointId: '推送地址',
  eventType: '事件类型',
  status: '状态',
  atFrom: '开始时间',
  atTo: '结束时间',
};

const name = z
  .string({ error: webhookMessages.nameRequired })
  .trim()
  .min(1, webhookMessages.nameRequired)
  .max(50, webhookMessages.nameTooLong);

/** http(s) only; where it may point (no private or metadata address) the server checks after DNS. */
const url = z
  .string({ error: webhookMessages.urlRequired })
  .trim()
  .min(1, webhookMessages.urlRequired)
  .max(WEBHOOK_URL_MAX, webhookMessages.urlTooLong)
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, webhookMessages.urlInvalid);

const events = z
  .array(
    z
      .enum(webhookEventTypes, { error: webhookMessages.eventInvalid })
      .refine((type) => type !== 'webhook.test', webhookMessages.testNotSubscribable),
    { error: webhookMessages.eventsRequired },
  )
  .min(1, webhookMessages.eventsRequired)
  .max(webhookEventTypes.length, webhookMessages.eventsRepeated)
  .refine((list) => new Set(list).size === list.length, webhookMessages.eventsRepeated);

const enabled = z.boolean({ error: webhookMessages.enabledInvalid });
const remark = z.string().trim().max(200, webhookMessages.remarkTooLong).nullish();
/** A robot's signing secret (钉钉's 加签 `SEC…`, 飞书's 签名校验): blank is none (save) or keeps it (edit). */
const robotSecret = z.string().trim().max(200, webhookMessages.robotSecretTooLong).optional();
const endpointId = idOf('推送地址编号必须是正整数');

/** `webhook/save`. */
export const webhookSave = z
  .object({
    name,
    url,
    kind: z.enum(webhookKinds, { error: webhookMessages.kindInvalid }),
    events,
    enabled: enabled.default(true),
    remark,
    secret: robotSecret,
  })
  .superRefine((body, ctx) => {
    if (body.secret && !robotSecretKinds.includes(body.kind))
      ctx.addIssue({ code: 'custom', path: ['secret'], message: webhookMessages.robotSecretNotUsed });
  });
export type WebhookSave = z.input<typeof webhookSave>;

export const webhookSaved = z.object({
  id: z.number(),
  /** Our signing secret (`whsec_…`), shown this once; null for group robots. */
  secret: z.string().nullable(),
});
export type WebhookSaved = z.output<typeof webhookSaved>;

/**
 * `webhook/edit`: the kind stays; `secret` (钉钉, 飞书) replaces the robot's when given; `url` equal
 * to the list's (secrets as ***) keeps the stored URL.
 */
export const webhookEdit = z.object({
  id: endpointId,
  name,
  url,
  events,
  enabled,
  remark,
  secret: robotSecret,
});
export type WebhookEdit = z.input<typeof webhookEdit>;

export const webhookIdBody = z.object({ id: endpointId });
export const webhookIdParams = z.object({ id: endpointId });

export const webhookRotated = z.object({ secret: z.string() });
export const webhookTested = z.object({ eventId: z.string() });

export const webhookPageQuery = z.object({
  ...pageParams,
  name: z.string().trim().max(50).optional(),
  kind: z.enum(webhookKinds, { error: webhookMessages.kindInvalid }).optional(),
  enabled: z
    .enum(['true', 'false'], { error: webhookMessages.enabledInvalid })
    .transform((value) => value === 'true')
    .optional(),
});
export type WebhookPageQuery = z.input<typeof webhookPageQuery>;

/** A row of `webhook/page`. */
export const webhookRecord = z.object({
  id: z.number(),
  name: z.string(),
  /** Credentials and secret query values hidden (`***`). */
  url: z.string(),
  kind: z.enum(webhookKinds),
  events: z.array(z.string()),
  enabled: z.boolean(),
  remark: z.string().nullable(),
  /** Why the console turned it off (3 days of failures); null when on, or turned off by staff. */
  disabledReason: z.string().nullable(),
  /** The last delivery it answered with 2xx. */
  lastDeliveryAt: z.string().nullable(),
  /** Its latest attempts fail (since `failingSince`). */
  failing: z.boolean(),
  failingSince: z.string().nullable(),
  /** Until then the secret before the last rotation still signs beside the new one. */
  previousSecretUntil: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookRecord = z.output<typeof webhookRecord>;

/** The delivery log's filters (times: of the event's delivery being queued). */
export const webhookDeliveryPageQuery = z.object({
  ...pageParams,
  endpointId: endpointId.optional(),
  eventType: z.enum(webhookEventTypes, { error: webhookMessages.eventInvalid }).optional(),
  status: z.enum(webhookDeliveryStatuses, { error: '状态只能是 待发送、已送达 或 已放弃' }).optional(),
  atFrom: timeBound('开始时间').optional(),
  atTo: timeBound('结束时间').optional(),
});
export type WebhookDeliveryPageQuery = z.input<typeof webhookDeliveryPageQuery>;

/** A row of `webhook/delivery/page`. */
export const webhookDeliveryRecord = z.object({
  id: z.number(),
  endpointId: z.number(),
  endpointName: z.string(),
  /** The event's id, as the receiver got it in `Cowork-Event-Id`. */
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastDurationMs: z.number().int().nullable(),
  lastAttemptAt: z.string().nullable(),
  /** When it is tried next (pending only). */
  nextAttemptAt: z.string().nullable(),
  /** Why the last attempt failed, in Chinese. */
  lastError: z.string().nullable(),
  /** The first 2 KB of the receiver's last answer. */
  answer: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDeliveryRecord = z.output<typeof webhookDeliveryRecord>;

/** `webhook/delivery/resend`: chosen deliveries (any status), or every failed one of an endpoint in a range. */
export const webhookResend = z
  .object({
    ids: z
      .array(idOf('推送记录编号必须是正整数'), { error: webhookMessages.resendTarget })
      .min(1, webhookMessages.resendTarget)
      .max(WEBHOOK_RESEND_MAX_IDS, webhookMessages.resendTooMany)
      .optional(),
    endpointId: endpointId.optional(),
    atFrom: timeBound('开始时间').optional(),
    atTo: timeBound('结束时间').optional(),
  })
  .superRefine((body, ctx) => {
    if (body.ids) return;
    if (body.endpointId === undefined && !body.atFrom && !body.atTo)
      return void ctx.addIssue({ code: 'custom', path: ['ids'], message: webhookMessages.resendTarget });
    for (const key of ['endpointId', 'atFrom', 'atTo'] as const)
      if (body[key] === undefined)
        return void ctx.addIssue({ code: 'custom', path: [key], message: webhookMessages.resendRange });
  });
export type WebhookResend = z.input<typeof webhookResend>;

export const webhookResent = z.object({ queued: z.number().int() });

/** The events as options for the console's pickers. */
export const webhookEventOptions = subscribableEventTypes.map((type) => ({
  value: type,
  label: `${webhookEventLabels[type]}（${type}）`,
}));
