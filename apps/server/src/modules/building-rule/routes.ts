/** 行为项配置: the declaration's CRUD; a rule that buildings still show cannot be removed (409). */
import { buildingRule } from '@cowork/contract/resources/building-rule';
import { buildingRules, buildings } from '../../db/schema.ts';
import { crudModule } from '../../lib/crud.ts';
import { describeUsage, holds } from '../../lib/in-use.ts';

export const buildingRuleRoutes = crudModule({
  resource: buildingRule,
  table: buildingRules,
  async inUse(id, tx) {
    const users = await describeUsage(tx, [
      {
        what: '楼宇',
        unit: '个',
        table: buildings,
        name: buildings.name,
        where: holds(buildings.ruleIds, id),
      },
    ]);
    return users ? `该行为项仍被${users}使用，不能删除；请先在这些楼宇中取消选择，或将其下架` : undefined;
  },
});

export default buildingRuleRoutes;
