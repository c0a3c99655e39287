/**
 * 商户分账: site-type, page and total of merchant-share-order. Page and total both read `shareRows`:
 * each paid or used order joined to its building's merchant and to the 分账规则 of that merchant and
 * product type in force at payment time (effectiveFrom <= paidAt < effectiveTo, or no end). Rules of
 * one merchant and type never overlap, so at most one rule joins. The share is rounded once per
 * order in SQL, and total sums that same query's rows in SQL, so it equals the rows to the fen.
 */
import { startingWith } from '../../lib/like.ts';
import {
  and,
  asc,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  sql,
  type AnyColumn,
  type SQL,
} from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
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
  type MerchantShareTotal,
  NO_SHARE_RULE,
  settlementLabels,
  settlementQuery,
  sharedOrderStatuses,
  siteTypeOfKind,
} from '@cowork/contract/resources/merchant-share-order';
import type { Database } from '../../db/client.ts';
import { buildings, merchantShares, merchants, orders } from '../../db/schema.ts';
import { inKeyBuildings } from '../../lib/building-scope.ts';
import { keysetBatches, labelOf, sendExcel, yuanColumn, type ExcelColumn } from '../../lib/excel-export.ts';
import { badRequest, envelope, ok, pageOf } from '../../lib/http.ts';
import { parseTimeBound, toIso, toIsoOrNull } from '../../lib/time.ts';

const fields = merchantShareOrder.fields;
const permission = resourcePermissions(merchantShareOrder).view;
const fieldLabels = labelsOf(merchantShareOrder);
const tags = [merchantShareOrder.key];
const query = pageQuerySchema(merchantShareOrder);
/** The filters alone: total answers the whole search, not a page of it. */
const filterQuery = query.omit({ current: true, size: true, sortField: true, sortOrder: true });
/** The query's filters, and the caller's buildings (an API key limited to some: `inKeyBuildings`). */
type Filters = Record<string, unknown> & { scope?: SQL };

const filtersOf = <Q extends Record<string, unknown>>(request: FastifyRequest, query: Q): Q & Filters => ({
  ...query,
  scope: inKeyBuildings(request, orders.buildingId),
});

/** The order's product type, from the contract's one mapping of kinds. */
const siteTypeOfOrder = sql<SiteType>`(case ${orders.kind} ${sql.join(
  Object.entries(siteTypeOfKind).map(([kind, siteType]) => sql`when ${kind} then ${siteType}`),
  sql` `,
)} end)`;

/** round(paidFen × ratio / 10000) half up in numeric arithmetic; 0 without a rule. */
const shareFen = sql<number>`coalesce(round(${orders.paidFen}::numeric * ${merchantShares.ratioBasisPoints} / 10000), 0)::bigint`;

/** The conditions of the filters; a date range needs both ends or neither (请选择时间段). */
function conditions(filters: Filters): SQL[] {
  const { paidAtFrom, paidAtTo, orderNo, siteType, merchantId, buildingId } = filters;
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
  if (typeof orderNo === 'string' && orderNo.trim()) where.push(startingWith(orders.orderNo, orderNo.trim()));
  const chosenSiteType = siteTypeOptions.find((o) => o.value === siteType)?.value;
  if (chosenSiteType) where.push(inArray(orders.kind, kindsOfSiteType(chosenSiteType)));
  if (typeof merchantId === 'number') where.push(eq(buildings.merchantId, merchantId));
  if (typeof buildingId === 'number') where.push(eq(orders.buildingId, buildingId));
  if (filters.scope) where.push(filters.scope);
  return where;
}

const rowColumns = {
  id: orders.id,
  orderNo: orders.orderNo,
  kind: orders.kind,
  siteType: siteTypeOfOrder.as('site_type'),
  merchantId: buildings.merchantId,
  merchantName: sql<string | null>`${merchants.name}`.as('merchant_name'),
  buildingId: orders.buildingId,
  buildingName: sql<string | null>`${buildings.name}`.as('building_name'),
  ruleId: sql<number | null>`${merchantShares.id}`.as('rule_id'),
  ratioBasisPoints: merchantShares.ratioBasisPoints,
  effectiveFrom: merchantShares.effectiveFrom,
  effectiveTo: merchantShares.effectiveTo,
  paidFen: orders.paidFen,
  shareFen: shareFen.mapWith(Number).as('share_fen'),
  paidAt: orders.paidAt,
  createdAt: orders.createdAt,
  updatedAt: orders.updatedAt,
};

/** Orders with their building, merchant and the rule in force at payment time, filtered. */
function shareRows(db: Database, filters: Filters) {
  return db
    .select(rowColumns)
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
type ShareRow = Awaited<ReturnType<typeof shareRows>>[number];

/** Count, paid and share summed over the very rows page lists, so the total equals the rows. */
async function totalsOf(db: Database, filters: Filters): Promise<MerchantShareTotal> {
  const rows = shareRows(db, filters).as('share_rows');
  const [totals] = await db
    .select({
      count: sql`count(*)`.mapWith(Number),
      paidFen: sql`coalesce(sum(${rows.paidFen}), 0)`.mapWith(Number),
      shareFen: sql`coalesce(sum(${rows.shareFen}), 0)`.mapWith(Number),
    })
    .from(rows);
  return totals;
}

/** The columns page may sort by; newest payment first otherwise. */
const sortColumns: Record<string, SQL | AnyColumn> = {
  paidAt: orders.paidAt,
  paidFen: orders.paidFen,
  shareFen,
  id: orders.id,
  createdAt: orders.createdAt,
  updatedAt: orders.updatedAt,
};

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

function present(row: ShareRow): ShareRecord {
  const { effectiveFrom, effectiveTo, ratioBasisPoints, ruleId } = row;
  const ruleText =
    ruleId === null || ratioBasisPoints === null || effectiveFrom === null
      ? NO_SHARE_RULE
      : shareRuleText({ id: ruleId, siteType: row.siteType, ratioBasisPoints, effectiveFrom, effectiveTo });
  return {
    id: row.id,
    orderNo: row.orderNo,
    kind: row.kind,
    siteType: row.siteType,
    merchantId: row.merchantId,
    merchantName: row.merchantName,
    buildingId: row.buildingId,
    buildingName: row.buildingName,
    ruleId,
    ruleText,
    ratioBasisPoints,
    paidFen: row.paidFen,
    shareFen: Number(row.shareFen),
    paidAt: toIsoOrNull(row.paidAt),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

/** The columns of the export and the statement; ids and codes left out, names and yuan in. */
const exportColumns: ExcelColumn<ShareRecord>[] = [
  { header: '订单号', value: (r) => r.orderNo, width: 24 },
  { header: '产品类型', value: (r) => labelOf(siteTypeOptions, r.siteType) },
  { header: '商户', value: (r) => r.merchantName, width: 20 },
  { header: '楼宇', value: (r) => r.buildingName, width: 24 },
  { header: '分账规则', value: (r) => r.ruleText, width: 40 },
  {
    header: '分账比例（%）',
    value: (r) => (r.ratioBasisPoints === null ? null : r.ratioBasisPoints / 100),
    numFmt: '0.00',
  },
  yuanColumn('实付金额（元）', (r) => r.paidFen),
  yuanColumn('分账金额（元）', (r) => r.shareFen),
  {
    header: '支付时间',
    value: (r) => (r.paidAt ? r.paidAt.slice(0, 19).replace('T', ' ') : null),
    width: 20,
  },
];

/** The last row: the same sums the screen's 合计 shows, to the fen. */
const totalRow = (totals: MerchantShareTotal): ShareRecord => ({
  id: 0,
  orderNo: `合计（${totals.count} 笔）`,
  kind: '',
  siteType: '',
  merchantId: null,
  merchantName: null,
  buildingId: null,
  buildingName: null,
  ruleId: null,
  ruleText: '',
  ratioBasisPoints: null,
  paidFen: totals.paidFen,
  shareFen: totals.shareFen,
  paidAt: null,
  createdAt: '',
  updatedAt: '',
});

/** Every row of the filters, newest first by keyset, then the total row. */
async function* rowsWithTotal(db: Database, filters: Filters): AsyncGenerator<ShareRecord[]> {
  const totals = await totalsOf(db, filters);
  const batches = keysetBatches((beforeId, limit) =>
    shareRows(db, filters)
      .where(and(...conditions(filters), beforeId === undefined ? undefined : lt(orders.id, beforeId)))
      .orderBy(desc(orders.id))
      .limit(limit),
  );
  for await (const batch of batches) yield batch.map(present);
  yield [totalRow(totals)];
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
      const filters = filtersOf(request, request.query);
      const direction = filters.sortOrder === 'ascend' ? asc : desc;
      const sortBy = sortColumns[filters.sortField ?? 'paidAt'] ?? orders.paidAt;
      const [rows, totals] = await Promise.all([
        shareRows(app.db, filters)
          .orderBy(direction(sortBy), direction(orders.id))
          .limit(filters.size)
          .offset((filters.current - 1) * filters.size),
        totalsOf(app.db, filters),
      ]);
      const page: Page<ShareRecord> = {
        records: rows.map(present),
        total: totals.count,
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
        querystring: filterQuery,
        response: { 200: envelope(merchantShareTotal) },
      },
    },
    async (request) => {
      return ok(await totalsOf(app.db, filtersOf(request, request.query)));
    },
  );

  app.get(
    paths.export,
    {
      config: { permission, fieldLabels },
      schema: {
        tags,
        summary: '分账订单 as Excel: the filters of its page, every row, then the total row (streamed)',
        querystring: filterQuery,
      },
    },
    async (request, reply) => {
      conditions(request.query); // a bad filter is a 400 before the download starts
      return sendExcel(reply, {
        title: '商户分账',
        columns: exportColumns,
        rows: rowsWithTotal(app.db, filtersOf(request, request.query)),
      });
    },
  );

  app.get(
    paths.statement,
    {
      config: { permission, fieldLabels: settlementLabels },
      schema: {
        tags,
        summary:
          '商户月度结算单 as Excel: one merchant’s paid orders of one month (business time zone), rule, share and total',
        querystring: settlementQuery,
      },
    },
    async (request, reply) => {
      const { merchantId, month } = request.query;
      const [merchant] = await app.db
        .select({ name: merchants.name })
        .from(merchants)
        .where(eq(merchants.id, merchantId));
      if (!merchant) throw badRequest(fieldInvalid('商户', '所选商户不存在或已被删除，请刷新后重新选择'));
      const [year, monthNo] = month.split('-').map(Number);
      // The month's days (business time zone): from its first to its last, each whole.
      const lastDay = new Date(Date.UTC(year, monthNo, 0)).toISOString().slice(0, 10);
      const filters = filtersOf(request, { merchantId, paidAtFrom: `${month}-01`, paidAtTo: lastDay });
      return sendExcel(reply, {
        title: `${month} 结算单`,
        fileName: `分账结算单-${merchant.name}-${month}.xlsx`,
        columns: exportColumns,
        rows: rowsWithTotal(app.db, filters),
      });
    },
  );
};

export default merchantShareOrderRoutes;
