/**
 * 固件升级: firmware files (uploaded with their model and version, hashed as they stream) and
 * rollouts over chosen devices of one model, a batch at a time; what each screen sends and gets,
 * and every sentence the server answers about them.
 */
import { z } from 'zod';
import { pageParams } from '../paging.ts';
import { idOf, numeric } from '../validators.ts';
import { ROLLOUT_DEFAULT_TIMEOUT_MINUTES, rolloutDeviceStates, rolloutStates } from './operations.ts';

export const FIRMWARE_VIEW_PERMISSION = 'hardware:firmware:view';
export const FIRMWARE_EDIT_PERMISSION = 'hardware:firmware:edit';

/** Devices in one rollout at most, and in flight at once at most. */
export const ROLLOUT_MAX_DEVICES = 5_000;
export const ROLLOUT_MAX_BATCH = 500;
export const ROLLOUT_MAX_TIMEOUT_MINUTES = 1_440;
/** How often the console refreshes a rollout that is still moving. */
export const ROLLOUT_POLL_MS = 2_000;

export const firmwareMessages = {
  notMultipart: '请以表单（multipart/form-data）上传固件文件',
  badForm: '上传的表单无法读取，请重新选择文件后再试',
  fileRequired: '请选择要上传的固件文件',
  oneFile: '一次只能上传一个固件文件，请逐个上传',
  empty: '固件文件是空的（0 字节），请检查是否选错了文件',
  tooLarge: (maxBytes: number) =>
    `固件文件不能超过 ${maxBytes >= 1024 * 1024 ? `${Math.round(maxBytes / 1024 / 1024)} MB` : `${maxBytes} 字节`}，请检查是否选错了文件`,
  cutOff: '固件文件没有传完（连接中断），未保存任何内容，请重新上传',
  versionRequired: '请填写固件版本号',
  versionInvalid: '固件版本号只能包含字母、数字、点、短横线和下划线，最多 32 个字符',
  modelRequired: '请填写适用的设备型号',
  modelInvalid: '设备型号只能包含字母、数字、点、短横线和下划线，最多 64 个字符',
  remarkTooLong: '备注最多 200 个字符，请删减后重试',
  duplicate: (model: string, version: string) =>
    `型号 ${model} 的 ${version} 版本固件已上传过，请换一个版本号，或直接用已有的文件升级`,
  firmwareNotFound: '所选固件不存在，请刷新列表后重新选择',
  linkInvalid: '固件下载链接无效或已过期，请在控制台重新发起升级',
  devicesRequired: '请至少选择一台要升级的设备',
  tooManyDevices: `一次升级最多 ${ROLLOUT_MAX_DEVICES} 台设备，请分批创建`,
  devicesRepeated: '所选设备有重复，请检查后重试',
  batchSizeInvalid: `每批台数必须是 1–${ROLLOUT_MAX_BATCH} 的整数`,
  stopAfterFailuresInvalid: '失败上限必须是正整数（失败达到这个台数时升级自动中止）',
  timeoutInvalid: `单台超时必须是 1–${ROLLOUT_MAX_TIMEOUT_MINUTES} 分钟的整数`,
  deviceNotFound: (id: number) => `设备 ${id} 不存在或已注销，请刷新设备列表后重新选择`,
  wrongModel: (name: string, model: string | null, firmwareModel: string) =>
    `设备“${name}”的型号是 ${model ?? '未知'}，与固件适用的型号 ${firmwareModel} 不符，请只选择 ${firmwareModel} 型号的设备`,
  notV11: (name: string) => `设备“${name}”使用 v1 协议，不支持远程升级固件；请从所选设备中去掉它`,
  busy: (name: string, rolloutId: number) =>
    `设备“${name}”正在升级任务 #${rolloutId} 中，同一台设备不能同时参加两个升级任务；请等该任务结束或取消后再试`,
  rolloutNotFound: '升级任务不存在，请刷新列表后重试',
  cannotPause: '只有进行中的升级任务可以暂停，请刷新查看它的最新状态',
  cannotResume: '只有已暂停的升级任务可以继续，请刷新查看它的最新状态',
  cannotCancel: '升级任务已经结束，无需取消',
  timedOut: '在设定的单台超时时间内未完成升级（设备没有以新版本重新上线）',
  failedOnDevice: '设备报告升级失败，未说明原因',
  notSent: (error: string) => `升级指令未送达：${error}`,
  cancelled: '升级任务已取消，未向该设备下发',
} as const;

export const firmwareFieldLabels = {
  upload: { file: '固件文件', version: '版本号', model: '设备型号', remark: '备注' },
  rollout: {
    firmwareId: '固件',
    deviceIds: '升级设备',
    batchSize: '每批台数',
    stopAfterFailures: '失败上限',
    timeoutMinutes: '单台超时（分钟）',
    reason: '操作原因',
  },
} as const;

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The text fields of `firmware/upload` (the file itself is checked as it streams). */
export const firmwareUploadFields = z.object({
  version: z
    .string({ error: firmwareMessages.versionRequired })
    .trim()
    .min(1, firmwareMessages.versionRequired)
    .max(32, firmwareMessages.versionInvalid)
    .regex(NAME_PATTERN, firmwareMessages.versionInvalid),
  model: z
    .string({ error: firmwareMessages.modelRequired })
    .trim()
    .min(1, firmwareMessages.modelRequired)
    .max(64, firmwareMessages.modelInvalid)
    .regex(NAME_PATTERN, firmwareMessages.modelInvalid),
  remark: z.string().trim().max(200, firmwareMessages.remarkTooLong).optional(),
});
export type FirmwareUploadFields = z.output<typeof firmwareUploadFields>;

/** `firmware/upload`'s answer. */
export const firmwareUploaded = z.object({
  id: z.number(),
  version: z.string(),
  model: z.string(),
  sha256: z.string(),
  size: z.number().int(),
});
export type FirmwareUploaded = z.output<typeof firmwareUploaded>;

/** A row of `firmware/page`. */
export const firmwareRecord = firmwareUploaded.extend({
  fileName: z.string(),
  remark: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type FirmwareRecord = z.output<typeof firmwareRecord>;

export const firmwarePageQuery = z.object({
  ...pageParams,
  model: z.string().trim().max(64).optional(),
});

/** `firmware/download`: what a signed link carries; the signature is checked by the server alone. */
export const firmwareDownloadQuery = z.object({
  id: idOf('固件编号必须是正整数'),
  expires: numeric(z.number({ error: firmwareMessages.linkInvalid }).int(firmwareMessages.linkInvalid)),
  sig: z.string().max(128, firmwareMessages.linkInvalid),
});

/** `firmware/rollout`: the file, the devices (all of its model, v1.1) and how fast to go. */
export const rolloutBody = z.object({
  firmwareId: idOf(firmwareMessages.firmwareNotFound),
  deviceIds: z
    .array(idOf('设备编号必须是正整数'), { error: firmwareMessages.devicesRequired })
    .min(1, firmwareMessages.devicesRequired)
    .max(ROLLOUT_MAX_DEVICES, firmwareMessages.tooManyDevices)
    .refine((ids) => new Set(ids).size === ids.length, firmwareMessages.devicesRepeated),
  batchSize: numeric(
    z
      .number({ error: firmwareMessages.batchSizeInvalid })
      .int(firmwareMessages.batchSizeInvalid)
      .min(1, firmwareMessages.batchSizeInvalid)
      .max(ROLLOUT_MAX_BATCH, firmwareMessages.batchSizeInvalid),
  ),
  stopAfterFailures: numeric(
    z
      .number({ error: firmwareMessages.stopAfterFailuresInvalid })
      .int(firmwareMessages.stopAfterFailuresInvalid)
      .min(1, firmwareMessages.stopAfterFailuresInvalid)
      .max(ROLLOUT_MAX_DEVICES, firmwareMessages.stopAfterFailuresInvalid),
  ),
  timeoutMinutes: numeric(
    z
      .number({ error: firmwareMessages.timeoutInvalid })
      .int(firmwareMessages.timeoutInvalid)
      .min(1, firmwareMessages.timeoutInvalid)
      .max(ROLLOUT_MAX_TIMEOUT_MINUTES, firmwareMessages.timeoutInvalid)
      .default(ROLLOUT_DEFAULT_TIMEOUT_MINUTES),
  ),
  reason: z.string().trim().max(200, '操作原因最多 200 个字符，请删减后重试').optional(),
});
export type RolloutBody = z.input<typeof rolloutBody>;

/** `rollout/pause`, `resume`, `cancel`. */
export const rolloutIdBody = z.object({ id: idOf('升级任务编号必须是正整数') });

export const rolloutPageQuery = z.object({
  ...pageParams,
  state: z.enum(rolloutStates, { error: '升级任务状态不正确' }).optional(),
});

/** A row of `rollout/page`: the rollout, its file and how many devices got where. */
export const rolloutRecord = z.object({
  id: z.number(),
  state: z.enum(rolloutStates),
  firmwareId: z.number(),
  model: z.string(),
  version: z.string(),
  batchSize: z.number().int(),
  stopAfterFailures: z.number().int(),
  timeoutMinutes: z.number().int(),
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  reason: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type RolloutRecord = z.output<typeof rolloutRecord>;

export const rolloutDeviceRecord = z.object({
  id: z.number(),
  sn: z.string(),
  name: z.string(),
  state: z.enum(rolloutDeviceStates),
  percent: z.number().int(),
  error: z.string().nullable(),
  sentAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type RolloutDeviceRecord = z.output<typeof rolloutDeviceRecord>;

/** `rollout/detail/{id}`: the rollout and each device in its order. */
export const rolloutDetail = rolloutRecord.extend({
  sha256: z.string(),
  size: z.number().int(),
  devices: z.array(rolloutDeviceRecord),
});
export type RolloutDetail = z.output<typeof rolloutDetail>;
