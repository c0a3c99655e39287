/**
 * 企业会议卡: the declaration's page, save, edit and save-update, and around them the card's own
 * detail (with the spending this month of each staff member it is open to), top-up, ledger, and
 * team-card-sale/find-list-by-phone (the cards a phone can pay a booking with). The money moves in
 * ledger.ts. A new card's number is made from its id (QY + 8 digits); its opening balance is its
 * first ledger row. A card belongs to a company (its `companyName` is the company's) and is open to
 * the company's active staff by `staffScope`; chosen people (`memberPhones`) must be active staff.
 *
 * Permissions: enterprise:teamCard:view reads, :edit creates, edits and tops up; find-list-by-phone
 * also opens to staff who may create meeting-room or venue orders (新建订单 lists the cards).
 */
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  fieldInvalid,
  idOf,
  pageParams,
  recordSchema,
  resourcePermissions,
  valuesOf,
} from '@cowork/contract';
import {
  COMPANY_CARD_MAX_MEMBERS,
  companyCard,
  companyCardEndpoints,
  companyCardMessages,
  companyCardTopUpBody,
  companyCardTopUpLabels,
  ledgerKindOptions,
  payingCardOption,
} from '@cowork/contract/resources/company-card';
import { staffScopeMessages } from '@cowork/contract/resources/company';
import { activityStationOrder, memberCardsQuery, officeStationOrder } from '@cowork/contract/resources/order';
import { rowsOf, type Executor } from '../../db/client.ts';
import {
  companies,
  companyCardLedger,
  companyCards,
  companyStaff,
  orders,
  teamCards,
} from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { crudModule } from '../../lib/crud.ts';
import { badRequest, envelope, notFound, ok, pageAndTotal, pageOf } from '../../lib/http.ts';
import { toIso } from '../../lib/time.ts';
import {
  actorOf,
  appendLedger,
  companyCardNo,
  cardStaffPhones,
  creditCompanyCard,
  payingCards,
  spentThisMonth,
} from './ledger.ts';

const permissions = resourcePermissions(companyCard);
const fields = companyCard.fields;
const tags = [companyCard.key];

type Card = typeof companyCards.$inferSelect;
type CardValues = Partial<typeof companyCards.$inferInsert> & Record<string, unknown>;

/**
 * The company (its name copied) and whom the card takes from its staff: departments named for a
 * `departments` card, and for a `people` card chosen phones that are all active staff (400 naming
 * 可用员工手机号 and the first that is not).
 */
async function checkStaffScope(tx: Executor, values: CardValues, existing?: Card): Promise<CardValues> {
  const companyId = values.companyId ?? existing?.companyId;
  const [company] =
    companyId === undefined
      ? []
      : await tx
          .select({ id: companies.id, name: companies.name })
          .from(companies)
          .where(eq(companies.id, companyId));
  if (!company) throw badRequest(fieldInvalid(fields.companyId.label, staffScopeMessages.companyMissing));
  const scope = values.staffScope ?? existing?.staffScope ?? 'people';
  const departments = values.departments ?? existing?.departments ?? [];
  if (scope === 'departments' && departments.length === 0)
    throw badRequest(fieldInvalid(fields.departments.label, staffScopeMessages.departmentsRequired));
  const phones = values.memberPhones ?? existing?.memberPhones ?? [];
  const changed =
    values.memberPhones !== undefined || values.companyId !== undefined || values.staffScope !== undefined;
  if (scope === 'people' && changed && phones.length > 0) {
    const staff = await tx
      .select({ phone: companyStaff.phone })
      .from(companyStaff)
      .where(
        and(
          eq(companyStaff.companyId, company.id),
          eq(companyStaff.status, 'active'),
          inArray(companyStaff.phone, phones),
        ),
      );
    const active = new Set(staff.map((s) => s.phone));
    const outsider = phones.find((p) => !active.has(p));
    if (outsider)
      throw badRequest(
        fieldInvalid(fields.memberPhones.label, staffScopeMessages.notStaff(outsider, company.name)),
      );
  }
  return { ...values, companyName: company.name };
}

const crud = crudModule({
  resource: companyCard,
  table: companyCards,
  async prepare(values, { tx, existing }) {
    if (values.teamCardId !== undefined) {
      const [card] = await tx
        .select({ id: teamCards.id })
        .from(teamCards)
        .where(eq(teamCards.id, values.teamCardId));
      if (!card)
        throw badRequest(fieldInvalid(fields.teamCardId.label, '所选会议卡不存在或已删除，请重新选择'));
    }
    if (values.memberPhones !== undefined) {
      const phones = [...new Set(values.memberPhones)];
      if (phones.length > COMPANY_CARD_MAX_MEMBERS)
        throw badRequest(fieldInvalid(fields.memberPhones.label, companyCardMessages.tooManyMembers));
      values = { ...values, memberPhones: phones };
    }
    if (values.departments !== undefined)
      values = { ...values, departments: [...new Set(values.departments)] };
    values = await checkStaffScope(tx, values, existing);
    if (existing) return values;
    // The number comes from the id, reserved first so the row is written whole.
    const result = await rowsOf<{ id: number | string }>(
      tx,
      sql`select nextval(pg_get_serial_sequence('company_cards', 'id')) as id`,
    );
    const id = Number(result[0].id);
    return { ...values, id, cardNo: companyCardNo(id) };
  },
  // The opening balance is the card's first ledger row: the balance is always the ledger's sum.
  async afterWrite(record, values, { tx, request, existing }) {
    if (existing || !record.balanceFen) return;
    await appendLedger(tx, {
      cardId: record.id,
      kind: 'top-up',
      amountFen: Number(record.balanceFen),
      balanceAfterFen: Number(record.balanceFen),
      remark: '开卡充值',
      ...actorOf(request),
    });
  },
});

const spendingRecord = z.object({ phone: z.string(), spentFen: z.number(), leftFen: z.number().nullable() });
const ledgerRecord = z.object({
  id: z.number(),
  kind: z.enum(valuesOf(ledgerKindOptions)),
  amountFen: z.number(),
  balanceAfterFen: z.number(),
  orderNo: z.string().nullable(),
  memberPhone: z.string().nullable(),
  remark: z.string().nullable(),
  byName: z.string().nullable(),
  at: z.string(),
});

export const companyCardRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(crud);
  const cardId = idOf('企业会议卡编号必须是正整数');
  const record = recordSchema(companyCard);

  async function load(id: number) {
    const [card] = await app.db.select().from(companyCards).where(eq(companyCards.id, id));
    if (!card) throw notFound(companyCardMessages.notFound);
    return card;
  }

  app.get(
    `${companyCardEndpoints.detail}/:id`,
    {
      config: { permission: permissions.view, fieldLabels: { id: '企业会议卡' } },
      schema: {
        tags,
        summary: '企业会议卡详情（含每位员工本月已用）',
        params: z.object({ id: cardId }),
        response: { 200: envelope(record.extend({ spending: z.array(spendingRecord) })) },
      },
    },
    async (request) => {
      const card = await load(request.params.id);
      const phones = await cardStaffPhones(app.db, card.id);
      const spent = await spentThisMonth(app.db, card.id, phones);
      return ok({
        ...card,
        validUntil: toIso(card.validUntil),
        createdAt: toIso(card.createdAt),
        updatedAt: toIso(card.updatedAt),
        spending: phones.map((phone) => {
          const spentFen = spent.get(phone) ?? 0;
          return {
            phone,
            spentFen,
            leftFen: card.monthlyCapFen === null ? null : Math.max(0, card.monthlyCapFen - spentFen),
          };
        }),
      });
    },
  );

  app.post(
    companyCardEndpoints.topUp,
    {
      config: { permission: permissions.edit, fieldLabels: companyCardTopUpLabels },
      schema: {
        tags,
        summary: '企业会议卡充值（记入流水）',
        body: companyCardTopUpBody,
        response: { 200: envelope(z.object({ balanceFen: z.number() })) },
      },
    },
    async (request) => {
      const { id, amountFen, remark } = request.body;
      const balanceFen = await app.db.transaction(async (tx) => {
        const [card] = await tx
          .select({ id: companyCards.id })
          .from(companyCards)
          .where(eq(companyCards.id, id));
        if (!card) throw notFound(companyCardMessages.notFound);
        const after = await creditCompanyCard(tx, id, {
          kind: 'top-up',
          amountFen,
          remark,
          ...actorOf(request),
        });
        await audit(
          request,
          {
            action: 'top-up',
            resource: companyCard.key,
            resourceId: id,
            after: { amountFen, remark, balanceFen: after },
          },
          tx,
        );
        return after;
      });
      return ok({ balanceFen }, companyCardMessages.toppedUp(amountFen, balanceFen));
    },
  );

  app.get(
    companyCardEndpoints.ledgerPage,
    {
      config: { permission: permissions.view, fieldLabels: { id: '企业会议卡' } },
      schema: {
        tags,
        summary: '企业会议卡流水（最新在前）',
        querystring: z.object({ id: cardId, ...pageParams }),
        response: { 200: envelope(pageOf(ledgerRecord)) },
      },
    },
    async (request) => {
      const { id, current, size } = request.query;
      await load(id);
      const ofCard = eq(companyCardLedger.cardId, id);
      const page = await pageAndTotal(
        request.query,
        () =>
          app.db
            .select({ entry: companyCardLedger, orderNo: orders.orderNo })
            .from(companyCardLedger)
            .leftJoin(orders, eq(orders.id, companyCardLedger.orderId))
            .where(ofCard)
            .orderBy(desc(companyCardLedger.id))
            .limit(size)
            .offset((current - 1) * size),
        () => app.db.select({ total: count() }).from(companyCardLedger).where(ofCard),
      );
      return ok({
        ...page,
        records: page.records.map(({ entry, orderNo }) => ({
          id: entry.id,
          kind: entry.kind,
          amountFen: entry.amountFen,
          balanceAfterFen: entry.balanceAfterFen,
          orderNo,
          memberPhone: entry.memberPhone,
          remark: entry.remark,
          byName: entry.byName,
          at: toIso(entry.at),
        })),
      });
    },
  );

  app.get(
    companyCardEndpoints.findListByPhone,
    {
      config: {
        permission: [
          permissions.view,
          resourcePermissions(officeStationOrder).edit,
          resourcePermissions(activityStationOrder).edit,
        ],
        fieldLabels: { phone: '手机号' },
      },
      schema: {
        tags: ['team-card-sale'],
        summary: '手机号可用于支付预订的会议卡与企业会议卡（含余额）',
        querystring: z.object({ phone: memberCardsQuery.shape.memberPhone }),
        response: { 200: envelope(z.array(payingCardOption)) },
      },
    },
    async (request) => ok(await payingCards(app.db, request.query.phone)),
  );
};

export default companyCardRoutes;
