/**
 * 会员卡: the declaration's CRUD (with publish and saveOrUpdate). A times card needs 次数, a day or
 * month card must leave it empty; every 适用楼宇 must exist, and the page filters by one building.
 */
import { userCard } from '@cowork/contract/resources/user-card';
import { userCards } from '../../db/schema.ts';
import { buildingScope } from '../../lib/building-scope.ts';
import { crudModule, valueAfterWrite } from '../../lib/crud.ts';
import { badRequest } from '../../lib/http.ts';
import { soldProduct } from '../../lib/in-use.ts';

const scope = buildingScope(userCards.buildingIds, userCard.fields.buildingIds.label);

export default crudModule({
  resource: userCard,
  table: userCards,
  buildingColumn: userCards.buildingIds,
  where: scope.where,
  inUse: soldProduct('user-card', '会员卡'),
  async prepare(values, { tx, existing }) {
    const counted = valueAfterWrite('times', values, existing) != null;
    if (valueAfterWrite('cardType', values, existing) === 'times') {
      if (!counted) throw badRequest('次卡须填写次数（至少 1 次），请填写次数后再保存');
    } else if (counted) {
      throw badRequest('日卡和月卡按天数计，不按次数计，请清空次数后再保存');
    }
    return scope.check(values, tx);
  },
});
