/** 楼宇列表: the declaration's CRUD. */
import { building } from '@cowork/contract/resources/building';
import { buildings } from '../../db/schema.ts';
import { crudModule } from '../../lib/crud.ts';

export default crudModule({ resource: building, table: buildings });
