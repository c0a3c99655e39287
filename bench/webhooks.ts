/**
 * Webhook delivery (开放平台, issue 29), our server with its webhook worker and a signed-webhook
 * endpoint pointing at a receiver on loopback (WEBHOOK_ALLOW_PRIVATE), on PGlite or a throw-away
 * database on BENCH_DATABASE_URL. The receiver checks every signature as docs/webhooks.md tells
 * receivers to, and answers 200. Measured, each over BENCH_WEBHOOK_ROUNDS rounds (3):
 * - `webhook.lag-p99-ms`: `door.opened` events recorded one per transaction (recordEvent, as a
 *   source module does), BENCH_WEBHOOK_RATE a second (100) for BENCH_WEBHOOK_SECONDS (30): from each
 *   commit until the receiver answers its delivery, p99 of the round (goal ≤ 500 ms);
 * - `webhook.burst-10000.s`: BENCH_WEBHOOK_EVENTS (10 000) events recorded in one transaction, from
 *   its start until the receiver has had every one of them (no goal), with
 *   `webhook.burst-10000.api-p99-ms` beside it: the p99 of sequential GETs of 推送记录
 *   (webhook/delivery/page) during the drain (the quiet p99 is printed beside it).
 * Other sizes than the defaults are a trial: printed, not recorded.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { webhookEventExamples } from '@cowork/contract';
import { WEBHOOK_HEADERS, webhookApi } from '@cowork/contract/resources/webhook';
import { recordEventRow, recordEvents, type RecordedEvent } from '../apps/server/src/lib/outbox.ts';
import { percentile, until } from './devices.ts';
import { summarise } from './results.ts';
import { startServer } from './server.ts';

const DEFAULTS = { rate: 100, seconds: 30, events: 10_000 };
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? DEFAULTS.rate);
const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? DEFAULTS.seconds);
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? DEFAULTS.events);
const ROUNDS = Number(process.env.BENCH_WEBHOOK_ROUNDS ?? 3);
const QUIET_REQUESTS = 200;
export const webhookGoals = { lagP99Ms: 500 };

/** The receiver: checks each delivery's signature and notes when it answered each event id. */
function startReceiver() {
  let secret = '';
  const answeredAt = new Map<string, number>();
  let badSignatures = 0;
  let deliveries = 0;
  const verified = (header: string, body: string) => {
    const parts = header.split(',').map((part) => part.split('='));
    const t = parts.find(([k]) => k === 't')?.[1] ?? '';
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
    return parts.some(
      ([k, v]) => k === 'v1' && v.length === 64 && timingSafeEqual(Buffer.from(v, 'hex'), expected),
    );
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries++;
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = request.headers[WEBHOOK_HEADERS.signature.toLowerCase()];
      if (typeof signature !== 'string' || !verified(signature, body)) {
        badSignatures++;
        response.writeHead(400).end('bad signature');
        return;
      }
      const id = String(request.headers[WEBHOOK_HEADERS.eventId.toLowerCase()]);
      if (!answeredAt.has(id)) answeredAt.set(id, performance.now());
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  return {
    answeredAt,
    stats: () => ({ deliveries, badSignatures }),
    setSecret: (value: string) => void (secret = value),
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      if (typeof address !== 'object' || !address) throw new Error('webhook bench: receiver has no port');
      return `http://127.0.0.1:${address.port}/cowork-hook`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
let openLogId = 1;
const doorData = () => ({ ...webhookEventExamples['door.opened'], openLogId: openLogId++ });
const doorOpened = (): RecordedEvent => ({ type: 'door.opened', data: doorData() });

export async function webhookBench() {
  const receiver = startReceiver();
  const receiverUrl = await receiver.listen();
  const server = await startServer({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  const { handle, url, headers } = server;
  const db = handle.db;
  const json = { ...headers, 'content-type': 'application/json' };
  try {
    const saved = await fetch(`${url}${webhookApi.save}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        name: '压测接收方',
        url: receiverUrl,
        kind: 'webhook',
        events: ['door.opened'],
      }),
    });
    const savedBody = (await saved.json()) as { code: number; msg: string; data: { secret: string } };
    if (savedBody.code !== 200) throw new Error(`webhook bench: webhook/save answered ${savedBody.msg}`);
    receiver.setSecret(savedBody.data.secret);

    const logPage = `${url}${webhookApi.deliveryPage}?current=1&size=10`;
    const timedGet = async () => {
      const started = performance.now();
      const answer = await fetch(logPage, { headers });
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`webhook bench: delivery/page answered ${answer.status}`);
      return performance.now() - started;
    };

    /** One committed event at a time, RATE a second for SECONDS: each commit's lag to the receiver's answer. */
    async function lagRound() {
      const committedAt = new Map<string, number>();
      const pending: Promise<void>[] = [];
      const total = RATE * SECONDS;
      const start = performance.now();
      for (let i = 0; i < total; i++) {
        await sleep(start + (i * 1000) / RATE - performance.now());
        const data = doorData();
        pending.push(
          db
            .transaction((tx) => recordEventRow(tx, 'door.opened', data))
            .then((row) => void committedAt.set(row.eventId, performance.now())),
        );
      }
      await Promise.all(pending);
      const ids = [...committedAt.keys()];
      await until(() => ids.every((id) => receiver.answeredAt.has(id)), 'every lag event delivered', 60_000);
      // A delivery can beat the commit's promise back to this code: that lag is 0, not negative.
      const lags = ids.map((id) => Math.max(0, receiver.answeredAt.get(id)! - committedAt.get(id)!));
      return {
        p50: percentile(lags, 50),
        p99: percentile(lags, 99),
        max: Math.max(...lags),
        events: ids.length,
      };
    }

    /** EVENTS events in one transaction, the delivery log read meanwhile, until all are delivered. */
    async function burstRound() {
      const events = Array.from({ length: EVENTS }, doorOpened);
      const before = receiver.answeredAt.size;
      const started = performance.now();
      await db.transaction((tx) => recordEvents(tx, events));
      let done = false;
      const times: number[] = [];
      const reading = (async () => {
        while (!done) times.push(await timedGet());
      })();
      await until(() => receiver.answeredAt.size - before >= EVENTS, 'the burst delivered', 600_000, 20);
      const seconds = (performance.now() - started) / 1000;
      done = true;
      await reading;
      return { seconds, p99: percentile(times, 99), requests: times.length };
    }

    // Warm up: the first delivery, the first page.
    await db.transaction((tx) => recordEvents(tx, [doorOpened()]));
    await until(() => receiver.answeredAt.size === 1, 'the warm-up delivery', 30_000);
    const quiet: number[] = [];
    for (let i = 0; i < QUIET_REQUESTS; i++) quiet.push(await timedGet());

    const lags = [];
    for (let i = 0; i < ROUNDS; i++) lags.push(await lagRound());
    const bursts = [];
    for (let i = 0; i < ROUNDS; i++) bursts.push(await burstRound());
    return {
      engine: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
      rate: RATE,
      seconds: SECONDS,
      events: EVENTS,
      trial: RATE !== DEFAULTS.rate || SECONDS !== DEFAULTS.seconds || EVENTS !== DEFAULTS.events,
      lags,
      bursts,
      quietP99: percentile(quiet, 99),
      receiver: receiver.stats(),
      results: [
        summarise(
          'webhook.lag-p99-ms',
          'ms',
          lags.map((l) => l.p99),
        ),
        summarise(
          'webhook.burst-10000.s',
          's',
          bursts.map((b) => b.seconds),
        ),
        summarise(
          'webhook.burst-10000.api-p99-ms',
          'ms',
          bursts.map((b) => b.p99),
        ),
      ],
    };
  } finally {
    await server.close();
    await receiver.close();
  }
}
