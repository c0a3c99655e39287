/**
 * 会员卡 (user-card): day, month and times passes sold to members, valid in the listed buildings.
 * A times card counts entries (次数 required); day and month cards count days only (次数 empty).
 */
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';
import { cardActions, cardBuildingIds } from './card-buildings.ts';

const userCardTypes = [
  { value: 'day', label: '日卡' },
  { value: 'month', label: '月卡' },
  { value: 'times', label: '次卡' },
] as const;

export const userCard = defineResource({
  key: 'user-card',
  base: `${prefixes.card}/user-card`,
  label: '会员卡',
  permission: 'product:member',
  actions: cardActions,
  fields: {
    name: field.text('名称', { max: 50, search: 'like', unique: true }),
    cardType: field.enumeration('卡类型', userCardTypes),
    validDays: field.integer('有效天数', { min: 1, max: 3650, sortable: true, help: '购卡后多少天内有效' }),
    times: {
      ...field.integer('次数', { min: 1, max: 1000, optional: true, help: '次卡可使用的次数' }),
      shownWhen: { field: 'cardType', in: ['times'] },
    },
    priceFen: field.money('售价'),
    buildingIds: cardBuildingIds(),
    description: field.textarea('说明', { max: 500, optional: true }),
    published: field.published(),
  },
});
