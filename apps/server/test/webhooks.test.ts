/**
 * 推送地址: a receiver in the test (127.0.0.1, WEBHOOK_ALLOW_PRIVATE) gets signed events; a change
 * that rolls back sends nothing; failures are retried on the schedule (read from next_attempt_at,
 * then made due, instead of waiting minutes); 3 days of failures turn the endpoint off and raise
 * an alert, and enabling it sends what was queued; a slow or huge receiver holds up no other; a
 * crash between commit and delivery, or mid-attempt, loses nothing; two instances on one database
 * deliver each event once.
 */
import { createHmac } from 'node:crypto';
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { endpoints, webhookEventExamples, type WebhookEventData } from '@cowork/contract';
import {
  WEBHOOK_ANSWER_MAX_BYTES,
  webhookApi,
  type WebhookDeliveryRecord,
  type WebhookRecord,
  type WebhookSave,
} from '@cowork/contract/resources/webhook';
import { buildApp, type App } from '../src/app.ts';
import type { DbHandle } from '../src/db/client.ts';
import { alerts, webhookDeliveries, webhookEndpoints, webhookEvents } from '../src/db/schema.ts';
import { recordEvent, recordEvents } from '../src/lib/outbox.ts';
import { WEBHOOK_MAX_PER_ENDPOINT } from '../src/modules/webhook/attempts.ts';
import {
  basicAuth,
  buildTestApp,
  callApi,
  createRole,
  createUser,
  demo,
  openTestDatabase,
  testConfig,
  until,
  type TestApp,
} from './helper.ts';

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

type Behaviour = (res: ServerResponse) => void;
const answer =
  (status: number, body = 'ok'): Behaviour =>
  (res) =>
    void res.writeHead(status, { 'content-type': 'text/plain' }).end(body);

/** The receiver: every request kept, each path answering as the test sets it (200 by default). */
const hits: Hit[] = [];
const behaviours = new Map<string, Behaviour>();
const receiver = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    hits.push({ path: req.url ?? '', headers: req.headers, body, at: Date.now() });
    (behaviours.get(req.url ?? '') ?? answer(200))(res);
  });
});
let base: string;
let pathCount = 0;
/** A path of its own for each endpoint, so tests never see each other's deliveries. */
const freshPath = () => `/hook/${++pathCount}`;
const hitsOf = (path: string) => hits.filter((h) => h.path === path);
interface Delivered {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}
const bodyOf = (hit: Hit): Delivered => JSON.parse(hit.body);

let t: TestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await buildTestApp({ demoRows: false, config: { webhookAllowPrivate: true } });
  admin = await t.auth(...demo.admin);
});
afterAll(async () => {
  await t?.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function saveEndpoint(
  body: Partial<WebhookSave> & { url: string },
  app: Pick<TestApp, 'app'> = t,
  headers: Record<string, string> = admin,
) {
  const res = await callApi<{ id: number; secret: string | null }>(app, headers, 'POST', webhookApi.save, {
    name: '测试接收方',
    kind: 'webhook',
    events: ['member.created'],
    enabled: true,
    ...body,
  });
  expect(res.status, res.raw).toBe(200);
  return res.body.data;
}

const memberCreated = (nickname: string): WebhookEventData<'member.created'> => ({
  ...webhookEventExamples['member.created'],
  nickname,
});

async function deliveriesOf(endpointId: number) {
  return t.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(webhookDeliveries.id);
}

/** Like `until`, polling every 250 ms: for probes that read many rows, on a loaded machine. */
async function eventually<T>(probe: () => Promise<T | false>, what: string, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The signatures of a `Cowork-Signature` header that verify with `secret`. */
function verifies(header: string | string[] | undefined, body: string, secret: string): number {
  const parts = String(header).split(',');
  const t0 = parts.find((p) => p.startsWith('t='))?.slice(2);
  const expected = createHmac('sha256', secret).update(`${t0}.${body}`).digest('hex');
  return parts.filter((p) => p === `v1=${expected}`).length;
}

describe('saving and the checks of every body', () => {
  test('bad bodies are refused with the field named in Chinese, and nothing is saved', async () => {
    const [before] = await t.db.select({ n: sql<number>`count(*)::int` }).from(webhookEndpoints);
    const cases: [object, string][] = [
      [{ name: '' }, '名称'],
      [{ url: 'ftp://example.com/hook' }, '推送地址'],
      [{ url: 'not a url' }, '推送地址'],
      [{ events: [] }, '推送事件'],
      [{ events: ['door.exploded'] }, '推送事件'],
      [{ events: ['webhook.test'] }, '推送事件'],
      [{ events: ['order.paid', 'order.paid'] }, '推送事件'],
      [{ kind: 'slack' }, '类型'],
      [{ secret: 'SECabc' }, '机器人签名密钥'],
      // Cloud metadata stays refused even with WEBHOOK_ALLOW_PRIVATE.
      [{ url: 'http://169.254.169.254/latest/meta-data' }, '推送地址'],
    ];
    for (const [patch, label] of cases) {
      const res = await callApi(t, admin, 'POST', webhookApi.save, {
        name: '坏的',
        url: `${base}/bad`,
        kind: 'webhook',
        events: ['order.paid'],
        enabled: true,
        ...patch,
      });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.msg, JSON.stringify(patch)).toContain(label);
      expect(res.body.msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    const resend = await callApi(t, admin, 'POST', webhookApi.deliveryResend, { endpointId: 1 });
    expect(resend.status).toBe(400);
    expect(resend.body.msg).toContain('开始时间');
    const [after] = await t.db.select({ n: sql<number>`count(*)::int` }).from(webhookEndpoints);
    expect(after.n).toBe(before.n);
  });

  test('private addresses are refused without WEBHOOK_ALLOW_PRIVATE', async () => {
    const strict = await buildTestApp({ demoRows: false });
    try {
      const headers = await strict.auth(...demo.admin);
      const res = await callApi(strict, headers, 'POST', webhookApi.save, {
        name: '内网',
        url: `${base}/private`,
        kind: 'webhook',
        events: ['order.paid'],
        enabled: true,
      });
      expect(res.status).toBe(400);
      expect(res.body.msg).toContain('WEBHOOK_ALLOW_PRIVATE');
    } finally {
      await strict.close();
    }
  });

  test('the list hides URL credentials and secrets; the secret is answered once and kept sealed', async () => {
    const saved = await saveEndpoint({
      name: '带凭证的地址',
      url: `http://user:hunter2@127.0.0.1:1/hook?token=abc123&x=1`,
    });
    expect(saved.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const page = await callApi<{ records: WebhookRecord[] }>(
      t,
      admin,
      'GET',
      `${webhookApi.page}?name=${encodeURIComponent('带凭证')}`,
    );
    expect(page.status).toBe(200);
    const [row] = page.body.data.records;
    expect(row.url).not.toContain('hunter2');
    expect(row.url).not.toContain('abc123');
    expect(row.url).toContain('x=1');
    expect(row).toMatchObject({ kind: 'webhook', enabled: true, failing: false, disabledReason: null });
    const [stored] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, saved.id));
    expect(stored.urlSealed).not.toContain('hunter2');
    expect(stored.secretSealed).not.toContain(saved.secret!.slice(6));
    expect(page.raw).not.toContain(saved.secret!.slice(6));
  });

  test('an edit sending the listed URL back keeps its credentials; one still holding *** otherwise is refused', async () => {
    const path = freshPath();
    const { id } = await saveEndpoint({
      name: '凭证保留',
      url: `${base.replace('//', '//staff:pa55@')}${path}?token=t0k3n`,
    });
    const listed = async () => {
      const res = await callApi<{ records: WebhookRecord[] }>(t, admin, 'GET', `${webhookApi.page}?size=100`);
      return res.body.data.records.find((r) => r.id === id)!;
    };
    const stored = async () =>
      (await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0];
    const shown = (await listed()).url;
    expect(shown).toBe(`${base.replace('//', '//***@')}${path}?token=***`);
    const before = await stored();
    const edit = (patch: object) =>
      callApi(t, admin, 'PUT', webhookApi.edit, {
        id,
        name: '凭证保留（改名）',
        url: shown,
        events: ['member.created'],
        enabled: true,
        ...patch,
      });

    const kept = await edit({});
    expect(kept.status, kept.raw).toBe(200);
    const afterKept = await stored();
    expect(afterKept.name).toBe('凭证保留（改名）');
    expect(afterKept.urlSealed).toBe(before.urlSealed);
    expect(afterKept.urlShown).toBe(shown);
    // The receiver still gets the credentials and the token the staff never retyped.
    await callApi(t, admin, 'POST', webhookApi.test, { id });
    const [hit] = await until(
      () => hitsOf(`${path}?token=t0k3n`).length > 0 && hitsOf(`${path}?token=t0k3n`),
      'the test event at the kept URL',
    );
    expect(hit.headers.authorization).toBe(`Basic ${Buffer.from('staff:pa55').toString('base64')}`);

    // A changed address that still holds the mask cannot be told from it: refused, nothing changed.
    for (const url of [shown.replace(path, `${path}-moved`), `${base}${path}?token=***`]) {
      const refused = await edit({ url, name: '不该保存' });
      expect(refused.status, url).toBe(400);
      expect(refused.body.msg).toContain('地址');
      expect(refused.body.msg).toContain('***');
      expect(await stored()).toMatchObject({ name: '凭证保留（改名）', urlSealed: before.urlSealed });
    }

    // A whole new address replaces it.
    const moved = await edit({ url: `${base}${path}-new` });
    expect(moved.status, moved.raw).toBe(200);
    expect((await listed()).url).toBe(`${base}${path}-new`);
    expect((await stored()).urlSealed).not.toBe(before.urlSealed);
  });
});

describe('delivery', () => {
  test('a test event arrives signed; a wrong secret does not verify; the log shows it', async () => {
    const path = freshPath();
    const { id, secret } = await saveEndpoint({ url: `${base}${path}` });
    const sent = await callApi<{ eventId: string }>(t, admin, 'POST', webhookApi.test, { id });
    expect(sent.status, sent.raw).toBe(200);
    const [hit] = await until(() => hitsOf(path).length > 0 && hitsOf(path), 'the test event');
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['cowork-event-id']).toBe(sent.body.data.eventId);
    expect(hit.headers['cowork-event-type']).toBe('webhook.test');
    expect(hit.headers['cowork-signature']).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
    const signedAt = Number(/t=(\d+)/.exec(String(hit.headers['cowork-signature']))![1]);
    expect(Math.abs(signedAt - Date.now() / 1000)).toBeLessThan(10);
    expect(verifies(hit.headers['cowork-signature'], hit.body, secret!)).toBe(1);
    expect(verifies(hit.headers['cowork-signature'], hit.body, `${secret}x`)).toBe(0);
    expect(verifies(hit.headers['cowork-signature'], `${hit.body} `, secret!)).toBe(0);
    const event = bodyOf(hit);
    expect(event).toMatchObject({ id: sent.body.data.eventId, type: 'webhook.test' });
    expect(event.data).toMatchObject({ endpointId: id, sentBy: 'admin' });
    expect(event.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);

    const log = await until(async () => {
      const res = await callApi<{ records: WebhookDeliveryRecord[] }>(
        t,
        admin,
        'GET',
        `${webhookApi.deliveryPage}?endpointId=${id}`,
      );
      const [row] = res.body.data.records;
      return row?.status === 'delivered' && row;
    }, 'the delivery logged');
    expect(log).toMatchObject({
      eventId: sent.body.data.eventId,
      eventType: 'webhook.test',
      attempts: 1,
      lastStatusCode: 200,
      answer: 'ok',
      nextAttemptAt: null,
    });
    expect(log.lastDurationMs).toBeGreaterThanOrEqual(0);
    const page = await callApi<{ records: WebhookRecord[] }>(t, admin, 'GET', `${webhookApi.page}?size=100`);
    expect(page.body.data.records.find((r) => r.id === id)?.lastDeliveryAt).not.toBeNull();
  });

  test('an event commits with its change; a change that rolls back sends nothing', async () => {
    const path = freshPath();
    await saveEndpoint({ url: `${base}${path}`, events: ['member.created', 'order.paid'] });
    await t.db
      .transaction(async (tx) => {
        await recordEvent(tx, 'member.created', memberCreated('回滚的会员'));
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await t.db.transaction(async (tx) => {
      await recordEvent(tx, 'member.created', memberCreated('提交的会员'));
    });
    await until(() => hitsOf(path).length > 0, 'the committed event');
    // The poll has run several times since: the rolled-back one would be here by now.
    await new Promise((r) => setTimeout(r, 1_200));
    const names = hitsOf(path).map((h) => bodyOf(h).data.nickname);
    expect(names).toEqual(['提交的会员']);
    // A type it did not ask for is not sent to it.
    await t.db.transaction((tx) => recordEvent(tx, 'member.created', memberCreated('第二个')));
    await until(() => hitsOf(path).length === 2, 'the second event');
    expect(hitsOf(path).every((h) => h.headers['cowork-event-type'] === 'member.created')).toBe(true);
  });

  test('an event data that breaks its contract is refused before anything is written', async () => {
    const [before] = await t.db.select({ n: sql<number>`count(*)::int` }).from(webhookEvents);
    await expect(
      t.db.transaction((tx) =>
        recordEvent(tx, 'member.created', { ...memberCreated('明文'), phone: '13800001234' }),
      ),
    ).rejects.toThrow(/member.created/);
    const [after] = await t.db.select({ n: sql<number>`count(*)::int` }).from(webhookEvents);
    expect(after.n).toBe(before.n);
  });

  test('after a rotation both secrets sign for 24 hours, then the new one alone', async () => {
    const path = freshPath();
    const { id, secret: oldSecret } = await saveEndpoint({ url: `${base}${path}` });
    const rotated = await callApi<{ secret: string }>(t, admin, 'POST', webhookApi.rotateSecret, { id });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.data.secret;
    expect(newSecret).not.toBe(oldSecret);
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    const overlap = row.previousSecretUntil!.getTime() - Date.now();
    expect(overlap).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3_600_000);

    await callApi(t, admin, 'POST', webhookApi.test, { id });
    const [first] = await until(
      () => hitsOf(path).length === 1 && hitsOf(path),
      'a delivery during the overlap',
    );
    const header = String(first.headers['cowork-signature']);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(header.split(',')[1]).toBe(
      `v1=${createHmac('sha256', newSecret)
        .update(`${header.slice(2, 12)}.${first.body}`)
        .digest('hex')}`,
    );
    expect(verifies(header, first.body, newSecret)).toBe(1);
    expect(verifies(header, first.body, oldSecret!)).toBe(1);

    // A day later the old secret signs no more.
    await t.db
      .update(webhookEndpoints)
      .set({ previousSecretUntil: new Date(Date.now() - 1_000) })
      .where(eq(webhookEndpoints.id, id));
    await callApi(t, admin, 'POST', webhookApi.test, { id });
    const [, second] = await until(
      () => hitsOf(path).length === 2 && hitsOf(path),
      'a delivery after the overlap',
    );
    expect(String(second.headers['cowork-signature']).match(/v1=/g)).toHaveLength(1);
    expect(verifies(second.headers['cowork-signature'], second.body, newSecret)).toBe(1);
    expect(verifies(second.headers['cowork-signature'], second.body, oldSecret!)).toBe(0);

    // Robots are not signed with our secret.
    const robot = await saveEndpoint({ url: `${base}${freshPath()}`, kind: 'wecom' });
    expect(robot.secret).toBeNull();
    const refused = await callApi(t, admin, 'POST', webhookApi.rotateSecret, { id: robot.id });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('机器人');
  });

  test('failures are retried about 1 min, 5 min, 30 min later (with jitter) until a 2xx', async () => {
    const path = freshPath();
    behaviours.set(path, answer(500, 'down for maintenance'));
    const { id } = await saveEndpoint({ url: `${base}${path}` });
    await callApi(t, admin, 'POST', webhookApi.test, { id });
    const expected = [60_000, 5 * 60_000, 30 * 60_000];
    for (const [i, delay] of expected.entries()) {
      const [d] = await until(
        async () => {
          const rows = await deliveriesOf(id);
          return rows[0]?.attempts === i + 1 && rows[0].claimedUntil === null && rows;
        },
        `attempt ${i + 1}`,
      );
      expect(d.status).toBe('pending');
      expect(d.lastStatusCode).toBe(500);
      expect(d.answer).toBe('down for maintenance');
      expect(d.lastError).toContain('HTTP 500');
      const wait = d.nextAttemptAt.getTime() - d.lastAttemptAt!.getTime();
      expect(wait).toBeGreaterThanOrEqual(delay * 0.9 - 1_000);
      expect(wait).toBeLessThanOrEqual(delay * 1.1 + 1_000);
      const page = await callApi<{ records: WebhookRecord[] }>(
        t,
        admin,
        'GET',
        `${webhookApi.page}?size=100`,
      );
      expect(page.body.data.records.find((r) => r.id === id)?.failing).toBe(true);
      // Not retried before it is due.
      expect(hitsOf(path)).toHaveLength(i + 1);
      if (i < expected.length - 1)
        await t.db
          .update(webhookDeliveries)
          .set({ nextAttemptAt: new Date() })
          .where(eq(webhookDeliveries.id, d.id));
    }
    behaviours.set(path, answer(204, ''));
    await t.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.endpointId, id));
    await until(
      async () => (await deliveriesOf(id))[0].status === 'delivered',
      'the delivery after recovery',
    );
    expect(hitsOf(path)).toHaveLength(4);
    // The same event each time: the receiver dedupes by its id.
    expect(new Set(hitsOf(path).map((h) => h.headers['cowork-event-id'])).size).toBe(1);
    const [endpoint] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    expect(endpoint.failingSince).toBeNull();
  });

  test('3 days of failures give up, turn the endpoint off and raise an alert; enabling sends what is queued', async () => {
    const path = freshPath();
    behaviours.set(path, answer(503));
    const { id } = await saveEndpoint({ name: '三天失败', url: `${base}${path}` });
    await t.db.transaction((tx) => recordEvent(tx, 'member.created', memberCreated('三天前')));
    const [d] = await until(async () => {
      const rows = await deliveriesOf(id);
      return rows[0]?.attempts === 1 && rows[0].claimedUntil === null && rows;
    }, 'the first failure');
    // Three days pass: the delivery was queued, and the endpoint started failing, just over 3 days ago.
    const longAgo = new Date(Date.now() - 3 * 24 * 3_600_000 - 60_000);
    await t.db.update(webhookEndpoints).set({ failingSince: longAgo }).where(eq(webhookEndpoints.id, id));
    await t.db
      .update(webhookDeliveries)
      .set({ createdAt: longAgo, nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, d.id));
    await until(async () => (await deliveriesOf(id))[0].status === 'failed', 'the give-up');
    const [endpoint] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    expect(endpoint.enabled).toBe(false);
    expect(endpoint.disabledReason).toContain('3 天');
    const [alert] = await t.db
      .select()
      .from(alerts)
      .where(and(eq(alerts.causeKey, `webhook-disabled:${id}`), isNull(alerts.closedAt)));
    expect(alert).toMatchObject({ kind: 'webhook-disabled', link: '/system/open' });
    expect(alert.title).toContain('三天失败');
    const page = await callApi<{ records: WebhookRecord[] }>(
      t,
      admin,
      'GET',
      `${webhookApi.page}?enabled=false&size=100`,
    );
    expect(page.body.data.records.find((r) => r.id === id)).toMatchObject({
      enabled: false,
      failing: true,
      disabledReason: endpoint.disabledReason,
    });
    // A test cannot be sent to it; events keep being queued for it, unsent.
    expect((await callApi(t, admin, 'POST', webhookApi.test, { id })).status).toBe(409);
    await t.db.transaction((tx) => recordEvent(tx, 'member.created', memberCreated('停用期间')));
    await until(async () => (await deliveriesOf(id)).length === 2, 'the queued delivery');
    const sentBefore = hitsOf(path).length;
    await new Promise((r) => setTimeout(r, 1_200));
    expect(hitsOf(path)).toHaveLength(sentBefore);

    behaviours.set(path, answer(200));
    const edit = await callApi(t, admin, 'PUT', webhookApi.edit, {
      id,
      name: '三天失败',
      url: `${base}${path}`,
      events: ['member.created'],
      enabled: true,
    });
    expect(edit.status, edit.raw).toBe(200);
    await until(async () => (await deliveriesOf(id))[1].status === 'delivered', 'the queued delivery sent');
    expect(bodyOf(hitsOf(path).at(-1)!).data.nickname).toBe('停用期间');
    const [again] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    expect(again).toMatchObject({ enabled: true, disabledReason: null });
    const [closed] = await t.db.select().from(alerts).where(eq(alerts.id, alert.id));
    expect(closed.closedAt).not.toBeNull();
    // The given-up one goes again when resent (every failed one of the range).
    const resend = await callApi<{ queued: number }>(t, admin, 'POST', webhookApi.deliveryResend, {
      endpointId: id,
      atFrom: new Date(longAgo.getTime() - 60_000).toISOString(),
      atTo: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(resend.body.data.queued).toBe(1);
    await until(async () => (await deliveriesOf(id))[0].status === 'delivered', 'the resent delivery');
    expect(bodyOf(hitsOf(path).at(-1)!).data.nickname).toBe('三天前');
  });

  test('resend by ids sends a delivered event again, with the same event id', async () => {
    const path = freshPath();
    const { id } = await saveEndpoint({ url: `${base}${path}` });
    await callApi(t, admin, 'POST', webhookApi.test, { id });
    const [d] = await until(async () => {
      const rows = await deliveriesOf(id);
      return rows[0]?.status === 'delivered' && rows;
    }, 'the first delivery');
    const res = await callApi<{ queued: number }>(t, admin, 'POST', webhookApi.deliveryResend, {
      ids: [d.id],
    });
    expect(res.body.data.queued).toBe(1);
    await until(() => hitsOf(path).length === 2, 'the resent delivery');
    expect(hitsOf(path)[1].headers['cowork-event-id']).toBe(hitsOf(path)[0].headers['cowork-event-id']);
    await until(async () => (await deliveriesOf(id))[0].attempts === 2, 'the second attempt recorded');
  });

  test('a slow or huge receiver holds up no other endpoint', async () => {
    const slow = freshPath();
    const huge = freshPath();
    const fast = freshPath();
    // The slow receiver answers nothing until the test lets it.
    const held: ServerResponse[] = [];
    behaviours.set(slow, (res) => void held.push(res));
    behaviours.set(huge, (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(64 * 1024);
      const write = (left: number) => {
        if (left === 0 || res.destroyed) return void res.end();
        res.write(chunk, () => write(left - 1));
      };
      write(32); // 2 MB
    });
    const events = ['order.paid'] as const;
    const slowEndpoint = await saveEndpoint({ url: `${base}${slow}`, events: [...events] });
    const hugeEndpoint = await saveEndpoint({ url: `${base}${huge}`, events: [...events] });
    await saveEndpoint({ url: `${base}${fast}`, events: [...events] });
    await t.db.transaction((tx) =>
      recordEvents(
        tx,
        Array.from({ length: 30 }, (_, i) => ({
          type: 'order.paid' as const,
          data: { ...webhookEventExamples['order.paid'], orderId: i + 1 },
        })),
      ),
    );
    await until(() => hitsOf(fast).length === 30, 'every event at the fast receiver', 30_000);
    // The slow one has as many calls open as an endpoint may, and no more.
    await until(() => held.length === WEBHOOK_MAX_PER_ENDPOINT, 'the slow receiver’s open calls');
    await new Promise((r) => setTimeout(r, 500));
    expect(hitsOf(slow)).toHaveLength(WEBHOOK_MAX_PER_ENDPOINT);
    const [bounded] = await eventually(
      async () => {
        const rows = await deliveriesOf(hugeEndpoint.id);
        return rows.length === 30 && rows.every((r) => r.status === 'delivered') && rows;
      },
      'the huge answers read',
      30_000,
    );
    expect(Buffer.byteLength(bounded.answer ?? '')).toBeLessThanOrEqual(WEBHOOK_ANSWER_MAX_BYTES);
    expect(bounded.answer?.length).toBeGreaterThan(1_000);
    // Let go, the slow receiver gets the rest.
    behaviours.set(slow, answer(200));
    for (const res of held.splice(0)) res.end('late');
    await eventually(
      async () => {
        const rows = await deliveriesOf(slowEndpoint.id);
        return rows.length === 30 && rows.every((r) => r.status === 'delivered');
      },
      'the slow receiver’s events',
      30_000,
    );
  });
});

describe('permissions', () => {
  test('viewing needs system:open:view, changing system:open:edit, removing system:open:remove', async () => {
    await createRole(t.db, { code: 'open-viewer', name: '开放平台只读', permissions: ['system:open:view'] });
    await createUser(t.db, { username: 'openviewer', password: 'Viewer@123', roleCodes: ['open-viewer'] });
    const viewer = await t.auth('openviewer', 'Viewer@123');
    const { id } = await saveEndpoint({ url: `${base}${freshPath()}` });
    expect((await callApi(t, viewer, 'GET', webhookApi.page)).status).toBe(200);
    expect((await callApi(t, viewer, 'GET', webhookApi.deliveryPage)).status).toBe(200);
    const writes: [string, string, object?][] = [
      [
        'POST',
        webhookApi.save,
        { name: 'x', url: `${base}/x`, kind: 'webhook', events: ['order.paid'], enabled: true },
      ],
      ['PUT', webhookApi.edit, { id, name: 'x', url: `${base}/x`, events: ['order.paid'], enabled: true }],
      ['POST', webhookApi.rotateSecret, { id }],
      ['POST', webhookApi.test, { id }],
      ['POST', webhookApi.deliveryResend, { ids: [1] }],
      ['DELETE', `${webhookApi.remove}/${id}`],
    ];
    for (const [method, url, body] of writes) {
      const res = await callApi(t, viewer, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
    }
    const removed = await callApi(t, admin, 'DELETE', `${webhookApi.remove}/${id}`);
    expect(removed.status).toBe(200);
    expect((await callApi(t, admin, 'DELETE', `${webhookApi.remove}/${id}`)).status).toBe(404);
  });
});

describe('instances and crashes', () => {
  /** A database of these tests' own, and the apps on it that each test starts and closes. */
  let handle: DbHandle;
  const apps: App[] = [];
  const startApp = async () => {
    const app = await buildApp({
      config: testConfig({ webhookAllowPrivate: true }),
      db: handle.db,
      logger: false,
    });
    await app.ready();
    apps.push(app);
    return app;
  };
  const closeApp = async (app: App) => {
    apps.splice(apps.indexOf(app), 1);
    await app.close();
  };
  const adminOf = async (app: App) => {
    const res = await app.inject({
      method: 'POST',
      url: endpoints.token,
      headers: { authorization: basicAuth },
      payload: { grant_type: 'password', username: demo.admin[0], password: demo.admin[1] },
    });
    return { authorization: `Bearer ${res.json<{ access_token: string }>().access_token}` };
  };
  const deliveriesIn = (endpointId: number) =>
    handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));

  beforeAll(async () => {
    handle = await openTestDatabase({ seed: { withRows: false } });
  });
  afterAll(async () => {
    for (const app of [...apps]) await closeApp(app);
    await handle?.close();
  });

  test('a change committed while no instance runs is delivered by the next one to start', async () => {
    const first = await startApp();
    const path = freshPath();
    await saveEndpoint({ url: `${base}${path}` }, { app: first }, await adminOf(first));
    await closeApp(first);
    // The change commits; no instance is left to deliver it.
    await handle.db.transaction((tx) => recordEvent(tx, 'member.created', memberCreated('无人值守')));
    await new Promise((r) => setTimeout(r, 300));
    expect(hitsOf(path)).toHaveLength(0);
    const next = await startApp();
    await until(() => hitsOf(path).length === 1, 'the event after the restart');
    expect(bodyOf(hitsOf(path)[0]).data.nickname).toBe('无人值守');
    await closeApp(next);
  });

  test('an instance that dies mid-attempt leaves a lease; once it runs out another delivers', async () => {
    const first = await startApp();
    const path = freshPath();
    // The receiver takes the request and never answers while the first instance lives.
    behaviours.set(path, () => undefined);
    const { id } = await saveEndpoint({ url: `${base}${path}` }, { app: first }, await adminOf(first));
    await handle.db.transaction((tx) => recordEvent(tx, 'member.created', memberCreated('半路宕机')));
    await until(() => hitsOf(path).length === 1, 'the attempt in flight');
    await closeApp(first);
    const [held] = await deliveriesIn(id);
    expect(held).toMatchObject({ status: 'pending', attempts: 0 });
    expect(held.claimedUntil!.getTime()).toBeGreaterThan(Date.now());

    behaviours.set(path, answer(200));
    const next = await startApp();
    // Within the lease nobody takes it again.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(hitsOf(path)).toHaveLength(1);
    // The lease runs out (as 30 s would).
    await handle.db
      .update(webhookDeliveries)
      .set({ claimedUntil: new Date(Date.now() - 1_000) })
      .where(eq(webhookDeliveries.id, held.id));
    await until(
      async () => (await deliveriesIn(id))[0].status === 'delivered',
      'the delivery after the lease',
    );
    expect(hitsOf(path)).toHaveLength(2);
    expect(hitsOf(path)[1].headers['cowork-event-id']).toBe(hitsOf(path)[0].headers['cowork-event-id']);
    expect((await deliveriesIn(id))[0].attempts).toBe(1);
    await closeApp(next);
  });

  test('two instances on one database deliver each event exactly once', async () => {
    const one = await startApp();
    const two = await startApp();
    const path = freshPath();
    // A little slow, so both instances have deliveries in flight at once.
    behaviours.set(path, (res) => void setTimeout(() => res.end('ok'), 20));
    const { id } = await saveEndpoint({ url: `${base}${path}` }, { app: one }, await adminOf(one));
    const total = 100;
    for (let batch = 0; batch < 10; batch++)
      await handle.db.transaction((tx) =>
        recordEvents(
          tx,
          Array.from({ length: total / 10 }, (_, i) => ({
            type: 'member.created' as const,
            data: memberCreated(`实例-${batch}-${i}`),
          })),
        ),
      );
    await eventually(
      async () => {
        const rows = await deliveriesIn(id);
        return rows.length === total && rows.every((r) => r.status === 'delivered');
      },
      'every delivery',
      60_000,
    );
    const ids = hitsOf(path).map((h) => h.headers['cowork-event-id']);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect((await deliveriesIn(id)).every((r) => r.attempts === 1)).toBe(true);
    const [events] = await handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookEvents)
      .where(isNull(webhookEvents.dispatchedAt));
    expect(events.n).toBe(0);
    await closeApp(one);
    await closeApp(two);
  });
});
