/**
 * What the platform keeps for itself: rate-limit windows, the audit log, uploaded files,
 * idempotency keys, and 数据字典.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { authored, timestamptz } from './columns.ts';
import { apiKeys } from './open-platform.ts';
import { ssoUsers } from './staff.ts';

/**
 * Request counts per key (@fastify/rate-limit's store, lib/rate-limit-store.ts), shared by every
 * instance on the database. A window starts at a key's first hit and ends at expires_at.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('rate_limit_hits_expires_at_idx').on(t.expiresAt)],
);

export const auditLogs = pgTable(
  'audit_logs',
  {
    id: serial('id').primaryKey(),
    actorId: integer('actor_id').references(() => ssoUsers.id, { onDelete: 'set null' }),
    /**
     * The API key a write was made with (its creator is the actor); its name is kept beside it, as
     * the key may be deleted later.
     */
    apiKeyId: integer('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    apiKeyName: text('api_key_name'),
    action: text('action').notNull(),
    resource: text('resource').notNull(),
    resourceId: text('resource_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    at: timestamptz('at').notNull().defaultNow(),
  },
  (t) => [
    index('audit_logs_at_idx').on(t.at),
    index('audit_logs_actor_idx').on(t.actorId),
    // Few entries have a key: a key removed with its role sets its entries' id to null through it.
    index('audit_logs_api_key_idx')
      .on(t.apiKeyId)
      .where(sql`api_key_id is not null`),
    index('audit_logs_resource_idx').on(t.resource, t.at),
  ],
);

/** Files uploaded through oss/upload; the bytes live in the storage driver under `key`. */
export const uploadedFiles = pgTable(
  'uploaded_files',
  {
    id: serial('id').primaryKey(),
    /** Storage key: `YYYYMMDD/{random id}.{checked extension}`, served at /file/uploads/{key}. */
    key: text('key').notNull(),
    /** The name on the uploader's computer, for display only. */
    originalName: text('original_name').notNull(),
    /** Found from the content, not taken from the client. */
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: integer('uploaded_by').references(() => ssoUsers.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('uploaded_files_key_key').on(t.key),
    index('uploaded_files_uploaded_by_idx').on(t.uploadedBy),
    check('uploaded_files_size_check', sql`${t.sizeBytes} >= 0`),
  ],
);

/** 数据字典 (dict): codes are lower case (checked on write), so a plain unique key serves items' references. */
export const dicts = pgTable(
  'dicts',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    ...authored(),
  },
  (t) => [
    uniqueIndex('dicts_code_key').on(t.code),
    check('dicts_code_check', sql`${t.code} ~ '^[a-z][a-z0-9_]{1,49}$'`),
  ],
);

/** 字典项: values unique within their dict; a dict's code change follows to its items. */
export const dictItems = pgTable(
  'dict_items',
  {
    id: serial('id').primaryKey(),
    dictCode: text('dict_code')
      .notNull()
      .references(() => dicts.code, { onUpdate: 'cascade', onDelete: 'restrict' }),
    label: text('label').notNull(),
    value: text('value').notNull(),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    ...authored(),
  },
  (t) => [
    uniqueIndex('dict_items_dict_value_key').on(t.dictCode, sql`lower(${t.value})`),
    index('dict_items_dict_sort_idx').on(t.dictCode, t.sort),
  ],
);

/**
 * Answers of POSTs sent with an Idempotency-Key (plugins/idempotency.ts): a repeat of the request (a
 * double click, a retry after a lost answer) gets the first answer instead of writing again. The row
 * is written before the handler runs, so it is also the lock between instances; kept 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => ssoUsers.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** sha256 of method, address and body: the same key on another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    /** Null while the first request runs. */
    statusCode: integer('status_code'),
    /** The first answer's body (JSON text). */
    response: text('response'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);
