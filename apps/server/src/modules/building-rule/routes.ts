/** 行为项配置: everything comes from the declaration. */
import { buildingRule } from '@cowork/contract/resources/building-rule';
import { buildingRules } from '../../db/schema.ts';
import { crudModule } from '../../lib/crud.ts';

export const buildingRuleRoutes = crudModule({ resource: buildingRule, table: buildingRules });

export default buildingRuleRoutes;
