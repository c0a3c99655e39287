/**
 * 工位 (/product/seat): 办公区工位 (office-seat) and 大厅工位 (hall-seat) have one shape, declared by
 * one function. Each seat is sold as seat goods (套餐: a name, a price per day or month, a stock),
 * managed under `{base}/seat-goods/…`; both resources also import seats from Excel.
 */
import { z } from 'zod';
import { idOf, valuesOf } from '../validators.ts';
import { prefixes } from '../endpoints.ts';
import { defineResource, field, type ResourceDef } from '../resource.ts';

const seatTypeOptions = [
  { value: 'fixed', label: '固定工位' },
  { value: 'flexible', label: '灵活工位' },
] as const;

const seatStatusOptions = [
  { value: 'enabled', label: '启用' },
  { value: 'disabled', label: '停用' },
] as const;

const seatGoodsUnitOptions = [
  { value: 'day', label: '按天' },
  { value: 'month', label: '按月' },
] as const;

const statusValues = valuesOf(seatStatusOptions);

function defineSeat<const K extends string>(key: K, label: string) {
  return defineResource({
    key,
    base: `${prefixes.building}/${key}`,
    label,
    permission: 'product:seat',
    actions: ['page', 'detail', 'save', 'edit', 'remove', 'editPublished'],
    fields: {
      buildingId: field.reference('楼宇', `${prefixes.building}/building/list`),
      floor: {
        ...field.text('楼层', { max: 20, optional: true }),
        help: '须是所选楼宇的楼层之一，如 8F；楼宇未设楼层时可不填',
      },
      code: {
        ...field.text('工位编号', { max: 30, search: 'like', unique: true, uniqueWithin: 'buildingId' }),
        sortable: true,
        help: '同一楼宇内不可重复，如 A区-01',
      },
      name: field.text('工位名称', { max: 50, search: 'like' }),
      seatType: field.enumeration('工位类型', seatTypeOptions),
      dayPriceFen: { ...field.money('日租价格', { optional: true }), help: '日租价格与月租价格至少填一项' },
      monthPriceFen: field.money('月租价格', { optional: true }),
      status: {
        ...field.enumeration('状态', seatStatusOptions),
        schema: z.enum(statusValues, { error: '请选择状态' }).default('enabled'),
      },
      published: field.published(),
    },
  });
}

export const officeSeat = defineSeat('office-seat', '办公区工位');
export const hallSeat = defineSeat('hall-seat', '大厅工位');
export type SeatResource = typeof officeSeat | typeof hallSeat;

/** The two tabs of the page, in order. */
export const seatResources = [officeSeat, hallSeat] as const;

/** Why a seat is refused (the server's messages). */
export const seatMessages = {
  priceRequired: '日租价格：日租价格与月租价格至少填写一项',
} as const;

// ---- Seat goods (套餐) ----

export const seatGoodsFields = {
  name: { ...field.text('套餐名称', { max: 50 }), help: '如 日租套餐、包月套餐' },
  priceFen: field.money('价格'),
  unit: field.enumeration('计价单位', seatGoodsUnitOptions),
  stock: field.integer('库存', { max: 100_000 }),
  enabled: {
    label: '启用',
    kind: 'boolean' as const,
    schema: z.boolean({ error: '启用必须是是或否' }).default(true),
  },
};

const goodsId = (label: string) => idOf(`${label}必须是正整数`);

/** Body of seat-goods/save: creates goods of `seatId`, or updates the goods `id` when given. */
export const seatGoodsSave = z.object({
  id: goodsId('套餐编号').optional(),
  seatId: goodsId('工位编号').optional(),
  name: seatGoodsFields.name.schema,
  priceFen: seatGoodsFields.priceFen.schema,
  unit: seatGoodsFields.unit.schema,
  stock: seatGoodsFields.stock.schema.default(0),
  enabled: seatGoodsFields.enabled.schema,
});

/** Body of seat-goods/enabled. */
export const seatGoodsEnabled = z.object({
  id: goodsId('套餐编号'),
  enabled: z.boolean({ error: '启用必须是是或否' }),
});

/** Seat goods as answered. */
export const seatGoodsRecord = z.object({
  id: z.number().int(),
  seatId: z.number().int(),
  name: z.string(),
  priceFen: z.number().int(),
  unit: z.enum(['day', 'month']),
  stock: z.number().int(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SeatGoods = z.infer<typeof seatGoodsRecord>;

/** Chinese labels of the seat-goods bodies, for messages naming a field. */
export const seatGoodsLabels: Record<string, string> = {
  id: '套餐编号',
  seatId: '工位编号',
  ...Object.fromEntries(Object.entries(seatGoodsFields).map(([k, f]) => [k, f.label])),
};

/** The seat-goods endpoints of a seat resource (the API's fixed names). */
export const seatGoodsPaths = (def: Pick<ResourceDef, 'base'>) => ({
  /** GET `…/detail/{seatId}`: the goods of one seat. */
  detail: `${def.base}/seat-goods/detail`,
  /** POST: create, or update when the body has an id. */
  save: `${def.base}/seat-goods/save`,
  /** PUT `{id, enabled}`. */
  enabled: `${def.base}/seat-goods/enabled`,
  /** DELETE `…/remove/{id}`. */
  remove: `${def.base}/seat-goods/remove`,
  /** GET: the distinct goods names in use, for the name input's suggestions. */
  name: `${def.base}/seat-goods/name`,
});

export const seatGoodsMessages = {
  notFound: '该套餐不存在或已被删除，请刷新后重试',
  seatRequired: '工位编号：请指定套餐所属的工位',
  duplicate: '该工位下已有同名套餐，请换一个套餐名称',
} as const;
