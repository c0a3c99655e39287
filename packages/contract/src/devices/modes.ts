/**
 * 紧急模式: a building's, floor's or room's mode (正常, 封锁, 全部常开), sent to every device in or
 * under it with its sync. The bodies and answers of `space/mode`, `space/modes` and the count the
 * console confirms before a change, and what each says.
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { idOf } from '../validators.ts';
import { modeDeliveryStates, spaceModeLabels, spaceModes, type SpaceMode } from './operations.ts';

/** How many doors a change would reach (`?spaceId`), asked before the console confirms it. */
export const spaceModePreviewPath = `${prefixes.hardware}/space/mode/preview`;

/** The longest reason a mode change keeps. */
export const MODE_REASON_MAX = 200;

export const modeMessages = {
  spaceIdInvalid: '请选择要切换紧急模式的空间',
  modeInvalid: '紧急模式只能是 正常、封锁 或 全部常开',
  reasonRequired: '请填写切换紧急模式的原因，它会记入操作日志并显示在横幅上',
  reasonTooLong: `原因最多 ${MODE_REASON_MAX} 个字符，请删减后重试`,
  spaceNotFound: '该空间不存在或已删除，请刷新列表后重试',
  /** The answer's message: how many devices took the mode now, and how many will later. */
  changed: (space: string, mode: SpaceMode, applied: number, total: number) =>
    total === 0
      ? `“${space}”已切换为${spaceModeLabels[mode]}；该空间下没有门禁设备`
      : `“${space}”已切换为${spaceModeLabels[mode]}：${applied}/${total} 台设备已生效，其余设备恢复连接后自动生效`,
} as const;

export const modeFieldLabels = { spaceId: '空间', mode: '紧急模式', reason: '原因' } as const;

/** `space/mode`'s body. */
export const spaceModeBody = z.object({
  spaceId: idOf(modeMessages.spaceIdInvalid),
  mode: z.enum(spaceModes, { error: modeMessages.modeInvalid }),
  reason: z
    .string({ error: modeMessages.reasonRequired })
    .trim()
    .min(1, modeMessages.reasonRequired)
    .max(MODE_REASON_MAX, modeMessages.reasonTooLong),
});
export type SpaceModeBody = z.infer<typeof spaceModeBody>;

/** One device of a mode change: acked it, will get it later, or cannot take it (v1). */
export const spaceModeDevice = z.object({
  id: z.number(),
  name: z.string(),
  state: z.enum(modeDeliveryStates),
});
export type SpaceModeDevice = z.infer<typeof spaceModeDevice>;

/** `space/mode`'s answer: every device in or under the space. */
export const spaceModeAnswer = z.object({ devices: z.array(spaceModeDevice) });
export type SpaceModeAnswer = z.infer<typeof spaceModeAnswer>;

/** `space/mode/preview`'s query and answer: the doors a change of this space would reach. */
export const spaceModePreviewQuery = z.object({ spaceId: idOf(modeMessages.spaceIdInvalid) });
export const spaceModePreview = z.object({
  spaceId: z.number(),
  /** `楼宇 / 上级空间… / 空间`. */
  path: z.string(),
  mode: z.enum(spaceModes),
  /** Devices in or under it, of them online, and of them v1 (they cannot take a mode). */
  devices: z.number(),
  online: z.number(),
  unsupported: z.number(),
});
export type SpaceModePreview = z.infer<typeof spaceModePreview>;

/** A row of `space/modes`: a space not in 正常 now (the hardware screens' banner). */
export const spaceModeRecord = z.object({
  id: z.number(),
  name: z.string(),
  path: z.string(),
  mode: z.enum(spaceModes),
  reason: z.string().nullable(),
  changedAt: z.string().nullable(),
  changedBy: z.string().nullable(),
});
export type SpaceModeRecord = z.infer<typeof spaceModeRecord>;
export const spaceModeList = z.array(spaceModeRecord);
