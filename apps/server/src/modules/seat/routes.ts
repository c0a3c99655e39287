/**
 * 工位: 办公区工位 (office-seat) and 大厅工位 (hall-seat), registered by one function: the declared
 * CRUD with the building and floor checks, the seat goods (套餐) of each seat under
 * `{base}/seat-goods/…`, and the Excel import. A seat's goods go with it when it is removed.
 */
import { and, asc, eq, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { labelsOf, resourceMessages, resourcePermissions, idOf } from '@cowork/contract';
import {
  hallSeat,
  officeSeat,
  seatGoodsEnabled,
  seatGoodsLabels,
  seatGoodsMessages,
  seatGoodsPaths,
  seatGoodsRecord,
  seatGoodsSave,
  seatMessages,
  type SeatResource,
} from '@cowork/contract/resources/seat';
import type { Executor } from '../../db/client.ts';
import { hallSeatGoods, hallSeats, officeSeatGoods, officeSeats } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import {
  checkBuildingFloor,
  FLOOR_REQUIRED_WHEN,
  floorsNote,
  inKeyBuildings,
  sampleFloor,
} from '../../lib/building-scope.ts';
import { soldProduct } from '../../lib/in-use.ts';
import {
  crudModule,
  valueAfterWrite,
  type CrudOptions,
  type ValuesOf,
  type WriteContext,
} from '../../lib/crud.ts';
import { excelImportRoutes } from '../../lib/excel-import.ts';
import { badRequest, conflict, envelope, notFound, ok } from '../../lib/http.ts';
import { toIso } from '../../lib/time.ts';

type SeatTable = typeof officeSeats;
type GoodsTable = typeof officeSeatGoods;

/**
 * The building must exist; when it has floors the seat names one of them; a seat is priced by the
 * day, the month or both.
 */
async function prepareSeat(values: ValuesOf<SeatTable>, { tx, existing }: WriteContext<SeatTable>) {
  await checkBuildingFloor(
    tx,
    {
      buildingId: valueAfterWrite('buildingId', values, existing),
      floor: valueAfterWrite('floor', values, existing),
    },
    labelsOf(officeSeat),
  );
  const priced = (['dayPriceFen', 'monthPriceFen'] as const).some(
    (key) => valueAfterWrite(key, values, existing) !== null,
  );
  if (!priced) throw badRequest(seatMessages.priceRequired);
  return values;
}

const serializeGoods = (row: GoodsTable['$inferSelect']) => ({
  id: row.id,
  seatId: row.seatId,
  name: row.name,
  priceFen: row.priceFen,
  unit: row.unit,
  stock: row.stock,
  enabled: row.enabled,
  createdAt: toIso(row.createdAt),
  updatedAt: toIso(row.updatedAt),
});

/** The CRUD, seat goods and Excel import of one seat resource. */
function seatRoutes(resource: SeatResource, seats: SeatTable, goods: GoodsTable): FastifyPluginAsyncZod {
  const goodsResource = `${resource.key}-goods`;
  const permissions = resourcePermissions(resource);
  const paths = seatGoodsPaths(resource);
  const tags = [resource.key];
  const options: CrudOptions<SeatResource['fields'], SeatTable> = {
    resource,
    table: seats,
    buildingColumn: seats.buildingId,
    prepare: prepareSeat,
    inUse: soldProduct(resource.key, resource.label),
    async beforeRemove(rows, { request, tx }) {
      // The goods go with their seat (the foreign key cascades); each is recorded as removed.
      for (const row of rows) {
        for (const item of await tx.select().from(goods).where(eq(goods.seatId, row.id))) {
          await audit(
            request,
            { action: 'remove', resource: goodsResource, resourceId: item.id, before: item },
            tx,
          );
        }
      }
    },
  };

  // A seat or its goods in another building than an API key's is missing (lib/building-scope.ts).
  async function loadSeat(tx: Executor, id: number, request: FastifyRequest) {
    const [seat] = await tx
      .select({ id: seats.id })
      .from(seats)
      .where(and(eq(seats.id, id), inKeyBuildings(request, seats.buildingId)));
    if (!seat) throw notFound(resourceMessages.notFound(resource));
    return seat;
  }
  async function loadGoods(tx: Executor, id: number, request: FastifyRequest) {
    const [row] = await tx.select().from(goods).where(eq(goods.id, id));
    if (!row) throw notFound(seatGoodsMessages.notFound);
    await loadSeat(tx, row.seatId, request).catch(() => {
      throw notFound(seatGoodsMessages.notFound);
    });
    return row;
  }

  return async (app) => {
    await app.register(crudModule(options));
    await app.register(
      excelImportRoutes({
        ...options,
        notes: { floor: floorsNote },
        sample: { floor: sampleFloor },
        requiredWhen: { floor: FLOOR_REQUIRED_WHEN },
        example: {
          code: 'A区-01',
          name: '靠窗固定工位',
          seatType: '固定工位',
          dayPriceFen: 88,
          monthPriceFen: 1500,
          status: '启用',
          published: '否',
        },
      }),
    );

    app.get(
      `${paths.detail}/:seatId`,
      {
        config: { permission: permissions.view, fieldLabels: { seatId: '工位编号' } },
        schema: {
          tags,
          summary: `${resource.label}的套餐`,
          params: z.object({ seatId: idOf('工位编号必须是正整数') }),
          response: { 200: envelope(z.array(seatGoodsRecord)) },
        },
      },
      async (request) => {
        await loadSeat(app.db, request.params.seatId, request);
        const rows = await app.db
          .select()
          .from(goods)
          .where(eq(goods.seatId, request.params.seatId))
          .orderBy(asc(goods.id));
        return ok(rows.map(serializeGoods));
      },
    );

    app.post(
      paths.save,
      {
        config: { permission: permissions.edit, fieldLabels: seatGoodsLabels },
        schema: {
          tags,
          summary: `新建或修改${resource.label}的套餐（有 id 时修改）`,
          body: seatGoodsSave,
          response: { 200: envelope(seatGoodsRecord) },
        },
      },
      async (request) => {
        const { id, seatId: givenSeatId, ...values } = request.body;
        const saved = await app.db.transaction(async (tx) => {
          const existing = id !== undefined ? await loadGoods(tx, id, request) : undefined;
          // Goods stay with their seat: an update never moves them.
          const seatId = existing?.seatId ?? givenSeatId;
          if (seatId === undefined) throw badRequest(seatGoodsMessages.seatRequired);
          await loadSeat(tx, seatId, request);
          const [clash] = await tx
            .select({ id: goods.id })
            .from(goods)
            .where(
              and(
                eq(goods.seatId, seatId),
                eq(goods.name, values.name),
                existing ? ne(goods.id, existing.id) : undefined,
              ),
            );
          if (clash) throw conflict(seatGoodsMessages.duplicate);
          const by = request.user?.id ?? null;
          const [row] = existing
            ? await tx
                .update(goods)
                .set({ ...values, updatedAt: new Date(), updatedBy: by })
                .where(eq(goods.id, existing.id))
                .returning()
            : await tx
                .insert(goods)
                .values({ ...values, seatId, createdBy: by, updatedBy: by })
                .returning();
          await audit(
            request,
            {
              action: existing ? 'edit' : 'save',
              resource: goodsResource,
              resourceId: row.id,
              before: existing ?? null,
              after: row,
            },
            tx,
          );
          return row;
        });
        return ok(serializeGoods(saved));
      },
    );

    app.put(
      paths.enabled,
      {
        config: { permission: permissions.edit, fieldLabels: seatGoodsLabels },
        schema: {
          tags,
          summary: `启用或停用${resource.label}的套餐`,
          body: seatGoodsEnabled,
          response: { 200: envelope(seatGoodsRecord) },
        },
      },
      async (request) => {
        const { id, enabled } = request.body;
        const saved = await app.db.transaction(async (tx) => {
          const existing = await loadGoods(tx, id, request);
          const [row] = await tx
            .update(goods)
            .set({ enabled, updatedAt: new Date(), updatedBy: request.user?.id ?? null })
            .where(eq(goods.id, id))
            .returning();
          await audit(
            request,
            {
              action: enabled ? 'enable' : 'disable',
              resource: goodsResource,
              resourceId: id,
              before: { enabled: existing.enabled },
              after: { enabled },
            },
            tx,
          );
          return row;
        });
        return ok(serializeGoods(saved), enabled ? '套餐已启用' : '套餐已停用');
      },
    );

    app.delete(
      `${paths.remove}/:id`,
      {
        config: { permission: permissions.remove, fieldLabels: seatGoodsLabels },
        schema: {
          tags,
          summary: `删除${resource.label}的套餐`,
          params: z.object({ id: idOf('套餐编号必须是正整数') }),
          response: { 200: envelope(z.object({ removed: z.number().int() })) },
        },
      },
      async (request) => {
        await app.db.transaction(async (tx) => {
          const existing = await loadGoods(tx, request.params.id, request);
          await tx.delete(goods).where(eq(goods.id, existing.id));
          await audit(
            request,
            { action: 'remove', resource: goodsResource, resourceId: existing.id, before: existing },
            tx,
          );
        });
        return ok({ removed: 1 }, resourceMessages.removed(1));
      },
    );

    app.get(
      paths.name,
      {
        config: { permission: permissions.view },
        schema: {
          tags,
          summary: `${resource.label}在用的套餐名称（名称输入的候选）`,
          response: { 200: envelope(z.array(z.string())) },
        },
      },
      async () => {
        const rows = await app.db
          .selectDistinct({ name: goods.name })
          .from(goods)
          .orderBy(asc(goods.name))
          .limit(200);
        return ok(rows.map((r) => r.name));
      },
    );
  };
}

export const seatModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(seatRoutes(officeSeat, officeSeats, officeSeatGoods));
  await app.register(seatRoutes(hallSeat, hallSeats, hallSeatGoods));
};

export default seatModule;
