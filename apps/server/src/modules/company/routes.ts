/**
 * 企业 (company): the declaration's CRUD, its `list` with what 开票 prefills, and `orders` (the
 * bookings paid with its cards), as packages/contract/src/resources/company.ts describes; its staff
 * list is staff-routes.ts. A name or credit code another company holds is a 400 naming the field; a
 * company that still has staff, groups or cards is a 409 naming them. A rename is copied to its
 * groups' and cards' `companyName` in the same transaction; a change of status or contract period
 * re-syncs its groups' devices once committed (a disabled or expired company opens nothing).
 *
 * Permissions: enterprise:company:view reads, :edit writes, :remove deletes; `list` is open to
 * every signed-in staff member (the selects of 企业门禁组, 企业会议卡 and 开票).
 */
import { and, asc, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldInvalid, maskPhone, resourcePermissions } from '@cowork/contract';
import {
  company,
  companyEndpoints,
  companyFieldLabels,
  companyMessages,
  companyOption,
  companyOrderRecord,
  companyOrdersQuery,
} from '@cowork/contract/resources/company';
import type { Executor } from '../../db/client.ts';
import {
  buildings,
  companies,
  companyCards,
  companyStaff,
  kreatorUserGroups,
  orders,
} from '../../db/schema.ts';
import { crudModule, valueAfterWrite } from '../../lib/crud.ts';
import { badRequest, envelope, notFound, ok, pageAndTotal, pageOf } from '../../lib/http.ts';
import { toIso } from '../../lib/time.ts';
import { staffActor } from '../../device-link/actors.ts';
import { companyStaffRoutes } from './staff-routes.ts';

const fields = company.fields;
const permissions = resourcePermissions(company);
const tags = [company.key];

/** The groups whose devices a committed edit re-syncs, found in its transaction. */
const resyncAfter = new WeakMap<FastifyRequest, number[]>();

const groupIdsOf = async (tx: Executor, companyId: number) =>
  (
    await tx
      .select({ id: kreatorUserGroups.id })
      .from(kreatorUserGroups)
      .where(eq(kreatorUserGroups.companyId, companyId))
  ).map((g) => g.id);

/** What a company still has, as the 409 names it (empty when it may be removed). */
async function holdings(tx: Executor, id: number): Promise<string[]> {
  const [{ staff }] = await tx
    .select({ staff: count() })
    .from(companyStaff)
    .where(eq(companyStaff.companyId, id));
  const groups = await tx
    .select({ name: kreatorUserGroups.name })
    .from(kreatorUserGroups)
    .where(eq(kreatorUserGroups.companyId, id))
    .orderBy(asc(kreatorUserGroups.id));
  const cards = await tx
    .select({ cardNo: companyCards.cardNo })
    .from(companyCards)
    .where(eq(companyCards.companyId, id))
    .orderBy(asc(companyCards.id));
  const named = (label: string, names: string[]) =>
    `${label}${names
      .slice(0, 3)
      .map((n) => `“${n}”`)
      .join('')}${names.length > 3 ? `等 ${names.length} 个` : ''}`;
  return [
    ...(staff ? [`员工 ${staff} 名`] : []),
    ...(groups.length
      ? [
          named(
            '门禁组',
            groups.map((g) => g.name),
          ),
        ]
      : []),
    ...(cards.length
      ? [
          named(
            '企业会议卡',
            cards.map((c) => c.cardNo),
          ),
        ]
      : []),
  ];
}

const crud = crudModule({
  // `list` answers the options with what 开票 prefills (below), so the declaration's own is left out.
  resource: { ...company, actions: company.actions.filter((a) => a !== 'list') },
  table: companies,
  async prepare(values, { tx, existing }) {
    if (values.name !== undefined) {
      const [clash] = await tx
        .select({ id: companies.id })
        .from(companies)
        .where(
          and(
            sql`lower(${companies.name}) = lower(${values.name})`,
            existing ? ne(companies.id, existing.id) : undefined,
          ),
        );
      if (clash)
        throw badRequest(fieldInvalid(fields.name.label, companyMessages.duplicateName(values.name)));
    }
    if (values.creditCode) {
      const [clash] = await tx
        .select({ name: companies.name })
        .from(companies)
        .where(
          and(
            eq(companies.creditCode, values.creditCode),
            existing ? ne(companies.id, existing.id) : undefined,
          ),
        );
      if (clash)
        throw badRequest(
          fieldInvalid(fields.creditCode.label, companyMessages.duplicateCreditCode(clash.name)),
        );
    }
    const from = valueAfterWrite('validFrom', values, existing);
    const to = valueAfterWrite('validTo', values, existing);
    if (from && to && to.getTime() <= from.getTime())
      throw badRequest(fieldInvalid(fields.validTo.label, companyMessages.validRange));
    if (values.buildingIds !== undefined) {
      const ids = [...new Set(values.buildingIds)];
      const found = ids.length
        ? await tx.select({ id: buildings.id }).from(buildings).where(inArray(buildings.id, ids))
        : [];
      if (found.length !== ids.length)
        throw badRequest(fieldInvalid(fields.buildingIds.label, companyMessages.buildingMissing));
      values = { ...values, buildingIds: ids };
    }
    return values;
  },
  async afterWrite(record, _values, { tx, request, existing }) {
    if (!existing) return;
    // The name groups and cards answer as companyName is the company's own.
    if (record.name !== existing.name) {
      await tx
        .update(kreatorUserGroups)
        .set({ companyName: record.name })
        .where(eq(kreatorUserGroups.companyId, record.id));
      await tx
        .update(companyCards)
        .set({ companyName: record.name })
        .where(eq(companyCards.companyId, record.id));
    }
    const opens = (row: typeof record) =>
      `${row.status}|${row.validFrom?.getTime() ?? ''}|${row.validTo?.getTime() ?? ''}`;
    if (opens(record) !== opens(existing)) resyncAfter.set(request, await groupIdsOf(tx, record.id));
  },
  async expand(rows, db) {
    if (rows.length === 0) return rows;
    const counts = await db
      .select({ companyId: companyStaff.companyId, staff: count() })
      .from(companyStaff)
      .where(
        and(
          inArray(
            companyStaff.companyId,
            rows.map((r) => r.id),
          ),
          eq(companyStaff.status, 'active'),
        ),
      )
      .groupBy(companyStaff.companyId);
    const byId = new Map(counts.map((c) => [c.companyId, c.staff]));
    return rows.map((row) => ({ ...row, staffCount: byId.get(row.id) ?? 0 }));
  },
  // The list shows the contact's phone masked; the detail (to edit it) in full.
  present: (row, _request, action) =>
    action === 'page' && typeof row.contactPhone === 'string'
      ? { ...row, contactPhone: maskPhone(row.contactPhone) }
      : row,
  async inUse(id, tx) {
    const held = await holdings(tx, id);
    return held.length ? companyMessages.inUse(held) : undefined;
  },
  afterCommit(_change, request) {
    const groupIds = resyncAfter.get(request);
    if (groupIds?.length) void request.server.devices.accessChanged({ groupIds }, staffActor(request));
  },
});

export const companyRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(crud);
  await app.register(companyStaffRoutes);

  app.get(
    companyEndpoints.list,
    {
      config: { auth: true },
      schema: {
        tags,
        summary: '企业选项（下拉列表，含开票抬头与税号）',
        response: { 200: envelope(z.array(companyOption)) },
      },
    },
    async () => {
      const rows = await app.db
        .select({
          value: companies.id,
          label: companies.name,
          status: companies.status,
          invoiceTitle: companies.invoiceTitle,
          taxNo: companies.taxNo,
        })
        .from(companies)
        .orderBy(asc(companies.name), asc(companies.id));
      return ok(rows);
    },
  );

  app.get(
    companyEndpoints.orders,
    {
      config: { permission: permissions.view, fieldLabels: companyFieldLabels },
      schema: {
        tags,
        summary: '企业会议卡支付的订单（最新在前）',
        querystring: companyOrdersQuery,
        response: { 200: envelope(pageOf(companyOrderRecord)) },
      },
    },
    async (request) => {
      const { id, current, size } = request.query;
      const [found] = await app.db.select({ id: companies.id }).from(companies).where(eq(companies.id, id));
      if (!found) throw notFound(companyMessages.notFound);
      const paidWithCards = sql`${orders.companyCardId} in (select ${companyCards.id} from ${companyCards} where ${companyCards.companyId} = ${id})`;
      const page = await pageAndTotal(
        request.query,
        () =>
          app.db
            .select({ order: orders, cardNo: companyCards.cardNo })
            .from(orders)
            .innerJoin(companyCards, eq(companyCards.id, orders.companyCardId))
            .where(paidWithCards)
            .orderBy(desc(orders.createdAt), desc(orders.id))
            .limit(size)
            .offset((current - 1) * size),
        () => app.db.select({ total: count() }).from(orders).where(paidWithCards),
      );
      return ok({
        ...page,
        records: page.records.map(({ order, cardNo }) => ({
          id: order.id,
          orderNo: order.orderNo,
          kind: order.kind,
          productName: order.productSnapshot.name ?? null,
          memberPhone: maskPhone(order.memberPhone),
          paidFen: order.paidFen,
          status: order.status,
          paidAt: order.paidAt ? toIso(order.paidAt) : null,
          cardNo,
        })),
      });
    },
  );
};

export default companyRoutes;
