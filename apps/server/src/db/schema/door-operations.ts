/**
 * 门禁运维 (protocol v1.1): 告警记录 (device alarms, each event once), firmware files and their
 * rollouts, and 告警通知 (alerts raised once per cause, read per staff member). The modes of spaces,
 * the lease of each building and what each device holds are columns of spaces, buildings and devices.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { inList, timestamptz } from './columns.ts';
import { buildings } from './buildings.ts';
import { devices } from './devices.ts';
import { ssoUsers } from './staff.ts';

export const alarmKindValues = ['held-open', 'forced', 'tamper', 'power', 'fault'] as const;
export const alarmStateValues = ['open', 'cleared', 'acknowledged'] as const;

/** 告警记录: one row per raised `alarm` event; its `cleared` event closes it, staff acknowledge it. */
export const deviceAlarms = pgTable(
  'device_alarms',
  {
    id: serial('id').primaryKey(),
    /** The `raised` event's message id: the same event twice is one row. */
    messageId: text('message_id').notNull(),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    sn: text('sn').notNull(),
    deviceName: text('device_name'),
    /** The building of the device's space when it was raised (filters, alerts). */
    buildingId: integer('building_id').references(() => buildings.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: alarmKindValues }).notNull(),
    state: text('state', { enum: alarmStateValues }).notNull().default('open'),
    detail: text('detail'),
    raisedAt: timestamptz('raised_at').notNull(),
    clearedAt: timestamptz('cleared_at'),
    /** The `cleared` event's message id. */
    clearedMessageId: text('cleared_message_id'),
    acknowledgedAt: timestamptz('acknowledged_at'),
    acknowledgedById: integer('acknowledged_by_id'),
    acknowledgedBy: text('acknowledged_by'),
    note: text('note'),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('device_alarms_message_key').on(t.messageId),
    uniqueIndex('device_alarms_cleared_message_key').on(t.clearedMessageId),
    index('device_alarms_raised_idx').on(t.raisedAt),
    index('device_alarms_device_idx').on(t.deviceId, t.raisedAt),
    index('device_alarms_open_idx')
      .on(t.deviceId, t.kind)
      .where(sql`cleared_at is null`),
    check('device_alarms_kind_check', inList('kind', alarmKindValues)),
    check('device_alarms_state_check', inList('state', alarmStateValues)),
  ],
);

/**
 * A `cleared` event that came before its `raised` one (kept events may arrive out of order): kept
 * by its id so that it is logged once, and closes the alarm when the raise arrives.
 */
export const deviceAlarmClears = pgTable(
  'device_alarm_clears',
  {
    messageId: text('message_id').primaryKey(),
    sn: text('sn').notNull(),
    kind: text('kind', { enum: alarmKindValues }).notNull(),
    at: timestamptz('at').notNull(),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
  },
  (t) => [index('device_alarm_clears_sn_idx').on(t.sn, t.kind, t.at)],
);

/** Firmware files: streamed to the storage driver, hashed while they stream. */
export const firmwareFiles = pgTable(
  'firmware_files',
  {
    id: serial('id').primaryKey(),
    model: text('model').notNull(),
    version: text('version').notNull(),
    /** Storage key of the file's bytes. */
    storageKey: text('storage_key').notNull(),
    fileName: text('file_name').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    remark: text('remark'),
    createdById: integer('created_by_id'),
    createdBy: text('created_by'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('firmware_files_model_version_key').on(t.model, t.version)],
);

export const rolloutStateValues = ['running', 'paused', 'halted', 'done', 'cancelled'] as const;
export const rolloutDeviceStateValues = [
  'queued',
  'sent',
  'downloading',
  'verifying',
  'installing',
  'done',
  'failed',
] as const;

/** A firmware rollout over chosen devices of one model: a batch at a time, halted at its failure limit. */
export const firmwareRollouts = pgTable(
  'firmware_rollouts',
  {
    id: serial('id').primaryKey(),
    firmwareId: integer('firmware_id')
      .notNull()
      .references(() => firmwareFiles.id, { onDelete: 'restrict' }),
    state: text('state', { enum: rolloutStateValues }).notNull().default('running'),
    batchSize: integer('batch_size').notNull(),
    stopAfterFailures: integer('stop_after_failures').notNull(),
    timeoutMinutes: integer('timeout_minutes').notNull().default(15),
    reason: text('reason'),
    createdById: integer('created_by_id'),
    createdBy: text('created_by'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    index('firmware_rollouts_state_idx').on(t.state),
    check('firmware_rollouts_state_check', inList('state', rolloutStateValues)),
  ],
);

/** Each device of a rollout and how far it got; `active` while the device is in a rollout not over. */
export const firmwareRolloutDevices = pgTable(
  'firmware_rollout_devices',
  {
    rolloutId: integer('rollout_id')
      .notNull()
      .references(() => firmwareRollouts.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** Order within the rollout. */
    position: integer('position').notNull(),
    state: text('state', { enum: rolloutDeviceStateValues }).notNull().default('queued'),
    percent: integer('percent').notNull().default(0),
    error: text('error'),
    /** The `firmware` command's id, which its `progress` events name as `ref`. */
    commandId: uuid('command_id'),
    /** False once the device finished or failed, or the rollout ended: one active rollout per device. */
    active: boolean('active').notNull().default(true),
    sentAt: timestamptz('sent_at'),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    primaryKey({ columns: [t.rolloutId, t.deviceId] }),
    uniqueIndex('firmware_rollout_devices_active_key')
      .on(t.deviceId)
      .where(sql`active`),
    uniqueIndex('firmware_rollout_devices_command_key').on(t.commandId),
    check('firmware_rollout_devices_state_check', inList('state', rolloutDeviceStateValues)),
  ],
);

export const alertKindValues = [
  'device-offline',
  'alarm',
  'sync-stuck',
  'refusals',
  'rollout-halted',
  'webhook-disabled',
] as const;

/**
 * 告警通知: raised once per cause (`causeKey`, unique while open: one alert per building when many of
 * its doors drop together) and closed by itself when the cause ends.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: alertKindValues }).notNull(),
    /** What raised it, e.g. `device-offline:building:3`, `alarm:41`: one open alert per cause. */
    causeKey: text('cause_key').notNull(),
    buildingId: integer('building_id').references(() => buildings.id, { onDelete: 'set null' }),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    detail: text('detail'),
    /** The console address it links to. */
    link: text('link'),
    /** How many things it covers now (doors offline in the building, refusals in the window). */
    count: integer('count').notNull().default(1),
    raisedAt: timestamptz('raised_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    closedAt: timestamptz('closed_at'),
  },
  (t) => [
    uniqueIndex('alerts_open_cause_key')
      .on(t.causeKey)
      .where(sql`closed_at is null`),
    index('alerts_raised_idx').on(t.raisedAt),
    check('alerts_kind_check', inList('kind', alertKindValues)),
  ],
);

/** Which staff member read which alert. */
export const alertReads = pgTable(
  'alert_reads',
  {
    alertId: integer('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => ssoUsers.id, { onDelete: 'cascade' }),
    readAt: timestamptz('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.alertId, t.userId] })],
);
