/**
 * The webhook outbox: a module records an event in the transaction of the change that causes it,
 * so a change that rolls back sends nothing and a committed one is never lost (a crash included).
 * Recording is one statement: no endpoint is looked up here; the webhook dispatcher
 * (modules/webhook) fans events out into deliveries. The statement also fires a NOTIFY, which
 * PostgreSQL delivers at commit only (never for a rolled-back change), to every instance's
 * dispatcher: it wakes at once instead of at its next poll.
 */
import { sql } from 'drizzle-orm';
import { toIso, webhookEventSchemas, type WebhookEventData, type WebhookEventType } from '@cowork/contract';
import { rowsOf, type Executor } from '../db/client.ts';
import type { alerts } from '../db/schema.ts';

/** The channel the dispatcher listens on. */
export const WEBHOOK_EVENTS_CHANNEL = 'webhook_events';

const EVENTS_PER_STATEMENT = 5_000;

/** One event of a batch: its type, the data its contract schema declares, and when it happened. */
export type RecordedEvent = {
  [T in WebhookEventType]: {
    type: T;
    data: WebhookEventData<T>;
    /** When it happened, if not the transaction's time (a device's own clock, a batch of door events). */
    occurredAt?: Date;
  };
}[WebhookEventType];

interface Row {
  type: WebhookEventType;
  data: unknown;
  occurredAt?: Date;
}

/** An event checked against its contract schema: a wrong shape is a bug of the caller, thrown. */
function valuesOf({ type, data, occurredAt }: Row) {
  const schema = webhookEventSchemas[type];
  if (!schema) throw new Error(`Unknown webhook event type ${type}`);
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw new Error(`Webhook event ${type} does not match its contract: ${parsed.error.message}`);
  const at = occurredAt ? sql`${occurredAt.toISOString()}::timestamptz` : sql`now()`;
  return sql`(${type}, ${JSON.stringify(parsed.data)}::jsonb, ${at})`;
}

/** The row an event got: `id` for the deliveries, `eventId` as receivers see it. */
export interface RecordedRow {
  id: number;
  eventId: string;
}

async function insertEvents(tx: Pick<Executor, 'execute'>, events: readonly Row[]): Promise<RecordedRow[]> {
  if (events.length === 0) return [];
  const rows = sql.join(events.map(valuesOf), sql`, `);
  const recorded = await rowsOf<{ id: string | number; eventId: string }>(
    tx,
    sql`
    with recorded as (
      insert into webhook_events (type, data, occurred_at) values ${rows} returning id, event_id
    ),
    notified as (
      select pg_notify(${WEBHOOK_EVENTS_CHANNEL}, '') from (select 1 from recorded limit 1) as one
    )
    select id, event_id as "eventId" from recorded cross join (select count(*) from notified) as n`,
  );
  return recorded.map((r) => ({ id: Number(r.id), eventId: r.eventId }));
}

/**
 * Records events in `tx` (the caller's transaction) in one statement, whatever their number: for
 * bursts such as a batch of door events.
 */
export async function recordEvents(tx: Pick<Executor, 'execute'>, events: readonly RecordedEvent[]) {
  // PostgreSQL takes at most 65 535 parameters a statement: 3 an event.
  for (let i = 0; i < events.length; i += EVENTS_PER_STATEMENT)
    await insertEvents(tx, events.slice(i, i + EVENTS_PER_STATEMENT));
}

/** Records one event in `tx`, the transaction of the change that causes it. */
export async function recordEvent<T extends WebhookEventType>(
  tx: Pick<Executor, 'execute'>,
  type: T,
  data: WebhookEventData<T>,
  occurredAt?: Date,
): Promise<void> {
  await insertEvents(tx, [{ type, data, occurredAt }]);
}

/** Records one event like recordEvent, answering its row (the webhook module queues a test with it). */
export async function recordEventRow<T extends WebhookEventType>(
  tx: Pick<Executor, 'execute'>,
  type: T,
  data: WebhookEventData<T>,
): Promise<RecordedRow> {
  const [row] = await insertEvents(tx, [{ type, data }]);
  return row;
}

type Alert = typeof alerts.$inferSelect;

/** What alert.raised and alert.closed tell of an alert. */
const alertData = (a: Alert) => ({
  alertId: a.id,
  kind: a.kind,
  title: a.title,
  detail: a.detail,
  buildingId: a.buildingId,
  deviceId: a.deviceId,
  link: a.link,
  count: a.count,
  raisedAt: toIso(a.raisedAt),
});

/** The events of alerts just raised and just closed (the alert rules, a webhook turned off for failing). */
export const alertEvents = (raised: readonly Alert[], closed: readonly Alert[]): RecordedEvent[] => [
  ...raised.map((a) => ({ type: 'alert.raised' as const, data: alertData(a) })),
  ...closed.map((a) => ({
    type: 'alert.closed' as const,
    data: { ...alertData(a), closedAt: toIso(a.closedAt ?? new Date()) },
  })),
];
