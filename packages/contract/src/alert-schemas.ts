/**
 * The schemas of 告警通知's requests and answers (alerts.ts has its addresses, kinds and limits).
 */
import { z } from 'zod';
import { ALERT_LIST_MAX } from './alerts.ts';
import { alertKinds } from './devices/operations.ts';
import { idOf } from './validators.ts';

export const alertRecord = z.object({
  id: z.number(),
  kind: z.enum(alertKinds),
  buildingId: z.number().nullable(),
  deviceId: z.number().nullable(),
  title: z.string(),
  detail: z.string().nullable(),
  /** The console address of what it is about. */
  link: z.string().nullable(),
  count: z.number(),
  raisedAt: z.string(),
  updatedAt: z.string(),
  /** Null while the cause lasts. */
  closedAt: z.string().nullable(),
  read: z.boolean(),
});
export type AlertRecord = z.output<typeof alertRecord>;

export const alertListQuery = z.object({
  size: z.coerce
    .number({ error: '条数必须是数字' })
    .int('条数必须是整数')
    .min(1, '条数至少为 1')
    .max(ALERT_LIST_MAX, `条数最多为 ${ALERT_LIST_MAX}`)
    .default(50),
});

export const alertList = z.object({
  records: z.array(alertRecord),
  /** Unread alerts among all the caller sees (open, or closed within a day). */
  unread: z.number(),
});
export type AlertList = z.output<typeof alertList>;

export const alertReadBody = z.object({ id: idOf('告警编号必须是正整数') });
export type AlertReadBody = z.input<typeof alertReadBody>;

/** What a mark-read answers: how many alerts it marked. */
export const alertReadResult = z.object({ marked: z.number() });
