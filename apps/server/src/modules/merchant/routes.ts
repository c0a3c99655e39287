/** 商户管理: the declaration's CRUD. */
import { merchant } from '@cowork/contract/resources/merchant';
import { merchants } from '../../db/schema.ts';
import { crudModule } from '../../lib/crud.ts';

export default crudModule({ resource: merchant, table: merchants });
