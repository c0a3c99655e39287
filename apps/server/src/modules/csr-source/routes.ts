/** 来源配置: everything comes from the declaration; nothing is special about sources yet. */
import { source } from '@cowork/contract/resources/source';
import { csrSources } from '../../db/schema.ts';
import { crudModule } from '../../lib/crud.ts';

export const csrSourceRoutes = crudModule({ resource: source, table: csrSources });

export default csrSourceRoutes;
