/**
 * 告警记录 (protocol v1.1): each `alarm` event a device raised is one row, closed by its `cleared`
 * event; staff acknowledge a row with a note. Its page and export share the filters below.
 *
 * A row's state: `cleared` once the device said the alarm ended (whether or not staff acknowledged
 * it: the ending is the fact that matters, 已确认 stays visible beside it); else `acknowledged` once
 * staff acknowledged it; else `open`. Acknowledging a cleared row records who and the note and
 * leaves it cleared; a row is acknowledged once (a second time is refused).
 */
import { z } from 'zod';
import { pageParams } from '../paging.ts';
import { idOf } from '../validators.ts';
import { timeBound } from './open-log.ts';
import { ALARM_DETAIL_MAX, alarmKinds, alarmStates } from './operations.ts';

export const ALARM_VIEW_PERMISSION = 'hardware:alarm:view';
export const ALARM_EDIT_PERMISSION = 'hardware:alarm:edit';
/** A note staff write when they acknowledge. */
export const ALARM_NOTE_MAX = 200;

/** A row of `device/alarm/page`. */
export const alarmRecord = z.object({
  id: z.number(),
  deviceId: z.number().nullable(),
  sn: z.string(),
  /** The device's name when it raised the alarm; null for a device since removed. */
  deviceName: z.string().nullable(),
  /** The building of the device's space when it raised the alarm. */
  buildingId: z.number().nullable(),
  buildingName: z.string().nullable(),
  kind: z.enum(alarmKinds),
  state: z.enum(alarmStates),
  detail: z.string().nullable(),
  raisedAt: z.string(),
  clearedAt: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  /** The staff member who acknowledged (nickname, else username). */
  acknowledgedBy: z.string().nullable(),
  note: z.string().nullable(),
});
export type AlarmRecord = z.output<typeof alarmRecord>;

/** 告警记录's filters, shared by its page and its export; the time bounds apply to raisedAt. */
export const alarmQuery = z.object({
  buildingId: idOf('楼宇编号必须是正整数').optional(),
  deviceId: idOf('设备编号必须是正整数').optional(),
  sn: z.string().max(64).optional(),
  kind: z.enum(alarmKinds, { error: '告警类型不正确' }).optional(),
  state: z.enum(alarmStates, { error: '告警状态只能是 open、cleared 或 acknowledged' }).optional(),
  atFrom: timeBound('开始时间').optional(),
  atTo: timeBound('结束时间').optional(),
});
export type AlarmQuery = z.output<typeof alarmQuery>;

/** `device/alarm/page`: the filters and the page. */
export const alarmPageQuery = alarmQuery.extend(pageParams);

export const alarmMessages = {
  notFound: '告警记录不存在，请刷新列表后重试',
  noteRequired: '请填写处理说明，它会记入告警记录和操作日志',
  noteTooLong: `处理说明最多 ${ALARM_NOTE_MAX} 个字符，请删减后重试`,
  alreadyAcknowledged: (by: string | null, at: string) =>
    `该告警已由${by ?? '其他人员'}于 ${at} 确认，无需重复确认；请刷新列表查看`,
} as const;

/** `device/alarm/acknowledge`: which row, and what staff did about it. */
export const alarmAcknowledgeBody = z.object({
  id: idOf('告警编号必须是正整数'),
  note: z
    .string({ error: alarmMessages.noteRequired })
    .trim()
    .min(1, alarmMessages.noteRequired)
    .max(ALARM_NOTE_MAX, alarmMessages.noteTooLong),
});

export const alarmFieldLabels = { acknowledge: { id: '告警编号', note: '处理说明' } } as const;

/** An alarm a device still has raised (not cleared), as its detail lists it. */
export const raisedAlarm = z.object({
  id: z.number(),
  kind: z.enum(alarmKinds),
  /** open, or acknowledged by staff while the device still reports it. */
  state: z.enum(alarmStates),
  raisedAt: z.string(),
  detail: z.string().max(ALARM_DETAIL_MAX).nullable(),
});
export type RaisedAlarm = z.output<typeof raisedAlarm>;
