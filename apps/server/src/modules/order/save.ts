/**
 * Back-office order creation (新建订单) for offline sales: `POST {base}/save` and the products it
 * may sell (`GET {base}/save/products`). The member must exist; the product must exist, be
 * published and sell in the building. A card order is pending, or paid when staff took the money
 * (paying it the same way the pay action does); a booking follows the room's rules (booking.ts)
 * and may be paid from a meeting card of the same member, which `GET {base}/save/cards` lists.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { fieldInvalid, keysOf, resourcePermissions } from '@cowork/contract';
import {
  calendarBooking,
  calendarQuery,
  cardActivitiesQuery,
  cardActivityOption,
  payingCardOption,
  memberCardsQuery,
  orderDetail,
  type OrderDetail,
  orderPaths,
  orderProductOption,
  orderSaveBody,
  orderSaveLabels,
  type OrderResource,
  type OrderSaveBody,
} from '@cowork/contract/resources/order';
import type { Executor } from '../../db/client.ts';
import { buildings, members, orderEvents, orders, teamCards, userCards } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { assertInKeyBuildings } from '../../lib/building-scope.ts';
import { badRequest, envelope, ok } from '../../lib/http.ts';
import {
  bookingPriceFen,
  calendarBookings,
  checkBookingTimes,
  checkNoClash,
  deductCard,
  lockStation,
  bookingKinds,
} from './booking.ts';
import { actorOf, companyCardByNo, debitCompanyCard, payingCards } from '../company-card/ledger.ts';
import { sellingActivities, takeActivityStock } from './activity-sale.ts';
import { formatOrderNo, reserveOrderIds } from './order-number.ts';
import { cardTables, saleProducts } from './save-products.ts';
import { stationSnapshot, teamCardSnapshot, userCardSnapshot } from './snapshot.ts';
import { recordOrderCreated } from './webhook-events.ts';
import { staffActor } from '../../device-link/actors.ts';

type Order = typeof orders.$inferSelect;
type NewOrder = typeof orders.$inferInsert;

const labels = orderSaveLabels;
const invalid = (key: keyof typeof labels, why: string) => badRequest(fieldInvalid(labels[key], why));

/** What is sold: price, where, and the snapshot kept on the order. */
interface Sellable {
  name: string;
  published: boolean;
  buildingIds: number[];
  priceFen: number;
  /** The product as sold in that building. */
  snapshot: (buildingName: string | null) => Record<string, unknown>;
}

async function cardProduct(
  tx: Executor,
  kind: 'user-card' | 'team-card',
  id: number,
): Promise<Sellable | undefined> {
  if (kind === 'user-card') {
    const [card] = await tx.select().from(userCards).where(eq(userCards.id, id));
    return (
      card && { ...card, snapshot: (buildingName: string | null) => userCardSnapshot(card, buildingName) }
    );
  }
  const [card] = await tx.select().from(teamCards).where(eq(teamCards.id, id));
  return card && { ...card, snapshot: (buildingName: string | null) => teamCardSnapshot(card, buildingName) };
}

/** The meeting card paying a booking: the member's own, paid, unexpired, valid in the room's building. */
async function payingCard(tx: Executor, cardNo: string, memberId: number, buildingId: number) {
  const [card] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.cardNo, cardNo), eq(orders.kind, 'team-card')));
  if (!card) throw invalid('cardNo', `没有卡号为 ${cardNo} 的会议卡，请核对卡号`);
  if (card.memberId !== memberId)
    throw invalid('cardNo', `会议卡 ${cardNo} 不属于该会员，请使用会员本人的会议卡`);
  if (card.status !== 'paid')
    throw invalid('cardNo', `会议卡 ${cardNo} 当前不可用（须为已支付状态），请换用其他支付方式`);
  if (!card.validTo || card.validTo.getTime() <= Date.now()) {
    throw invalid('cardNo', `会议卡 ${cardNo} 已过期，请换用其他支付方式`);
  }
  const [product] = await tx
    .select({ buildingIds: teamCards.buildingIds })
    .from(teamCards)
    .where(eq(teamCards.id, card.productId));
  if (product && !product.buildingIds.includes(buildingId)) {
    throw invalid('cardNo', `会议卡 ${cardNo} 不能在该楼宇使用，请换用其他支付方式`);
  }
  return card;
}

/** The paying columns the pay action sets, so a sale recorded as paid reads like a paid order. */
export type PaySet = (resource: OrderResource) => Record<string, unknown>;

export function saveRoutes(
  resource: OrderResource,
  paySet: PaySet,
  detail: (db: Executor, order: Order) => Promise<OrderDetail>,
) {
  const paths = orderPaths(resource);
  const permissions = resourcePermissions(resource);
  const body = orderSaveBody(resource);
  const tags = [resource.key];
  const kind = resource.kind;
  // Which kind of product is sold: a room booked (resource.booking) or a card.
  const bookingKind = bookingKinds.find((k) => k === kind);
  const cardKind = keysOf(cardTables).find((k) => k === kind);
  const productMissing = () =>
    invalid('productId', `所选${resource.label.replace('订单', '')}不存在，请重新选择`);

  async function create(request: FastifyRequest, input: OrderSaveBody) {
    let created: Order | undefined;
    const answer = await request.server.db.transaction(async (tx) => {
      const [member] = await tx
        .select({ id: members.id, phone: members.phone, status: members.status })
        .from(members)
        .where(eq(members.phone, input.memberPhone));
      if (!member)
        throw invalid('memberPhone', `没有手机号为 ${input.memberPhone} 的会员，请核对手机号或先让会员注册`);
      if (member.status !== 'enabled')
        throw invalid('memberPhone', `会员 ${input.memberPhone} 已停用，不能下单`);

      const now = new Date();
      const [id] = await reserveOrderIds(tx, 1);
      const orderNo = formatOrderNo(kind, id, now);
      let values: Omit<NewOrder, 'id' | 'orderNo'>;
      let card: Order | undefined;
      let company: Awaited<ReturnType<typeof companyCardByNo>>;
      let balanceAfter: number | undefined;
      if (bookingKind) {
        // The room's row stays locked until commit: bookings of one room are checked one at a time.
        const station = await lockStation(tx, bookingKind, input.productId);
        if (!station) throw productMissing();
        // Another building's room (an API key limited to buildings) is one that does not exist.
        assertInKeyBuildings(request, station.buildingId, productMissing);
        if (!station.published)
          throw invalid('productId', `「${station.name}」未发布，不能预订；请先在产品管理中发布`);
        if (input.buildingId && input.buildingId !== station.buildingId) {
          throw invalid('buildingId', `「${station.name}」不在所选楼宇，请重新选择`);
        }
        const { startAt, endAt } = input;
        if (!startAt || !endAt) throw invalid('startAt', '请选择预订开始时间和结束时间');
        checkBookingTimes(station, startAt, endAt, now);
        await checkNoClash(tx, { kind: bookingKind, productId: station.id, startAt, endAt });
        const amountFen = bookingPriceFen(station.hourPriceFen, startAt, endAt);
        const [building] = await tx
          .select({ name: buildings.name })
          .from(buildings)
          .where(eq(buildings.id, station.buildingId));
        if (input.payMethod === 'card') {
          // A 企业会议卡 (the company's balance, the member listed on it) or the member's own meeting card.
          company = await companyCardByNo(tx, input.cardNo!);
          if (company) {
            balanceAfter = await debitCompanyCard(
              tx,
              company,
              {
                amountFen,
                phone: member.phone,
                buildingId: station.buildingId,
                orderId: id,
                remark: `预订 ${orderNo}`,
              },
              actorOf(request),
            );
          } else {
            card = await payingCard(tx, input.cardNo!, member.id, station.buildingId);
            balanceAfter = await deductCard(tx, card, amountFen);
          }
        }
        const paid = input.payMethod === 'card' || input.paid;
        values = {
          kind,
          memberId: member.id,
          memberPhone: member.phone,
          productId: station.id,
          productSnapshot: stationSnapshot(station, building?.name ?? null),
          buildingId: station.buildingId,
          amountFen,
          paidFen: paid ? amountFen : 0,
          payMethod: paid ? input.payMethod : null,
          status: paid ? 'paid' : 'pending',
          paidAt: paid ? now : null,
          startAt,
          endAt,
          cardOrderId: card?.id ?? null,
          companyCardId: company?.id ?? null,
        };
      } else if (cardKind) {
        const product = await cardProduct(tx, cardKind, input.productId);
        if (!product) throw productMissing();
        // A card sold in none of the key's buildings is one that does not exist.
        assertInKeyBuildings(request, product.buildingIds, productMissing);
        if (!product.published)
          throw invalid('productId', `「${product.name}」未发布，不能销售；请先在产品管理中发布`);
        if (!input.buildingId) throw invalid('buildingId', '请选择售卡楼宇');
        if (!product.buildingIds.includes(input.buildingId)) {
          throw invalid('buildingId', `「${product.name}」不在所选楼宇销售，请选择该卡适用的楼宇`);
        }
        const [building] = await tx
          .select({ name: buildings.name })
          .from(buildings)
          .where(eq(buildings.id, input.buildingId));
        // Sold in a 会议卡活动: the activity's price (the difference is the discount), from its stock.
        const activity = input.activityId
          ? await takeActivityStock(tx, {
              activityId: input.activityId,
              teamCardId: input.productId,
              memberId: member.id,
              now,
            })
          : undefined;
        const snapshot = product.snapshot(building?.name ?? null);
        values = {
          kind,
          memberId: member.id,
          memberPhone: member.phone,
          productId: input.productId,
          productSnapshot: activity ? { ...snapshot, activityTitle: activity.title } : snapshot,
          buildingId: input.buildingId,
          amountFen: product.priceFen,
          discountFen: activity ? product.priceFen - activity.discountPriceFen : 0,
          activityId: activity?.id ?? null,
          status: 'pending',
        };
      } else {
        throw new Error(`${resource.key} sells neither a booking nor a card: it has no save`);
      }

      const by = request.user?.id ?? null;
      let [order] = await tx
        .insert(orders)
        .values({
          ...values,
          id,
          orderNo,
          referrerPhone: input.referrerPhone ?? null,
          remark: input.remark,
          createdAt: now,
          createdBy: by,
          updatedBy: by,
        })
        .returning();
      if (!resource.booking && input.paid) {
        // The card itself (number, validity, a meeting card's balance) as the pay action issues it.
        [order] = await tx
          .update(orders)
          .set({ status: 'paid', paidAt: now, ...paySet(resource) })
          .where(eq(orders.id, id))
          .returning();
      }
      await tx.insert(orderEvents).values({
        orderId: id,
        fromStatus: null,
        toStatus: order.status,
        actorId: by,
        reason:
          order.status === 'paid'
            ? card
              ? `后台下单，会议卡 ${card.cardNo} 余额支付`
              : company
                ? `后台下单，企业会议卡 ${company.cardNo} 余额支付`
                : '后台下单，线下已收款'
            : '后台下单，待支付',
        at: now,
      });
      await audit(
        request,
        {
          action: 'save',
          resource: resource.key,
          resourceId: id,
          after: {
            orderNo: order.orderNo,
            memberPhone: order.memberPhone,
            productId: order.productId,
            amountFen: order.amountFen,
            status: order.status,
            payMethod: order.payMethod,
            startAt: order.startAt,
            endAt: order.endAt,
            cardOrderId: order.cardOrderId,
          },
        },
        tx,
      );
      if (card) {
        await audit(
          request,
          {
            action: 'balance-deduct',
            resource: 'team-card-order',
            resourceId: card.id,
            // Read from the guarded UPDATE itself: what the card held just before this booking.
            before: { balanceFen: (balanceAfter ?? 0) + order.paidFen },
            after: { bookingOrderNo: order.orderNo, deductedFen: order.paidFen, balanceFen: balanceAfter },
          },
          tx,
        );
      }
      await recordOrderCreated(tx, order);
      created = order;
      return detail(tx, order);
    });
    // Paid at once (a booking or card sold as paid): its doors open without waiting for anything else.
    if (created?.status === 'paid') request.server.devices.orderChanged(created, staffActor(request));
    return answer;
  }

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>();
    r.post(
      paths.save,
      {
        config: { permission: permissions.edit, fieldLabels: labels },
        schema: {
          tags,
          summary: `新建${resource.label}（后台线下下单）`,
          body,
          response: { 200: envelope(orderDetail) },
        },
      },
      async (request) => ok(await create(request, request.body)),
    );
    r.get(
      paths.products,
      {
        config: { permission: permissions.edit },
        schema: {
          tags,
          summary: `可下单的产品（${resource.label}）`,
          response: { 200: envelope(z.array(orderProductOption)) },
        },
      },
      async (request) => ok(await saleProducts(app.db, request, bookingKind, cardKind)),
    );
    if (kind === 'team-card') {
      r.get(
        paths.activities,
        {
          config: { permission: permissions.edit, fieldLabels: labels },
          schema: {
            tags,
            summary: '正在售卖该会议卡的会议卡活动（新建会议卡订单）',
            querystring: cardActivitiesQuery,
            response: { 200: envelope(z.array(cardActivityOption)) },
          },
        },
        async (request) => ok(await sellingActivities(app.db, request.query.productId)),
      );
    }
    if (bookingKind) {
      r.get(
        paths.calendar,
        {
          config: {
            permission: permissions.view,
            fieldLabels: { ...labels, from: '开始日期', to: '结束日期' },
          },
          schema: {
            tags,
            summary: `楼宇内各${resource.label.replace('订单', '')}在几天内的有效预订（预订日历）`,
            querystring: calendarQuery,
            response: { 200: envelope(z.array(calendarBooking)) },
          },
        },
        async (request) => ok(await calendarBookings(app.db, bookingKind, request.query)),
      );
      r.get(
        paths.cards,
        {
          config: { permission: permissions.edit, fieldLabels: labels },
          schema: {
            tags,
            summary: `会员可用于支付的会议卡及余额（新建${resource.label}）`,
            querystring: memberCardsQuery,
            response: { 200: envelope(z.array(payingCardOption)) },
          },
        },
        async (request) => ok(await payingCards(app.db, request.query.memberPhone)),
      );
    }
  };
}
