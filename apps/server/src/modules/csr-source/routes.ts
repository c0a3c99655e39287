/**
 * 来源配置: the declaration's CRUD. A source members came from cannot be removed (409 naming them);
 * leads keep their history (their source is cleared by the foreign key).
 */
import { eq } from 'drizzle-orm';
import { source } from '@cowork/contract/resources/source';
import { csrSources, members } from '../../db/schema.ts';
import { crudModule } from '../../lib/crud.ts';
import { describeUsage } from '../../lib/in-use.ts';

export const csrSourceRoutes = crudModule({
  resource: source,
  table: csrSources,
  async inUse(id, tx) {
    const users = await describeUsage(tx, [
      { what: '会员', unit: '位', table: members, name: members.phone, where: eq(members.sourceId, id) },
    ]);
    return users ? `该来源仍被${users}使用，不能删除；可将其下架，或先修改这些会员的来源` : undefined;
  },
});

export default csrSourceRoutes;
