/**
 * 商户分账: site-type, page and total of merchant-share-order. Both page and total run one query
 * built by `shareQuery`: each paid order joined to its building's merchant and to the 分账规则 of
 * that merchant and product type in force at payment time (effectiveFrom <= paidAt < effectiveTo,
 * or no end). Rules of one merchant and type never overlap, so at most one rule joins. The share is
 * rounded once per order in SQL, and total sums those rounded shares, so it equals the rows.
 */
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  fieldInvalid,
  labelsOf,
  messages,
  pageQuerySchema,
  resourcePermissions,
  type Page,
} from '@cowork/contract';
import { shareRuleText, siteTypeOptions, type SiteType } from '@cowork/contract/resources/merchant-share';
import {
  kindsOfSiteType,
  merchantShareOrder,
  merchantShareOrderPaths as paths,
  merchantShareTotal,
  NO_SHARE_RULE,
  sharedOrderStatuses,
  siteTypeOfKind,
} from '@cowork/contract/resources/merchant-share-order';
import type { Database } from '../../db/client.ts';
import { buildings, merchantShares, merchants, orders } from '../../db/schema.ts';
import { badRequest, envelope, ok, pageOf } from '../../lib/http.ts';
import { parseTimeBound, toIso, toIsoOrNull } from '../../lib/time.ts';

const fields = merchantShareOrder.fields;
const permission = resourcePermissions(merchantShareOrder).view;
const fieldLabels = labelsOf(merchantShareOrder);
const tags = [merchantShareOrder.key];
const query = pageQuerySchema(merchantShareOrder);
type Filters = z.infer<typeof query>;

/** The order's product type, from the contract's one mapping of kinds. */
const siteTypeOfOrder = sql<SiteType>`(case ${orders.kind} ${sql.join(
  Object.entries(siteTypeOfKind).map(([kind, siteType]) => sql`when ${kind} then ${siteType}`),
  sql` `,
)} end)`;

/** round(paidFen × ratio / 10000) half up in numeric arithmetic; 0 without a rule. */
const shareFen = sql<number>`coalesce(round(${orders.paidFen}::numeric * ${merchantShares.ratioBasisPoints} / 10000), 0)::bigint`;

/** The conditions of the filters; a date range needs both ends or neither (请选择时间段). */
function conditions(filters: Filters): SQL[] {
  const { paidAtFrom, paidAtTo, orderNo, siteType, merchantId, buildingId } = filters as Record<
    string,
    unknown
  >;
  if (!paidAtFrom !== !paidAtTo) {
    throw badRequest(fieldInvalid(fields.paidAt.label, messages.dateRangeRequired));
  }
  const where: SQL[] = [inArray(orders.status, [...sharedOrderStatuses]), isNotNull(orders.paidAt)];
  if (typeof paidAtFrom === 'string' && typeof paidAtTo === 'string' && paidAtFrom && paidAtTo) {
    const from = parseTimeBound(paidAtFrom, false);
    const to = parseTimeBound(paidAtTo, true);
    if (!from || !to) throw badRequest(fieldInvalid(fields.paidAt.label, messages.timeInvalid));
    where.push(gte(orders.paidAt, from), lt(orders.paidAt, to));
  }
  if (typeof orderNo === 'string' && orderNo.trim()) where.push(eq(orders.orderNo, orderNo.trim()));
  if (siteType) where.push(inArray(orders.kind, kindsOfSiteType(siteType as SiteType)));
  if (typeof merchantId === 'number') where.push(eq(buildings.merchantId, merchantId));
  if (typeof buildingId === 'number') where.push(eq(orders.buildingId, buildingId));
  return where;
}

/** Orders with their building, merchant and the rule in force at payment time, filtered. */
function shareQuery<T extends Record<string, unknown>>(db: Database, columns: T, filters: Filters) {
  return db
    .select(columns as never)
    .from(orders)
    .leftJoin(buildings, eq(buildings.id, orders.buildingId))
    .leftJoin(merchants, eq(merchants.id, buildings.merchantId))
    .leftJoin(
      merchantShares,
      and(
        eq(merchantShares.merchantId, buildings.merchantId),
        eq(merchantShares.siteType, siteTypeOfOrder),
        sql`${merchantShares.effectiveFrom} <= ${orders.paidAt}`,
        or(isNull(merchantShares.effectiveTo), sql`${orders.paidAt} < ${merchantShares.effectiveTo}`),
      ),
    )
    .where(and(...conditions(filters)))
    .$dynamic();
}

const rowColumns = {
  id: orders.id,
  orderNo: orders.orderNo,
  kind: orders.kind,
  siteType: siteTypeOfOrder,
  merchantId: buildings.merchantId,
  merchantName: merchants.name,
  buildingId: orders.buildingId,
  buildingName: buildings.name,
  ruleId: merchantShares.id,
  ratioBasisPoints: merchantShares.ratioBasisPoints,
  effectiveFrom: merchantShares.effectiveFrom,
  effectiveTo: merchantShares.effectiveTo,
  paidFen: orders.paidFen,
  shareFen: shareFen.mapWith(Number),
  paidAt: orders.paidAt,
  createdAt: orders.createdAt,
  updatedAt: orders.updatedAt,
};
type ShareRow = Record<keyof typeof rowColumns, unknown>;

const shareRecord = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  kind: z.string(),
  siteType: z.string(),
  merchantId: z.number().int().nullable(),
  merchantName: z.string().nullable(),
  buildingId: z.number().int().nullable(),
  buildingName: z.string().nullable(),
  ruleId: z.number().int().nullable(),
  ruleText: z.string(),
  ratioBasisPoints: z.number().int().nullable(),
  paidFen: z.number().int(),
  shareFen: z.number().int(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
type ShareRecord = z.infer<typeof shareRecord>;

function present(r: ShareRow): ShareRecord {
  const ruleText =
    r.ruleId === null
      ? NO_SHARE_RULE
      : shareRuleText({
          id: r.ruleId as number,
          siteType: r.siteType as string,
          ratioBasisPoints: r.ratioBasisPoints as number,
          effectiveFrom: r.effectiveFrom as Date,
          effectiveTo: r.effectiveTo as Date | null,
        });
  return {
    id: r.id as number,
    orderNo: r.orderNo as string,
    kind: r.kind as string,
    siteType: r.siteType as string,
    merchantId: (r.merchantId as number | null) ?? null,
    merchantName: (r.merchantName as string | null) ?? null,
    buildingId: (r.buildingId as number | null) ?? null,
    buildingName: (r.buildingName as string | null) ?? null,
    ruleId: (r.ruleId as number | null) ?? null,
    ruleText,
    ratioBasisPoints: (r.ratioBasisPoints as number | null) ?? null,
    paidFen: r.paidFen as number,
    shareFen: Number(r.shareFen),
    paidAt: toIsoOrNull(r.paidAt as Date | null),
    createdAt: toIso(r.createdAt as Date),
    updatedAt: toIso(r.updatedAt as Date),
  };
}

const merchantShareOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    paths.siteType,
    {
      config: { permission },
      schema: {
        tags,
        summary: '分账的产品类型（含中文名称）',
        response: { 200: envelope(z.array(z.object({ value: z.string(), label: z.string() }))) },
      },
    },
    async () => ok(siteTypeOptions.map(({ value, label }) => ({ value, label }))),
  );

  app.get(
    paths.page,
    {
      config: { permission, fieldLabels },
      schema: {
        tags,
        summary: '分账订单分页（每笔已支付订单的商户、分账规则、比例与分账金额）',
        querystring: query,
        response: { 200: envelope(pageOf(shareRecord)) },
      },
    },
    async (request) => {
      const filters = request.query;
      const ascending = filters.sortOrder === 'ascend';
      const order = ascending ? asc : desc;
      const offset = (filters.current - 1) * filters.size;
      const [rows, [{ count }]] = await Promise.all([
        shareQuery(app.db, rowColumns, filters)
          .orderBy(order(orders.paidAt), order(orders.id))
          .limit(filters.size)
          .offset(offset),
        shareQuery(app.db, { count: sql<number>`count(*)`.mapWith(Number) }, filters),
      ]);
      const page: Page<ShareRecord> = {
        records: (rows as ShareRow[]).map(present),
        total: count as number,
        current: filters.current,
        size: filters.size,
      };
      return ok(page);
    },
  );

  app.get(
    paths.total,
    {
      config: { permission, fieldLabels },
      schema: {
        tags,
        summary: '分账合计（与分页相同的筛选：笔数、实付金额与分账金额之和）',
        querystring: query,
        response: { 200: envelope(merchantShareTotal) },
      },
    },
    async (request) => {
      const [total] = (await shareQuery(
        app.db,
        {
          count: sql`count(*)`.mapWith(Number),
          paidFen: sql`coalesce(sum(${orders.paidFen}), 0)`.mapWith(Number),
          shareFen: sql`coalesce(sum(${shareFen}), 0)`.mapWith(Number),
        },
        request.query,
      )) as { count: number; paidFen: number; shareFen: number }[];
      return ok(total);
    },
  );
};

export default merchantShareOrderRoutes;
