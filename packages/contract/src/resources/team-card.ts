/**
 * 会议卡 (team-card): a stored-value card spent on meeting rooms in the listed buildings. It is sold
 * at its price and carries its face value (面值) as balance, so the price never exceeds the face value.
 */
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';
import { cardActions, cardBuildingIds } from './card-buildings.ts';

export const teamCard = defineResource({
  key: 'team-card',
  base: `${prefixes.card}/team-card`,
  label: '会议卡',
  permission: 'product:meeting',
  actions: cardActions,
  fields: {
    name: field.text('名称', { max: 50, search: 'like', unique: true }),
    faceValueFen: field.money('面值', { min: 1, help: '购卡后可抵扣的会议室费用' }),
    priceFen: field.money('售价', { help: '不能高于面值' }),
    validDays: field.integer('有效天数', { min: 1, max: 3650, sortable: true, help: '购卡后多少天内有效' }),
    buildingIds: cardBuildingIds(),
    published: field.published(),
  },
});
