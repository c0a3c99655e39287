/**
 * What the console sends a device (远程开门, 同步权限, …): each command with its params, as one
 * discriminated union, so a command's type names its params; and what the console asks for one.
 */
import { z } from 'zod';
import { numeric } from '../validators.ts';
import { raisedAlarm } from './alarms.ts';
import { deviceIdBody, deviceRecord } from './device.ts';
import { deviceMessages } from './messages.ts';
import { deviceSyncParams, OPEN_DOOR_DEFAULT_S, OPEN_DOOR_MAX_S, OPEN_DOOR_MIN_S } from './protocol.ts';

/** `open-door`'s duration: whole seconds within the protocol's bounds. */
const openDuration = numeric(
  z
    .number({ error: deviceMessages.durationInvalid })
    .int(deviceMessages.durationInvalid)
    .min(OPEN_DOOR_MIN_S, deviceMessages.durationInvalid)
    .max(OPEN_DOOR_MAX_S, deviceMessages.durationInvalid),
);

const noParams = z.object({});

export const deviceCommand = z.discriminatedUnion('type', [
  /** Unlocks for `durationS`; `by` is the staff username, which the device repeats in its door event. */
  z.object({
    type: z.literal('open-door'),
    params: z.object({ durationS: openDuration, by: z.string() }),
  }),
  /** Replaces the device's whole access state; `now` sets its clock. */
  z.object({ type: z.literal('sync'), params: deviceSyncParams.extend({ now: z.number() }) }),
  /** Redraws its screen (QR / code display). */
  z.object({ type: z.literal('refresh-screen'), params: noParams }),
  /** Forgets its access state until the next sync. */
  z.object({ type: z.literal('clear'), params: noParams }),
  /** A new device secret: in clear for v1 devices, sealed under the old one (`secretBox`) for v1.1. */
  z.object({
    type: z.literal('reset-config'),
    params: z.union([z.object({ secret: z.string() }), z.object({ secretBox: z.string() })]),
  }),
  /** v1.1: extends `validUntil` of the state it holds, only if `version` is the one it holds. */
  z.object({
    type: z.literal('lease'),
    params: z.object({ version: z.number().int(), validUntil: z.number() }),
  }),
  /** v1.1: acks, then restarts (reconnects and says hello). */
  z.object({ type: z.literal('reboot'), params: noParams }),
  /** v1.1: downloads `url` (valid 1 hour), checks size and SHA-256, installs, reports `progress`. */
  z.object({
    type: z.literal('firmware'),
    params: z.object({ version: z.string(), url: z.string(), sha256: z.string(), size: z.number().int() }),
  }),
]);
export type DeviceCommand = z.output<typeof deviceCommand>;
export type DeviceCommandType = DeviceCommand['type'];

export const deviceCommandLabels: Record<DeviceCommandType, string> = {
  'open-door': '远程开门',
  sync: '同步权限',
  'refresh-screen': '刷新屏幕',
  clear: '清除',
  'reset-config': '重置配置',
  lease: '续期离线授权',
  reboot: '重启',
  firmware: '固件升级',
};
/** The commands' types as a list (a command record's `type`); the contract's tests hold it to the union. */
export const deviceCommandTypes = [
  'open-door',
  'sync',
  'refresh-screen',
  'clear',
  'reset-config',
  'lease',
  'reboot',
  'firmware',
] as const satisfies readonly DeviceCommandType[];

/** Whether a stored command's type is one the contract knows. */
export const isDeviceCommandType = (type: string): type is DeviceCommandType =>
  Object.hasOwn(deviceCommandLabels, type);

export const deviceCommandStates = ['sent', 'acked', 'failed', 'timeout'] as const;
export const deviceCommandStateLabels: Record<(typeof deviceCommandStates)[number], string> = {
  sent: '已发送',
  acked: '已确认',
  failed: '失败',
  timeout: '超时',
};

/** A command as `device/detail` lists it: who sent it, why, and its fate. */
export const deviceCommandRecord = z.object({
  id: z.string(),
  type: z.enum(deviceCommandTypes),
  byName: z.string().nullable(),
  reason: z.string().nullable(),
  state: z.enum(deviceCommandStates),
  error: z.string().nullable(),
  sentAt: z.string(),
  answeredAt: z.string().nullable(),
});

/** `device/detail/:id`: a device with its last commands and what was dropped from it. */
export const deviceDetail = deviceRecord.extend({
  lastDropReason: z.string().nullable(),
  commands: z.array(deviceCommandRecord),
  /** v1.1: the alarms it still has raised (not cleared), newest first. */
  raisedAlarms: z.array(raisedAlarm),
});
export type DeviceDetail = z.output<typeof deviceDetail>;

/** `device/open-door`: the device and how long it stays open. */
export const deviceOpenDoorBody = deviceIdBody.extend({
  durationS: openDuration.default(OPEN_DOOR_DEFAULT_S),
});

/** Why staff send a command: optional where the command takes nothing away, else required. */
export const optionalReason = z.string().trim().max(200, deviceMessages.reasonTooLong).optional();
export const requiredReason = z
  .string({ error: deviceMessages.reasonRequired })
  .trim()
  .min(1, deviceMessages.reasonRequired)
  .max(200, deviceMessages.reasonTooLong);

/** `device/clear`, `device/refresh-screen` and `device/reset-config`: the device and why. */
export const deviceCommandBody = deviceIdBody.extend({ reason: optionalReason });

/** `device/reset-config`'s answer: the new secret, once the device acked with its old one. */
export const deviceSecretReset = z.object({ secret: z.string() });
