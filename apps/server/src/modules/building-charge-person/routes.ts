/**
 * 楼宇负责人: the declaration's CRUD; every building a person manages must exist, and the page
 * finds the persons of one building (`?buildingIds=3`: rows whose buildingIds hold it).
 */
import { inArray } from 'drizzle-orm';
import { fieldInvalid, idOf } from '@cowork/contract';
import { buildingChargePerson } from '@cowork/contract/resources/building-charge-person';
import { buildingChargePersons, buildings } from '../../db/schema.ts';
import { crudModule } from '../../lib/crud.ts';
import { badRequest } from '../../lib/http.ts';
import { holds } from '../../lib/in-use.ts';

const LABEL = buildingChargePerson.fields.buildingIds.label;

export const buildingChargePersonRoutes = crudModule({
  resource: buildingChargePerson,
  table: buildingChargePersons,
  async prepare(values, { tx }) {
    if (values.buildingIds === undefined) return values;
    const ids = [...new Set(values.buildingIds as number[])];
    const found = ids.length
      ? await tx.select({ id: buildings.id }).from(buildings).where(inArray(buildings.id, ids))
      : [];
    const missing = ids.filter((id) => !found.some((row) => row.id === id));
    if (missing.length)
      throw badRequest(
        fieldInvalid(LABEL, `编号 ${missing.join('、')} 的楼宇不存在或已被删除，请刷新后重新选择${LABEL}`),
      );
    return { ...values, buildingIds: ids };
  },
  where(request) {
    const buildingId = (request.query as { buildingIds?: string }).buildingIds;
    if (buildingId === undefined || buildingId === '') return undefined;
    const id = idOf().safeParse(buildingId);
    if (!id.success) throw badRequest(fieldInvalid(LABEL, `请选择${LABEL}`));
    return holds(buildingChargePersons.buildingIds, id.data);
  },
});

export default buildingChargePersonRoutes;
