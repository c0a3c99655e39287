/**
 * What 会员卡 (user-card) and 会议卡 (team-card) share: the buildings a card is valid in, and the
 * card endpoints (the CRUD plus `publish` and `saveOrUpdate`).
 */
import { z } from 'zod';
import { INT32_MAX, numeric } from '../validators.ts';
import { allActions, field, resourcePaths, type ResourceAction } from '../resource.ts';
import { building } from './building.ts';

const CARD_BUILDINGS_LABEL = '适用楼宇';

/**
 * `buildingIds`: at least one building, picked from the building list; listed as building names
 * and searched by one building (cards valid there).
 */
export const cardBuildingIds = () => ({
  ...field.references(CARD_BUILDINGS_LABEL, resourcePaths(building).list, {
    search: 'eq',
    list: true,
    help: '持卡会员可在这些楼宇使用',
  }),
  schema: z
    .array(numeric(z.number().int().positive().max(INT32_MAX, '编号必须是正整数')), {
      error: `请选择${CARD_BUILDINGS_LABEL}`,
    })
    .min(1, `请至少选择一个${CARD_BUILDINGS_LABEL}`)
    .max(200, `${CARD_BUILDINGS_LABEL}最多 200 个`),
});

export const cardActions: readonly ResourceAction[] = [...allActions, 'publish', 'saveOrUpdate'];
