/**
 * 门禁权限查询: who can open a door and why, and which doors a member can open. Every answer is read
 * from the query the devices are synced from (the server's device-link/access.ts), so a row here is
 * exactly an entry of the device's `access` state: one row per member and window (a member's
 * overlapping windows on one device are one window, as on the device), each with every source that
 * gives it.
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { idOf } from '../validators.ts';

export const accessSourceKinds = ['booking', 'member-card', 'access-group'] as const;
export type AccessSourceKind = (typeof accessSourceKinds)[number];
export const accessSourceKindLabels: Record<AccessSourceKind, string> = {
  booking: '预订',
  'member-card': '会员卡',
  'access-group': '企业门禁组',
};

/**
 * Why a member may open a door: a booking (`id` its order), a membership card (`id` its order) or an
 * enterprise access group (`id` the group). `label` says it in a sentence's words:
 * `预订 #202611250001 301 会议室`, `会员卡 #202611250002`, `企业门禁组“研发部”（星河科技）`.
 */
export const accessSource = z.object({
  kind: z.enum(accessSourceKinds),
  id: z.number(),
  label: z.string(),
});
export type AccessSource = z.output<typeof accessSource>;

/**
 * Narrows a list to members whose name contains it, whose phone starts with it (or is it), or whose
 * company's name contains it. Blank lists everyone.
 */
export const accessKeyword = z.string().trim().max(50, '关键词最多 50 个字符').optional();

/** A row of `device/access-list`: an entry of the device's access state. Times ISO 8601 with offset. */
export const deviceAccessRow = z.object({
  memberId: z.number(),
  /** The staff list's name, else the member's real name or nickname; null when none is known. */
  name: z.string().nullable(),
  /** Masked, as the device holds it: `138****0000`. */
  phone: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  sources: z.array(accessSource),
});
export type DeviceAccessRow = z.output<typeof deviceAccessRow>;

/** `device/access-list` and its export: the device, and the keyword. */
export const deviceAccessQuery = z.object({
  id: idOf('设备编号必须是正整数'),
  keyword: accessKeyword,
});

/**
 * A row of `space/access-list`: an entry of the access state of a device placed in the space or in
 * a space under it (the space's doors), with that device.
 */
export const spaceAccessRow = deviceAccessRow.extend({ deviceId: z.number(), deviceName: z.string() });
export type SpaceAccessRow = z.output<typeof spaceAccessRow>;

export const spaceAccessQuery = z.object({
  id: idOf('空间编号必须是正整数'),
  keyword: accessKeyword,
});

/**
 * A row of `user/door-list`: a door the member can open, why and when. `synced`: the device holds
 * it now (it acked the current state, which holds this entry); false while a change is not yet on
 * the device (offline, or a sync awaiting its ack).
 */
export const memberDoorRow = z.object({
  deviceId: z.number(),
  deviceName: z.string(),
  spaceName: z.string().nullable(),
  buildingName: z.string().nullable(),
  validFrom: z.string(),
  validTo: z.string(),
  sources: z.array(accessSource),
  synced: z.boolean(),
});
export type MemberDoorRow = z.output<typeof memberDoorRow>;

export const memberDoorQuery = z.object({ id: idOf('会员编号必须是正整数') });

/**
 * The calls. Device and space views need hardware:device:view (an API key limited to buildings sees
 * only their devices and spaces); the member's door list needs user:member:view (a limited key sees
 * only the doors of its buildings).
 */
export const accessViewEndpoints = {
  /** GET `?id&keyword` → DeviceAccessRow[], by name then phone. */
  deviceAccessList: `${prefixes.hardware}/device/access-list`,
  /** GET `?id&keyword` → .xlsx of the same rows. */
  deviceAccessExport: `${prefixes.hardware}/device/access-list/export`,
  /** GET `?id&keyword` → SpaceAccessRow[], by device then name. */
  spaceAccessList: `${prefixes.hardware}/space/access-list`,
  /** GET `?id&keyword` → .xlsx of the same rows. */
  spaceAccessExport: `${prefixes.hardware}/space/access-list/export`,
  /** GET `?id` (the member) → MemberDoorRow[], by building, space and device. */
  memberDoorList: `${prefixes.user}/user/door-list`,
} as const;

export const accessViewMessages = {
  memberNotFound: '该会员不存在，请刷新会员列表后重试',
} as const;
