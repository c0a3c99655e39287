/**
 * Group-robot messages (modules/webhook/robots.ts): each vendor's documented shape, its signature
 * against a vector computed outside the code (openssl, from the vendor's formula), the facts and
 * link in Chinese, hostile data kept from forging markup, and how each robot's answer is read.
 */
import { webhookEventExamples, webhookEventLabels, webhookEventTypes } from '@cowork/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  robotAccepted,
  robotRequest,
  type RobotEvent,
  type RobotKind,
} from '../src/modules/webhook/robots.ts';

const CONSOLE = 'https://console.example.com/';
const kinds: RobotKind[] = ['wecom', 'dingtalk', 'feishu'];
/** 2026-11-27T22:56:00.002Z: 2026-11-28 06:56:00 in Asia/Shanghai. */
const NOW = 1_795_820_160_002;

const alertRaised: RobotEvent = {
  id: '5f0c1a52-0d1e-4c4b-9a53-1d2b3c4d5e6f',
  type: 'alert.raised',
  createdAt: '2026-11-21T01:36:01.000Z',
  data: webhookEventExamples['alert.raised'],
};
const eventOf = (
  type: keyof typeof webhookEventExamples,
  data: unknown = webhookEventExamples[type],
): RobotEvent => ({
  id: '0b8f7c2e-3a51-4e77-8d0c-6e1f2a3b4c5d',
  type,
  createdAt: new Date(NOW).toISOString(),
  data,
});

/** The message's text whatever the robot: the markdown, or the card's title, lines and button. */
function textOf(kind: RobotKind, body: string): string {
  const parsed = JSON.parse(body);
  if (kind === 'wecom') return parsed.markdown.content;
  if (kind === 'dingtalk') return `${parsed.markdown.title}\n${parsed.markdown.text}`;
  const card = parsed.card;
  const button = card.elements[1]?.actions[0];
  return [
    card.header.title.content,
    card.elements[0].text.content,
    button ? `${button.text.content} ${button.url}` : '',
  ].join('\n');
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('企业微信', () => {
  const url = 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa';

  it('posts a markdown message to the URL as it is', () => {
    const request = robotRequest('wecom', url, null, alertRaised, CONSOLE);
    expect(request.url).toBe(url);
    expect(request.headers['Content-Type']).toMatch(/^application\/json/);
    const body = JSON.parse(request.body);
    expect(Object.keys(body).sort()).toEqual(['markdown', 'msgtype']);
    expect(body.msgtype).toBe('markdown');
    expect(body.markdown.content).toBe(
      [
        '### <font color="warning">告警通知：望京 SOHO A 座 3 台门禁设备离线超过 5 分钟</font>',
        '> 类型：设备离线',
        '> 说明：A 座 1 层大门、A 座 2 层东门、A 座 2 层西门',
        '> 时间：2026-11-21 09:36:00',
        '[在控制台查看](https://console.example.com/hardware/device?buildingId=3&status=offline)',
      ].join('\n'),
    );
  });

  it('stays within the 4096 bytes the robot takes, however long the data', () => {
    const long = '很长的说明'.repeat(2_000);
    const data = { ...webhookEventExamples['alert.raised'], title: long, detail: long };
    const { body } = robotRequest('wecom', url, null, { ...alertRaised, data }, CONSOLE);
    expect(Buffer.byteLength(JSON.parse(body).markdown.content)).toBeLessThanOrEqual(4096);
  });
});

describe('钉钉', () => {
  const url = 'https://oapi.dingtalk.com/robot/send?access_token=4f8e2c1a9b7d';
  const secret = 'SEC0f1e2d3c4b5a69788796a5b4c3d2e1f0';

  it('posts a markdown message with a title and text', () => {
    const request = robotRequest('dingtalk', url, null, eventOf('device.alarm.raised'), CONSOLE);
    expect(request.url).toBe(url);
    const body = JSON.parse(request.body);
    expect(Object.keys(body).sort()).toEqual(['markdown', 'msgtype']);
    expect(body.msgtype).toBe('markdown');
    expect(body.markdown.title).toBe('设备告警：强行开门');
    expect(body.markdown.text).toBe(
      [
        '#### 设备告警：强行开门',
        [
          '- 设备：A 座 1 层大门（CW-A-0101）',
          '- 楼宇：望京 SOHO A 座',
          '- 位置：1 层大堂',
          '- 说明：门磁检测到未授权开门',
          '- 时间：2026-11-21 23:12:44',
        ].join('\n'),
        '[在控制台查看](https://console.example.com/hardware/alarm)',
      ].join('\n\n'),
    );
  });

  it('signs with 加签: timestamp in ms and the urlencoded base64 HMAC-SHA256 of timestamp\\nsecret on the URL', () => {
    const request = robotRequest('dingtalk', url, secret, alertRaised, CONSOLE);
    // openssl: printf '1795820160002\nSEC0f…f0' | openssl dgst -sha256 -hmac 'SEC0f…f0' -binary | base64
    expect(request.url).toBe(
      `${url}&timestamp=1795820160002&sign=a1RxW7BZr1b%2FNpVovD88EN7BwhS%2B2UgXM%2FZO82PGBG4%3D`,
    );
    // The body is the unsigned one: 钉钉 signs the URL only.
    expect(request.body).toBe(robotRequest('dingtalk', url, null, alertRaised, CONSOLE).body);
  });

  it('signs at the time of the call, replacing a timestamp and sign already on the URL', () => {
    const stale = `${url}&timestamp=1&sign=old`;
    const first = new URL(robotRequest('dingtalk', stale, secret, alertRaised, CONSOLE).url);
    vi.setSystemTime(NOW + 60_000);
    const later = new URL(robotRequest('dingtalk', stale, secret, alertRaised, CONSOLE).url);
    expect(first.searchParams.getAll('timestamp')).toEqual(['1795820160002']);
    expect(later.searchParams.getAll('timestamp')).toEqual(['1795820220002']);
    expect(later.searchParams.getAll('sign')).toHaveLength(1);
    expect(later.searchParams.get('sign')).not.toBe(first.searchParams.get('sign'));
    expect(later.searchParams.get('access_token')).toBe('4f8e2c1a9b7d');
  });
});

describe('飞书', () => {
  const url = 'https://open.feishu.cn/open-apis/bot/v2/hook/0a1b2c3d-4e5f-6789-abcd-ef0123456789';

  it('posts an interactive card: a coloured header, the facts, a button back to the console', () => {
    const request = robotRequest('feishu', url, null, alertRaised, CONSOLE);
    expect(request.url).toBe(url);
    const body = JSON.parse(request.body);
    expect(Object.keys(body).sort()).toEqual(['card', 'msg_type']);
    expect(body.msg_type).toBe('interactive');
    expect(body.card.header).toEqual({
      template: 'red',
      title: { tag: 'plain_text', content: '告警通知：望京 SOHO A 座 3 台门禁设备离线超过 5 分钟' },
    });
    expect(body.card.elements).toEqual([
      {
        tag: 'div',
        text: {
          tag: 'lark_md',
          content:
            '**类型：**设备离线\n**说明：**A 座 1 层大门、A 座 2 层东门、A 座 2 层西门\n**时间：**2026-11-21 09:36:00',
        },
      },
      {
        tag: 'action',
        actions: [
          {
            tag: 'button',
            type: 'primary',
            text: { tag: 'plain_text', content: '在控制台查看' },
            url: 'https://console.example.com/hardware/device?buildingId=3&status=offline',
          },
        ],
      },
    ]);
  });

  it('a resolved alert is green', () => {
    const closed = eventOf('alert.closed');
    expect(JSON.parse(robotRequest('feishu', url, null, closed, CONSOLE).body).card.header.template).toBe(
      'green',
    );
  });

  it('signs with 签名校验: timestamp in s and base64 HMAC-SHA256 keyed by timestamp\\nsecret over nothing, in the body', () => {
    const body = JSON.parse(robotRequest('feishu', url, 'feishu-secret-123', alertRaised, CONSOLE).body);
    // openssl: printf '' | openssl dgst -sha256 -hmac "$(printf '1795820160\nfeishu-secret-123')" -binary | base64
    expect(body.timestamp).toBe('1795820160');
    expect(body.sign).toBe('FyuLraNDJdUKPhdn2FYBCfnK3umRwzTVBgsY0USQ3Qc=');
    expect(body.msg_type).toBe('interactive');
  });
});

describe('every event, every robot', () => {
  it.each(webhookEventTypes.flatMap((type) => kinds.map((kind) => [type, kind] as const)))(
    '%s to %s: its Chinese name, its facts, a time and a link into the console',
    (type, kind) => {
      const { body } = robotRequest(kind, 'https://robot.example.com/send', null, eventOf(type), CONSOLE);
      const text = textOf(kind, body);
      expect(text).toContain(webhookEventLabels[type]);
      expect(text).toMatch(/时间：(\*\*)?20\d\d-\d\d-\d\d \d\d:\d\d:\d\d/);
      expect(text).toMatch(/https:\/\/console\.example\.com\/[a-z]/);
      expect(text).not.toMatch(/undefined|null|NaN|\[object/);
    },
  );

  it('names the key facts: a door, an order and its amount in 元, a booking, an enterprise member', () => {
    const door = textOf(
      'wecom',
      robotRequest('wecom', 'https://r.example.com', null, eventOf('door.opened'), CONSOLE).body,
    );
    expect(door).toContain('设备：A 座 1 层大门（CW-A-0101）');
    expect(door).toContain('楼宇：望京 SOHO A 座');
    expect(door).toContain('方式：动态码');
    expect(door).toContain('时间：2026-11-21 09:30:12');
    expect(door).toContain('https://console.example.com/hardware/log');

    const paid = textOf(
      'wecom',
      robotRequest('wecom', 'https://r.example.com', null, eventOf('order.paid'), CONSOLE).body,
    );
    expect(paid).toContain('订单号：MR20261121000123');
    expect(paid).toContain('订单类型：会议室');
    expect(paid).toContain('实付金额：¥400.00');
    expect(paid).toContain('https://console.example.com/order/meetingRoom');

    const booking = textOf(
      'wecom',
      robotRequest('wecom', 'https://r.example.com', null, eventOf('booking.created'), CONSOLE).body,
    );
    expect(booking).toContain('时段：2026-11-21 14:00 至 16:00');

    const member = textOf(
      'wecom',
      robotRequest('wecom', 'https://r.example.com', null, eventOf('enterprise.member.added'), CONSOLE).body,
    );
    expect(member).toContain('成员：李娜 139****8821');
    expect(member).toContain('https://console.example.com/enterprise/accessControl');
  });

  it('gives the time of an event without one of its own as recorded, in the business time zone', () => {
    const text = textOf(
      'wecom',
      robotRequest('wecom', 'https://r.example.com', null, eventOf('webhook.test'), CONSOLE).body,
    );
    expect(text).toContain('时间：2026-11-28 06:56:00');
  });

  it('keeps hostile data from forging a line, a link or markup', () => {
    const data = {
      ...webhookEventExamples['door.denied'],
      deviceName: '大门\n[在控制台查看](https://evil.example.com)\n> 余额：<font color="info">0</font>',
    };
    for (const kind of kinds) {
      const { body } = robotRequest(
        kind,
        'https://r.example.com',
        null,
        eventOf('door.denied', data),
        CONSOLE,
      );
      const text = textOf(kind, body);
      expect(text).not.toContain('](https://evil.example.com)');
      expect(text).not.toContain('<font color="info">0');
      // The name stays one line: what it carries never starts a line of its own.
      const carrying = text.split('\n').filter((line) => line.includes('余额'));
      expect(carrying.length).toBeGreaterThan(0);
      for (const line of carrying) expect(line).toContain('大门');
    }
  });

  it('reads odd data without failing: an unknown type, missing fields, no data at all', () => {
    for (const kind of kinds) {
      const unknown = robotRequest(
        kind,
        'https://r.example.com',
        null,
        { ...eventOf('webhook.test'), type: 'room.cleaned' },
        CONSOLE,
      );
      expect(textOf(kind, unknown.body)).toContain('room.cleaned');
      const empty = robotRequest(kind, 'https://r.example.com', null, eventOf('order.paid', null), CONSOLE);
      const text = textOf(kind, empty.body);
      expect(text).toContain('订单已支付');
      expect(text).not.toMatch(/undefined|null|NaN/);
    }
  });

  it('links only into the console: no link without its address, none elsewhere from an alert', () => {
    const noConsole = robotRequest('wecom', 'https://r.example.com', null, alertRaised, '');
    expect(textOf('wecom', noConsole.body)).not.toContain('在控制台查看');
    const data = { ...webhookEventExamples['alert.raised'], link: 'https://evil.example.com/x' };
    const elsewhere = robotRequest(
      'wecom',
      'https://r.example.com',
      null,
      { ...alertRaised, data },
      'https://c.example.com/admin',
    );
    expect(textOf('wecom', elsewhere.body)).toContain('[在控制台查看](https://c.example.com/admin)');
    const sub = robotRequest(
      'wecom',
      'https://r.example.com',
      null,
      alertRaised,
      'https://c.example.com/admin/',
    );
    expect(textOf('wecom', sub.body)).toContain(
      '(https://c.example.com/admin/hardware/device?buildingId=3&status=offline)',
    );
  });
});

describe('robotAccepted', () => {
  it.each([
    ['wecom', 200, '{"errcode":0,"errmsg":"ok"}', true],
    ['wecom', 200, '{"errcode":93000,"errmsg":"invalid webhook url"}', false],
    ['wecom', 200, '{"errcode":45009,"errmsg":"api freq out of limit"}', false],
    ['dingtalk', 200, '{"errcode":0,"errmsg":"ok"}', true],
    ['dingtalk', 200, '{"errcode":310000,"errmsg":"sign not match"}', false],
    ['dingtalk', 200, '{"errmsg":"ok"}', false],
    ['feishu', 200, '{"code":0,"msg":"success","data":{},"StatusCode":0,"StatusMessage":"success"}', true],
    ['feishu', 200, '{"StatusCode":0,"StatusMessage":"success"}', true],
    [
      'feishu',
      200,
      '{"code":19021,"msg":"sign match fail or timestamp is not within one hour from current time"}',
      false,
    ],
    ['feishu', 200, '{"code":9499,"msg":"Bad Request","data":{}}', false],
    ['feishu', 200, '{"errcode":0}', false],
    ['wecom', 500, '{"errcode":0}', false],
    ['dingtalk', 302, '{"errcode":0}', false],
    ['wecom', 200, '<html>ok</html>', false],
    ['feishu', 200, '', false],
    ['dingtalk', 200, 'null', false],
  ] as const)('%s answering %i %s: taken %s', (kind, status, answer, taken) => {
    expect(robotAccepted(kind, status, answer)).toBe(taken);
  });
});
