/**
 * 开门记录: every door event a device reported (remote, code, card or password; let in or refused),
 * listed newest first and exported to Excel with the same filters. Its own permission lets staff
 * read it without managing devices.
 */
import { z } from 'zod';
import { pageParams } from '../paging.ts';
import { businessInstant, isDayText } from '../time.ts';
import { idOf } from '../validators.ts';

export const OPEN_LOG_VIEW_PERMISSION = 'hardware:log:view';

export const openMethods = ['remote', 'totp', 'card', 'password'] as const;
export const openMethodLabels: Record<(typeof openMethods)[number], string> = {
  remote: '远程开门',
  totp: '动态码',
  card: '刷卡',
  password: '密码',
};
export const openResults = ['success', 'denied'] as const;
export const openResultLabels: Record<(typeof openResults)[number], string> = {
  success: '成功',
  denied: '拒绝',
};

/** A row of `device/open-log/page`. */
export const openLogRecord = z.object({
  id: z.number(),
  deviceId: z.number().nullable(),
  sn: z.string(),
  deviceName: z.string().nullable(),
  /** Where the device is now (`楼宇 / 空间`); null when unplaced or removed. */
  spacePath: z.string().nullable(),
  method: z.enum(openMethods),
  /** A card's or code's last characters; none for a remote opening (`who` names the staff member). */
  credential: z.string().nullable(),
  result: z.enum(openResults),
  reason: z.string().nullable(),
  who: z.string().nullable(),
  at: z.string(),
});
export type OpenLogRecord = z.output<typeof openLogRecord>;

const isoTime = z.iso.datetime({ offset: true });
/** The instant a filter bound names: a day (business zone) starts at its midnight. */
const instantOf = (bound: string) => (isDayText(bound) ? businessInstant(bound) : new Date(bound));

/** A time with offset, or a day (business zone); `atTo` as a day includes the whole day. */
export const timeBound = (label: string) =>
  z
    .string()
    .refine((v) => (isDayText(v) || isoTime.safeParse(v).success) && !Number.isNaN(instantOf(v).getTime()), {
      error: `${label}格式不正确，应为日期（如 2026-11-25）或带时区的时间`,
    });

/** The open log's filters, shared by its page and its export. */
export const openLogQuery = z.object({
  deviceId: idOf('设备编号必须是正整数').optional(),
  sn: z.string().max(64).optional(),
  buildingId: idOf('楼宇编号必须是正整数').optional(),
  /** The devices in this space or under it. */
  spaceId: idOf('空间编号必须是正整数').optional(),
  /** A member's phone: eleven digits match that member, fewer any masked phone holding them. */
  phone: z
    .string()
    .trim()
    .regex(/^\d{0,11}$/, '手机号只能是数字，最多 11 位')
    .optional(),
  /**
   * A member by what staff know: a name (the staff list's, real name or nickname), a phone (prefix
   * or whole) or a company's name; the events of the members it finds.
   */
  keyword: z.string().trim().max(50, '关键词最多 50 个字符').optional(),
  method: z.enum(openMethods, { error: '开门方式不正确' }).optional(),
  result: z.enum(openResults, { error: '开门结果不正确' }).optional(),
  atFrom: timeBound('开始时间').optional(),
  atTo: timeBound('结束时间').optional(),
});
export type OpenLogQuery = z.output<typeof openLogQuery>;

/** `device/open-log/page`: the filters and the page. */
export const openLogPageQuery = openLogQuery.extend(pageParams);
