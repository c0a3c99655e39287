/**
 * 开放平台: webhook and group-robot endpoints, the events the console records for them (an outbox,
 * written in the transaction of the change that causes the event), each endpoint's deliveries, and
 * API keys for server-to-server calls.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { authored, ids, inList, timestamptz } from './columns.ts';
import { ssoRoles } from './staff.ts';

export const webhookKindValues = ['webhook', 'wecom', 'dingtalk', 'feishu'] as const;
export const webhookDeliveryStatusValues = ['pending', 'delivered', 'failed'] as const;

/** 开放平台 → a receiver: a signed webhook, or a 企业微信 / 钉钉 / 飞书 group robot. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** Kept encrypted (lib/secret-box.ts): it may carry credentials or a robot's access token. */
    urlSealed: text('url_sealed').notNull(),
    /** The URL as screens show it: credentials and query secrets hidden. */
    urlShown: text('url_shown').notNull(),
    kind: text('kind', { enum: webhookKindValues }).notNull(),
    /** The event types it wants. */
    events: text('events').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    remark: text('remark'),
    /** Our signing secret (webhooks), sealed; null for robots. */
    secretSealed: text('secret_sealed'),
    /** The secret before the last rotation, which still signs until `previousSecretUntil`. */
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretUntil: timestamptz('previous_secret_until'),
    /** 钉钉's signing secret of a robot (its "加签"), sealed. */
    robotSecretSealed: text('robot_secret_sealed'),
    /** Why it was turned off by the console (3 days of failures); null when staff turned it off. */
    disabledReason: text('disabled_reason'),
    /** The first attempt of the current run of failures; null while deliveries succeed. */
    failingSince: timestamptz('failing_since'),
    lastDeliveryAt: timestamptz('last_delivery_at'),
    ...authored(),
  },
  (t) => [
    index('webhook_endpoints_enabled_idx').on(t.enabled),
    check('webhook_endpoints_kind_check', inList('kind', webhookKindValues)),
  ],
);

/**
 * The outbox: one row per event, inserted in the transaction of the change that causes it, then
 * fanned out into deliveries for the endpoints that want it (`dispatchedAt` set in that transaction).
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The event's id as receivers see it (`Cowork-Event-Id`), for their deduplication. */
    eventId: uuid('event_id').notNull().defaultRandom(),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    occurredAt: timestamptz('occurred_at').notNull().defaultNow(),
    dispatchedAt: timestamptz('dispatched_at'),
  },
  (t) => [
    uniqueIndex('webhook_events_event_id_key').on(t.eventId),
    index('webhook_events_undispatched_idx')
      .on(t.id)
      .where(sql`dispatched_at is null`),
    index('webhook_events_occurred_idx').on(t.occurredAt),
  ],
);

/** One event for one endpoint: attempted until delivered, or failed after 3 days of retries. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventRowId: bigint('event_row_id', { mode: 'number' })
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    /** Copied from the event, so the log filters without a join. */
    eventType: text('event_type').notNull(),
    status: text('status', { enum: webhookDeliveryStatusValues }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    /** An instance that claimed the attempt holds it until then; after a crash another takes it. */
    claimedUntil: timestamptz('claimed_until'),
    lastStatusCode: integer('last_status_code'),
    lastDurationMs: integer('last_duration_ms'),
    lastAttemptAt: timestamptz('last_attempt_at'),
    /** Why the last attempt failed, in Chinese (timeout, refused address, status). */
    lastError: text('last_error'),
    /** The first 2 KB of the receiver's last answer. */
    answer: text('answer'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_endpoint_event_key').on(t.endpointId, t.eventRowId),
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    check('webhook_deliveries_status_check', inList('status', webhookDeliveryStatusValues)),
  ],
);

/** 接口密钥: `ck_…` keys for server-to-server calls, acting with their role's permission codes. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    roleId: integer('role_id')
      .notNull()
      .references(() => ssoRoles.id, { onDelete: 'restrict' }),
    /** The buildings it is limited to; empty for every building its role may see. */
    buildingIds: ids('building_ids'),
    /** The key's first characters (`ck_` and 6 more), shown in the list to tell keys apart. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key: the key itself is shown once and never stored. */
    keyHash: text('key_hash').notNull(),
    expiresAt: timestamptz('expires_at'),
    lastUsedAt: timestamptz('last_used_at'),
    lastUsedIp: text('last_used_ip'),
    revokedAt: timestamptz('revoked_at'),
    ...authored(),
  },
  (t) => [uniqueIndex('api_keys_key_hash_key').on(t.keyHash)],
);
