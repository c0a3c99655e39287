/**
 * One order as the console shows it: the row with the product as sold (`present`, also the page's),
 * the detail with its status timeline, and loading one by id within the caller's reach.
 */
import { and, asc, desc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { resourceMessages } from '@cowork/contract';
import { snapshotOrderFields, type OrderDetail, type OrderResource } from '@cowork/contract/resources/order';
import type { Executor } from '../../db/client.ts';
import { orderEvents, orders, ssoUsers } from '../../db/schema.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import type { RowOf } from '../../lib/crud.ts';
import { notFound } from '../../lib/http.ts';
import { toIso, toIsoOrNull, withIsoTimes } from '../../lib/time.ts';

type Order = typeof orders.$inferSelect;
type Row = RowOf<typeof orders, OrderResource['fields']>;

/**
 * The product name, building name and an airport order's airport, terminal and lounge shown in
 * lists come from the product as sold. Set on the row itself, which is this request's own: copying
 * a row of forty columns cost more than the rest of the page's work on it.
 */
export function present(row: Row) {
  const snapshot = row.productSnapshot;
  return Object.assign(row, {
    productName: snapshot.name ?? null,
    buildingName: snapshot.buildingName ?? null,
    airportCode: snapshot.airportCode ?? null,
    terminal: snapshot.terminal ?? null,
    loungeName: snapshot.loungeName ?? null,
  } satisfies Record<(typeof snapshotOrderFields)[number], string | null> & Record<string, string | null>);
}

/** An order as its detail shows it: the status timeline, the card that paid it, a card's bookings. */
export async function orderDetailOf(resource: OrderResource, db: Executor, order: Order) {
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
export async function loadOrder(
  resource: OrderResource,
  db: Executor,
  id: number,
  request: FastifyRequest,
): Promise<Order> {
  const [order] = await db
    .select()
    .from(orders)
    .where(
      and(eq(orders.id, id), eq(orders.kind, resource.kind), inKeyBuildings(request, orders.buildingId)),
    );
  if (!order) throw notFound(resourceMessages.notFound(resource));
  return order;
}
