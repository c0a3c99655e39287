/** 行为项配置 (building-rule): the house rules a building shows (禁止吸烟, 宠物友好, …). */
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';

export const buildingRule = defineResource({
  key: 'building-rule',
  base: `${prefixes.building}/building-rule`,
  label: '行为项',
  permission: 'system:rule',
  fields: {
    name: field.text('名称', { max: 30, search: 'like', unique: true }),
    iconUrl: field.image('图标', { help: '建议 64×64 的 PNG 或 SVG 图标' }),
    description: field.textarea('说明', { max: 200, optional: true }),
    sort: field.sort(),
    published: field.published(),
  },
  defaultSort: { field: 'sort', order: 'ascend' },
});
