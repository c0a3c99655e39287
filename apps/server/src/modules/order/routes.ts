/**
 * Orders: one function serves an order resource by kind (page from the declaration through
 * crudModule; detail with the status timeline, card-no lookup, edit-referrer-phone and the state
 * actions). A new kind of order is one more line at the bottom.
 */
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  fieldInvalid,
  labelsOf,
  messages,
  resourceMessages,
  formatYuan,
  keysOf,
  resourcePermissions,
  type Field,
} from '@cowork/contract';
import {
  orderStates,
  orderActionBody,
  orderActionPermission,
  orderActions,
  orderDetail,
  orderPaths,
  orderStatusOptions,
  payMethodOptions,
  referrerPhoneBody,
  snapshotOrderFields,
  writableOrders,
  type OrderAction,
  type OrderDetail,
  type OrderResource,
} from '@cowork/contract/resources/order';
import type { Executor } from '../../db/client.ts';
import { orderEvents, orders, ssoUsers } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { moveRecord } from '../../lib/state.ts';
import { crudModule, exportRoute, type RowOf } from '../../lib/crud.ts';
import { assertNotInvoiced } from './invoice-guard.ts';
import { labelOf, businessTime, yuanColumn, type ExcelColumn } from '../../lib/excel-export.ts';
import { badRequest, envelope, notFound, ok, queryText } from '../../lib/http.ts';
import { toIso, toIsoOrNull, withIsoTimes } from '../../lib/time.ts';
import { actorOf, creditCompanyCard } from '../company-card/ledger.ts';
import { giveBack } from './activity-sale.ts';
import { bookingTimes, restoreCard } from './booking.ts';
import { saveRoutes } from './save.ts';
import { recordOrderMoved } from './webhook-events.ts';
import { staffActor } from '../../device-link/actors.ts';

type Order = typeof orders.$inferSelect;
type Row = RowOf<typeof orders, OrderResource['fields']>;

/**
 * The product name, building name and an airport order's airport, terminal and lounge shown in
 * lists come from the product as sold. Set on the row itself, which is this request's own: copying
 * a row of forty columns cost more than the rest of the page's work on it.
 */
function present(row: Row) {
  const snapshot = row.productSnapshot;
  return Object.assign(row, {
    productName: snapshot.name ?? null,
    buildingName: snapshot.buildingName ?? null,
    airportCode: snapshot.airportCode ?? null,
    terminal: snapshot.terminal ?? null,
    loungeName: snapshot.loungeName ?? null,
  } satisfies Record<(typeof snapshotOrderFields)[number], string | null> & Record<string, string | null>);
}

/** The column a move stamps with its time. */
const stampOf = {
  paid: 'paidAt',
  used: 'usedAt',
  cancelled: 'cancelledAt',
  refunded: 'refundedAt',
} as const;

/**
 * What paying sets besides the status: the amount paid, and for card orders the card itself
 * (number, validity from the product's validDays, a meeting card's face value as balance).
 * SQL expressions, so the move stays one UPDATE.
 */
const paySet = (resource: OrderResource) => ({
  paidFen: sql`${orders.amountFen} - ${orders.discountFen}`,
  payMethod: sql`coalesce(${orders.payMethod}, 'offline')`,
  ...(resource.card
    ? {
        cardNo: sql`coalesce(${orders.cardNo}, 'K' || ${orders.orderNo})`,
        validFrom: sql`now()`,
        validTo: sql`now() + coalesce((${orders.productSnapshot} ->> 'validDays')::int, 0) * interval '1 day'`,
        balanceFen:
          resource.kind === 'team-card'
            ? sql`(${orders.productSnapshot} ->> 'faceValueFen')::int`
            : sql`${orders.balanceFen}`,
      }
    : {}),
});

/**
 * The columns of an order export: the listed snapshot fields (an airport order's airport, terminal
 * and lounge) in place of the building when it is not listed, the period when it is listed; card
 * orders add the card, meeting cards their balance.
 */
function exportColumns(resource: OrderResource): ExcelColumn<Order>[] {
  const snapshot = (order: Order) => order.productSnapshot;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const listed = (key: keyof OrderResource['fields']) => {
    const field: Field = resource.fields[key];
    return field.list !== false;
  };
  return [
    { header: '订单号', value: (o) => o.orderNo, width: 22 },
    { header: '会员手机号', value: (o) => o.memberPhone, width: 14 },
    { header: '产品', value: (o) => text(snapshot(o).name), width: 24 },
    ...snapshotOrderFields.filter(listed).map((key) => ({
      header: resource.fields[key].label,
      value: (o: Order) => text(snapshot(o)[key]),
      width: 16,
    })),
    ...(listed('buildingName')
      ? [{ header: '楼宇', value: (o: Order) => text(snapshot(o).buildingName), width: 20 }]
      : []),
    { header: '数量', value: (o) => o.quantity, width: 8 },
    // Bookings have their period as one 预订时段 column below.
    ...(listed('startAt') && !resource.booking
      ? [
          { header: '开始时间', value: (o: Order) => businessTime(o.startAt), width: 20 },
          { header: '结束时间', value: (o: Order) => businessTime(o.endAt), width: 20 },
        ]
      : []),
    yuanColumn('订单金额(元)', (o) => o.amountFen),
    yuanColumn('优惠(元)', (o) => o.discountFen),
    yuanColumn('实付(元)', (o) => o.paidFen),
    { header: '支付方式', value: (o) => labelOf(payMethodOptions, o.payMethod) },
    { header: '状态', value: (o) => labelOf(orderStatusOptions, o.status), width: 10 },
    ...(resource.booking
      ? [
          {
            header: '预订时段',
            value: (o: Order) => (o.startAt && o.endAt ? bookingTimes(o.startAt, o.endAt) : null),
            width: 26,
          },
        ]
      : []),
    { header: '推荐人手机号', value: (o) => o.referrerPhone, width: 14 },
    { header: '下单时间', value: (o) => businessTime(o.createdAt), width: 20 },
    { header: '支付时间', value: (o) => businessTime(o.paidAt), width: 20 },
    ...(resource.card
      ? [
          { header: '卡号', value: (o: Order) => o.cardNo, width: 22 },
          { header: '生效时间', value: (o: Order) => businessTime(o.validFrom), width: 20 },
          { header: '到期时间', value: (o: Order) => businessTime(o.validTo), width: 20 },
        ]
      : []),
    ...(resource.kind === 'team-card' ? [yuanColumn<Order>('余额(元)', (o) => o.balanceFen)] : []),
    { header: '备注', value: (o) => o.remark, width: 30 },
  ];
}

/**
 * What a move needs besides the order's status. `where` joins the move's UPDATE, so it holds under
 * concurrent requests; when the UPDATE finds nothing and the status was right, the first guard
 * whose `holds` fails on the stored order words the 409. Refund's list is where further rules go
 * (e.g. the invoice module's "an order with an invoice cannot be refunded": invoice_id is null).
 */
interface MoveGuard {
  where: SQL;
  holds: (order: Order) => boolean;
  refusal: (tx: Executor, order: Order) => Promise<string>;
}

const faceValueOf = (order: Order) => order.productSnapshot.faceValueFen ?? 0;

/**
 * Refunding a meeting card: only while its balance is untouched (the face value; no booking it
 * paid is still holding money from it, a used one never gives it back). Staff refund the card's
 * bookings first, which restores the balance, then the card; the card's balance becomes 0. So the
 * amount refunded is never more than what is left on the card, and a concurrent booking either
 * takes its balance first (the refund is refused) or finds the card refunded (the booking is).
 */
const untouchedBalance: MoveGuard = {
  where: sql`(${orders.balanceFen} is null or ${orders.balanceFen} >= (${orders.productSnapshot} ->> 'faceValueFen')::int)`,
  holds: (order) => order.balanceFen === null || order.balanceFen >= faceValueOf(order),
  refusal: async (tx, order) => {
    const active = await tx
      .select({ orderNo: orders.orderNo })
      .from(orders)
      .where(and(eq(orders.cardOrderId, order.id), eq(orders.status, 'paid')))
      .orderBy(asc(orders.id))
      .limit(3);
    const holders = active.length
      ? `仍有其支付的预订（${active.map((o) => o.orderNo).join('、')}）未退款，请先退款这些预订`
      : '余额已用于已使用的预订，不能整卡退款';
    return `会议卡 ${order.cardNo ?? order.orderNo} 余额 ${formatYuan(order.balanceFen ?? 0)}，低于面值 ${formatYuan(faceValueOf(order))}：${holders}`;
  },
};

function guardsOf(resource: OrderResource, action: OrderAction): MoveGuard[] {
  if (action === 'refund') return resource.kind === 'team-card' ? [untouchedBalance] : [];
  return [];
}

export function orderModule(resource: OrderResource): FastifyPluginAsyncZod {
  const paths = orderPaths(resource);
  const permissions = resourcePermissions(resource);
  const fieldLabels = { ...labelsOf(resource), reason: '原因', cardNo: '卡号' };
  const tags = [resource.key];
  const ofKind = eq(orders.kind, resource.kind);
  const missing = () => notFound(resourceMessages.notFound(resource));
  const columns = exportColumns(resource);

  // Searched fields read from the product snapshot (an airport order's airport code), not columns.
  const snapshotSearch = snapshotOrderFields.filter((key) => resource.fields[key].search === 'eq');

  /**
   * This kind's orders, after the date-range rule (both ends or neither) and the snapshot filters;
   * page and export share it.
   */
  function kindWithin(request: FastifyRequest) {
    const createdAtFrom = queryText(request, 'createdAtFrom');
    const createdAtTo = queryText(request, 'createdAtTo');
    if (!createdAtFrom !== !createdAtTo) {
      throw badRequest(fieldInvalid(resource.fields.createdAt.label, messages.dateRangeRequired));
    }
    const snapshotConditions = snapshotSearch.flatMap((key) => {
      const value = queryText(request, key)?.trim();
      return value ? [sql`upper(${orders.productSnapshot} ->> ${key}) = upper(${value})`] : [];
    });
    return snapshotConditions.length ? and(ofKind, ...snapshotConditions)! : ofKind;
  }

  const page = crudModule({
    resource,
    table: orders,
    present,
    where: kindWithin,
    buildingColumn: orders.buildingId,
  });

  async function detailOf(db: Executor, order: Order) {
    const events = await db
      .select({
        id: orderEvents.id,
        fromStatus: orderEvents.fromStatus,
        toStatus: orderEvents.toStatus,
        actorName: ssoUsers.nickname,
        reason: orderEvents.reason,
        at: orderEvents.at,
      })
      .from(orderEvents)
      .leftJoin(ssoUsers, eq(ssoUsers.id, orderEvents.actorId))
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(asc(orderEvents.at), asc(orderEvents.id));
    // A booking names the meeting card that paid it; a meeting card lists the bookings it paid.
    const [paidByCard] = order.cardOrderId
      ? await db
          .select({ id: orders.id, orderNo: orders.orderNo, cardNo: orders.cardNo })
          .from(orders)
          .where(eq(orders.id, order.cardOrderId))
      : [];
    const cardBookings =
      resource.kind === 'team-card'
        ? (
            await db
              .select()
              .from(orders)
              .where(eq(orders.cardOrderId, order.id))
              .orderBy(desc(orders.createdAt), desc(orders.id))
              .limit(100)
          ).map((b) => ({
            id: b.id,
            kind: b.kind,
            orderNo: b.orderNo,
            productName: b.productSnapshot.name ?? null,
            startAt: toIsoOrNull(b.startAt),
            endAt: toIsoOrNull(b.endAt),
            paidFen: b.paidFen,
            status: b.status,
          }))
        : null;
    const detail: OrderDetail = {
      ...withIsoTimes(present(order)),
      events: events.map((e) => ({ ...e, at: toIso(e.at) })),
      paidByCard: paidByCard ?? null,
      cardBookings,
    };
    return detail;
  }

  /** An order of this kind the caller may reach (an API key: in its buildings), else 404. */
  async function load(db: Executor, id: number, request: FastifyRequest): Promise<Order> {
    const [order] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.id, id), ofKind, inKeyBuildings(request, orders.buildingId)));
    if (!order) throw missing();
    return order;
  }

  /**
   * Moves an order (lib/state.ts): one UPDATE guarded by the statuses it may leave and the move's
   * own guards, so of two concurrent moves only one finds the order still movable; the other gets
   * the 409.
   */
  async function move(request: FastifyRequest, action: OrderAction, id: number, reason: string | null) {
    const { to, from } = orderActions[action];
    const guards = guardsOf(resource, action);
    let movedOrder: Order | undefined;
    const answer = await request.server.db.transaction(async (tx) => {
      if (action === 'refund') await assertNotInvoiced(tx, id);
      const moved = await moveRecord(request, tx, {
        resource: resource.key,
        states: orderStates,
        move: action,
        status: orders.status,
        update: async (leaving) => {
          const [row] = await tx
            .update(orders)
            .set({
              status: to,
              [stampOf[to]]: new Date(),
              ...(to === 'paid' ? paySet(resource) : {}),
              // A refunded meeting card can pay for nothing more.
              ...(to === 'refunded' && resource.kind === 'team-card' ? { balanceFen: sql`0` } : {}),
              updatedAt: new Date(),
              updatedBy: request.user?.id ?? null,
            })
            .where(
              and(
                eq(orders.id, id),
                ofKind,
                inKeyBuildings(request, orders.buildingId),
                leaving,
                ...guards.map((g) => g.where),
              ),
            )
            .returning();
          return row;
        },
        current: () => load(tx, id, request),
        refusal: (current) => guards.find((g) => !g.holds(current))?.refusal(tx, current),
        audited: () => ({ reason }),
      });
      // A booking paid from a 企业会议卡 credits the card back, as a ledger row.
      if (to === 'refunded' && moved.companyCardId !== null && moved.paidFen > 0) {
        await creditCompanyCard(tx, moved.companyCardId, {
          kind: 'credit',
          amountFen: moved.paidFen,
          orderId: moved.id,
          memberPhone: moved.memberPhone,
          remark: `退款 ${moved.orderNo}${reason ? `：${reason}` : ''}`,
          ...actorOf(request),
        });
      }
      // A card sold in a 会议卡活动 gives its one back to the stock.
      if (to === 'cancelled' || to === 'refunded') await giveBack(tx, moved);
      // A booking paid from a meeting card gives the amount back to the card in the same transaction.
      if (
        to === 'refunded' &&
        moved.cardOrderId !== null &&
        moved.payMethod === 'card' &&
        moved.paidFen > 0
      ) {
        const card = await restoreCard(tx, moved.cardOrderId, moved.paidFen);
        await audit(
          request,
          {
            action: 'balance-restore',
            resource: 'team-card-order',
            resourceId: moved.cardOrderId,
            after: {
              bookingOrderNo: moved.orderNo,
              restoredFen: moved.paidFen,
              balanceFen: card?.balanceFen,
            },
          },
          tx,
        );
      }
      // The status before this move: the only one it may leave (each action leaves one).
      await tx.insert(orderEvents).values({
        orderId: id,
        fromStatus: from[0],
        toStatus: to,
        actorId: request.user?.id ?? null,
        reason,
      });
      await recordOrderMoved(tx, moved);
      movedOrder = moved;
      return detailOf(tx, moved);
    });
    if (movedOrder) request.server.devices.orderChanged(movedOrder, staffActor(request));
    return answer;
  }

  return async (app: FastifyInstance) => {
    await app.register(page);
    if (resource.save) await app.register(saveRoutes(resource, paySet, detailOf));
    const r = app.withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>();
    const answer = { 200: envelope(orderDetail) };

    r.get(
      `${paths.detail}/:id`,
      {
        config: { permission: permissions.view, fieldLabels },
        schema: {
          tags,
          summary: `${resource.label}详情（含产品快照与状态记录）`,
          params: z.object({ id: orderActionBody.shape.id }),
          response: answer,
        },
      },
      async (request) => ok(await detailOf(app.db, await load(app.db, request.params.id, request))),
    );

    exportRoute(app, {
      resource,
      path: paths.export,
      table: orders,
      columns,
      config: { permission: permissions.view, fieldLabels },
      where: kindWithin,
      buildingColumn: orders.buildingId,
    });

    // A read-only kind (airport) stops at page, detail and export.
    if (resource.readOnly) return;

    if (resource.card) {
      r.get(
        `${paths.cardNo}/:cardNo`,
        {
          config: { permission: permissions.view, fieldLabels },
          schema: {
            tags,
            summary: `按卡号查${resource.label}`,
            params: z.object({
              cardNo: z.string().trim().min(1, '请填写卡号').max(40, '卡号最多 40 个字符'),
            }),
            response: answer,
          },
        },
        async (request) => {
          const [order] = await app.db
            .select()
            .from(orders)
            .where(
              and(
                eq(orders.cardNo, request.params.cardNo),
                ofKind,
                inKeyBuildings(request, orders.buildingId),
              ),
            );
          if (!order) throw notFound(`卡号为 ${request.params.cardNo} 的${resource.label}不存在，请核对卡号`);
          return ok(await detailOf(app.db, order));
        },
      );
    }

    r.put(
      paths.editReferrerPhone,
      {
        config: { permission: permissions.edit, fieldLabels },
        schema: {
          tags,
          summary: `修改${resource.label}的推荐人手机号`,
          body: referrerPhoneBody,
          response: answer,
        },
      },
      async (request) => {
        const { id, referrerPhone } = request.body;
        return ok(
          await app.db.transaction(async (tx) => {
            const existing = await load(tx, id, request);
            const [saved] = await tx
              .update(orders)
              .set({ referrerPhone, updatedAt: new Date(), updatedBy: request.user?.id ?? null })
              .where(eq(orders.id, id))
              .returning();
            await audit(
              request,
              {
                action: 'edit-referrer-phone',
                resource: resource.key,
                resourceId: id,
                before: { referrerPhone: existing.referrerPhone },
                after: { referrerPhone },
              },
              tx,
            );
            return detailOf(tx, saved);
          }),
        );
      },
    );

    for (const action of keysOf(orderActions)) {
      r.put(
        paths[action],
        {
          config: { permission: orderActionPermission(resource, action), fieldLabels },
          schema: {
            tags,
            summary: `${orderActions[action].label}（${resource.label}）`,
            body: orderActionBody,
            response: answer,
          },
        },
        async (request) => ok(await move(request, action, request.body.id, request.body.reason)),
      );
    }
  };
}

const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const resource of writableOrders) await app.register(orderModule(resource));
};

export default orderRoutes;
