/**
 * 群机器人: an event as the message a 企业微信, 钉钉 or 飞书 group robot takes (their documented
 * webhook formats), in Chinese, with the facts staff act on and a link back to the console, and
 * how to tell whether the robot took it (they answer HTTP 200 even when they refuse a message).
 *
 * - 企业微信: `{msgtype: 'markdown', markdown: {content}}`, content at most 4096 bytes; answers `{errcode}`.
 * - 钉钉: `{msgtype: 'markdown', markdown: {title, text}}`; with 加签, `timestamp` (ms) and
 *   `sign` = urlencode(base64(HMAC-SHA256(secret, timestamp + "\n" + secret))) on the URL; answers `{errcode}`.
 * - 飞书: `{msg_type: 'interactive', card}`; with 签名校验, `timestamp` (s) and `sign` =
 *   base64(HMAC-SHA256 keyed by timestamp + "\n" + secret, over nothing) in the body; answers `{code}`
 *   (older robots `{StatusCode}`).
 */
import { createHmac } from 'node:crypto';
import {
  alarmKindLabels,
  alertKindLabels,
  businessDateTime,
  formatYuan,
  openMethodLabels,
  spaceModeLabels,
  webhookEventLabels,
  type WebhookEventType,
} from '@cowork/contract';
import { orderListPathOfKind } from '@cowork/contract/resources/dashboard';
import { orderKindOptions } from '@cowork/contract/resources/order';

export type RobotKind = 'wecom' | 'dingtalk' | 'feishu';

export interface RobotEvent {
  id: string;
  type: string;
  /** ISO 8601: when the event was recorded. */
  createdAt: string;
  data: unknown;
}

export interface RobotRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** How the message looks: red for what needs someone, green for what resolved itself. */
type Tone = 'alarm' | 'resolved' | 'info';

interface Message {
  /** The event's Chinese name: 设备告警, 订单已支付, … */
  label: string;
  /** The one line that says what happened (an alert's title, a device's name). */
  headline: string | null;
  facts: [label: string, value: string][];
  /** When it happened, as staff read it (business time zone). */
  time: string;
  /** The console page to act on it; null when the console's address is unknown. */
  link: string | null;
  tone: Tone;
}

/** One value as a line of a robot's markdown: one line, no markup of its own, not too long. */
function plain(value: string, max = 200): string {
  const line = value
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/</g, '＜')
    .replace(/>/g, '＞')
    .replace(/\[/g, '［')
    .replace(/\]/g, '］');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Reads the event's data without trusting its shape: a missing or odd field is left out. */
function reader(data: unknown) {
  const record: Record<string, unknown> = typeof data === 'object' && data !== null ? { ...data } : {};
  const text = (key: string): string | null => {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    return null;
  };
  const fen = (key: string): string | null => {
    const value = record[key];
    return typeof value === 'number' && Number.isInteger(value) ? formatYuan(value) : null;
  };
  const time = (key: string): string | null => {
    const value = text(key);
    return value && !Number.isNaN(Date.parse(value)) ? businessDateTime(value) : null;
  };
  const labelled = (key: string, labels: Record<string, string>): string | null => {
    const value = text(key);
    return value === null ? null : (labels[value] ?? value);
  };
  const list = (key: string): string | null => {
    const value = record[key];
    return Array.isArray(value) && value.length > 0 ? value.map(String).join('、') : null;
  };
  return { text, fen, time, labelled, list };
}
type Reader = ReturnType<typeof reader>;

/** `名称（序列号）`, or whichever of the two there is. */
function deviceOf(r: Reader): string | null {
  const name = r.text('deviceName');
  const sn = r.text('sn');
  if (name && sn) return `${name}（${sn}）`;
  return name ?? sn;
}

/** The console list of the event's order kind. */
const orderListPaths: Partial<Record<string, string>> = orderListPathOfKind;
const orderPageOf = (r: Reader) => orderListPaths[r.text('kind') ?? ''] ?? null;
const orderKindLabels = Object.fromEntries(orderKindOptions.map((o) => [o.value, o.label]));

interface Content {
  headline: string | null;
  facts: [string, string | null][];
  /** The data's own time of the event, when it has one (a device's clock, when the order was paid). */
  at: string | null;
  page: string | null;
  tone: Tone;
}

const door = (r: Reader): [string, string | null][] => [
  ['设备', deviceOf(r)],
  ['楼宇', r.text('buildingName')],
  ['位置', r.text('spaceName')],
];

const order = (r: Reader, amount: [string, string]): Content['facts'] => [
  ['订单号', r.text('orderNo')],
  ['订单类型', r.labelled('kind', orderKindLabels)],
  ['商品', r.text('productName')],
  ['楼宇', r.text('buildingName')],
  [amount[0], r.fen(amount[1])],
  ['会员', r.text('phone')],
];

const booking = (r: Reader): Content['facts'] => {
  const start = r.time('startAt');
  const end = r.time('endAt');
  return [
    ['订单号', r.text('orderNo')],
    ['场地', r.text('roomName')],
    ['楼宇', r.text('buildingName')],
    // Same day: `2026-11-21 14:00 至 16:00`.
    [
      '时段',
      start && end
        ? `${start.slice(0, 16)} 至 ${end.startsWith(start.slice(0, 10)) ? end.slice(11, 16) : end.slice(0, 16)}`
        : null,
    ],
    ['金额', r.fen('paidFen') ?? r.fen('amountFen')],
    ['会员', r.text('phone')],
  ];
};

const invoice = (r: Reader): Content['facts'] => [
  ['抬头', r.text('title')],
  ['金额', r.fen('amountFen')],
  ['订单号', r.list('orderNos')],
];

const enterpriseMember = (r: Reader): Content['facts'] => [
  ['成员', [r.text('name'), r.text('phone')].filter(Boolean).join(' ') || null],
  ['企业', r.text('companyName')],
  ['门禁组', r.text('groupName')],
  ['楼宇', r.text('buildingName')],
];

/** What each event says, by type; an unknown type gets the label and time only. */
const contents: Record<WebhookEventType, (r: Reader) => Content> = {
  'door.opened': (r) => ({
    headline: deviceOf(r),
    facts: [
      ...door(r),
      ['方式', r.labelled('method', openMethodLabels)],
      ['会员', r.text('phone')],
      ['操作员', r.text('operator')],
    ],
    at: r.time('openedAt'),
    page: '/hardware/log',
    tone: 'info',
  }),
  'door.denied': (r) => ({
    headline: deviceOf(r),
    facts: [
      ...door(r),
      ['方式', r.labelled('method', openMethodLabels)],
      ['原因', r.text('reason')],
      ['会员', r.text('phone')],
    ],
    at: r.time('deniedAt'),
    page: '/hardware/log',
    tone: 'alarm',
  }),
  'device.online': (r) => ({
    headline: deviceOf(r),
    facts: door(r),
    at: r.time('onlineAt'),
    page: '/hardware/device',
    tone: 'resolved',
  }),
  'device.offline': (r) => ({
    headline: deviceOf(r),
    facts: [...door(r), ['最后在线', r.time('lastSeenAt')]],
    at: r.time('offlineAt'),
    page: '/hardware/device',
    tone: 'alarm',
  }),
  'device.alarm.raised': (r) => ({
    headline: r.labelled('kind', alarmKindLabels),
    facts: [...door(r), ['说明', r.text('detail')]],
    at: r.time('raisedAt'),
    page: '/hardware/alarm',
    tone: 'alarm',
  }),
  'device.alarm.cleared': (r) => ({
    headline: r.labelled('kind', alarmKindLabels),
    facts: [...door(r), ['说明', r.text('detail')], ['发生时间', r.time('raisedAt')]],
    at: r.time('clearedAt'),
    page: '/hardware/alarm',
    tone: 'resolved',
  }),
  'space.mode.changed': (r) => ({
    headline: [r.text('spaceName'), r.labelled('mode', spaceModeLabels)].filter(Boolean).join(' → ') || null,
    facts: [
      ['楼宇', r.text('buildingName')],
      ['原模式', r.labelled('previousMode', spaceModeLabels)],
      ['原因', r.text('reason')],
      ['操作员', r.text('changedBy')],
    ],
    at: r.time('changedAt'),
    page: '/hardware/space',
    tone: r.text('mode') === 'normal' ? 'resolved' : 'alarm',
  }),
  'order.paid': (r) => ({
    headline: r.text('productName'),
    facts: order(r, ['实付金额', 'paidFen']),
    at: r.time('paidAt'),
    page: orderPageOf(r),
    tone: 'info',
  }),
  'order.cancelled': (r) => ({
    headline: r.text('productName'),
    facts: order(r, ['订单金额', 'amountFen']),
    at: r.time('cancelledAt'),
    page: orderPageOf(r),
    tone: 'info',
  }),
  'order.refunded': (r) => ({
    headline: r.text('productName'),
    facts: order(r, ['退款金额', 'paidFen']),
    at: r.time('refundedAt'),
    page: orderPageOf(r),
    tone: 'info',
  }),
  'booking.created': (r) => ({
    headline: r.text('roomName'),
    facts: booking(r),
    at: r.time('createdAt'),
    page: orderPageOf(r),
    tone: 'info',
  }),
  'booking.cancelled': (r) => ({
    headline: r.text('roomName'),
    facts: booking(r),
    at: r.time('cancelledAt'),
    page: orderPageOf(r),
    tone: 'info',
  }),
  'invoice.issued': (r) => ({
    headline: r.text('title'),
    facts: [...invoice(r), ['发票号码', r.text('invoiceNo')]],
    at: r.time('issuedAt'),
    page: r.text('kind') === 'tripartite' ? '/invoice/airport' : '/invoice/jingying',
    tone: 'info',
  }),
  'invoice.rejected': (r) => ({
    headline: r.text('title'),
    facts: [...invoice(r), ['驳回原因', r.text('rejectReason')]],
    at: r.time('rejectedAt'),
    page: r.text('kind') === 'tripartite' ? '/invoice/airport' : '/invoice/jingying',
    tone: 'info',
  }),
  'member.created': (r) => ({
    headline: r.text('nickname'),
    facts: [
      ['手机号', r.text('phone')],
      ['公司', r.text('companyName')],
      ['来源', r.text('sourceName')],
    ],
    at: r.time('registeredAt'),
    page: '/user/member',
    tone: 'info',
  }),
  'enterprise.member.added': (r) => ({
    headline: r.text('companyName'),
    facts: [...enterpriseMember(r), ['有效期至', r.time('validTo')]],
    at: r.time('addedAt'),
    page: '/enterprise/accessControl',
    tone: 'info',
  }),
  'enterprise.member.removed': (r) => ({
    headline: r.text('companyName'),
    facts: enterpriseMember(r),
    at: r.time('removedAt'),
    page: '/enterprise/accessControl',
    tone: 'info',
  }),
  'alert.raised': (r) => ({
    headline: r.text('title'),
    facts: [
      ['类型', r.labelled('kind', alertKindLabels)],
      ['说明', r.text('detail')],
    ],
    at: r.time('raisedAt'),
    page: r.text('link') ?? '/',
    tone: 'alarm',
  }),
  'alert.closed': (r) => ({
    headline: r.text('title'),
    facts: [
      ['类型', r.labelled('kind', alertKindLabels)],
      ['说明', r.text('detail')],
      ['告警时间', r.time('raisedAt')],
    ],
    at: r.time('closedAt'),
    page: r.text('link') ?? '/',
    tone: 'resolved',
  }),
  'webhook.test': (r) => ({
    headline: r.text('message'),
    facts: [
      ['推送地址', r.text('endpointName')],
      ['发送人', r.text('sentBy')],
    ],
    at: null,
    page: '/system/open',
    tone: 'info',
  }),
};

const isEventType = (type: string): type is WebhookEventType => Object.hasOwn(contents, type);

/** The console address of `path`; a path outside the console (another host, a scheme) is dropped. */
function consoleLink(consoleUrl: string, path: string | null): string | null {
  const base = consoleUrl.replace(/\/+$/, '');
  if (!base || path === null || !path.startsWith('/') || path.startsWith('//')) return base || null;
  return `${base}${path}`;
}

function messageOf(event: RobotEvent, consoleUrl: string): Message {
  const { type } = event;
  const known = isEventType(type);
  const content: Content = known
    ? contents[type](reader(event.data))
    : { headline: null, facts: [], at: null, page: null, tone: 'info' };
  const recorded = Number.isNaN(Date.parse(event.createdAt)) ? null : businessDateTime(event.createdAt);
  return {
    label: known ? webhookEventLabels[type] : plain(type, 60),
    headline: content.headline === null ? null : plain(content.headline),
    facts: content.facts.flatMap(([label, value]) => (value === null ? [] : [[label, plain(value)]])),
    time: content.at ?? recorded ?? '',
    link: consoleLink(consoleUrl, content.page),
    tone: content.tone,
  };
}

const LINK_TEXT = '在控制台查看';
const titleOf = (m: Message) => (m.headline ? `${m.label}：${m.headline}` : m.label);
const factLines = (m: Message) => [...m.facts, ...(m.time ? [['时间', m.time]] : [])];
/** A markdown link whose address cannot end it early. */
const markdownLink = (link: string) => `[${LINK_TEXT}](${link.replace(/[()\s]/g, encodeURIComponent)})`;

/** 企业微信 takes at most 4096 bytes of markdown: facts are dropped from the end until it fits. */
const WECOM_MAX_BYTES = 4096;

function wecomMarkdown(m: Message): string {
  const title = plain(titleOf(m));
  const head = `### ${m.tone === 'info' ? title : `<font color="${m.tone === 'alarm' ? 'warning' : 'info'}">${title}</font>`}`;
  const lines = factLines(m).map(([label, value]) => `> ${label}：${value}`);
  const tail = m.link ? [markdownLink(m.link)] : [];
  let content = [head, ...lines, ...tail].join('\n');
  while (Buffer.byteLength(content) > WECOM_MAX_BYTES && lines.length > 0) {
    lines.pop();
    content = [head, ...lines, ...tail].join('\n');
  }
  return content;
}

function dingtalkMarkdown(m: Message): { title: string; text: string } {
  // 钉钉 keeps line breaks only between paragraphs, hence the blank lines.
  const lines = factLines(m).map(([label, value]) => `- ${label}：${value}`);
  const text = [`#### ${plain(titleOf(m))}`, lines.join('\n'), ...(m.link ? [markdownLink(m.link)] : [])];
  return { title: plain(titleOf(m), 60), text: text.join('\n\n') };
}

function feishuCard(m: Message) {
  const template = m.tone === 'alarm' ? 'red' : m.tone === 'resolved' ? 'green' : 'blue';
  const lines = factLines(m).map(([label, value]) => `**${label}：**${value}`);
  return {
    config: { wide_screen_mode: true },
    header: { template, title: { tag: 'plain_text', content: plain(titleOf(m)) } },
    elements: [
      { tag: 'div', text: { tag: 'lark_md', content: lines.join('\n') } },
      ...(m.link
        ? [
            {
              tag: 'action',
              actions: [
                {
                  tag: 'button',
                  type: 'primary',
                  text: { tag: 'plain_text', content: LINK_TEXT },
                  url: m.link,
                },
              ],
            },
          ]
        : []),
    ],
  };
}

const hmacBase64 = (key: string, message: string) =>
  createHmac('sha256', key).update(message).digest('base64');

/** 钉钉's 加签: on the URL, with the time in milliseconds. */
function dingtalkSigned(url: string, secret: string, nowMs: number): string {
  const signed = new URL(url);
  const timestamp = String(nowMs);
  signed.searchParams.set('timestamp', timestamp);
  // searchParams writes base64's + / = escaped: the urlencode the robot asks for.
  signed.searchParams.set('sign', hmacBase64(secret, `${timestamp}\n${secret}`));
  return signed.toString();
}

/** 飞书's 签名校验: in the body, with the time in seconds; the key is the signed string itself. */
function feishuSignature(secret: string, nowMs: number) {
  const timestamp = String(Math.floor(nowMs / 1000));
  return { timestamp, sign: hmacBase64(`${timestamp}\n${secret}`, '') };
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

/**
 * The request that posts `event` to a group robot at `url`. `robotSecret` is the robot's signing
 * secret (钉钉's 加签, 飞书's 签名校验; 企业微信 has none); `consoleUrl` is the console's public
 * address, for the message's link back. Signed at the time of the call: build it just before sending.
 */
export function robotRequest(
  kind: RobotKind,
  url: string,
  robotSecret: string | null,
  event: RobotEvent,
  consoleUrl: string,
): RobotRequest {
  const message = messageOf(event, consoleUrl);
  const now = Date.now();
  switch (kind) {
    case 'wecom':
      return {
        url,
        headers: JSON_HEADERS,
        body: JSON.stringify({ msgtype: 'markdown', markdown: { content: wecomMarkdown(message) } }),
      };
    case 'dingtalk':
      return {
        url: robotSecret ? dingtalkSigned(url, robotSecret, now) : url,
        headers: JSON_HEADERS,
        body: JSON.stringify({ msgtype: 'markdown', markdown: dingtalkMarkdown(message) }),
      };
    case 'feishu':
      return {
        url,
        headers: JSON_HEADERS,
        body: JSON.stringify({
          ...(robotSecret ? feishuSignature(robotSecret, now) : {}),
          msg_type: 'interactive',
          card: feishuCard(message),
        }),
      };
  }
}

/** The robot's own verdict in its answer: `0` for taken, the robot's code otherwise; null if none. */
function robotCode(kind: RobotKind, answer: string): number | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const body = parsed as Record<string, unknown>;
  const code = kind === 'feishu' ? (body.code ?? body.StatusCode) : body.errcode;
  return typeof code === 'number' ? code : null;
}

/**
 * Whether the robot took the message: a 2xx whose answer says so (企业微信 and 钉钉 `errcode: 0`,
 * 飞书 `code: 0`, older 飞书 robots `StatusCode: 0`), since they answer 200 to a refused one too.
 */
export function robotAccepted(kind: RobotKind, statusCode: number, answer: string): boolean {
  return statusCode >= 200 && statusCode < 300 && robotCode(kind, answer) === 0;
}
