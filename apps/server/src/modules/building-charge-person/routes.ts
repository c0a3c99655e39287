/**
 * 楼宇负责人: the declaration's CRUD; every building a person manages must exist, and the page
 * finds the persons of one building (`?buildingIds=3`: rows whose buildingIds hold it), as the
 * cards' 适用楼宇 do (lib/building-scope.ts).
 */
import { buildingChargePerson } from '@cowork/contract/resources/building-charge-person';
import { buildingChargePersons } from '../../db/schema.ts';
import { buildingScope } from '../../lib/building-scope.ts';
import { crudModule } from '../../lib/crud.ts';

const scope = buildingScope(buildingChargePersons.buildingIds, buildingChargePerson.fields.buildingIds.label);

export const buildingChargePersonRoutes = crudModule({
  resource: buildingChargePerson,
  table: buildingChargePersons,
  buildingColumn: buildingChargePersons.buildingIds,
  prepare: (values, { tx }) => scope.check(values, tx),
  where: scope.where,
});

export default buildingChargePersonRoutes;
