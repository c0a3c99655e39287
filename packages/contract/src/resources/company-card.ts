/**
 * 企业会议卡 (company-card): a company's meeting-card balance its staff spend on meeting rooms and
 * venues, each at most `monthlyCapFen` a month (calendar month of the business time zone) when set.
 * The card belongs to a company (企业) and is open to its active staff by `staffScope`: all of them,
 * those of `departments`, or the chosen people `memberPhones` (who must be active staff). A person
 * marked 离职 can no longer pay with it. `companyName` is the company's name, answered as before.
 * - `POST save-update` creates (no id) or edits; `GET page`; `GET detail/{id}` answers the card with
 *   each listed member's spending this month. `cardNo` is generated; `balanceFen` is the opening
 *   balance on creation and changes afterwards only through the ledger.
 * - `POST top-up {id, amountFen, remark}`: staff add money; `GET ledger/page?id=` the ledger, newest
 *   first. Every change of the balance is a ledger row (top-up, booking debit, refund credit), so
 *   the balance always equals the ledger's sum.
 * - `GET /api/card/admin/v1/team-card-sale/find-list-by-phone?phone=`: the meeting cards a phone can
 *   pay with: their own paid meeting cards and the enabled, unexpired company cards open to them.
 * A booking paid with a company card (payMethod `card`, its cardNo) is debited in the booking's
 * transaction by one guarded UPDATE (never below zero); the member's month is counted under that
 * row's lock, so concurrent bookings pass neither the balance nor the cap. A refund credits it back.
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { defineResource, field, formatYuan, resourcePaths } from '../resource.ts';
import { PHONE_PATTERN } from '../constants.ts';
import { idOf, numeric } from '../validators.ts';
import { teamCard } from './team-card.ts';
import { companyEndpoints, departmentsField, listClearedWhenHidden, staffScopeField } from './company.ts';

const companyCardStatusOptions = [
  { value: 'enabled', label: '启用' },
  { value: 'disabled', label: '停用' },
] as const;

/** Staff a card may list. */
export const COMPANY_CARD_MAX_MEMBERS = 500;

const memberPhoneTags = field.tags('可用员工手机号', {
  pattern: PHONE_PATTERN,
  hint: '须是 11 位手机号',
  help: `成员范围为“指定人员”时，这些在职员工可用本卡预订会议室和活动场地，最多 ${COMPANY_CARD_MAX_MEMBERS} 人`,
});

export const companyCard = defineResource({
  key: 'company-card',
  base: `${prefixes.card}/company-card`,
  label: '企业会议卡',
  permission: 'enterprise:teamCard',
  actions: ['page', 'save', 'edit', 'saveOrUpdate'],
  names: { saveOrUpdate: 'save-update' },
  titleField: 'cardNo',
  fields: {
    cardNo: { ...field.text('卡号', { search: 'prefix' }), form: false },
    companyId: field.reference('企业', companyEndpoints.list),
    companyName: { ...field.text('企业名称', { max: 100, search: 'like' }), form: false },
    staffScope: {
      ...staffScopeField(),
      help: '谁可以用本卡支付：全部在职员工、指定部门的在职员工，或指定人员',
    },
    departments: departmentsField(),
    teamCardId: field.reference('会议卡产品', resourcePaths(teamCard).list, {
      help: '企业购买的会议卡，决定可使用的楼宇',
    }),
    balanceFen: field.money('余额', {
      createOnly: true,
      help: '开卡时的充值金额；之后只能通过“充值”增加，预订时扣减',
    }),
    memberPhones: {
      ...memberPhoneTags,
      schema: listClearedWhenHidden(memberPhoneTags.schema),
      shownWhen: { field: 'staffScope', in: ['people'] },
    },
    monthlyCapFen: field.money('每人每月限额', {
      optional: true,
      help: '不填则不限；按自然月计算，每月 1 日起重新累计',
    }),
    validUntil: field.datetime('有效期至', { sortable: true }),
    status: field.enumeration('状态', companyCardStatusOptions),
  },
});

export const companyCardEndpoints = {
  ...resourcePaths(companyCard),
  topUp: `${companyCard.base}/top-up`,
  ledgerPage: `${companyCard.base}/ledger/page`,
  findListByPhone: `${prefixes.card}/team-card-sale/find-list-by-phone`,
} as const;

const COMPANY_CARD_MAX_TOP_UP_FEN = 100_000_000;

export const companyCardTopUpBody = z.object({
  id: idOf('企业会议卡编号必须是正整数'),
  amountFen: numeric(
    z
      .number({ error: '请填写充值金额' })
      .int('充值金额必须精确到分')
      .min(1, '充值金额必须大于 0')
      .max(COMPANY_CARD_MAX_TOP_UP_FEN, `单次充值不能超过 ${formatYuan(COMPANY_CARD_MAX_TOP_UP_FEN)}`),
  ),
  remark: z
    .string({ error: '请填写充值备注' })
    .trim()
    .min(1, '请填写充值备注')
    .max(200, '充值备注最多 200 个字符'),
});
export const companyCardTopUpLabels = { id: '企业会议卡', amountFen: '充值金额', remark: '充值备注' };

export const ledgerKindOptions = [
  { value: 'top-up', label: '充值' },
  { value: 'debit', label: '预订扣款' },
  { value: 'credit', label: '退款退回' },
] as const;
type LedgerKind = (typeof ledgerKindOptions)[number]['value'];

export interface CompanyCardLedgerRecord {
  id: number;
  kind: LedgerKind;
  /** Signed: a top-up or credit adds, a debit takes. */
  amountFen: number;
  balanceAfterFen: number;
  orderNo: string | null;
  memberPhone: string | null;
  remark: string | null;
  byName: string | null;
  at: string;
}

/** Each listed member's spending this month (debits less credits), for the detail. */
export interface CompanyCardSpending {
  phone: string;
  spentFen: number;
  /** What the cap leaves this month; null without a cap. */
  leftFen: number | null;
}

/** One card of find-list-by-phone (and of 新建订单's card list). */
export const payingCardOption = z.object({
  cardNo: z.string(),
  kind: z.enum(['team-card', 'company-card']),
  /** The meeting card's product, or the company for a company card. */
  productName: z.string(),
  balanceFen: z.number().int(),
  /** ISO 8601 with the business time zone's offset. */
  validTo: z.string(),
  /** The buildings it may pay in; null when its product is gone (no limit then, as save checks it). */
  buildingIds: z.array(z.number().int()).nullable(),
  /** Company cards with a cap: what this member may still spend this month. */
  capLeftFen: z.number().int().nullable(),
});
export type PayingCardOption = z.infer<typeof payingCardOption>;

export const companyCardMessages = {
  notFound: '企业会议卡不存在，请刷新列表后重试',
  tooManyMembers: `可用员工最多 ${COMPANY_CARD_MAX_MEMBERS} 人，请删减后再保存`,
  notListed: (cardNo: string) =>
    `该会员不是企业会议卡 ${cardNo} 可用的在职员工（未在可用员工中或已离职），请换用其他支付方式`,
  disabled: (cardNo: string) => `企业会议卡 ${cardNo} 已停用，请换用其他支付方式`,
  expired: (cardNo: string) => `企业会议卡 ${cardNo} 已过期，请换用其他支付方式`,
  otherBuilding: (cardNo: string) => `企业会议卡 ${cardNo} 不能在该楼宇使用，请换用其他支付方式`,
  balance: (cardNo: string, balanceFen: number, amountFen: number) =>
    `企业会议卡余额不足：卡 ${cardNo} 余额 ${formatYuan(balanceFen)}，本次预订需 ${formatYuan(amountFen)}，请先充值或换用其他支付方式`,
  cap: (cardNo: string, capFen: number, spentFen: number, amountFen: number) =>
    `超出每人每月限额：企业会议卡 ${cardNo} 每人每月限额 ${formatYuan(capFen)}，该会员本月已用 ${formatYuan(spentFen)}，本次预订需 ${formatYuan(amountFen)}`,
  toppedUp: (amountFen: number, balanceFen: number) =>
    `已充值 ${formatYuan(amountFen)}，当前余额 ${formatYuan(balanceFen)}`,
} as const;
