/**
 * 设备管理's devices: a device as the console lists it (设备管理's rows, 门禁联动's and 企业门禁组's
 * devices), the waiting list (待注册) and registering from it, and the link's banner.
 */
import { z } from 'zod';
import { pageParams } from '../paging.ts';
import { idOf } from '../validators.ts';
import { DEVICE_SN_PATTERN } from './protocol.ts';
import { deviceMessages } from './messages.ts';
import { spaceModes } from './operations.ts';

export const deviceStatuses = ['online', 'offline'] as const;
export const deviceStatusLabels: Record<(typeof deviceStatuses)[number], string> = {
  online: '在线',
  offline: '离线',
};
/** The protocol a device's last hello named: "1.1" gets secretBox and PBKDF2 admin passwords. */
export const deviceProtocols = ['1', '1.1'] as const;

const syncStates = ['synced', 'syncing', 'unsynced'] as const;
export const deviceSyncStateLabels: Record<(typeof syncStates)[number], string> = {
  synced: '已同步',
  syncing: '同步中',
  unsynced: '未同步',
};

/** A row of `device/page`. */
export const deviceRecord = z.object({
  id: z.number(),
  sn: z.string(),
  name: z.string(),
  spaceId: z.number().nullable(),
  spaceName: z.string().nullable(),
  /** Where it is: `楼宇 / 上级空间 / 空间`; null while it is in no space. */
  spacePath: z.string().nullable(),
  buildingId: z.number().nullable(),
  model: z.string().nullable(),
  vendor: z.string().nullable(),
  firmware: z.string().nullable(),
  status: z.enum(deviceStatuses),
  lastSeenAt: z.string().nullable(),
  /**
   * 已同步: acked the access state last sent; 同步中: a sync is awaiting its ack; else 未同步 (always
   * for a device that never connected).
   */
  syncState: z.enum(syncStates),
  droppedCount: z.number(),
  protocol: z.enum(deviceProtocols),
  /**
   * v1.1: the state version the device holds (its last sync ack, or its heartbeat's `version`; null
   * before either), the current one, and since when the sync state is what it is (已同步 since it
   * caught up; 同步中 / 未同步 since the current version was made).
   */
  syncedVersion: z.number().nullable(),
  currentVersion: z.number(),
  syncSince: z.string().nullable(),
  /** The mode of its space (the space's or one above it: 全部常开 wins over 封锁). */
  mode: z.enum(spaceModes),
  /** Until when it may admit members offline (the `validUntil` it last acked); null before a v1.1 ack. */
  leaseUntil: z.string().nullable(),
  /** The lease length its building grants (hours): what each sync or renewal gives it. */
  leaseHours: z.number(),
  /** Alarms raised and not cleared or acknowledged. */
  openAlarms: z.number(),
});
export type DeviceRecord = z.output<typeof deviceRecord>;

/** The device a request names: `{id}` as a body or a query, or the `:id` of `detail/:id`. */
export const deviceIdBody = z.object({ id: idOf('设备编号必须是正整数') });

/** `device/page`'s filters. */
export const devicePageQuery = z.object({
  ...pageParams,
  sn: z.string().max(64).optional(),
  name: z.string().max(50).optional(),
  spaceId: idOf('空间编号必须是正整数').optional(),
  /** The devices placed in this building's spaces (pickers offer one building's devices). */
  buildingId: idOf('楼宇编号必须是正整数').optional(),
  status: z.enum(deviceStatuses, { error: '状态只能是 online 或 offline' }).optional(),
});

/** A row of `device/novo-un-pulled-list`: a device that said hello with the enrolment key. */
export const waitingDevice = z.object({
  sn: z.string(),
  model: z.string().nullable(),
  vendor: z.string().nullable(),
  firmware: z.string().nullable(),
  lastSeenAt: z.string(),
});
export type WaitingDevice = z.output<typeof waitingDevice>;

/** `device/register`: a waiting device's sn, the name staff give it and where it is. */
export const deviceRegisterBody = z.object({
  sn: z.string({ error: '请填写设备序列号' }).regex(DEVICE_SN_PATTERN, deviceMessages.snInvalid),
  name: z
    .string({ error: '请填写设备名称' })
    .trim()
    .min(1, '请填写设备名称')
    .max(50, '设备名称最多 50 个字符'),
  spaceId: idOf('空间编号必须是正整数').nullish(),
});
/** Its answer: the device's secret, the only time it is shown. */
export const deviceRegistered = z.object({ id: z.number(), sn: z.string(), secret: z.string() });

/** `device/totp-code`: the device's current door code and when it expires (ms). */
export const deviceTotpCode = z.object({ code: z.string(), expiresAt: z.number() });

/** `device/link-status`: the device link up or down and why (the hardware screens' banner). */
export const deviceLinkStatus = z.object({
  up: z.boolean(),
  mode: z.string(),
  url: z.string().nullable(),
  reason: z.string().nullable(),
});
export type DeviceLinkStatus = z.output<typeof deviceLinkStatus>;
