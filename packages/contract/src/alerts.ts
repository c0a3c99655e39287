/**
 * 告警通知 (the header's bell): alerts the server raises from rules over the devices, alarms and
 * rollouts (one per cause, closed by itself when the cause ends), each read or unread per staff
 * member. The console polls the list; its answer carries the unread count. The answer's schemas
 * are in alert-schemas.ts: the header's bell, on every screen, needs only these, without zod.
 */
import { grants } from './constants.ts';
import { DEVICE_VIEW_PERMISSION } from './devices.ts';
import { alertKinds, type AlertKind } from './devices/operations.ts';
import { prefixes } from './endpoints.ts';

const alert = `${prefixes.hardware}/alert`;

export const alertEndpoints = {
  /** `?size` → `{records, unread}`: open alerts and those closed within a day, newest first. */
  list: `${alert}/list`,
  /** `{id}`: one alert read by the caller. */
  read: `${alert}/read`,
  /** Every alert the caller sees, read. */
  readAll: `${alert}/read-all`,
} as const;

/** Which codes let staff see which kinds: door alerts with device or alarm view, rollouts with firmware view. */
export const alertKindPermissions: Record<AlertKind, readonly string[]> = {
  'device-offline': [DEVICE_VIEW_PERMISSION, 'hardware:alarm:view'],
  alarm: [DEVICE_VIEW_PERMISSION, 'hardware:alarm:view'],
  'sync-stuck': [DEVICE_VIEW_PERMISSION, 'hardware:alarm:view'],
  refusals: [DEVICE_VIEW_PERMISSION, 'hardware:alarm:view'],
  'rollout-halted': ['hardware:firmware:view'],
  'webhook-disabled': ['system:open:view'],
};

/** Any code that shows some alert: opens the bell's routes. */
export const ALERT_PERMISSIONS = [...new Set(Object.values(alertKindPermissions).flat())];

/** The kinds of alert staff with these codes see (none: no bell). */
export const alertKindsFor = (permissions: readonly string[]): AlertKind[] =>
  alertKinds.filter((kind) => grants(permissions, alertKindPermissions[kind]));

/** How long a closed alert stays in the list. */
export const ALERT_CLOSED_KEPT_MS = 24 * 60 * 60_000;
export const ALERT_LIST_MAX = 100;
/** How often the console asks for the list (new alerts reach it within the rules' period plus this). */
export const ALERT_POLL_MS = 2_000;
