/** 楼宇列表 (building): the buildings a merchant runs, with address, floors, pictures and hours. */
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';

const base = `${prefixes.building}/building`;

export const building = defineResource({
  key: 'building',
  base,
  label: '楼宇',
  permission: 'building:list',
  fields: {
    name: field.text('楼宇名称', { max: 50, search: 'like', unique: true }),
    merchantId: field.reference('所属商户', `${prefixes.merchant}/merchant/list`),
    provinceCode: field.text('省份', { max: 12, list: false }),
    cityCode: field.text('城市', { max: 12, search: 'eq', list: false }),
    regionCode: field.text('区县', { max: 12, optional: true, list: false }),
    address: field.text('详细地址', { max: 200 }),
    longitude: field.decimal('经度', { min: -180, max: 180, optional: true, list: false }),
    latitude: field.decimal('纬度', { min: -90, max: 90, optional: true, list: false }),
    floors: field.tags('楼层', { max: 20 }),
    coverUrl: field.image('封面图'),
    imageUrls: field.images('楼宇图集'),
    brightPointIds: field.references('亮点与设施', `${prefixes.building}/building-bright-points/list`),
    ruleIds: field.references('行为项', `${prefixes.building}/building-rule/list`),
    openTime: field.time('开门时间', { optional: true }),
    closeTime: field.time('关门时间', { optional: true }),
    phone: field.text('前台电话', { max: 20, optional: true }),
    description: field.textarea('简介', { max: 1000, optional: true }),
    sort: field.sort(),
    published: field.published(),
  },
  defaultSort: { field: 'sort', order: 'ascend' },
});
