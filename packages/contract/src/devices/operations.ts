/**
 * Door operations (protocol v1.1): alarms, emergency modes, the offline lease and firmware. The
 * value lists and limits both ends and the console share; the bodies and answers of each screen
 * live beside them in devices/{alarms,modes,firmware}.ts.
 */

/** What a device's `alarm` event names (`kind`), with the console's Chinese name for each. */
export const alarmKinds = ['held-open', 'forced', 'tamper', 'power', 'fault'] as const;
export type AlarmKind = (typeof alarmKinds)[number];
export const alarmKindLabels: Record<AlarmKind, string> = {
  'held-open': '门长时间未关',
  forced: '强行开门',
  tamper: '设备防拆',
  power: '断电',
  fault: '设备故障',
};
/** An `alarm` event's `state`: the alarm began, or it ended. */
export const alarmEventStates = ['raised', 'cleared'] as const;
/** A row of 告警记录: still raised and unseen, ended on the device, or seen by staff. */
export const alarmStates = ['open', 'cleared', 'acknowledged'] as const;
export type AlarmState = (typeof alarmStates)[number];
export const alarmStateLabels: Record<AlarmState, string> = {
  open: '未处理',
  cleared: '已恢复',
  acknowledged: '已确认',
};
/** An alarm's `detail` as a device may send it. */
export const ALARM_DETAIL_MAX = 200;

/** A space's mode, sent in every `sync` of the devices in or under it. */
export const spaceModes = ['normal', 'lockdown', 'release'] as const;
export type SpaceMode = (typeof spaceModes)[number];
export const spaceModeLabels: Record<SpaceMode, string> = {
  normal: '正常',
  lockdown: '封锁',
  release: '全部常开',
};
/** How a device took a mode change: acked it, will get it later (offline, no ack in time), or is v1. */
export const modeDeliveryStates = ['applied', 'pending', 'unsupported'] as const;
export const modeDeliveryLabels: Record<(typeof modeDeliveryStates)[number], string> = {
  applied: '已生效',
  pending: '待生效',
  unsupported: '不支持（v1 设备）',
};

/** The offline lease a `sync` or `lease` grants (`validUntil`): per building, in hours. */
export const LEASE_MIN_HOURS = 1;
export const LEASE_MAX_HOURS = 168;
export const LEASE_DEFAULT_HOURS = 24;

/** An alert for a device offline this long (per building, minutes). */
export const OFFLINE_ALERT_DEFAULT_MINUTES = 5;
export const OFFLINE_ALERT_MIN_MINUTES = 1;
export const OFFLINE_ALERT_MAX_MINUTES = 1440;
/** An alert for a device that has not applied its state for this long. */
export const SYNC_STUCK_ALERT_MS = 5 * 60_000;
/** An alert for this many refusals at one door within REFUSAL_WINDOW_MS. */
export const REFUSAL_ALERT_COUNT = 5;
export const REFUSAL_WINDOW_MS = 60_000;

/** `progress` stages a device reports while it updates its firmware. */
export const firmwareStages = ['downloading', 'verifying', 'installing', 'done', 'failed'] as const;
export type FirmwareStage = (typeof firmwareStages)[number];
/** A firmware file: at most this large, streamed, never buffered whole. */
export const FIRMWARE_MAX_BYTES = 64 * 1024 * 1024;
/** A firmware download URL works this long. */
export const FIRMWARE_URL_TTL_MS = 60 * 60_000;
/** A device that neither finishes nor fails within this long has failed (a rollout's setting). */
export const ROLLOUT_DEFAULT_TIMEOUT_MINUTES = 15;
export const rolloutStates = ['running', 'paused', 'halted', 'done', 'cancelled'] as const;
export type RolloutState = (typeof rolloutStates)[number];
export const rolloutStateLabels: Record<RolloutState, string> = {
  running: '进行中',
  paused: '已暂停',
  halted: '已中止（失败过多）',
  done: '已完成',
  cancelled: '已取消',
};
export const rolloutDeviceStates = ['queued', 'sent', ...firmwareStages] as const;
export type RolloutDeviceState = (typeof rolloutDeviceStates)[number];
export const rolloutDeviceStateLabels: Record<RolloutDeviceState, string> = {
  queued: '排队中',
  sent: '已下发',
  downloading: '下载中',
  verifying: '校验中',
  installing: '安装中',
  done: '已完成',
  failed: '失败',
};

/** Kinds of 告警通知 (the bell), each raised once per cause and closed when the cause ends. */
export const alertKinds = [
  'device-offline',
  'alarm',
  'sync-stuck',
  'refusals',
  'rollout-halted',
  'webhook-disabled',
] as const;
export type AlertKind = (typeof alertKinds)[number];
export const alertKindLabels: Record<AlertKind, string> = {
  'device-offline': '设备离线',
  alarm: '设备告警',
  'sync-stuck': '权限未同步',
  refusals: '频繁拒绝开门',
  'rollout-halted': '固件升级中止',
  'webhook-disabled': '推送地址已停用',
};
