/**
 * 会议卡活动 (team-card-activity): a meeting card sold at a discount price within a window, from a
 * limited stock, at most `limitPerUser` per member. 新建订单 of 会议卡订单 sells it by `activityId`
 * (the order's price is the activity's); the stock is taken with one guarded UPDATE, so it is never
 * oversold, and a member's count is checked under the same row lock. A cancelled or refunded order
 * gives its one back. Once it has sold, its card and price stay and its stock cannot drop below what
 * it sold; it cannot be removed (unpublishing stops sales).
 */
import { prefixes } from '../endpoints.ts';
import { defineResource, field, resourcePaths } from '../resource.ts';
import { cardActions } from './card-buildings.ts';
import { teamCard } from './team-card.ts';

/** Where an activity stands against its window (answered on rows, and a page filter). */
const activityStatusOptions = [
  { value: 'upcoming', label: '未开始' },
  { value: 'running', label: '进行中' },
  { value: 'ended', label: '已结束' },
] as const;
export type ActivityStatus = (typeof activityStatusOptions)[number]['value'];

export const teamCardActivity = defineResource({
  key: 'team-card-activity',
  base: `${prefixes.card}/team-card-activity`,
  label: '会议卡活动',
  permission: 'operation:meeting',
  actions: cardActions,
  titleField: 'title',
  fields: {
    title: field.text('活动名称', { max: 50, search: 'like' }),
    teamCardId: field.reference('会议卡', resourcePaths(teamCard).list, {
      help: '活动售卖的会议卡，开售后不能更换',
    }),
    discountPriceFen: field.money('活动价', { help: '不能高于会议卡售价，开售后不能修改' }),
    startAt: field.datetime('开始时间', { sortable: true }),
    endAt: field.datetime('结束时间', { sortable: true }),
    stock: field.integer('库存', { min: 1, max: 100_000, help: '可售总数，不能少于已售数量' }),
    limitPerUser: field.integer('每人限购', { min: 1, max: 1_000 }),
    published: field.published(),
    sold: field.integer('已售', { form: false }),
    remaining: field.integer('剩余', { form: false }),
    status: field.enumeration('活动状态', activityStatusOptions, { form: false }),
  },
});

export const teamCardActivityMessages = {
  window: '结束时间必须晚于开始时间，请重新选择',
  priceAboveCard: (price: string) => `活动价不能高于会议卡售价 ${price}，请调低活动价`,
  cardMissing: '所选会议卡不存在或已删除，请重新选择',
  soldCardFixed: (sold: number) =>
    `该活动已售出 ${sold} 张，不能更换会议卡或修改活动价；如需调整，请新建活动`,
  stockBelowSold: (sold: number) => `该活动已售出 ${sold} 张，库存不能少于 ${sold}`,
  soldCannotRemove: (sold: number) => `该会议卡活动已售出 ${sold} 张，不能删除；如需停止销售，请取消发布`,
  // Why a sale is refused (409), each naming the activity.
  notFound: '所选会议卡活动不存在，请重新选择',
  otherCard: (title: string) => `活动“${title}”售卖的不是所选会议卡，请重新选择会议卡或活动`,
  unpublished: (title: string) => `活动“${title}”未发布，不能购买；请先在会议卡活动中发布`,
  notStarted: (title: string, at: string) => `活动“${title}”尚未开始（${at} 开始），请在活动期间购买`,
  ended: (title: string) => `活动“${title}”已结束，不能再购买`,
  soldOut: (title: string) => `活动“${title}”已售罄，不能再购买`,
  limitReached: (title: string, limit: number) => `该会员已购买活动“${title}” ${limit} 张，达到每人限购数量`,
} as const;
