/**
 * Orders: one function serves an order resource by kind (page from the declaration through
 * crudModule; detail with the status timeline (detail.ts), card-no lookup, edit-referrer-phone, the
 * state actions (moves.ts), export (export-columns.ts) and 新建订单 (save.ts)). A new kind of order
 * is one more line at the bottom.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldInvalid, labelsOf, messages, keysOf, resourcePermissions } from '@cowork/contract';
import {
  orderActionBody,
  orderActionPermission,
  orderActions,
  orderDetail,
  orderPaths,
  referrerPhoneBody,
  snapshotOrderFields,
  writableOrders,
  type OrderResource,
} from '@cowork/contract/resources/order';
import type { Executor } from '../../db/client.ts';
import { orders } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { crudModule, exportRoute } from '../../lib/crud.ts';
import { badRequest, envelope, notFound, ok, queryText } from '../../lib/http.ts';
import { loadOrder, orderDetailOf, present } from './detail.ts';
import { exportColumns } from './export-columns.ts';
import { moveOrder, paySet } from './moves.ts';
import { saveRoutes } from './save.ts';

type Order = typeof orders.$inferSelect;

export function orderModule(resource: OrderResource): FastifyPluginAsyncZod {
  const paths = orderPaths(resource);
  const permissions = resourcePermissions(resource);
  const fieldLabels = { ...labelsOf(resource), reason: '原因', cardNo: '卡号' };
  const tags = [resource.key];
  const ofKind = eq(orders.kind, resource.kind);
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

  const detailOf = (db: Executor, order: Order) => orderDetailOf(resource, db, order);
  const load = (db: Executor, id: number, request: FastifyRequest) => loadOrder(resource, db, id, request);

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
        async (request) =>
          ok(await moveOrder(resource, request, action, request.body.id, request.body.reason)),
      );
    }
  };
}

const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const resource of writableOrders) await app.register(orderModule(resource));
};

export default orderRoutes;
