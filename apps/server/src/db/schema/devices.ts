/**
 * 智能硬件 (door devices): 物理空间, devices, devices waiting to be registered, commands and 开门记录.
 */
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { authored, timestamptz } from './columns.ts';
import { buildings } from './buildings.ts';
import { activityStations, officeStations } from './products.ts';

export const spaceKindValues = ['building', 'floor', 'room', 'gate'] as const;
export const spaceModeValues = ['normal', 'lockdown', 'release'] as const;

/** 物理空间: a tree per building (building → floor → room / gate) that devices are placed in. */
export const spaces = pgTable(
  'spaces',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id').references((): AnyPgColumn => spaces.id, { onDelete: 'restrict' }),
    buildingId: integer('building_id')
      .notNull()
      .references(() => buildings.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    kind: text('kind', { enum: spaceKindValues }).notNull(),
    sort: integer('sort').notNull().default(0),
    /** The bookable room this space is: its paid bookings open the doors of sets holding it. */
    officeStationId: integer('office_station_id').references(() => officeStations.id, {
      onDelete: 'set null',
    }),
    activityStationId: integer('activity_station_id').references(() => activityStations.id, {
      onDelete: 'set null',
    }),
    /** 紧急模式: normal, lockdown (封锁) or release (全部常开); sent to every device in or under it. */
    mode: text('mode', { enum: spaceModeValues }).notNull().default('normal'),
    modeReason: text('mode_reason'),
    modeChangedAt: timestamptz('mode_changed_at'),
    modeChangedBy: text('mode_changed_by'),
    ...authored(),
  },
  (t) => [
    index('spaces_building_idx').on(t.buildingId),
    index('spaces_office_station_idx').on(t.officeStationId),
    index('spaces_activity_station_idx').on(t.activityStationId),
    index('spaces_parent_idx').on(t.parentId),
    check('spaces_kind_check', sql.raw(`kind in (${spaceKindValues.map((v) => `'${v}'`).join(', ')})`)),
    check('spaces_mode_check', sql.raw(`mode in (${spaceModeValues.map((v) => `'${v}'`).join(', ')})`)),
    index('spaces_mode_idx')
      .on(t.mode)
      .where(sql`mode <> 'normal'`),
  ],
);

export const deviceStatusValues = ['online', 'offline'] as const;

export const deviceProtocolValues = ['1', '1.1'] as const;

/**
 * A device admin password as kept: SHA-256 for v1 devices, and PBKDF2 with its salt for v1.1 ones
 * (devices/secrets-v11.ts). Entries saved before PBKDF2 have no salt: they cannot be converted
 * without the password, so v1.1 devices are not sent them until staff enter the password again.
 */
export interface StoredAdminPassword {
  id: string;
  sha256: string;
  salt?: string;
  iterations?: number;
  pbkdf2?: string;
}

/**
 * Registered door devices. The device secret is kept only encrypted (AES-256-GCM under SECRET_KEY,
 * lib/secret-box.ts); a reset-config in flight keeps the new one in `pendingSecret` until the device
 * acks with the old one.
 */
export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    sn: text('sn').notNull(),
    name: text('name').notNull(),
    spaceId: integer('space_id').references(() => spaces.id, { onDelete: 'restrict' }),
    model: text('model'),
    vendor: text('vendor'),
    firmware: text('firmware'),
    secret: text('secret').notNull(),
    pendingSecret: text('pending_secret'),
    status: text('status', { enum: deviceStatusValues }).notNull().default('offline'),
    lastSeenAt: timestamptz('last_seen_at'),
    /** Messages dropped as malformed, unsigned, oversized, stale or replayed. */
    droppedCount: integer('dropped_count').notNull().default(0),
    lastDropReason: text('last_drop_reason'),
    /** The id of the last hello answered with a sync: one instance claims each hello. */
    lastHelloId: text('last_hello_id'),
    /** The access state last sent in a `sync`, and the version the device last acked. */
    accessVersion: integer('access_version').notNull().default(0),
    ackedVersion: integer('acked_version').notNull().default(0),
    /** The protocol version of its last hello (`protocol`; absent is 1): v1.1 gets secretBox and PBKDF2. */
    protocol: text('protocol', { enum: deviceProtocolValues }).notNull().default('1'),
    adminPasswords: jsonb('admin_passwords').$type<StoredAdminPassword[]>().notNull().default([]),
    cardRules: jsonb('card_rules')
      .$type<{ cardNo: string; validFrom: number; validTo: number }[]>()
      .notNull()
      .default([]),
    /**
     * v1.1: the state version the device says it holds (its last sync ack or heartbeat; a device
     * that lost its state reports an older one), and since when it holds the current one.
     */
    heldVersion: integer('held_version'),
    syncedAt: timestamptz('synced_at'),
    /** When the current access version was made (未同步 / 同步中 since then). */
    accessChangedAt: timestamptz('access_changed_at'),
    /** The mode in the state last sent, and the lease (`validUntil`) the device last acked. */
    sentMode: text('sent_mode', { enum: spaceModeValues }),
    leaseUntil: timestamptz('lease_until'),
    /** sha256 of the access state last sent: a change that leaves it equal sends nothing. */
    accessHash: text('access_hash'),
    /** When an entry of that state ends: the device is re-synced then (a card or booking expiring). */
    nextExpiryAt: timestamptz('next_expiry_at'),
    ...authored(),
  },
  (t) => [
    uniqueIndex('devices_sn_key').on(t.sn),
    index('devices_next_expiry_idx').on(t.nextExpiryAt),
    index('devices_space_idx').on(t.spaceId),
    check('devices_status_check', sql.raw(`status in ('online', 'offline')`)),
    check('devices_protocol_check', sql.raw(`protocol in ('1', '1.1')`)),
  ],
);

/** Devices that said `hello` with the enrolment key and are not registered (novo un-pulled list). */
export const deviceEnrolments = pgTable('device_enrolments', {
  sn: text('sn').primaryKey(),
  model: text('model'),
  vendor: text('vendor'),
  firmware: text('firmware'),
  lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
});

export const deviceCommandStateValues = ['sent', 'acked', 'failed', 'timeout'] as const;

/** Every command sent to a device and its fate; the id is the message id the ack refers to. */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: uuid('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    byUserId: integer('by_user_id'),
    byName: text('by_name'),
    reason: text('reason'),
    state: text('state', { enum: deviceCommandStateValues }).notNull().default('sent'),
    error: text('error'),
    sentAt: timestamptz('sent_at').notNull().defaultNow(),
    answeredAt: timestamptz('answered_at'),
  },
  (t) => [index('device_commands_device_idx').on(t.deviceId, t.sentAt)],
);

export const openMethodValues = ['remote', 'totp', 'card', 'password'] as const;

export const openResultValues = ['success', 'denied'] as const;

/** 开门记录: every signed `door` event, once (its message id is unique). */
export const deviceOpenLogs = pgTable(
  'device_open_logs',
  {
    id: serial('id').primaryKey(),
    messageId: text('message_id').notNull(),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    sn: text('sn').notNull(),
    deviceName: text('device_name'),
    method: text('method', { enum: openMethodValues }).notNull(),
    credential: text('credential'),
    result: text('result', { enum: openResultValues }).notNull(),
    reason: text('reason'),
    /** Who opened: the staff member for remote opening, a member's masked phone, or null. */
    who: text('who'),
    memberId: integer('member_id'),
    at: timestamptz('at').notNull(),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('device_open_logs_message_key').on(t.messageId),
    index('device_open_logs_at_idx').on(t.at),
    index('device_open_logs_device_at_idx').on(t.deviceId, t.at),
  ],
);
