/**
 * 机场贵宾厅: page, detail, edit and edit-published from the declaration, plus `init`, which
 * creates an unpublished ¥0 lounge product for every configured airport that has none. Answers
 * carry the airport's city and name; a product must name a configured airport and cannot be
 * published at ¥0.
 */
import { eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { labelsOf, resourcePermissions } from '@cowork/contract';
import {
  airportProduct,
  airportProductInitAnswer,
  airportProductInitPath,
  airportProductMessages,
  defaultLoungeName,
} from '@cowork/contract/resources/airport-product';
import type { Database } from '../../db/client.ts';
import { airportCodes, airportProducts } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { crudModule } from '../../lib/crud.ts';
import { badRequest, envelope, ok } from '../../lib/http.ts';

/** A published product must have a price: members cannot buy a ¥0 lounge. */
function assertPriced(published: unknown, priceFen: unknown) {
  if (published === true && priceFen === 0) throw badRequest(airportProductMessages.unpriced);
}

const crud = crudModule({
  resource: airportProduct,
  table: airportProducts,
  async expand(rows, db) {
    const codes = [...new Set(rows.map((r) => r.airportCode))];
    const airports = codes.length
      ? await db.select().from(airportCodes).where(inArray(airportCodes.code, codes))
      : [];
    const byCode = new Map(airports.map((a) => [a.code, a]));
    return rows.map((row) => ({
      ...row,
      airportCity: byCode.get(row.airportCode)?.city ?? null,
      airportName: byCode.get(row.airportCode)?.airportName ?? null,
    }));
  },
  async prepare(values, { tx, existing }) {
    if (values.airportCode !== undefined) {
      const [airport] = await tx
        .select({ id: airportCodes.id })
        .from(airportCodes)
        .where(eq(airportCodes.code, values.airportCode));
      if (!airport) throw badRequest(airportProductMessages.unknownAirport);
    }
    assertPriced(values.published ?? existing?.published, values.priceFen ?? existing?.priceFen);
    return values;
  },
  beforePublish: async (record, published) => assertPriced(published, record.priceFen),
});

/** Creates the missing products in one transaction, each audited; answers how many. */
async function initProducts(db: Database, request: FastifyRequest) {
  return db.transaction(async (tx) => {
    // An airport may hold several lounges, so no unique index can stop two concurrent inits from
    // both creating the missing ones: they take turns on this lock instead.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('airport-product-init'))`);
    const missing = await tx
      .select({ code: airportCodes.code, city: airportCodes.city, airportName: airportCodes.airportName })
      .from(airportCodes)
      .leftJoin(airportProducts, eq(airportProducts.airportCode, airportCodes.code))
      .where(isNull(airportProducts.id))
      .orderBy(airportCodes.code);
    if (missing.length === 0) return 0;
    const by = request.user?.id ?? null;
    const created = await tx
      .insert(airportProducts)
      .values(
        missing.map((a) => ({
          airportCode: a.code,
          loungeName: defaultLoungeName(a.city, a.airportName),
          priceFen: 0,
          published: false,
          createdBy: by,
          updatedBy: by,
        })),
      )
      .returning();
    for (const row of created) {
      await audit(
        request,
        { action: 'init', resource: airportProduct.key, resourceId: row.id, after: row },
        tx,
      );
    }
    return created.length;
  });
}

export const airportProductRoutes: FastifyPluginAsyncZod = async (app, options) => {
  await crud(app, options);

  app.post(
    airportProductInitPath,
    {
      config: { permission: resourcePermissions(airportProduct).edit, fieldLabels: labelsOf(airportProduct) },
      schema: {
        tags: [airportProduct.key],
        summary: '为尚无贵宾厅产品的机场生成产品（未上架，价格 ¥0）',
        response: { 200: envelope(airportProductInitAnswer) },
      },
    },
    async (request) => {
      const created = await initProducts(app.db, request);
      return ok({ created }, airportProductMessages.initialized(created));
    },
  );
};

export default airportProductRoutes;
