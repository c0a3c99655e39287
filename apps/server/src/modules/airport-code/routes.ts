/**
 * 机场三字码: the declared routes (page, save, edit, remove), plus `removes`, the spec's name for
 * removing several codes at once (`DELETE …/removes` with `{ids}`).
 */
import { inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { labelsOf, removeBody, resourceMessages, resourcePermissions } from '@cowork/contract';
import { airportCode, airportCodeRemovesPath } from '@cowork/contract/resources/airport-code';
import { airportCodes } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { crudModule } from '../../lib/crud.ts';
import { envelope, notFound, ok } from '../../lib/http.ts';

const crud = crudModule({ resource: airportCode, table: airportCodes });

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
};

export default airportCodeRoutes;
