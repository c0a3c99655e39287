/**
 * 会议室 (office-station) and 活动场地 (activity-station): rooms booked by the hour, one shape
 * declared twice. `/product/meetingRoom` and `/product/activityVenue` share one page, which picks
 * the declaration by route (`stationOfPath`).
 */
import { z } from 'zod';
import { INT32_MAX, numeric } from '../validators.ts';
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';
import { brightPoint, brightPointLabelListPath } from './bright-point.ts';

/** Bookings start and end on the quarter hour, so the shortest booking is a multiple of 15 minutes. */
export const BOOKING_STEP_MINUTES = 15;

function defineStation<const K extends string>(key: K, label: string, permission: string) {
  return defineResource({
    key,
    base: `${prefixes.building}/${key}`,
    label,
    permission,
    fields: {
      imageUrls: field.images('图片', { max: 9, list: true, help: '第一张作为封面，最多 9 张' }),
      name: field.text('名称', { max: 50, search: 'like', unique: true, uniqueWithin: 'buildingId' }),
      buildingId: field.reference('所属楼宇', `${prefixes.building}/building/list`),
      floor: field.text('楼层', { max: 20, optional: true, help: '楼宇设有楼层时须从中选择' }),
      capacity: field.integer('容纳人数', { min: 1, max: 10_000, sortable: true }),
      areaSqm: {
        ...field.decimal('面积（㎡）'),
        schema: numeric(
          z
            .number({ error: '面积必须是数字' })
            .positive('面积须大于 0')
            .max(INT32_MAX, '面积须大于 0')
            .max(100_000, '面积不能大于 100000 平方米'),
        ),
      },
      hourPriceFen: field.money('每小时价格'),
      openTime: field.time('开放时间'),
      closeTime: field.time('关闭时间', { help: '须晚于开放时间' }),
      minBookingMinutes: {
        ...field.integer('最短预订时长', {
          min: BOOKING_STEP_MINUTES,
          max: 24 * 60,
          list: false,
          help: '单位：分钟，须是 15 的整数倍',
        }),
        schema: numeric(
          z
            .number({ error: '最短预订时长必须是整数' })
            .int('最短预订时长必须是整数')
            .min(BOOKING_STEP_MINUTES, `最短预订时长不能少于 ${BOOKING_STEP_MINUTES} 分钟`)
            .max(24 * 60, '最短预订时长不能超过 1440 分钟')
            .refine(
              (minutes) => minutes % BOOKING_STEP_MINUTES === 0,
              `最短预订时长须是 ${BOOKING_STEP_MINUTES} 分钟的整数倍，如 30、60`,
            )
            .default(60),
        ),
      },
      facilityIds: field.references('设施', `${brightPoint.base}/list`),
      published: field.published(),
    },
  });
}

export const officeStation = defineStation('office-station', '会议室', 'product:meetingRoom');
export const activityStation = defineStation('activity-station', '活动场地', 'product:activityVenue');
export type StationResource = typeof officeStation | typeof activityStation;

/** The declaration each menu route manages. */
export const stationOfPath: Record<string, StationResource> = {
  '/product/meetingRoom': officeStation,
  '/product/activityVenue': activityStation,
};

/** The published facilities a station picks from (highlights are not facilities). */
export const facilityOptionsPath = `${brightPointLabelListPath}?kind=facility`;
