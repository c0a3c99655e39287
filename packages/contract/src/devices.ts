/**
 * Door devices (protocol v1.1, docs/device-protocol.md): the console API's paths and permissions, and, from
 * devices/*, every request and answer of it as zod (the server validates with these schemas, the
 * console's types are inferred from them), the commands a device takes and the protocol's limits.
 */
import { prefixes } from './endpoints.ts';

export * from './devices/protocol.ts';
export * from './devices/messages.ts';
export * from './devices/device.ts';
export * from './devices/commands.ts';
export * from './devices/lists.ts';
export * from './devices/open-log.ts';
export * from './devices/operations.ts';
export * from './devices/alarms.ts';
export * from './devices/firmware.ts';
export * from './devices/modes.ts';
export * from './devices/access-views.ts';

const device = `${prefixes.hardware}/device`;

/** The console API for devices, exactly as the protocol's table names it. */
export const deviceEndpoints = {
  unPulledList: `${device}/novo-un-pulled-list`,
  register: `${device}/register`,
  unregister: `${device}/unregister`,
  page: `${device}/page`,
  detail: `${device}/detail`,
  openDoor: `${device}/open-door`,
  clear: `${device}/clear`,
  refreshScreen: `${device}/refresh-screen`,
  resetConfig: `${device}/reset-config`,
  totpCode: `${device}/totp-code`,
  adminPwdList: `${device}/admin-pwd-list`,
  cardRuleList: `${device}/card-rule-list`,
  /** Adds an admin password (`{id, password, reason}`); kept hashed only, synced at once. */
  adminPwdSave: `${device}/admin-pwd/save`,
  /** Removes one (`{id, pwdId, reason}`). */
  adminPwdRemove: `${device}/admin-pwd/remove`,
  /** Adds or replaces a card's rule (`{id, cardNo, validFrom, validTo}`, ms), synced at once. */
  cardRuleSave: `${device}/card-rule/save`,
  /** Removes a card's rule (`{id, cardNo}`). */
  cardRuleRemove: `${device}/card-rule/remove`,
  openLogPage: `${device}/open-log/page`,
  /** The open log as .xlsx: the page's filters, every row. */
  openLogExport: `${device}/open-log/export`,
  /** The device link's state (the hardware screens' banner). */
  linkStatus: `${device}/link-status`,
  /** v1.1: `{id, reason?}`, answered once acked. */
  reboot: `${device}/reboot`,
  /** v1.1 告警记录: page, acknowledge (`{id, note}`), and the page's filters as .xlsx. */
  alarmPage: `${device}/alarm/page`,
  alarmAcknowledge: `${device}/alarm/acknowledge`,
  alarmExport: `${device}/alarm/export`,
} as const;

const firmware = `${prefixes.hardware}/firmware`;

/** v1.1 console API beyond `device/`: a space's emergency mode, and firmware files and rollouts. */
export const doorOperationEndpoints = {
  /** `{spaceId, mode, reason}` → `{devices: [{id, name, state}]}`. */
  spaceMode: `${prefixes.hardware}/space/mode`,
  /** The spaces not in 正常 mode now (the hardware screens' banner). */
  spaceModes: `${prefixes.hardware}/space/modes`,
  firmwareUpload: `${firmware}/upload`,
  firmwarePage: `${firmware}/page`,
  /** A firmware file as devices download it: `?id&expires&sig`, nothing else grants it. */
  firmwareDownload: `${firmware}/download`,
  rollout: `${firmware}/rollout`,
  rolloutPage: `${firmware}/rollout/page`,
  rolloutDetail: `${firmware}/rollout/detail`,
  rolloutPause: `${firmware}/rollout/pause`,
  rolloutResume: `${firmware}/rollout/resume`,
  rolloutCancel: `${firmware}/rollout/cancel`,
} as const;

/** 紧急模式 (封锁, 全部常开): a code of its own, not given to 运营 or 财务 by default. */
export const EMERGENCY_PERMISSION = 'hardware:emergency';

export const DEVICE_VIEW_PERMISSION = 'hardware:device:view';
export const DEVICE_EDIT_PERMISSION = 'hardware:device:edit';
export const DEVICE_REMOVE_PERMISSION = 'hardware:device:remove';
