/**
 * 机场三字码: the declared routes (page, save, edit, remove), plus `removes`, the API's name for
 * removing several codes at once (`DELETE …/removes` with `{ids}`), and `code-list`, the airports
 * as options for product screens. A code that 机场贵宾厅 products use can be neither removed nor
 * renamed (409 naming the lounge), so no product is left pointing at a missing airport.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { labelsOf, removeBody, resourceMessages, resourcePermissions } from '@cowork/contract';
import {
  airportCode,
  airportCodeOption,
  airportCodeOptionsPath,
  airportCodeRemovesPath,
} from '@cowork/contract/resources/airport-code';
import type { Executor } from '../../db/client.ts';
import { airportCodes, airportProducts } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { crudModule } from '../../lib/crud.ts';
import { conflict, envelope, notFound, ok } from '../../lib/http.ts';

/** The 409 message when lounge products use the code, or undefined when none does. */
async function usedBy(tx: Executor, code: string): Promise<string | undefined> {
  const lounges = await tx
    .select({ loungeName: airportProducts.loungeName })
    .from(airportProducts)
    .where(eq(airportProducts.airportCode, code))
    .orderBy(asc(airportProducts.id));
  if (lounges.length === 0) return undefined;
  const names = lounges.map((l) => `「${l.loungeName}」`).join('、');
  return `机场三字码 ${code} 正被机场贵宾厅${names}使用，请先在「机场贵宾厅」中处理后再删除或修改`;
}

async function codeOf(tx: Executor, id: number) {
  const [row] = await tx
    .select({ code: airportCodes.code })
    .from(airportCodes)
    .where(eq(airportCodes.id, id));
  return row?.code;
}

const crud = crudModule({
  resource: airportCode,
  table: airportCodes,
  async inUse(id, tx) {
    const code = await codeOf(tx, id);
    return code ? usedBy(tx, code) : undefined;
  },
  async prepare(values, { tx, existing }) {
    if (existing && values.code !== undefined && values.code !== existing.code) {
      const reason = await usedBy(tx, existing.code);
      if (reason) throw conflict(reason);
    }
    return values;
  },
});

export const airportCodeRoutes: FastifyPluginAsyncZod = async (app, options) => {
  await crud(app, options);

  app.delete(
    airportCodeRemovesPath,
    {
      config: { permission: resourcePermissions(airportCode).remove, fieldLabels: labelsOf(airportCode) },
      schema: {
        tags: [airportCode.key],
        summary: '批量删除机场三字码',
        body: removeBody,
        response: { 200: envelope(z.object({ removed: z.number().int() })) },
      },
    },
    async (request) => {
      const ids = [...new Set(request.body.ids)];
      return app.db.transaction(async (tx) => {
        const rows = await tx.select().from(airportCodes).where(inArray(airportCodes.id, ids));
        if (rows.length !== ids.length) throw notFound(resourceMessages.notFound(airportCode));
        for (const row of rows) {
          const reason = await usedBy(tx, row.code);
          if (reason) throw conflict(reason);
        }
        await tx.delete(airportCodes).where(inArray(airportCodes.id, ids));
        for (const row of rows) {
          await audit(
            request,
            { action: 'remove', resource: airportCode.key, resourceId: row.id, before: row },
            tx,
          );
        }
        return ok({ removed: rows.length }, resourceMessages.removed(rows.length));
      });
    },
  );

  app.get(
    airportCodeOptionsPath,
    {
      // Product screens of any role pick airports from these, so any signed-in staff member may read them.
      config: { auth: true },
      schema: {
        tags: [airportCode.key],
        summary: '机场选项（下拉列表，值为三字码）',
        response: { 200: envelope(z.array(airportCodeOption)) },
      },
    },
    async () => {
      const rows = await app.db.select().from(airportCodes).orderBy(asc(airportCodes.code));
      return ok(
        rows.map((a) => ({
          value: a.code,
          label: `${a.code} ${a.city} · ${a.airportName}`,
          city: a.city,
          airportName: a.airportName,
        })),
      );
    },
  );
};

export default airportCodeRoutes;
