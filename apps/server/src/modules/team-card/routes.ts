/**
 * 会议卡: the declaration's CRUD (with publish and saveOrUpdate). The price never exceeds the face
 * value the card carries; every 适用楼宇 must exist, and the page filters by one building.
 */
import { formatYuan } from '@cowork/contract';
import { teamCard } from '@cowork/contract/resources/team-card';
import { teamCards } from '../../db/schema.ts';
import { buildingScope } from '../../lib/building-scope.ts';
import { crudModule, valueAfterWrite } from '../../lib/crud.ts';
import { badRequest } from '../../lib/http.ts';
import { soldProduct } from '../../lib/in-use.ts';

const scope = buildingScope(teamCards.buildingIds, teamCard.fields.buildingIds.label);

export default crudModule({
  resource: teamCard,
  table: teamCards,
  buildingColumn: teamCards.buildingIds,
  where: scope.where,
  inUse: soldProduct('team-card', '会议卡'),
  async prepare(values, { tx, existing }) {
    const priceFen = valueAfterWrite('priceFen', values, existing);
    const faceValueFen = valueAfterWrite('faceValueFen', values, existing);
    if (priceFen > faceValueFen) {
      throw badRequest(`售价不能高于面值 ${formatYuan(faceValueFen)}，请调低售价或提高面值后再保存`);
    }
    return scope.check(values, tx);
  },
});
