/**
 * 数据字典: the dict and dict-item resources, plus `dict/key/{code}` (the enabled items of a dict in
 * display order, for selects anywhere in the console). Removing a dict removes its items in the
 * same transaction, each audited; an item must belong to an existing dict, and its value is unique
 * within that dict.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldInvalid } from '@cowork/contract';
import { dict, DICT_CODE_PATTERN } from '@cowork/contract/resources/dict';
import { dictItem } from '@cowork/contract/resources/dict-item';
import { dictItems, dicts } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { crudModule } from '../../lib/crud.ts';
import { badRequest, envelope, notFound, ok } from '../../lib/http.ts';

const dictRoutes = crudModule({
  resource: dict,
  table: dicts,
  beforeRemove: async (rows, { request, tx }) => {
    const codes = rows.map((row) => String(row.code));
    const items = await tx.select().from(dictItems).where(inArray(dictItems.dictCode, codes));
    if (items.length === 0) return;
    await tx.delete(dictItems).where(inArray(dictItems.dictCode, codes));
    for (const item of items) {
      await audit(
        request,
        { action: 'remove', resource: dictItem.key, resourceId: item.id, before: item },
        tx,
      );
    }
  },
});

const itemRoutes = crudModule({
  resource: dictItem,
  table: dictItems,
  prepare: async (values, { tx }) => {
    if (values.dictCode !== undefined) {
      const [owner] = await tx
        .select({ id: dicts.id })
        .from(dicts)
        .where(eq(dicts.code, String(values.dictCode)));
      if (!owner) {
        throw badRequest(
          fieldInvalid(dictItem.fields.dictCode.label, '该数据字典不存在，请刷新后选择已有的字典'),
        );
      }
    }
    return values;
  },
});

const option = z.object({
  id: z.number().int(),
  label: z.string(),
  value: z.string(),
  sort: z.number().int(),
});

export const dictModule: FastifyPluginAsyncZod = async (app, options) => {
  await dictRoutes(app, options);
  await itemRoutes(app, options);

  app.get(
    `${dict.base}/key/:code`,
    {
      // Selects on any screen read dictionaries, so any signed-in staff member may.
      config: { auth: true },
      schema: {
        tags: [dict.key],
        summary: '字典的启用项（下拉选项）',
        params: z.object({
          code: z.string().regex(DICT_CODE_PATTERN, '字典编码须以小写字母开头，只含小写字母、数字和 _'),
        }),
        response: { 200: envelope(z.array(option)) },
      },
    },
    async (request) => {
      const { code } = request.params;
      const [owner] = await app.db.select({ id: dicts.id }).from(dicts).where(eq(dicts.code, code));
      if (!owner) throw notFound(`数据字典 ${code} 不存在，请在“数据字典”中新建后再使用`);
      const items = await app.db
        .select({ id: dictItems.id, label: dictItems.label, value: dictItems.value, sort: dictItems.sort })
        .from(dictItems)
        .where(and(eq(dictItems.dictCode, code), eq(dictItems.enabled, true)))
        .orderBy(asc(dictItems.sort), asc(dictItems.id));
      return ok(items);
    },
  );
};

export default dictModule;
