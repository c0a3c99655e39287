/**
 * Door devices (protocol v1, docs/devices.md): the console API's paths, the protocol's constants and the
 * Chinese messages both ends show. The wire format itself (envelope, signature, TOTP) lives in
 * apps/server/src/devices/protocol.ts, which the server and the simulator share.
 */
import { z } from 'zod';
import { prefixes } from './endpoints.ts';

/** A device's serial number: 1–64 of `A-Z a-z 0-9 _ -` (it is also its MQTT client id and username). */
/**
 * What a `sync` command carries besides `now` (docs/devices.md): who may open the door and until
 * when (ms since the epoch), the admin passwords' hashes and the card rules. The server builds it,
 * a device (the simulator too) reads it with this schema.
 */
export const deviceSyncParams = z.object({
  access: z.array(
    z.object({ memberId: z.number(), phone: z.string(), validFrom: z.number(), validTo: z.number() }),
  ),
  // v1 devices get SHA-256, v1.1 devices salted PBKDF2 (docs/devices.md).
  adminPasswords: z.array(
    z.union([
      z.object({ id: z.string(), sha256: z.string() }),
      z.object({ id: z.string(), salt: z.string(), iterations: z.number(), pbkdf2: z.string() }),
    ]),
  ),
  cardRules: z.array(z.object({ cardNo: z.string(), validFrom: z.number(), validTo: z.number() })),
});
export type DeviceAccessState = z.output<typeof deviceSyncParams>;

export const DEVICE_SN_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Largest message payload either side accepts. */
export const DEVICE_MAX_PAYLOAD_BYTES = 256 * 1024;
/** A message whose `ts` is further than this from the receiver's clock is refused. */
export const DEVICE_CLOCK_WINDOW_MS = 60_000;
/** A message id seen within this long is a replay. */
export const DEVICE_REPLAY_WINDOW_MS = 10 * 60_000;
/** A command not acked within this long has failed. */
export const DEVICE_ACK_TIMEOUT_MS = 5_000;
/** Devices send a heartbeat this often; none for three periods means offline. */
export const DEVICE_HEARTBEAT_MS = 30_000;
export const DEVICE_OFFLINE_AFTER_MS = 90_000;
/** Device admin passwords: keypad digits, a few per device. */
export const ADMIN_PASSWORD_MIN_DIGITS = 6;
export const ADMIN_PASSWORD_MAX_DIGITS = 12;
export const MAX_ADMIN_PASSWORDS = 10;
export const MAX_CARD_RULES = 1000;
export const CARD_NO_PATTERN = /^[A-Za-z0-9]{4,32}$/;

/** `open-door` durations, seconds. */
export const OPEN_DOOR_MIN_S = 1;
export const OPEN_DOOR_MAX_S = 30;
export const OPEN_DOOR_DEFAULT_S = 5;

/** A booking opens its room's doors from this long before its start to this long after its end. */
export const ACCESS_BOOKING_MARGIN_MS = 15 * 60_000;

/** `13800000000` → `138****0000`, as the access list and the open log show a member. */
export function maskPhone(phone: string): string {
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone;
}

export const deviceStatusLabels = { online: '在线', offline: '离线' } as const;
export const openMethodLabels = {
  remote: '远程开门',
  totp: '动态码',
  card: '刷卡',
  password: '密码',
} as const;
export const openResultLabels = { success: '成功', denied: '拒绝' } as const;
export const deviceCommandLabels: Record<string, string> = {
  'open-door': '远程开门',
  sync: '同步权限',
  'refresh-screen': '刷新屏幕',
  clear: '清除',
  'reset-config': '重置配置',
};
export const deviceCommandStateLabels = {
  sent: '已发送',
  acked: '已确认',
  failed: '失败',
  timeout: '超时',
} as const;

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
  /** Adds an admin password (`{id, password, reason}`); kept as SHA-256 only, synced at once. */
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
} as const;

export const DEVICE_VIEW_PERMISSION = 'hardware:device:view';
export const DEVICE_EDIT_PERMISSION = 'hardware:device:edit';
export const DEVICE_REMOVE_PERMISSION = 'hardware:device:remove';
export const OPEN_LOG_VIEW_PERMISSION = 'hardware:log:view';

export const deviceMessages = {
  snInvalid: '设备序列号只能包含字母、数字、下划线和短横线，长度 1–64，请检查后重试',
  snTaken: (sn: string) => `设备序列号“${sn}”已注册，请勿重复注册`,
  notWaiting: (sn: string) =>
    `设备“${sn}”尚未用注册密钥连接并上报，无法注册；请先让设备联网并发送 hello，再在“待注册”中注册`,
  notFound: '设备不存在或已注销，请刷新列表后重试',
  spaceNotFound: '所选空间不存在，请重新选择',
  linkDown: (reason: string) =>
    `设备通信服务未连接（${reason}），暂时无法向设备发送指令，请联系管理员检查 MQTT 配置`,
  offline: (name: string) => `设备“${name}”当前离线，指令未发送；请检查设备的电源和网络后重试`,
  timeout: (name: string) => `设备“${name}”在 5 秒内没有响应，指令可能未执行，请稍后重试`,
  refused: (name: string, error: string) => `设备“${name}”拒绝了指令：${error || '未说明原因'}`,
  durationInvalid: `开门时长必须是 ${OPEN_DOOR_MIN_S}–${OPEN_DOOR_MAX_S} 秒的整数`,
  reasonTooLong: '操作原因最多 200 个字符，请删减后重试',
  reasonRequired: '请填写操作原因，它会记入操作日志',
  passwordInvalid: `管理员密码必须是 ${ADMIN_PASSWORD_MIN_DIGITS}–${ADMIN_PASSWORD_MAX_DIGITS} 位数字`,
  passwordsFull: `每台设备最多 ${MAX_ADMIN_PASSWORDS} 个管理员密码，请先删除不用的密码`,
  passwordTaken: '该设备已有相同的管理员密码，请换一个',
  passwordNotFound: '该管理员密码不存在或已删除，请刷新后重试',
  cardNoInvalid: '卡号只能包含字母和数字，长度 4–32',
  cardRangeInvalid: '卡的有效期结束时间必须晚于开始时间',
  cardRulesFull: `每台设备最多 ${MAX_CARD_RULES} 条卡规则，请先删除过期的规则`,
  cardRuleNotFound: '该卡规则不存在或已删除，请刷新后重试',
  /** A change saved and synced, or saved for a device that will get it when it is back online. */
  listSynced: (what: string) => `${what}已保存并同步到设备`,
  listPending: (what: string, why: string) =>
    `${what}已保存，但暂未同步到设备（${why}）；设备恢复连接后会自动同步`,
} as const;

type DeviceStatus = keyof typeof deviceStatusLabels;
type OpenMethod = keyof typeof openMethodLabels;
type OpenResult = keyof typeof openResultLabels;
type DeviceSyncState = 'synced' | 'syncing' | 'unsynced';
export const deviceSyncStateLabels: Record<DeviceSyncState, string> = {
  synced: '已同步',
  syncing: '同步中',
  unsynced: '未同步',
};

/** A row of `device/page`. */
export interface DeviceRecord {
  id: number;
  sn: string;
  name: string;
  spaceId: number | null;
  spaceName: string | null;
  /** Where it is: `楼宇 / 上级空间 / 空间`; null while it is in no space. */
  spacePath: string | null;
  buildingId: number | null;
  model: string | null;
  vendor: string | null;
  firmware: string | null;
  status: DeviceStatus;
  lastSeenAt: string | null;
  syncState: DeviceSyncState;
  droppedCount: number;
  /** The protocol its last hello named ("1.1" gets secretBox and PBKDF2 admin passwords). */
  protocol: '1' | '1.1';
}

interface DeviceCommandRecord {
  id: string;
  type: string;
  byName: string | null;
  reason: string | null;
  state: keyof typeof deviceCommandStateLabels;
  error: string | null;
  sentAt: string;
  answeredAt: string | null;
}

/** `device/detail/{id}`. */
export interface DeviceDetail extends DeviceRecord {
  lastDropReason: string | null;
  commands: DeviceCommandRecord[];
}

/** A row of `device/novo-un-pulled-list`. */
export interface WaitingDevice {
  sn: string;
  model: string | null;
  vendor: string | null;
  firmware: string | null;
  lastSeenAt: string;
}

/** A row of `device/open-log/page`. */
export interface OpenLogRecord {
  id: number;
  deviceId: number | null;
  sn: string;
  deviceName: string | null;
  /** Where the device is now (`楼宇 / 空间`); null when unplaced or removed. */
  spacePath: string | null;
  method: OpenMethod;
  credential: string | null;
  result: OpenResult;
  reason: string | null;
  who: string | null;
  at: string;
}

export interface DeviceLinkStatus {
  up: boolean;
  mode: string;
  url: string | null;
  reason: string | null;
}
