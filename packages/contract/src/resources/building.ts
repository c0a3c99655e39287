/**
 * 楼宇列表 (building): the buildings a merchant runs, with address, floors, pictures and hours.
 * Besides the CRUD endpoints, other screens read `buildings` (published buildings for selects),
 * `buildingCity` (the cities that have buildings) and `buildingFloors/{id}` (one building's floors).
 */
import { z } from 'zod';
import { INT32_MAX, numeric } from '../validators.ts';
import {
  LEASE_DEFAULT_HOURS,
  LEASE_MAX_HOURS,
  LEASE_MIN_HOURS,
  OFFLINE_ALERT_DEFAULT_MINUTES,
  OFFLINE_ALERT_MAX_MINUTES,
  OFFLINE_ALERT_MIN_MINUTES,
} from '../devices/operations.ts';
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';

const base = `${prefixes.building}/building`;

/** Computed by the server for answers (names, not codes); never written. */
const shown = (label: string) => ({
  label,
  kind: 'text' as const,
  schema: z.string().nullish(),
  form: false,
});

/** The building's door settings (protocol v1.1): a new building starts with the defaults. */
const leaseHours = field.integer('门禁离线授权时长（小时）', {
  min: LEASE_MIN_HOURS,
  max: LEASE_MAX_HOURS,
  list: false,
  help: `门禁与服务器断开后，仍按最后同步的名单放行会员的时长（${LEASE_MIN_HOURS}–${LEASE_MAX_HOURS} 小时）；超过后拒绝会员和卡（管理员密码仍可开门），连上服务器即自动续期`,
});
const offlineAlert = field.integer('离线告警阈值（分钟）', {
  min: OFFLINE_ALERT_MIN_MINUTES,
  max: OFFLINE_ALERT_MAX_MINUTES,
  list: false,
  help: `本楼宇的门禁离线超过这么久即发出“设备离线”告警（${OFFLINE_ALERT_MIN_MINUTES}–${OFFLINE_ALERT_MAX_MINUTES} 分钟）`,
});
const doorSettings = {
  deviceLeaseHours: { ...leaseHours, schema: leaseHours.schema.default(LEASE_DEFAULT_HOURS) },
  offlineAlertMinutes: {
    ...offlineAlert,
    schema: offlineAlert.schema.default(OFFLINE_ALERT_DEFAULT_MINUTES),
  },
};

export const building = defineResource({
  key: 'building',
  base,
  label: '楼宇',
  permission: 'building:list',
  fields: {
    coverUrl: field.image('封面图'),
    name: field.text('楼宇名称', { max: 50, search: 'like', unique: true }),
    merchantId: field.reference('所属商户', `${prefixes.merchant}/merchant/list`),
    provinceCode: field.text('省份', { max: 12, list: false }),
    cityCode: field.text('城市', { max: 12, search: 'eq', list: false }),
    regionCode: field.text('区县', { max: 12, optional: true, list: false }),
    /** 北京市 朝阳区: the names of the codes above. */
    areaName: shown('所在地区'),
    address: field.text('详细地址', { max: 200 }),
    longitude: field.decimal('经度', { min: -180, max: 180, optional: true, list: false }),
    latitude: field.decimal('纬度', { min: -90, max: 90, optional: true, list: false }),
    floors: field.tags('楼层', { max: 20, help: '输入楼层后按回车，如 8F、B1；不能重复' }),
    imageUrls: field.images('楼宇图集'),
    brightPointIds: field.references('亮点与设施', `${prefixes.building}/building-bright-points/list`),
    ruleIds: field.references('行为项', `${prefixes.building}/building-rule/list`),
    openTime: field.time('开门时间', { optional: true, list: false }),
    closeTime: field.time('关门时间', {
      optional: true,
      list: false,
      help: '须晚于开门时间；全天开放请填 00:00 至 23:59',
    }),
    /** 08:00–22:00, or null without hours. */
    openingHours: shown('营业时间'),
    phone: field.text('前台电话', { max: 20, optional: true, list: false }),
    description: field.textarea('简介', { max: 1000, optional: true }),
    ...doorSettings,
    published: field.published(),
    sort: field.sort(),
  },
  defaultSort: { field: 'sort', order: 'ascend' },
});

export const buildingEndpoints = {
  /** GET `?cityCode=&merchantId=`: the published buildings, for selects on other screens. */
  buildings: `${base}/buildings`,
  /** GET: the cities that have buildings (published or not), with how many each. */
  buildingCity: `${base}/buildingCity`,
  /** GET `/{id}`: one building's floors. */
  buildingFloors: `${base}/buildingFloors`,
} as const;

export const buildingOptionsQuery = z.object({
  cityCode: z
    .string()
    .regex(/^\d{6}$/, '城市编码须是 6 位数字，如 110100')
    .optional(),
  merchantId: numeric(
    z
      .number({ error: '所属商户必须是正整数' })
      .int('所属商户必须是正整数')
      .positive('所属商户必须是正整数')
      .max(INT32_MAX, '所属商户必须是正整数')
      .optional(),
  ),
});

/** One entry of `buildings`. */
export const buildingOption = z.object({
  id: z.number().int(),
  name: z.string(),
  cityCode: z.string(),
  floors: z.array(z.string()),
});

/** One entry of `buildingCity`: a city and how many buildings it has. */
export const buildingCity = z.object({
  code: z.string(),
  name: z.string(),
  buildingCount: z.number().int(),
});
export type BuildingCity = z.infer<typeof buildingCity>;
